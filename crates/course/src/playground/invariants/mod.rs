//! What the learner asked the mechanism to verify about the timeline on
//! screen: the four invariants at every step, on the real system and on
//! each naive side the panel shows (the comparison's naive finish, and
//! the receiver without its ledger where the timeline sends), and every
//! ordering of the actors, counted on demand, with the shortest failing
//! one ready to open.
//!
//! The checks replay the timeline on the naive side, and counting
//! replays it once per ordering and side, so both are kept here, each
//! with the scenario (and guard) it was made from: a view of another
//! timeline never shows them, and nothing has to be told when the
//! timeline changes. The checks are made only while the panel is open;
//! the census only when the learner asks (up to a few hundred
//! milliseconds).

use crate::key;
use crate::mechanism::Refusal;
use crate::mechanism::invariants::{Side, along};
use crate::mechanism::orderings::{Census, census, lanes};
use crate::playground::Message;
use crate::playground::session::Session;
use crate::playground::status::{Status, StatusKind};
use crate::playground::stepper::SANDBOX;
use crate::variants::Guard;
use crate::variants::Variant;
use leasefence::error::Result;
use leasefence::scenario::Scenario;

pub(crate) mod panel;

pub use panel::{Checks, InvariantsPanel, Opened};

/// Whether a timeline's orderings can be counted on the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Countable {
    /// Within every bound: the actors (in order of first event), the
    /// events and how many orderings there are.
    Yes {
        /// The actors.
        actors: Vec<String>,
        /// How many events.
        events: usize,
        /// How many orderings.
        orderings: usize,
    },
    /// More events or actors than the census enumerates.
    TooBig {
        /// Events in the timeline.
        events: usize,
        /// Actors in it (counted only up to what was read).
        actors: usize,
    },
}

/// Sizes `scenario` up against the census's bounds. Every timeline within
/// them is counted on the page: the largest (2,520 orderings) took 164 ms
/// in Chromium (`make bench-page`, BENCHMARKS.md).
pub fn countable(scenario: &Scenario) -> Countable {
    let events = scenario.events().len();
    let lanes = match lanes(scenario) {
        Ok(lanes) => lanes,
        Err(Refusal::TooManyActors { got, .. }) => {
            return Countable::TooBig {
                events,
                actors: got,
            };
        }
        Err(_) => {
            let mut actors: Vec<&str> = Vec::new();
            for event in scenario.events() {
                if !actors.contains(&event.worker.as_str()) {
                    actors.push(&event.worker);
                }
            }
            return Countable::TooBig {
                events,
                actors: actors.len(),
            };
        }
    };
    // events! / (each lane's length)!, one factor at a time so it stays
    // exact (at most 8 events: 40,320).
    let mut orderings = 1usize;
    let mut placed = 0usize;
    for (_, mine) in &lanes {
        for k in 1..=mine.len() {
            placed += 1;
            orderings = orderings * placed / k;
        }
    }
    Countable::Yes {
        actors: lanes.into_iter().map(|(actor, _)| actor).collect(),
        events,
        orderings,
    }
}

/// The sides the panel shows for `scenario`: the real system, the naive
/// finish of `guard` (the comparison's), and the receiver without its
/// ledger where the timeline sends.
pub fn panel_sides(scenario: &Scenario, guard: Guard) -> Vec<Side> {
    [
        Side::Fenced,
        Side::Unfenced(guard),
        Side::ReceiverWithoutLedger,
    ]
    .into_iter()
    .filter(|side| side.applies_to(scenario))
    .collect()
}

impl Session {
    /// Whether the invariants panel is open.
    pub fn invariants_open(&self) -> bool {
        self.invariants_panel.open
    }

    /// Opens or closes the invariants panel; an open one checks the
    /// timeline on screen.
    pub fn set_invariants_open(&mut self, open: bool) -> Result<()> {
        self.invariants_panel.open = open;
        self.refresh_checks()
    }

