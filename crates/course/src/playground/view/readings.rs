//! The boundary point's readings in the learner's words
//! ([`crate::variants::boundary`]): for each way of reading the lease's
//! end, the two conditions it runs, what the holder's finish and the
//! claimant's claim did, and who may work on the job at that instant.

use serde::Serialize;

use super::names::variant_name;
use crate::key;
use crate::playground::Lang;
use crate::playground::assertions::{Assertion, ReadFact, Said};
use crate::playground::messages::Key;
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
    pub did: [Said; 2],
    /// Who may work on the job then, said.
    pub said: Said,
    /// `one`, `two` or `gap`, for styling.
    pub count: Holders,
}

/// One side's reading of the lease's end, as its statement says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConditionView {
    /// Whose condition: the finish's or the claim's.
    pub label: String,
    /// The condition (or why it is kept back while the lab is open).
    pub sql: String,
    /// Whether it differs from the queue's: the one comparison this
    /// reading changed.
    pub changed: bool,
}

/// `boundary`, found after `position` events, in `lang`.
pub(super) fn view(lang: Lang, position: usize, boundary: &Boundary) -> ReadingsView {
    ReadingsView {
        readings: (boundary.readings.iter())
            .map(|read| reading(lang, position, boundary, read))
            .collect(),
    }
}

fn reading(lang: Lang, position: usize, boundary: &Boundary, read: &Read) -> ReadingView {
    let name = match read.reading.variant() {
        Some(variant) => variant_name(lang, variant),
        None => lang.text(key!("readings.queue")).to_owned(),
    };
    let said = |fact| {
        let (reading, at) = (read.reading, boundary.at);
        Said::of(
            lang,
            Assertion::Read {
                position,
                reading,
                at,
                fact,
            },
        )
    };
    let finish = said(ReadFact::Finish {
        worker: boundary.holder.clone(),
        accepted: read.finished,
    });
    let claim = said(ReadFact::Claim {
        worker: boundary.claimant.clone(),
        job: read.claimed.as_ref().map(|claim| claim.id.clone()),
    });
    let holders = said(ReadFact::Holders {
        job: boundary.job.clone(),
        holder: boundary.holder.clone(),
        claimant: boundary.claimant.clone(),
        holders: read.holders.clone(),
        count: read.count,
    });
    ReadingView {
        name,
        conditions: [
            condition(
                lang,
                key!("readings.finish_reads"),
                read.reading,
                Reading::finish_condition,
            ),
            condition(
                lang,
                key!("readings.claim_reads"),
                read.reading,
                Reading::claim_condition,
            ),
        ],
        did: [finish, claim],
        said: holders,
        count: read.count,
    }
}

/// `reading`'s condition read by `of`, labelled by the message `label`.
fn condition(
    lang: Lang,
    label: Key,
    reading: Reading,
    of: fn(Reading) -> &'static str,
) -> ConditionView {
    ConditionView {
        label: lang.text(label).to_owned(),
        sql: of(reading).to_owned(),
        changed: of(reading) != of(Reading::Queue),
    }
}
