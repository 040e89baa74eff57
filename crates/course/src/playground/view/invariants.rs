//! The invariants panel: the four facts of
//! [`crate::mechanism::invariants`] at the learner's place, on the real
//! system and on each naive side (one teaching variant each, named as
//! [`crate::variants`] names it), each green or red with the step where it
//! broke and why; below them, every ordering ([`super::orderings`]).
//!
//! An invariant stays red from the step that broke it on: a broken fact
//! is not mended by what comes after, and the learner should see where it
//! happened, not only that it did.

use crate::key;
use crate::mechanism::invariants::{Invariant, Side, StepCheck};
use crate::playground::Lang;
use crate::playground::assertions::{Assertion, Said};
use crate::playground::messages::Key;
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
    /// The conclusion at this step: it states what every light does.
    pub note: Said,
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
    pub text: Said,
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
                .map(|(side, checks)| {
                    let applied = applied(checks, position);
                    light(lang, (*side, position), applied, invariant)
                })
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
                lang.fill(key!("invariants.variant_broke"), &values)
            })
        })
        .collect();
    let note = match (broken(0), said.is_empty()) {
        (0, true) => lang.text(key!("invariants.all_hold")).to_owned(),
        (0, false) => format!(
            "{} {}",
            lang.text(key!("invariants.fenced_kept")),
            said.join(" ")
        ),
        (n, _) => lang.fill(key!("invariants.fenced_broke"), &[("n", n.to_string())]),
    };
    // The note counts the lights: it states what each of them states.
    let lit_all = INVARIANTS.iter().flat_map(|&invariant| {
        (checks.sides.iter())
            .map(move |(side, steps)| lit((*side, position), applied(steps, position), invariant))
    });
    let note = lit_all.fold(Said::plain(note), Said::stating);
    Some(InvariantsView {
        columns: checks
            .sides
            .iter()
            .map(|(side, _)| side_name(lang, *side))
            .collect(),
        columns_note: lang.text(key!("invariants.columns_note")).to_owned(),
        rows,
        note,
        orderings: orderings::view(session),
    })
}

fn key(invariant: Invariant) -> Key {
    match invariant {
        Invariant::OneValidHolder => key!("invariants.one_holder"),
        Invariant::FinishPresentedCurrentToken => key!("invariants.current_token"),
        Invariant::TokensOnlyGrow => key!("invariants.tokens_grow"),
        Invariant::AppliedOnce => key!("invariants.applied_once"),
    }
}

/// The checks of the steps applied at `position`.
fn applied(checks: &[StepCheck], position: usize) -> &[StepCheck] {
    &checks[..position.min(checks.len())]
}

/// `invariant` over the steps applied so far on one side: red from the
/// first step that broke it.
fn light(lang: Lang, at: (Side, usize), applied: &[StepCheck], invariant: Invariant) -> Light {
    let said = lit(at, applied, invariant);
    let broke_at = match &said {
        Assertion::Broke { step, .. } => Some(*step),
        _ => None,
    };
    Light {
        holds: broke_at.is_none(),
        broke_at,
        text: Said::of(lang, said),
    }
}

/// What a light states: `invariant` kept on `side` over the steps applied
/// at `position`, or the first step that broke it and how.
fn lit((side, position): (Side, usize), applied: &[StepCheck], invariant: Invariant) -> Assertion {
    let first = applied.iter().find_map(|check| {
        let broken = check.broken.iter().find(|b| b.invariant == invariant)?;
        Some((check.event + 1, broken))
    });
    match first {
        None => Assertion::Kept {
            side,
            invariant,
            position,
        },
        Some((step, broken)) => Assertion::Broke {
            side,
            invariant,
            step,
            job: broken.job.clone(),
            workers: broken.workers.clone(),
        },
    }
}
