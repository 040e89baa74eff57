//! The boundary point's readings in the learner's words
//! ([`crate::variants::boundary`]): for each way of reading the lease's
//! end, the two conditions it runs, what the holder's finish and the
//! claimant's claim did, and who may work on the job at that instant.

use serde::Serialize;

use super::names::variant_name;
use crate::playground::Lang;
use crate::variants::boundary::{Boundary, Holders, Read, Reading};

/// The lease's end read every way at one instant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadingsView {
    /// One block per reading, the queue's first.
    pub readings: Vec<ReadingView>,
}

/// One reading at the instant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadingView {
    /// The reading's name: the queue's, or its variant's.
    pub name: String,
    /// Its finish's and its claim's conditions.
    pub conditions: [ConditionView; 2],
    /// What the holder's finish and the claimant's claim did.
    pub did: [String; 2],
    /// Who may work on the job then, said.
    pub said: String,
    /// `one`, `two` or `gap`, for styling.
    pub count: Holders,
}

/// One side's reading of the lease's end, as its statement says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConditionView {
    /// Whose condition: the finish's or the claim's.
    pub label: String,
    /// The condition.
    pub sql: &'static str,
    /// Whether it differs from the queue's: the one comparison this
    /// reading changed.
    pub changed: bool,
}

/// `boundary` in `lang`.
pub(super) fn view(lang: Lang, boundary: &Boundary) -> ReadingsView {
    ReadingsView {
        readings: (boundary.readings.iter())
            .map(|read| reading(lang, boundary, read))
            .collect(),
    }
}

fn reading(lang: Lang, boundary: &Boundary, read: &Read) -> ReadingView {
    let name = match read.reading.variant() {
        Some(variant) => variant_name(lang, variant),
        None => lang.text("readings.queue").to_owned(),
    };
    let holder = ("worker", boundary.holder.clone());
    let claimant = ("worker", boundary.claimant.clone());
    let finish = match read.finished {
        true => lang.fill("readings.finish_accepted", &[holder]),
        false => lang.fill("readings.finish_refused", &[holder]),
    };
    let claim = match &read.claimed {
        Some(claim) => lang.fill("readings.claim_took", &[claimant, ("id", claim.id.clone())]),
        None => lang.fill("readings.claim_nothing", &[claimant]),
    };
    let mut values = vec![
        ("at", boundary.at.to_string()),
        ("id", boundary.job.clone()),
        ("holder", boundary.holder.clone()),
        ("claimant", boundary.claimant.clone()),
    ];
    let count = read.count;
    let key = match count {
        Holders::One => "readings.one",
        Holders::Two => "readings.two",
        Holders::Gap => "readings.gap",
    };
    for (name, worker) in ["first", "second"].into_iter().zip(&read.holders) {
        values.push((name, worker.clone()));
    }
    ReadingView {
        name,
        conditions: [
            condition(
                lang,
                "readings.finish_reads",
                read.reading,
                Reading::finish_condition,
            ),
            condition(
                lang,
                "readings.claim_reads",
                read.reading,
                Reading::claim_condition,
            ),
        ],
        did: [finish, claim],
        said: lang.fill(key, &values),
        count,
    }
}

/// `reading`'s condition read by `of`, labelled by the message `label`.
fn condition(
    lang: Lang,
    label: &str,
    reading: Reading,
    of: fn(Reading) -> &'static str,
) -> ConditionView {
    ConditionView {
        label: lang.text(label).to_owned(),
        sql: of(reading),
        changed: of(reading) != of(Reading::Queue),
    }
}
