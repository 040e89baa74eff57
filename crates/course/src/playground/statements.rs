//! The statement panel's state: which race the learner steps through
//! (one of the course's two, or the timeline on screen), and where on its
//! clock they stand.
//!
//! Everywhere else on the page a claim is one indivisible step, which
//! hides the two things the course says about the write lock: choosing
//! and taking must happen under it (R6), and it must not be held across a
//! send (R7). Each race is run twice by the mechanism
//! ([`crate::mechanism::races`]), the real queue's way and the naive way,
//! and the learner steps both at once, side by side, on one clock: a step
//! goes to the next moment at which either side runs a statement, so both
//! sides always stand at the same time ([`Tick`]). The runs are computed
//! when the panel opens, the race changes or (for the timeline) the
//! timeline changes: a few dozen statements on an in-memory database, so
//! a step only moves a number.

use crate::variants::Variant;
use serde::Serialize;

use crate::mechanism::statements::Run;
use crate::mechanism::{Refusal, races};
use leasefence::error::{Error, Result};
use leasefence::scenario::Scenario;

/// How long the send race's send takes: long enough that the wait it
/// causes stands out from the 1 ms statements around it.
pub const SEND_MS: u64 = 300;

/// One of the races the course tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Race {
    /// Two workers claim one job at the same instant: `BEGIN IMMEDIATE`
    /// beside a read followed by a write (R6).
    #[default]
    Claim,
    /// A producer enqueues while a worker sends: the send after `COMMIT`
    /// beside the send held inside the claim's transaction (R7).
    Send,
    /// The timeline on screen, its events taken apart into statements,
    /// the real claim beside the naive one (at most
    /// [`races::TIMELINE_MAX_EVENTS`] events: a longer one is taken apart
    /// up to there).
    Timeline,
    /// The lab's counterexample for a claim script: the queue's own claims
    /// run whole beside the learner's script interleaved
    /// ([`crate::lab::Interleaving`]). Opened by the lab, never picked.
    Lab,
}

impl Race {
    /// Every race the learner picks, in the panel's order.
    pub const ALL: [Race; 3] = [Race::Claim, Race::Send, Race::Timeline];

    /// The name the page's picker uses.
    pub fn name(self) -> &'static str {
        match self {
            Race::Claim => "claim",
            Race::Send => "send",
            Race::Timeline => "timeline",
            Race::Lab => "lab",
        }
    }

    /// The teaching variant its naive side runs (`None`: the lab's, whose
    /// other side is the learner's own script).
    pub fn variant(self) -> Option<Variant> {
        match self {
            Race::Claim | Race::Timeline => Some(Variant::ReadThenWriteClaim),
            Race::Send => Some(Variant::SendInsideTransaction),
            Race::Lab => None,
        }
    }

    /// The race with this name.
    pub fn from_name(name: &str) -> Option<Race> {
        Race::ALL.into_iter().find(|race| race.name() == name)
    }

    /// The race run the real queue's way, then the naive way; the
    /// timeline race runs `scenario`'s first `taken` events. The lab's
    /// runs are the lab's ([`StatementPanel::show_lab`]).
    fn runs(self, scenario: &Scenario, taken: usize) -> Result<[Run; 2]> {
        let (real, naive) = match self {
            Race::Lab => {
                return Err(Error::Internal {
                    what: "the lab's race has only the runs the lab gave it".into(),
                });
            }
            Race::Timeline => {
                let within = scenario.first(taken);
                (
                    races::timeline(&within, false),
                    races::timeline(&within, true),
                )
            }
            Race::Claim => (races::real_claim_race(1), races::naive_claim_race()),
            Race::Send => (
                races::send_race(false, SEND_MS),
                races::send_race(true, SEND_MS),
            ),
        };
        Ok([real.map_err(refused)?, naive.map_err(refused)?])
    }
}

/// Why a timeline race shows fewer events than its timeline has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// The events taken apart.
    pub taken: usize,
    /// The timeline's events.
    pub events: usize,
    /// Cut because the learner is predicting: only the events already
    /// applied, whose outcomes they have seen (otherwise because the
    /// mechanism takes at most [`races::TIMELINE_MAX_EVENTS`]).
    pub predicting: bool,
}

/// The races are fixed scripts and a timeline race is cut to the bound:
/// only the queue itself can fail them.
fn refused(refusal: Refusal) -> Error {
    match refusal {
        Refusal::Queue(err) => err,
        other => Error::Internal {
            what: other.to_string(),
        },
    }
}

/// What the learner does in the panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// Opens or closes the panel.
    Open(bool),
    /// Picks a race (from its first statement).
    Race(Race),
    /// To the next moment at which either side runs a statement.
    Step,
    /// One moment back.
    Back,
    /// Before the first statement.
    Reset,
    /// After the last statement of either side.
    End,
    /// To this many moments passed (a link's place).
    Seek(usize),
    /// Nothing: the timeline may have changed under the panel.
    Follow,
}

/// A moment of the panel's clock: a time in ms, and how many statements
/// of the same side ran at that time before this one. In a timeline race
/// an event's statements take no modelled time, so they share its time and
/// are told apart by that count; the races' statements take 1 ms each.
pub type Tick = (u64, usize);

/// Each step of `run` as a [`Tick`], in order (strictly increasing: a run
/// never goes back in time).
pub fn ticks(run: &Run) -> Vec<Tick> {
    let mut ticks: Vec<Tick> = Vec::with_capacity(run.steps.len());
    for step in &run.steps {
        let tick = match ticks.last() {
            Some(&(at, rank)) if at == step.at => (at, rank + 1),
            _ => (step.at, 0),
        };
        ticks.push(tick);
    }
    ticks
}

