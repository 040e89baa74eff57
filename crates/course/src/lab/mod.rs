//! The lab: the learner writes one of the queue's statements, and every
//! ordering of every chapter grades it.
//!
//! A [`Level`] names the statement the learner writes in place of the
//! queue's own (through the queue's seam for SQL written outside it,
//! [`leasefence::store::Outside`]) and the plausible wrong version it
//! starts from, so the first run shows a failure to fix. [`grade`] plays
//! every chapter's scenario and the lab's own, in every ordering of their
//! actors, on the reference queue and on the learner's side by side, and
//! answers with what it checked, or the shortest ordering where the two
//! disagree.

mod bench;
pub mod grade;
mod scenarios;

use leasefence::store::Replaces;

use crate::variants::sql::{
    NAIVE_CLAIM_AFTER_LEASE_END, NAIVE_CLAIM_UNCAPPED, NAIVE_FINISH_AT_LEASE_END,
    NAIVE_FINISH_BY_ID,
};

pub use bench::{Answer, Bench};
pub use grade::{Checked, Current, Did, Disagreement, Graded, Observed, grade};

/// One level of the lab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// Stable id, used in links, `data-level` and `leasefence grade`.
    pub id: &'static str,
    /// The queue's statement the learner writes in its place.
    pub replaces: Replaces,
    /// The wrong version the level starts from.
    pub start: &'static str,
}

/// Every level, in the order the lab offers them.
pub const LEVELS: [Level; 4] = [
    // The finish guarded by the job id alone: a late worker's "done" lands
    // on the new holder's claim.
    Level {
        id: "finish",
        replaces: Replaces::Finish,
        start: NAIVE_FINISH_BY_ID,
    },
    // The fenced finish with `<=` at the lease's end: two valid holders at
    // the instant the lease ends.
    Level {
        id: "boundary",
        replaces: Replaces::Finish,
        start: NAIVE_FINISH_AT_LEASE_END,
    },
    // The claim side of the lease's end. The finish keeps a lease valid
    // while `:now < lease_until`; this claim takes the job only when
    // `lease_until < :now`, so at the instant the lease ends neither the
    // old holder nor a new claimant may work on it: a gap.
    Level {
        id: "reclaim",
        replaces: Replaces::Claim,
        start: NAIVE_CLAIM_AFTER_LEASE_END,
    },
    // The claim that chooses and takes in one statement, with its lease
    // not capped at the deadline: a lease that outlives its job.
    Level {
        id: "claim",
        replaces: Replaces::Claim,
        start: NAIVE_CLAIM_UNCAPPED,
    },
];

impl Level {
    /// The level with this id.
    pub fn find(id: &str) -> Option<Level> {
        LEVELS.into_iter().find(|level| level.id == id)
    }

    /// The statement that passes: the queue's own.
    pub fn reference(&self) -> &'static str {
        self.replaces.own()
    }
}