    /// The invariants at every step of the timeline on screen, while the
    /// panel is open.
    pub fn checks(&self) -> Option<&Checks> {
        let checks = self.invariants_panel.checks.as_ref()?;
        let current = checks.scenario == *self.stepper.scenario() && checks.guard == self.guard();
        current.then_some(checks)
    }

    /// The census of the timeline on screen, once counted.
    pub fn census(&self) -> Option<&Census> {
        let (scenario, census) = self.invariants_panel.census.as_ref()?;
        (scenario == self.stepper.scenario()).then_some(census)
    }

    /// The shortest failing ordering on screen, if the learner opened one
    /// and has not changed it since.
    pub fn opened(&self) -> Option<&Opened> {
        let opened = self.invariants_panel.opened.as_ref()?;
        (opened.scenario == *self.stepper.scenario()).then_some(opened)
    }

    /// Counts every ordering of the timeline on screen, if the page can
    /// (see [`countable`]); a timeline over a bound is left uncounted,
    /// and the view says why. Nothing is counted while the learner still
    /// has questions to answer: the counts would answer them.
    pub fn count_orderings(&mut self) -> std::result::Result<(), Refusal> {
        if self.census().is_some() || self.stepper.answers_ahead() {
            return Ok(());
        }
        let scenario = self.stepper.scenario();
        if let Countable::Yes { .. } = countable(scenario) {
            let counted = census(scenario)?;
            self.invariants_panel.census = Some((scenario.clone(), counted));
        }
        Ok(())
    }

    /// Opens the shortest ordering that fails on `variant`'s side as the
    /// learner's own timeline, at its start, with the panel open (and, for
    /// a naive finish, the comparison on its guard); nothing changes if
    /// there is none, or while the learner still has questions to answer.
    pub fn open_shortest(&mut self, variant: Variant) -> Result<()> {
        let Some(side) = Side::of(variant).filter(|_| !self.stepper.answers_ahead()) else {
            return Ok(());
        };
        let failing = self.census().and_then(|census| {
            let tally = census.sides.iter().find(|t| t.side == side)?;
            Some(tally.shortest.as_ref()?.scenario.clone())
        });
        let Some(scenario) = failing else {
            return Ok(());
        };
        let from = match self.stepper.forked_from() {
            Some(chapter) if self.stepper.chapter() == SANDBOX => chapter.to_owned(),
            _ => self.stepper.chapter().to_owned(),
        };
        self.load(SANDBOX, scenario.clone(), 0)?;
        self.stepper.forked_from = Some(from.clone());
        self.invariants_panel.open = true;
        self.invariants_panel.opened = Some(Opened {
            scenario,
            from,
            side,
        });
        self.editor_status = Some(Status {
            kind: StatusKind::Done,
            message: Message::key(key!("invariants.opened_status")),
        });
        match side {
            Side::Unfenced(guard) => self.set_guard(guard),
            Side::Fenced | Side::ReceiverWithoutLedger => self.refresh_panels(),
        }
    }

    /// Checks the invariants of the timeline on screen, on every side of [`panel_sides`],
    /// when the panel is open and they are not yet made for it.
    pub(crate) fn refresh_checks(&mut self) -> Result<()> {
        if !self.invariants_panel.open || self.checks().is_some() {
            return Ok(());
        }
        let scenario = self.stepper.scenario().clone();
        let guard = self.guard();
        // A replay rather than the timeline's frames (`along_timeline`,
        // which agrees, tests/orderings.rs): the census needs the replay's
        // code anyway, and the page carries one checker path, not two.
        let sides = panel_sides(&scenario, guard)
            .into_iter()
            .map(|side| Ok((side, along(&scenario, side)?)))
            .collect::<Result<_>>()?;
        self.invariants_panel.checks = Some(Checks {
            sides,
            scenario,
            guard,
        });
        Ok(())
    }
}
