//! The invariants panel: the four facts of
//! [`crate::mechanism::invariants`] at the learner's place, on the real
//! system and on each naive side (one teaching variant each, named as
//! [`crate::variants`] names it), each green or red with the step where it
//! broke and why; below them, every ordering ([`super::orderings`]).
//!
//! An invariant stays red from the step that broke it on: a broken fact
//! is not mended by what comes after, and the learner should see where it
//! happened, not only that it did.

use crate::mechanism::invariants::{Broken, Invariant, StepCheck};
use crate::playground::Lang;
use crate::playground::session::Session;
use serde::Serialize;

use super::names::{side_name, variant_name};
use super::orderings::{self, OrderingsView};

/// The four invariants, in the order the panel lists them.
pub const INVARIANTS: [Invariant; 4] = [
    Invariant::OneValidHolder,
    Invariant::FinishPresentedCurrentToken,
    Invariant::TokensOnlyGrow,
    Invariant::AppliedOnce,
];

/// The panel, while it is open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvariantsView {
    /// The column headers after the invariant's: the real system, then
    /// each naive side by its variant's name.
    pub columns: Vec<String>,
    /// What every naive column is: one part changed, the rest real.
    pub columns_note: String,
    /// One row per invariant of [`INVARIANTS`].
    pub rows: Vec<InvariantRow>,
    /// The conclusion at this step.
    pub note: String,
    /// Every ordering of the timeline.
    pub orderings: OrderingsView,
}

/// One invariant on every side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvariantRow {
    /// The invariant, in words.
    pub name: String,
    /// Per column of [`InvariantsView::columns`], the real system first.
    pub lights: Vec<Light>,
}

/// An invariant on one side, at the learner's place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Light {
    /// Whether it has held at every step so far.
    pub holds: bool,
    /// The step (1 is the first event) where it broke.
    pub broke_at: Option<usize>,
    /// `✓ holds`, or `✗ broken at step 3: ...`.
    pub text: String,
}

/// The panel at the learner's place; `None` while it is closed.
pub fn view(session: &Session) -> Option<InvariantsView> {
    if !session.invariants_open() {
        return None;
    }
    let lang = session.lang;
    let checks = session.checks()?;
    let position = session.stepper.position();
    let rows: Vec<InvariantRow> = INVARIANTS
        .iter()
        .map(|&invariant| InvariantRow {
            name: lang.text(key(invariant)).to_owned(),
            lights: checks
                .sides
                .iter()
                .map(|(_, side)| light(lang, applied(side, position), invariant))
                .collect(),
        })
        .collect();
    let broken = |column: usize| rows.iter().filter(|r| !r.lights[column].holds).count();
    let said: Vec<String> = (checks.sides.iter().enumerate())
        .filter_map(|(column, (side, _))| {
            let variant = side.variant()?;
            let n = broken(column);
            (n > 0).then(|| {
                let values = [
                    ("variant", variant_name(lang, variant)),
                    ("n", n.to_string()),
                ];
                lang.fill("invariants.variant_broke", &values)
            })
        })
        .collect();
    let note = match (broken(0), said.is_empty()) {
        (0, true) => lang.text("invariants.all_hold").to_owned(),
        (0, false) => format!("{} {}", lang.text("invariants.fenced_kept"), said.join(" ")),
        (n, _) => lang.fill("invariants.fenced_broke", &[("n", n.to_string())]),
    };
    Some(InvariantsView {
        columns: checks
            .sides
            .iter()
            .map(|(side, _)| side_name(lang, *side))
            .collect(),
        columns_note: lang.text("invariants.columns_note").to_owned(),
        rows,
        note,
        orderings: orderings::view(session),
    })
}

fn key(invariant: Invariant) -> &'static str {
    match invariant {
        Invariant::OneValidHolder => "invariants.one_holder",
        Invariant::FinishPresentedCurrentToken => "invariants.current_token",
        Invariant::TokensOnlyGrow => "invariants.tokens_grow",
        Invariant::AppliedOnce => "invariants.applied_once",
    }
}

/// The checks of the steps applied at `position`.
fn applied(checks: &[StepCheck], position: usize) -> &[StepCheck] {
    &checks[..position.min(checks.len())]
}

/// `invariant` over the steps applied so far on one side: red from the
/// first step that broke it.
fn light(lang: Lang, applied: &[StepCheck], invariant: Invariant) -> Light {
    let first = applied.iter().find_map(|check| {
        let broken = check.broken.iter().find(|b| b.invariant == invariant)?;
        Some((check.event + 1, broken))
    });
    match first {
        None => Light {
            holds: true,
            broke_at: None,
            text: lang.text("invariants.holds").to_owned(),
        },
        Some((step, broken)) => Light {
            holds: false,
            broke_at: Some(step),
            text: lang.fill(
                "invariants.broke",
                &[("step", step.to_string()), ("why", why(lang, broken))],
            ),
        },
    }
}

/// What broke, with the job and the actors it broke for.
fn why(lang: Lang, broken: &Broken) -> String {
    let worker = |n: usize| broken.workers.get(n).cloned().unwrap_or_default();
    let key = match broken.invariant {
        Invariant::OneValidHolder => "invariants.why_holders",
        Invariant::FinishPresentedCurrentToken => "invariants.why_stale",
        Invariant::TokensOnlyGrow => "invariants.why_token",
        Invariant::AppliedOnce => "invariants.why_twice",
    };
    let values = [
        ("id", broken.job.clone()),
        ("worker", worker(0)),
        ("other", worker(1)),
    ];
    lang.fill(key, &values)
}
