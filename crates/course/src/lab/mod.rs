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
mod races;
mod scenarios;

use leasefence::store::{CLAIM, FINISH, Replaces};

use crate::variants::sql::{
    CLAIM_SCRIPT, CLAIM_SCRIPT_READ_FIRST, NAIVE_CLAIM_AFTER_LEASE_END, NAIVE_CLAIM_READ,
    NAIVE_CLAIM_UNCAPPED, NAIVE_CLAIM_WRITE, NAIVE_FINISH_AT_LEASE_END, NAIVE_FINISH_BY_ID,
};

pub use bench::{Answer, Bench};
pub use grade::{Checked, Current, Did, Disagreement, Graded, Observed, Shortest, grade};
pub use races::{Interleaving, Stopped};

/// One level of the lab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// Stable id, used in links, `data-level` and `leasefence grade`.
    pub id: &'static str,
    /// What the learner writes.
    pub writes: Writes,
    /// The wrong version the level starts from.
    pub start: &'static str,
    /// A version that passes: the queue's own statement, or the course's
    /// script that runs as it does.
    pub reference: &'static str,
}

/// What a level's learner writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writes {
    /// One statement in place of one of the queue's, graded on every
    /// ordering of every scenario's events ([`grade`]).
    Statement(Replaces),
    /// The claim as a transaction script ([`leasefence::store::Script`]),
    /// graded on every interleaving of two claims' statements
    /// ([`races`]).
    ClaimScript,
}

impl Writes {
    /// The parameters the queue binds to what the learner writes (a
    /// script's read's, then its write's).
    pub fn parameters(self) -> Vec<&'static str> {
        match self {
            Writes::Statement(replaces) => replaces.parameters().to_vec(),
            Writes::ClaimScript => [Replaces::ClaimRead, Replaces::ClaimWrite]
                .into_iter()
                .flat_map(Replaces::parameters)
                .fold(Vec::new(), |mut names, name| {
                    if !names.contains(name) {
                        names.push(name);
                    }
                    names
                }),
        }
    }
}

/// Every level, in the order the lab offers them.
pub const LEVELS: [Level; 5] = [
    // The finish guarded by the job id alone: a late worker's "done" lands
    // on the new holder's claim.
    Level {
        id: "finish",
        writes: Writes::Statement(Replaces::Finish),
        start: NAIVE_FINISH_BY_ID,
        reference: FINISH,
    },
    // The fenced finish with `<=` at the lease's end: two valid holders at
    // the instant the lease ends.
    Level {
        id: "boundary",
        writes: Writes::Statement(Replaces::Finish),
        start: NAIVE_FINISH_AT_LEASE_END,
        reference: FINISH,
    },
    // The claim side of the lease's end. The finish keeps a lease valid
    // while `:now < lease_until`; this claim takes the job only when
    // `lease_until < :now`, so at the instant the lease ends neither the
    // old holder nor a new claimant may work on it: a gap.
    Level {
        id: "reclaim",
        writes: Writes::Statement(Replaces::Claim),
        start: NAIVE_CLAIM_AFTER_LEASE_END,
        reference: CLAIM,
    },
    // The claim that chooses and takes in one statement, with its lease
    // not capped at the deadline: a lease that outlives its job.
    Level {
        id: "claim",
        writes: Writes::Statement(Replaces::Claim),
        start: NAIVE_CLAIM_UNCAPPED,
        reference: CLAIM,
    },
    // The claim as a read and a write, the transaction begun between
    // them: two claims read the same row before either writes.
    Level {
        id: "transaction",
        writes: Writes::ClaimScript,
        start: CLAIM_SCRIPT_READ_FIRST,
        reference: CLAIM_SCRIPT,
    },
];

impl Level {
    /// The level with this id.
    pub fn find(id: &str) -> Option<Level> {
        LEVELS.into_iter().find(|level| level.id == id)
    }

    /// Whether `sql`, a statement or a condition the page would show, is
    /// part of what this level's learner writes. A claim's conditions are
    /// the same in the queue's one statement and in the course's read and
    /// write (the statement panel's), so every claim level keeps back all
    /// three, and the transaction level its whole script. While the level
    /// is open the page keeps it back, or the answer would be on screen
    /// beside the task. The page shows these statements as the queue and
    /// the course run them, and a condition as these statements write it:
    /// each is found in them as it is.
    pub fn keeps_back(self, sql: &str) -> bool {
        let shown = sql.trim();
        let answers: &[&str] = match self.writes {
            Writes::Statement(Replaces::Claim) => &[CLAIM, NAIVE_CLAIM_READ, NAIVE_CLAIM_WRITE],
            Writes::Statement(_) => &[self.reference],
            Writes::ClaimScript => &[self.reference, CLAIM],
        };
        !shown.is_empty() && answers.iter().any(|answer| answer.contains(shown))
    }
}
