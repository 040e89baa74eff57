//! What a statement-level run is made of: the actors and what they do,
//! and the steps they took, with the locks after each.

use std::collections::BTreeMap;

use serde::Serialize;

use leasefence::model::{Claim, JobRow, NewJob};
use leasefence::store::{Executed, Script};

/// What an actor does, as a scenario would say it; each expands into the
/// statements it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// The real claim (R6): `BEGIN IMMEDIATE`, sweeps, `UPDATE`, `COMMIT`.
    Claim {
        /// Requested lease length.
        lease_ms: u64,
        /// The name it claims under; `None`: the actor's own (R8).
        owner: Option<String>,
    },
    /// The naive claim: `SELECT` the candidate, later `UPDATE` it.
    NaiveClaim {
        /// Requested lease length.
        lease_ms: u64,
        /// The name it claims under; `None`: the actor's own (R8).
        owner: Option<String>,
    },
    /// A claim written as a transaction script (the lab's): its read, its
    /// write and its `BEGIN` and `COMMIT` in the order written, the
    /// transaction run as the lock the model gives it.
    ScriptClaim {
        /// The script.
        script: Script,
        /// Requested lease length.
        lease_ms: u64,
        /// The name it claims under; `None`: the actor's own (R8).
        owner: Option<String>,
    },
    /// The real claim, but the job is sent before `COMMIT` (breaks R7).
    ClaimSendingInside {
        /// Requested lease length.
        lease_ms: u64,
        /// How long the send takes.
        send_ms: u64,
    },
    /// Deliver the claimed job, outside any transaction (R7). Like a
    /// finish, it needs a claim: without one it is a step of its own
    /// ([`StepKind::NoClaim`]) and runs nothing.
    Send {
        /// How long the send takes.
        send_ms: u64,
    },
    /// The fenced finish of the claim held: `BEGIN`, `UPDATE`, `COMMIT`.
    Finish,
    /// The producer's enqueue: `BEGIN IMMEDIATE`, `INSERT`, `COMMIT`.
    Enqueue {
        /// The job put on the queue.
        job: NewJob,
    },
}

/// One actor of a statement-level script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    /// Its name (and the owner it claims under).
    pub name: String,
    /// When its first statement may run.
    pub start_ms: u64,
    /// What it does, in order.
    pub ops: Vec<Op>,
}

/// What kind of step an actor took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// A statement ran.
    Ran,
    /// The statement needs the write lock another actor holds: it waits.
    Waits,
    /// A send left (no SQL).
    SendStarts,
    /// A send came back (no SQL).
    SendReturns,
    /// A finish or a send by an actor holding no claim: nothing to
    /// present or deliver, so nothing runs (the replay's `no_claim`).
    NoClaim,
    /// A claim script's write that needs the write lock another actor
    /// holds, by an actor whose open transaction holds a read lock: the
    /// holder's `COMMIT` waits for that read lock to go, so SQLite
    /// refuses the write at once (`SQLITE_BUSY`, "database is locked")
    /// rather than let the two wait for each other, and the claim's
    /// transaction ends with nothing claimed.
    Busy,
}

/// What a statement is for in its op: the page names a statement by
/// this, not by its text, which for a learner's script is theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Does {
    /// `BEGIN IMMEDIATE`: takes the write lock.
    Begin,
    /// A deferred `BEGIN`: opens a transaction that takes no lock yet.
    BeginDeferred,
    /// `COMMIT`: releases the locks.
    Commit,
    /// `ROLLBACK` after SQLite refused a write: releases the read lock.
    Rollback,
    /// The claim's sweep of jobs out of attempts.
    Quarantine,
    /// The claim's sweep of jobs past their deadline.
    Expire,
    /// The real claim's choose-and-take.
    Claim,
    /// A read of the job to claim (the naive claim's, a script's).
    Read,
    /// A write of what that read chose.
    Write,
    /// The enqueue's `INSERT`.
    Enqueue,
    /// The fenced finish.
    Finish,
    /// A send leaves.
    SendStarts,
    /// A send comes back.
    SendReturns,
}

/// One step: who did what, and the lock and the claims after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// When, in milliseconds.
    pub at: u64,
    /// The actor.
    pub actor: String,
    /// What kind of step.
    pub kind: StepKind,
    /// What the statement is for (the one waited for, when it waits).
    pub does: Does,
    /// The statement (with its bound values and rows when it ran; the one
    /// waited for, unbound, when it waits); `None` for a send.
    pub sql: Option<Executed>,
    /// Who holds the write lock after the step.
    pub lock: Option<String>,
    /// Who waits for it after the step, in the order they asked.
    pub waiting: Vec<String>,
    /// Whose open transaction holds a read lock after the step (SQLite's
    /// `SHARED`: a claim script's read inside a deferred `BEGIN`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reading: Vec<String>,
    /// Actor -> the claim it holds after the step.
    pub holding: BTreeMap<String, Claim>,
}

/// A whole statement-level run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Run {
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// Actor -> the claim it ended with (`None`: it got nothing).
    pub claims: BTreeMap<String, Option<Claim>>,
    /// Actor -> how long it waited for the write lock in all.
    pub waited_ms: BTreeMap<String, u64>,
    /// The actors whose claim SQLite refused with `SQLITE_BUSY`
    /// ([`StepKind::Busy`]), in the order refused.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub busy: Vec<String>,
    /// The table at the end.
    pub rows: Vec<JobRow>,
}
