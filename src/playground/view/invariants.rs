//! The invariants panel: the four facts of
//! [`crate::mechanism::invariants`] at the learner's place, on the fenced
//! queue and on the naive one, each green or red with the step where it
//! broke and why; below them, every ordering ([`super::orderings`]).
//!
//! An invariant stays red from the step that broke it on: a broken fact
//! is not mended by what comes after, and the learner should see where it
//! happened, not only that it did.

use crate::mechanism::invariants::{Broken, Invariant, StepCheck};
use crate::playground::Lang;
use crate::playground::session::Session;
use crate::unfenced::Guard;
use serde::Serialize;

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
pub struct VerifyView {
    /// The naive side's column header.
    pub naive_name: String,
    /// One row per invariant of [`INVARIANTS`].
    pub rows: Vec<InvariantRow>,
    /// The conclusion at this step.
    pub note: String,
    /// Every ordering of the timeline.
    pub orderings: OrderingsView,
}

/// One invariant on both queues.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvariantRow {
    /// The invariant, in words.
    pub name: String,
    /// With the fence.
    pub fenced: Light,
    /// Without it.
    pub naive: Light,
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
pub fn view(session: &Session) -> Option<VerifyView> {
    if !session.verify_open() {
        return None;
    }
    let lang = session.lang;
    let checks = session.checks()?;
    let position = session.stepper.position;
    let rows: Vec<InvariantRow> = INVARIANTS
        .iter()
        .map(|&invariant| InvariantRow {
            name: lang.text(key(invariant)).to_owned(),
            fenced: light(lang, applied(&checks.fenced, position), invariant),
            naive: light(lang, applied(&checks.naive, position), invariant),
        })
        .collect();
    let broken = |side: fn(&InvariantRow) -> &Light| rows.iter().filter(|r| !side(r).holds).count();
    let (fenced, naive) = (broken(|r| &r.fenced), broken(|r| &r.naive));
    let note = match (fenced, naive) {
        (0, 0) => lang.text("verify.all_hold").to_owned(),
        (0, n) => lang.fill("verify.naive_broke", &[("n", n.to_string())]),
        (n, _) => lang.fill("verify.fenced_broke", &[("n", n.to_string())]),
    };
    Some(VerifyView {
        naive_name: naive_name(lang, checks.guard),
        rows,
        note,
        orderings: orderings::view(session),
    })
}

/// The naive queue's name: "Without the fence (id only)".
pub(super) fn naive_name(lang: Lang, guard: Guard) -> String {
    lang.fill("verify.naive", &[("guard", guard_name(lang, guard))])
}

/// What the naive guard checks: "id only".
pub(super) fn guard_name(lang: Lang, guard: Guard) -> String {
    let key = match guard {
        Guard::IdOnly => "compare.id_only",
        Guard::IdAndOwner => "compare.id_and_owner",
    };
    lang.text(key).to_owned()
}

fn key(invariant: Invariant) -> &'static str {
    match invariant {
        Invariant::OneValidHolder => "verify.one_holder",
        Invariant::FinishPresentedCurrentToken => "verify.current_token",
        Invariant::TokensOnlyGrow => "verify.tokens_grow",
        Invariant::AppliedOnce => "verify.applied_once",
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
            text: lang.text("verify.holds").to_owned(),
        },
        Some((step, broken)) => Light {
            holds: false,
            broke_at: Some(step),
            text: lang.fill(
                "verify.broke",
                &[("step", step.to_string()), ("why", why(lang, broken))],
            ),
        },
    }
}

/// What broke, with the job and the actors it broke for.
fn why(lang: Lang, broken: &Broken) -> String {
    let worker = |n: usize| broken.workers.get(n).cloned().unwrap_or_default();
    let key = match broken.invariant {
        Invariant::OneValidHolder => "verify.why_holders",
        Invariant::FinishPresentedCurrentToken => "verify.why_stale",
        Invariant::TokensOnlyGrow => "verify.why_token",
        Invariant::AppliedOnce => "verify.why_twice",
    };
    let values = [
        ("id", broken.job.clone()),
        ("worker", worker(0)),
        ("other", worker(1)),
    ];
    lang.fill(key, &values)
}
