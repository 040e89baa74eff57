//! The facts some assertions state about a run: the statement panel's,
//! a claim script's race in the lab, and the stamp a worker carries.

use leasefence::model::Claim;
use serde::Serialize;

use crate::variants::boundary::Holders;
use crate::variants::designs::Fate;

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
    /// The run's step `step`, at `at`, was `worker`'s, and it did `did`.
    Did {
        /// The step's index in the run.
        step: usize,
        /// Its time.
        at: u64,
        /// Its actor.
        worker: String,
        /// What it did.
        did: StepDid,
    },
    /// After the run's first `applied` steps, the write lock is so.
    Lock {
        /// Steps applied.
        applied: usize,
        /// Who holds it, who waits and who reads.
        lock: LockNow,
    },
    /// After the run's first `applied` steps, the actors hold these
    /// claims (actor, job, token).
    Holding {
        /// Steps applied.
        applied: usize,
        /// What each holds.
        claims: Vec<(String, String, u64)>,
    },
    /// After `applied` steps this side has run all its steps, `statements`
    /// of them SQL statements (a send or a wait is a step, not one), while
    /// the other side, at its `other` steps (as its own lines say), has
    /// steps left.
    AllRan {
        /// Steps applied.
        applied: usize,
        /// Its SQL statements.
        statements: usize,
        /// The other side's steps applied at the same moment.
        other: usize,
    },
}

/// SQLite's write lock after a step of a statement run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "lock", rename_all = "snake_case")]
pub enum LockNow {
    /// Nobody holds it.
    Free,
    /// Nobody holds it: `worker`'s step was a write without `BEGIN`, which
    /// SQLite ran as a transaction of its own, holding the lock only while
    /// it ran.
    OwnStatement {
        /// Whose write.
        worker: String,
    },
    /// `holder` holds it, and these others wait for it.
    Held {
        /// Who holds it.
        holder: String,
        /// Who waits, in the order they asked.
        waiting: Vec<String>,
    },
    /// `holder` holds it and waits to commit until these others no longer
    /// hold a read lock.
    CommitWaits {
        /// Who holds it.
        holder: String,
        /// Who reads.
        readers: Vec<String>,
    },
}

/// What one step of a statement run did, as the panel tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "did", rename_all = "snake_case")]
pub enum StepDid {
    /// It needed the write lock, which `holder` held: it waits.
    Waits {
        /// Who held the lock.
        holder: String,
    },
    /// Its `COMMIT` waits until these others no longer hold a read lock.
    CommitWaits {
        /// Who reads.
        readers: Vec<String>,
    },
    /// It sent the order; the answer came `ms` later.
    Sends {
        /// How long until the answer.
        ms: u64,
    },
    /// Its send came back.
    SendReturns,
    /// Its worker held no claim: nothing ran.
    NoClaim,
    /// SQLite refused its write at once (`SQLITE_BUSY`): `holder` held the
    /// write lock and waited on this actor's read lock.
    Busy {
        /// Who held the write lock.
        holder: String,
    },
    /// `BEGIN IMMEDIATE`: it took the write lock.
    Begin,
    /// A deferred `BEGIN`: no lock yet.
    BeginDeferred,
    /// `COMMIT`, releasing the write lock it held (`held`) or only a read
    /// lock.
    Commit {
        /// Whether it held the write lock just before.
        held: bool,
    },
    /// `ROLLBACK`.
    Rollback,
    /// Any other statement: it changed (`write`) or read `rows` rows.
    Ran {
        /// Whether it writes.
        write: bool,
        /// Rows changed or read.
        rows: usize,
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

/// One step of a claim script's interleaved run, as the lab's race answer
/// lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Turn {
    /// The step's time.
    pub at: u64,
    /// Whose statement it is.
    pub worker: String,
    /// What came of it.
    pub did: Turned,
}

/// What came of one step of a claim script's run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Turned {
    /// It ran: the statement's first line.
    Ran(String),
    /// It waits for the write lock another worker holds.
    Waits,
    /// Its `COMMIT` waits for a reader to go.
    CommitWaits,
    /// SQLite refused its write at once (`SQLITE_BUSY`).
    Busy,
}

/// What one reading of the lease's end did at the boundary's instant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "read", rename_all = "snake_case")]
pub enum ReadFact {
    /// The holder's finish was accepted, or refused.
    Finish {
        /// The holder.
        worker: String,
        /// Whether it was accepted.
        accepted: bool,
    },
    /// The claimant's claim took `job`, or nothing.
    Claim {
        /// The claimant.
        worker: String,
        /// The job it took.
        job: Option<String>,
    },
    /// Who may work on `job` at the instant: `holders`, of the holder and
    /// the claimant.
    Holders {
        /// The job.
        job: String,
        /// Whose lease on it ends at the instant.
        holder: String,
        /// Who claims at the instant.
        claimant: String,
        /// Who may work on it, in the order they took it.
        holders: Vec<String>,
        /// How many that is.
        count: Holders,
    },
}

/// What one design the course turns down (or the queue's) did with the
/// timeline's first claims.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "design_did", rename_all = "snake_case")]
pub enum DesignFact {
    /// The claim by `worker` at `at` took this job and token, or nothing.
    Took {
        /// Who claimed.
        worker: String,
        /// When.
        at: u64,
        /// The job and token it got.
        claim: Option<(String, u64)>,
    },
    /// The job's row afterwards, these columns with these values; `None`
    /// when the table no longer has it.
    Row {
        /// The job.
        job: String,
        /// Column and value, as the cells show them.
        cells: Option<Vec<(String, String)>>,
    },
    /// What became of `job`: its fate, with the workers the sentence names
    /// and the lease's end it names.
    Fate {
        /// The job.
        job: String,
        /// What became of it.
        fate: Fate,
        /// The workers named.
        named: Vec<String>,
        /// The row's lease end, when it has one.
        until: Option<u64>,
    },
}

/// The stamp a worker carries (its last claim's), and how the job's row
/// stands against it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Carried {
    /// The job claimed.
    pub job: String,
    /// The claim's token.
    pub token: u64,
    /// The claim's attempt.
    pub attempt: u64,
    /// How the row stands against it; `None` while the learner still has
    /// verdicts to predict ([`crate::playground::stepper::Stepper::answers_ahead`]):
    /// "stale" would all but answer the next finish's question, so the
    /// card shows the stamp and leaves the comparison with the row to them.
    pub standing: Option<Standing>,
}

/// How a job's row stands against a stamp a worker carries, now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "standing", rename_all = "snake_case")]
pub enum Standing {
    /// The row carries the same token, leased until `until`, after now.
    Current {
        /// Where the lease ends.
        until: u64,
    },
    /// The row carries the same token, leased, but its lease ended at
    /// `until`, at or before now (R5).
    Ended {
        /// Where the lease ended.
        until: u64,
    },
    /// The row has moved on: it carries token `token`, from a later claim.
    Stale {
        /// The row's token.
        token: u64,
    },
    /// The row carries the same token and is `done`: this stamp's finish
    /// was accepted.
    Done,
    /// The row carries the same token and was quarantined (R10).
    Quarantined,
    /// The row carries the same token and its deadline passed.
    Expired,
}
