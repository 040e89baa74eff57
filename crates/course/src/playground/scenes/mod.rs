//! A lesson, one idea per screen.
//!
//! A step of the workbench shows everything at once: the lanes, the event
//! list, the step card with its SQL, the rows before and after, the jobs
//! table, the receiver, a course point. A learner beside a course's text
//! needs one thing at a time. So a lesson (an embed, unless its author
//! asks for every panel with `tools`) walks its timeline in scenes: a
//! scene is one idea (the timeline before it starts, an event, a course
//! point, a panel the chapter is about) and the one view that shows it
//! ([`Pane`]): a claim on the lanes, where the lease is drawn; a finish on
//! its row, the stamp beside it; a delivery at the receiver; the rollback
//! journal in the SQL. The question is asked before an event's scene and
//! its reason told in it ([`super::stepper`]). Every other view is one
//! keypress away (the page's view switcher, keys 1 to 9), not stacked
//! below: the learner's pick holds until the scene changes.

mod walk;

pub use walk::{counted, panes};

use serde::Serialize;

use leasefence::replay::Outcome;

/// A view of the playground a scene may show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pane {
    /// The lanes: who holds a lease on which job, until when.
    Lanes,
    /// The row the event changed, before and after (a finish's stamp
    /// beside it).
    Row,
    /// The SQL the queue ran.
    Sql,
    /// The timeline's events, in order, and the jobs table.
    Events,
    /// The receiver's ledger.
    Receiver,
    /// A course point's own view: the claim a worker got, the quiz, the
    /// lease's end read every way, the designs the course turns down.
    Point,
    /// The comparison with a naive finish.
    Compare,
    /// The statement panel: the write lock.
    Statements,
    /// The invariants and every ordering.
    Orderings,
}

impl Pane {
    /// Every pane, in the switcher's order.
    const ALL: [Pane; 9] = [
        Pane::Lanes,
        Pane::Row,
        Pane::Sql,
        Pane::Events,
        Pane::Receiver,
        Pane::Point,
        Pane::Compare,
        Pane::Statements,
        Pane::Orderings,
    ];

    /// Its name in the page's arguments and attributes (`data-pane`).
    pub fn arg(self) -> &'static str {
        match self {
            Pane::Lanes => "lanes",
            Pane::Row => "row",
            Pane::Sql => "sql",
            Pane::Events => "events",
            Pane::Receiver => "receiver",
            Pane::Point => "point",
            Pane::Compare => "compare",
            Pane::Statements => "statements",
            Pane::Orderings => "orderings",
        }
    }

    /// The pane named `arg`.
    pub fn from_arg(arg: &str) -> Option<Pane> {
        Pane::ALL.into_iter().find(|pane| pane.arg() == arg)
    }
}

/// What a scene is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Idea {
    /// The timeline before anything happens.
    Start,
    /// An event (its index): what it did, and why.
    Event(usize),
    /// A course point placed after an event (its key).
    Point(&'static str),
    /// A panel the chapter is about, at its end.
    Panel(Pane),
}

/// One screen of a lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Scene {
    /// What it is about.
    pub idea: Idea,
    /// The view that shows it.
    pub pane: Pane,
}

/// Where the learner is among the scenes of a place in the timeline, and
/// the view they picked, if not the scene's own. It holds for the
/// position it was set at: anything that moves the learner elsewhere
/// (an answer, a slider, a new chapter) leaves them at that place's first
/// scene, in its own view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Cursor {
    /// The position it was set at.
    position: usize,
    /// The scene, among those at that position.
    index: usize,
    /// The pane the learner switched to, until the scene changes.
    look: Option<Pane>,
}

/// The view that shows the course point `key` beside its text: its own
/// for a point that shows something of its own, else the view the point
/// talks about.
fn point_pane(key: &str) -> Pane {
    match key {
        "no_heartbeat" | "visibility_timeout" => Pane::Lanes,
        "rollback_journal" => Pane::Sql,
        "receiver_unfenced" => Pane::Receiver,
        "not_a_credential" => Pane::Row,
        _ => Pane::Point,
    }
}

/// The view an event is seen in: a claim on the lanes, a delivery at the
/// receiver, a finish (or a job put on the queue) on its row.
fn event_pane(outcome: &Outcome) -> Pane {
    match outcome {
        Outcome::Claimed { .. } => Pane::Lanes,
        Outcome::Sent { .. } => Pane::Receiver,
        Outcome::Finished(_) | Outcome::Enqueued { .. } => Pane::Row,
    }
}