/// The races' runs on one clock.
#[derive(Debug, Clone)]
struct Clocked {
    /// The real run, then the naive one.
    runs: [Run; 2],
    /// Each run's steps as ticks ([`ticks`]).
    ticks: [Vec<Tick>; 2],
    /// Every moment at which either side runs a statement, in order.
    clock: Vec<Tick>,
}

impl Clocked {
    fn new(runs: [Run; 2]) -> Clocked {
        let ticks = [ticks(&runs[0]), ticks(&runs[1])];
        // Both are in order: the naive side's moments go in among the
        // real side's.
        let mut clock = ticks[0].clone();
        for tick in &ticks[1] {
            if let Err(at) = clock.binary_search(tick) {
                clock.insert(at, *tick);
            }
        }
        Clocked { runs, ticks, clock }
    }
}

/// The panel: open or not, the race, and where on its clock the learner
/// stands.
#[derive(Debug, Clone, Default)]
pub struct StatementPanel {
    /// The timeline the runs were computed from, for the timeline race,
    /// and how many of its events they take apart.
    timeline: Option<(Scenario, usize)>,
    /// Why the race takes apart fewer events than its timeline has.
    cut: Option<Cut>,
    /// Whether the panel is open (the runs are computed only then).
    pub open: bool,
    /// The race on screen.
    pub race: Race,
    /// How many moments of the clock have passed.
    pub position: usize,
    runs: Option<Box<Clocked>>,
}

impl StatementPanel {
    /// Opens the panel on the lab's counterexample: the queue's own
    /// claims (`expected`) beside the learner's script (`current`), from
    /// the first statement.
    pub fn show_lab(&mut self, expected: Run, current: Run) {
        self.race = Race::Lab;
        self.open = true;
        self.position = 0;
        self.timeline = None;
        self.cut = None;
        self.runs = Some(Box::new(Clocked::new([expected, current])));
    }

    /// The real run and the naive run, once the panel has been opened.
    pub fn runs(&self) -> Option<&[Run; 2]> {
        self.runs.as_deref().map(|clocked| &clocked.runs)
    }

    /// Every moment at which either side runs a statement, in order.
    pub fn clock(&self) -> &[Tick] {
        self.runs.as_deref().map_or(&[], |clocked| &clocked.clock)
    }

    /// Side `side`'s steps as moments of the clock (0: real, 1: naive).
    pub fn ticks(&self, side: usize) -> &[Tick] {
        self.runs
            .as_deref()
            .map_or(&[], |clocked| &clocked.ticks[side])
    }

    /// The moment the learner stands at; `None` before the first.
    pub fn now(&self) -> Option<Tick> {
        self.position
            .checked_sub(1)
            .and_then(|index| self.clock().get(index).copied())
    }

    /// How many of side `side`'s statements have run by now.
    pub fn applied(&self, side: usize) -> usize {
        self.now().map_or(0, |now| {
            self.ticks(side).partition_point(|tick| *tick <= now)
        })
    }

    /// For a timeline race that takes apart fewer events than its
    /// timeline has, how many and why.
    pub fn cut(&self) -> Option<Cut> {
        self.cut.filter(|_| self.race == Race::Timeline)
    }

    /// How many events of its timeline a timeline race takes apart.
    pub fn taken(&self) -> Option<usize> {
        self.timeline.as_ref().map(|(_, taken)| *taken)
    }

    /// The moments of the clock.
    pub fn total(&self) -> usize {
        self.clock().len()
    }

    /// Applies a move on the timeline `scenario`, of whose events the
    /// learner may see the first `shown` (all but while predicting: an
    /// outcome not yet answered is not taken apart); an open panel has its
    /// runs. A timeline race whose timeline changed starts over; one that
    /// shows more or fewer of the same timeline keeps the learner's place.
    pub fn apply(&mut self, change: Move, scenario: &Scenario, shown: Option<usize>) -> Result<()> {
        match change {
            Move::Open(open) => self.open = open,
            Move::Race(race) if race != self.race => {
                self.race = race;
                self.runs = None;
                self.position = 0;
            }
            _ => {}
        }
        let events = scenario.events().len();
        let within = events.min(races::TIMELINE_MAX_EVENTS);
        let taken = shown.map_or(within, |shown| within.min(shown));
        if self.race == Race::Timeline
            && let Some((ran, ran_taken)) = &self.timeline
            && (ran != scenario || *ran_taken != taken)
        {
            // A new timeline starts over; more of the same one shown (an
            // answer given) keeps the learner's place.
            if ran != scenario {
                self.position = 0;
            }
            self.timeline = None;
            self.runs = None;
        }
        if self.open && self.runs.is_none() && self.race != Race::Lab {
            self.runs = Some(Box::new(Clocked::new(self.race.runs(scenario, taken)?)));
            self.timeline = (self.race == Race::Timeline).then(|| (scenario.clone(), taken));
        }
        self.cut = (self.timeline.is_some() && taken < events).then_some(Cut {
            taken,
            events,
            predicting: taken < within,
        });
        let total = self.total();
        self.position = match change {
            Move::Step => self.position + 1,
            Move::Back => self.position.saturating_sub(1),
            Move::Reset => 0,
            Move::End => total,
            Move::Seek(position) => position,
            _ => self.position,
        }
        .min(total);
        Ok(())
    }
}
