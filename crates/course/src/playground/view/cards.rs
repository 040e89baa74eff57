//! What each worker carries: a card per worker under the lanes, with the
//! stamp of its last claim and how the job's row stands against it now.
//!
//! The lanes draw where each lease runs; they do not say what a worker
//! *believes*. A worker whose lease ran out still holds its stamp in
//! memory and will present it; the card turns stale the moment the row
//! moves on (a reclaim raised the token), which is the whole reason its
//! late finish must be refused.

use serde::Serialize;

use leasefence::model::{Claim, JobRow, JobState};

use crate::playground::Lang;
use crate::playground::assertions::{Assertion, Carried, Said, Standing};
use crate::playground::stepper::Stepper;

/// One worker's card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Card {
    /// The worker.
    pub worker: String,
    /// How the row stands against its stamp, for styling: `none`,
    /// `current`, `ended`, `stale`, `done`, `quarantined` or `expired`;
    /// `held` while the learner still predicts (not said yet).
    pub standing: &'static str,
    /// What the card says.
    pub said: Said,
}

/// The workers of `stepper`'s scenario in order of first appearance: the
/// lanes' order, and the cards'. (A list, not a hash map: a handful of
/// workers, and each hash map type would add its own code to the module
/// learners download.)
pub(super) fn workers(stepper: &Stepper) -> Vec<&str> {
    let mut workers: Vec<&str> = Vec::new();
    for event in stepper.scenario().events() {
        if !workers.contains(&event.worker.as_str()) {
            workers.push(&event.worker);
        }
    }
    workers
}

/// A card per worker, in the lanes' order (`workers`), at the learner's
/// place.
pub(super) fn cards(stepper: &Stepper, lang: Lang, workers: &[&str]) -> Vec<Card> {
    let position = stepper.position();
    let frames = &stepper.timeline().frames;
    let last = position.checked_sub(1).and_then(|index| frames.get(index));
    let now = last.map_or(0, |frame| frame.result.at);
    let rows = stepper.timeline().rows_after(position);
    let told = !stepper.answers_ahead();
    workers
        .iter()
        .map(|&worker| {
            let claim = last.and_then(|frame| frame.holding.get(worker));
            let stamp = claim.and_then(|claim| {
                let row = rows.iter().find(|row| row.id == claim.id)?;
                Some(carried(claim, row, now, told))
            });
            let standing = stamp
                .as_ref()
                .map_or("none", |stamp| stamp.standing.map_or("held", name));
            let assertion = Assertion::Carries {
                position,
                worker: worker.to_owned(),
                stamp,
            };
            Card {
                worker: worker.to_owned(),
                standing,
                said: Said::of(lang, assertion),
            }
        })
        .collect()
}

/// `claim`'s stamp and, if `told`, how `row` stands against it at `now`.
fn carried(claim: &Claim, row: &JobRow, now: u64, told: bool) -> Carried {
    let standing = match (row.token == claim.token, row.state) {
        (false, _) => Standing::Stale { token: row.token },
        (true, JobState::Done) => Standing::Done,
        (true, JobState::Quarantined) => Standing::Quarantined,
        (true, JobState::Expired) => Standing::Expired,
        // A claim always leaves its row leased, so a row with its token is
        // never pending again; read as leased if it were.
        (true, JobState::Leased | JobState::Pending) => {
            let until = row.lease_until.unwrap_or(claim.lease_until);
            match now < until {
                true => Standing::Current { until },
                false => Standing::Ended { until },
            }
        }
    };
    Carried {
        job: claim.id.clone(),
        token: claim.token,
        attempt: claim.attempt,
        standing: told.then_some(standing),
    }
}

/// The standing's name, for the page's styles.
fn name(standing: Standing) -> &'static str {
    match standing {
        Standing::Current { .. } => "current",
        Standing::Ended { .. } => "ended",
        Standing::Stale { .. } => "stale",
        Standing::Done => "done",
        Standing::Quarantined => "quarantined",
        Standing::Expired => "expired",
    }
}
