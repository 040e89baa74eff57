//! The queue's vocabulary: jobs, rows, claims, stamps and the reasons a
//! finish is refused (its verdict and outcome are [`crate::fence`]'s).
//!
//! These are plain values with no behaviour beyond checking themselves. They
//! serialize to exactly the JSON shapes of the contract, so the command line,
//! the replay document and the browser all print the same thing.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Problem, Result};

/// The largest integer the queue accepts for a time, a quantity, a lease, a
/// token or an attempt count: 2^53 - 1.
///
/// It is the largest integer JavaScript represents exactly, so a value the
/// native queue accepts is a value the browser build can show unchanged, and
/// the replay documents of both stay identical.
pub const MAX_INT: u64 = (1 << 53) - 1;

/// The longest name or id, in bytes.
pub const MAX_NAME_BYTES: usize = 200;

/// `max_attempts` when a job does not say.
pub const DEFAULT_MAX_ATTEMPTS: u64 = 3;

/// Checks that `value` is at least `min` and at most [`MAX_INT`], the
/// rule every integer the queue takes follows; the refusal names `field`.
pub fn check_int(field: &str, value: u64, min: u64) -> Result<u64> {
    if value < min {
        return Err(Error::invalid(field, Problem::TooSmall { min, got: value }));
    }
    if value > MAX_INT {
        return Err(Error::invalid(
            field,
            Problem::TooLarge {
                got: value,
                max: MAX_INT,
            },
        ));
    }
    Ok(value)
}

/// Checks that a name or id is usable: not empty, no control characters,
/// at most 200 bytes. Any other text (HTML included) is kept as it is; the
/// page renders it as text.
pub(crate) fn check_name(field: &str, value: &str) -> Result<()> {
    if value.trim().is_empty() {
        return Err(Error::invalid(field, Problem::Empty));
    }
    if value.len() > MAX_NAME_BYTES {
        return Err(Error::invalid(
            field,
            Problem::TooLong {
                len: value.len(),
                max: MAX_NAME_BYTES,
            },
        ));
    }
    if value.chars().any(char::is_control) {
        return Err(Error::invalid(field, Problem::ControlCharacters));
    }
    Ok(())
}

/// A job to put on the queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewJob {
    /// Unique job id, e.g. `snack-1`.
    pub id: String,
    /// How many items the job delivers; what the receiver adds up (R12).
    pub qty: u64,
    /// The job's own time budget: no lease reaches past it (R9), and at or
    /// after it the job is never claimed.
    pub deadline: u64,
    /// How many claims the job may receive before it is quarantined (R10).
    #[serde(default = "default_max_attempts")]
    pub max_attempts: u64,
}

fn default_max_attempts() -> u64 {
    DEFAULT_MAX_ATTEMPTS
}

impl NewJob {
    /// A job with the default `max_attempts`.
    pub fn new(id: impl Into<String>, qty: u64, deadline: u64) -> Self {
        NewJob {
            id: id.into(),
            qty,
            deadline,
            max_attempts: DEFAULT_MAX_ATTEMPTS,
        }
    }

    /// Checks every field; `prefix` is put before field names in messages
    /// (`jobs[0].` in a scenario, empty on the command line).
    pub fn validate(&self, prefix: &str) -> Result<()> {
        check_name(&format!("{prefix}id"), &self.id)?;
        check_int(&format!("{prefix}qty"), self.qty, 1)?;
        check_int(&format!("{prefix}deadline"), self.deadline, 0)?;
        check_int(&format!("{prefix}max_attempts"), self.max_attempts, 1)?;
        Ok(())
    }
}

/// Where a job is in its life.
///
/// `pending -> leased -> done`, `leased -> leased` (reclaim after expiry),
/// `leased -> quarantined` (R10), `pending | leased -> expired`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    /// Waiting for its first claim.
    Pending,
    /// Claimed; the lease may be valid or may have run out (R1).
    Leased,
    /// Finished by the holder of the current claim.
    Done,
    /// Its attempts were used up and its last lease ran out (R10).
    Quarantined,
    /// Its deadline passed before it was done.
    Expired,
}

