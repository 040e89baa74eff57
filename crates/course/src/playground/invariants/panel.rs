//! What the invariants panel keeps: its checks, its census and the
//! ordering the learner opened, each with the timeline it was made from.
//! Apart from the session's moves on it (the module above), so that the
//! session can hold it without importing them.

use crate::mechanism::invariants::{Side, StepCheck};
use crate::mechanism::orderings::Census;
use crate::variants::Guard;
use leasefence::scenario::Scenario;

/// The panel's state; see [`super`].
#[derive(Debug, Clone, Default)]
pub struct InvariantsPanel {
    /// Whether the learner has the panel open (the session opens it for a
    /// chapter about it).
    pub(crate) open: bool,
    pub(super) checks: Option<Checks>,
    pub(super) census: Option<(Scenario, Census)>,
    pub(super) opened: Option<Opened>,
}

/// The invariants after every step of one timeline, on each side.
#[derive(Debug, Clone)]
pub struct Checks {
    pub(super) scenario: Scenario,
    pub(super) guard: Guard,
    /// Per side, in the panel's order ([`super::panel_sides`]), the invariants
    /// after each event.
    pub sides: Vec<(Side, Vec<StepCheck>)>,
}

/// A shortest failing ordering the learner opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub(super) scenario: Scenario,
    /// The chapter (or `sandbox`) whose orderings it came from.
    pub from: String,
    /// The naive side it fails on.
    pub side: Side,
}
