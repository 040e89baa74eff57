//! The facts some assertions state about a run: the statement panel's,
//! and a claim script's race in the lab.

use leasefence::model::Claim;
use serde::Serialize;

/// A fact about one run of the statement panel, at its end unless it
/// says a moment. Actors are named by their ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "fact", rename_all = "snake_case")]
pub enum RunFact {
    /// The first claim (job, token) handed out more than once went to
    /// `workers`, in the order they took it.
    Twice {
        /// The job.
        job: String,
        /// The token.
        token: u64,
        /// Who took it.
        workers: Vec<String>,
    },
    /// No claim (job, token) went to two workers.
    Once,
    /// These actors ended with no claim (not refused by SQLite).
    TookNothing {
        /// The actors.
        workers: Vec<String>,
    },
    /// At `at`, `worker`'s finish with token `token` changed no row.
    Refused {
        /// Its time.
        at: u64,
        /// Its actor.
        worker: String,
        /// The token it presented.
        token: u64,
    },
    /// The producer's enqueue waited `enqueue_ms` in all for the write
    /// lock, the other worker's claim `claim_ms`.
    Waited {
        /// The enqueue's wait.
        enqueue_ms: u64,
        /// The claim's wait.
        claim_ms: u64,
    },
    /// SQLite refused these actors' writes (`SQLITE_BUSY`).
    Busy {
        /// The actors.
        workers: Vec<String>,
    },
    /// After the run's first `applied` steps, the actors hold these
    /// claims (actor, job, token).
    Holding {
        /// Steps applied.
        applied: usize,
        /// What each holds.
        claims: Vec<(String, String, u64)>,
    },
}

/// How a claim script's run of a race ends for the worker an answer names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "ends", rename_all = "snake_case")]
pub enum RaceEnd {
    /// The worker holds this claim (`None`: it got nothing).
    Claimed {
        /// Its claim.
        claim: Option<Claim>,
    },
    /// SQLite refused the worker's write at once (`SQLITE_BUSY`).
    Busy,
    /// SQLite stopped `worker`'s next statement (a failed `CHECK`, too
    /// much work), and the run ends there.
    Stopped {
        /// Whose statement.
        worker: String,
    },
}