impl JobState {
    /// The name stored in the `state` column and printed in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Pending => "pending",
            JobState::Leased => "leased",
            JobState::Done => "done",
            JobState::Quarantined => "quarantined",
            JobState::Expired => "expired",
        }
    }

    /// The inverse of [`JobState::as_str`].
    pub fn parse(name: &str) -> Option<Self> {
        [
            JobState::Pending,
            JobState::Leased,
            JobState::Done,
            JobState::Quarantined,
            JobState::Expired,
        ]
        .into_iter()
        .find(|state| state.as_str() == name)
    }
}

/// One row of the `jobs` table, as it is stored.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct JobRow {
    /// Unique job id.
    pub id: String,
    /// Items to deliver.
    pub qty: u64,
    /// Where the job is in its life.
    pub state: JobState,
    /// The name of the worker that claimed it last; `null` while pending.
    pub owner: Option<String>,
    /// The claim generation: 0 before the first claim, +1 per claim (R2).
    pub token: u64,
    /// Claims so far (R2).
    pub attempts: u64,
    /// Claims allowed before quarantine (R10).
    pub max_attempts: u64,
    /// End of the last lease (exclusive, R5); `null` while pending.
    pub lease_until: Option<u64>,
    /// The job's own time budget (R9).
    pub deadline: u64,
}

/// What a successful claim hands the worker (R3).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Claim {
    /// The job id.
    pub id: String,
    /// Items to deliver.
    pub qty: u64,
    /// The name the worker claimed under.
    pub owner: String,
    /// The fencing token of this claim.
    pub token: u64,
    /// Which attempt this is (the row's `attempts` after the claim).
    pub attempt: u64,
    /// The lease is valid while `now < lease_until` (R5).
    pub lease_until: u64,
}

impl Claim {
    /// The part of the claim a finish must present (R4).
    pub fn stamp(&self) -> Stamp {
        Stamp {
            id: self.id.clone(),
            owner: self.owner.clone(),
            token: self.token,
            attempt: self.attempt,
        }
    }
}

/// What a worker presents to finish a job: the exact claim it got (R4).
///
/// The course calls it the worker's *stamp* (도장): a late worker's stamp
/// must be refused. An unknown key is refused too (a claim passed whole
/// carries `qty` and `lease_until`, which a stamp does not), as every
/// other value the queue reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stamp {
    /// The job id.
    pub id: String,
    /// The name it claimed under.
    pub owner: String,
    /// The token it received.
    pub token: u64,
    /// The attempt it received.
    pub attempt: u64,
}

impl Stamp {
    /// Checks every field, naming the one that is wrong.
    pub fn validate(&self) -> Result<()> {
        check_name("id", &self.id)?;
        check_name("owner", &self.owner)?;
        check_int("token", self.token, 1)?;
        check_int("attempt", self.attempt, 1)?;
        Ok(())
    }
}

/// Why a finish was refused, in one word: the document's `reason`. A
/// refusal may fail several conditions at once; [`crate::fence::Conditions::reason`]
/// says which of them is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The actor holds no claim (replay only).
    NoClaim,
    /// No job has this id.
    UnknownJob,
    /// The row is pending, done, quarantined or expired.
    NotLeased,
    /// Someone claimed the job after this stamp was issued (R4, R8).
    TokenMismatch,
    /// The stamp's owner is not the row's owner.
    OwnerMismatch,
    /// The stamp's attempt is not the row's attempts.
    AttemptMismatch,
    /// `now >= lease_until` (R5).
    LeaseExpired,
    /// `now >= deadline` (R9).
    DeadlinePassed,
}

impl Reason {
    /// The name printed in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::NoClaim => "no_claim",
            Reason::UnknownJob => "unknown_job",
            Reason::NotLeased => "not_leased",
            Reason::TokenMismatch => "token_mismatch",
            Reason::OwnerMismatch => "owner_mismatch",
            Reason::AttemptMismatch => "attempt_mismatch",
            Reason::LeaseExpired => "lease_expired",
            Reason::DeadlinePassed => "deadline_passed",
        }
    }
}
