//! Every ordering, in the invariants panel: how many orderings the
//! timeline's actors have, the button that counts them (the census is
//! too slow to run on every step), the counts per queue once counted, and
//! a button per naive side that opens its shortest failing ordering.
//!
//! While the learner predicts, the counts and the buttons wait for the
//! last answer, as the narration does: how many orderings end badly on
//! each queue, and the ordering a button opens, tell how the timeline's
//! events end.

use crate::key;
use crate::mechanism::invariants::Side;
use crate::mechanism::orderings::{Census, MAX_ACTORS, MAX_EVENTS};
use crate::playground::assertions::{Assertion, Said};
use crate::playground::invariants::{Countable, countable};
use crate::playground::messages::Key;
use crate::playground::session::Session;
use serde::Serialize;

use super::compare::{BreakLink, break_link};
use super::names::side_name;

/// The orderings part of the panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OrderingsView {
    /// The actors, the events and how many orderings, or why the page
    /// does not count them.
    pub summary: Said,
    /// The count button's label, while it can count and has not.
    pub count: Option<String>,
    /// Why there are no counts or buttons yet: the learner's questions
    /// come first.
    pub waiting: Option<String>,
    /// The counts, once counted.
    pub table: Option<CountTable>,
    /// Said when the timeline on screen is a shortest failing ordering.
    pub opened: Option<Said>,
}

/// The counts: one column per queue, one row per kind of failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CountTable {
    /// The sides: the real system, then each naive side by its variant;
    /// each heads its counts, and states them.
    pub columns: Vec<Said>,
    /// Each kind of failure, with its count per queue.
    pub rows: Vec<CountRow>,
    /// Per queue, the button that opens its shortest failing ordering.
    pub open: Vec<Option<OpenButton>>,
    /// The conclusion.
    pub note: Said,
    /// For each naive side no ordering of this timeline breaks: the
    /// chapter where it does break, so a zero never reads as safe.
    pub breaks: Vec<BreakLink>,
}

/// A kind of failure, counted on each queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CountRow {
    /// What is counted.
    pub label: String,
    /// Per queue: the count, marked ✓ when 0 and ✗ otherwise.
    pub cells: Vec<String>,
    /// Per queue, whether the count is 0.
    pub zero: Vec<bool>,
}

/// Opens a naive side's shortest failing ordering as a timeline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpenButton {
    /// The id of the variant it fails on (`id_only`, `id_and_owner`,
    /// `without_ledger`), which the button carries back.
    pub id: &'static str,
    /// `Open (5 steps)`.
    pub label: String,
}

/// The orderings part, for the timeline on screen.
pub fn view(session: &Session) -> OrderingsView {
    let lang = session.lang;
    let scenario = &session.stepper.scenario();
    let (summary, can_count) = match countable(scenario) {
        Countable::Yes {
            actors,
            events,
            orderings,
        } => {
            let said = Assertion::Orderings {
                actors,
                events,
                orderings,
            };
            (Said::of(lang, said), true)
        }
        Countable::TooBig { events, actors } => {
            let values = [
                ("events", events.to_string()),
                ("actors", actors.to_string()),
                ("max_events", MAX_EVENTS.to_string()),
                ("max_actors", MAX_ACTORS.to_string()),
            ];
            (
                Said::plain(lang.fill(key!("invariants.too_big"), &values)),
                false,
            )
        }
    };
    let waits = can_count && session.stepper.answers_ahead();
    let census = session.census().filter(|_| !waits);
    let opened = session.opened().map(|opened| {
        let step = scenario.events().len();
        let values = [
            ("title", session.title_of(&opened.from)),
            ("variant", side_name(lang, opened.side)),
            ("step", step.to_string()),
        ];
        let assertion = Assertion::BreaksAtEnd {
            side: opened.side,
            step,
        };
        Said::worded(lang.fill(key!("invariants.opened"), &values), assertion)
    });
    OrderingsView {
        summary,
        count: (can_count && !waits && census.is_none())
            .then(|| lang.text(key!("invariants.count")).to_owned()),
        waiting: waits.then(|| lang.text(key!("predict.orderings_hidden")).to_owned()),
        table: census.map(|census| table(session, census)),
        opened,
    }
}

/// The kinds of failure counted, in the order of [`Assertion::Counted`]'s
/// counts.
const KINDS: [Key; 5] = [
    key!("invariants.bad"),
    key!("invariants.stale"),
    key!("invariants.twice"),
    key!("invariants.holders"),
    key!("invariants.reused"),
];

fn table(session: &Session, census: &Census) -> CountTable {
    let lang = session.lang;
    let counted: Vec<(Side, [usize; 5])> = (census.sides.iter())
        .map(|t| {
            let counts = [
                t.bad,
                t.stale_finish,
                t.applied_twice,
                t.two_holders,
                t.token_reused,
            ];
            (t.side, counts)
        })
        .collect();
    let columns: Vec<Said> = (counted.iter())
        .map(|&(side, counts)| {
            let assertion = Assertion::Counted {
                side,
                orderings: census.orderings,
                counts,
            };
            Said::worded(side_name(lang, side), assertion)
        })
        .collect();
    let rows = (KINDS.iter().enumerate())
        .map(|(kind, key)| {
            let mut row = CountRow {
                label: lang.text(*key).to_owned(),
                cells: Vec::new(),
                zero: Vec::new(),
            };
            for (_, counts) in &counted {
                let n = counts[kind];
                row.cells
                    .push(format!("{} {n}", if n == 0 { '✓' } else { '✗' }));
                row.zero.push(n == 0);
            }
            row
        })
        .collect();
    let open = census
        .sides
        .iter()
        .map(|tally| {
            let (Some(variant), Some(failing)) = (tally.side.variant(), &tally.shortest) else {
                return None;
            };
            let steps = failing.scenario.events().len().to_string();
            Some(OpenButton {
                id: variant.id(),
                label: lang.fill(key!("invariants.open"), &[("step", steps)]),
            })
        })
        .collect();
    // The real system's column comes first (`sides`).
    let fenced_bad = counted[0].1[0];
    let values = [
        ("orderings", census.orderings.to_string()),
        ("n", fenced_bad.to_string()),
    ];
    let note = match fenced_bad {
        0 => lang.fill(key!("invariants.fenced_none"), &values),
        _ => lang.fill(key!("invariants.fenced_some"), &values),
    };
    let note = columns[0].reworded(note);
    let breaks = (census.sides.iter())
        .filter(|tally| tally.side != Side::Fenced && tally.bad == 0)
        .filter_map(|tally| break_link(session, tally.side))
        .collect();
    CountTable {
        columns,
        rows,
        open,
        note,
        breaks,
    }
}
