//! Which rows a claim may take (R5, R9, R10, R11), stated once: the
//! claim's conditions as data, as [`crate::fence`] states the finish's.
//!
//! A claim runs three statements in one write transaction (R6): it sets
//! aside the rows whose attempts are used up ([`crate::store::QUARANTINE`])
//! and those past their deadline ([`crate::store::EXPIRE`]), then takes the
//! first row, in enqueue order, that is live and free
//! ([`crate::store::CLAIM`]). So a row may be taken exactly when every
//! [`ClaimCondition`] holds (the claim takes the first such row in
//! enqueue order), and a row that may not is explained by the set of
//! conditions it failed ([`ClaimCondition::failed`]), never by an
//! invented order. `tests/fence.rs` holds the statements to this
//! list on a grid of rows around every boundary, natively and in Chromium.

use serde::Serialize;

use crate::model::{JobRow, JobState};

/// One condition a row must meet for a claim at `now` to take it. In
/// JSON, its name in snake case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimCondition {
    /// The row is live: `pending` or `leased`, not finished or set aside.
    Live,
    /// Nobody holds it: it is `pending`, or its lease is over (R5: a lease
    /// ends *at* `lease_until`, so a claim then may take it).
    Free,
    /// Attempts are left (R10): else the claim quarantines it first.
    AttemptsLeft,
    /// Time is left on the job (R9): else the claim expires it first.
    BeforeDeadline,
}

impl ClaimCondition {
    /// Every condition: the two `CLAIM` chooses by, then the two the sweeps
    /// before it enforce (`QUARANTINE` runs first, then `EXPIRE`).
    pub const ALL: [ClaimCondition; 4] = [
        ClaimCondition::Live,
        ClaimCondition::Free,
        ClaimCondition::AttemptsLeft,
        ClaimCondition::BeforeDeadline,
    ];

    /// The condition as SQL on the `jobs` table. [`crate::store::CLAIM`]
    /// chooses among rows meeting the first two; [`crate::store::QUARANTINE`]
    /// and [`crate::store::EXPIRE`] have set aside those failing the last
    /// two before it runs.
    pub fn sql(self) -> &'static str {
        match self {
            ClaimCondition::Live => "state IN ('pending', 'leased')",
            ClaimCondition::Free => "(state = 'pending' OR lease_until <= :now)",
            ClaimCondition::AttemptsLeft => "attempts < max_attempts",
            ClaimCondition::BeforeDeadline => ":now < deadline",
        }
    }

    /// Whether `row` meets this condition at `now`, exactly as
    /// [`ClaimCondition::sql`] selects rows in a `WHERE` clause: where SQL
    /// says neither (a `NULL` `lease_until`), the row is not selected, so
    /// the condition does not hold.
    pub fn holds(self, row: &JobRow, now: u64) -> bool {
        match self {
            ClaimCondition::Live => matches!(row.state, JobState::Pending | JobState::Leased),
            ClaimCondition::Free => {
                row.state == JobState::Pending
                    || row
                        .lease_until
                        .is_some_and(|until| !within_lease(now, until))
            }
            ClaimCondition::AttemptsLeft => row.attempts < row.max_attempts,
            ClaimCondition::BeforeDeadline => now < row.deadline,
        }
    }

    /// Every condition `row` fails at `now`, in [`ClaimCondition::ALL`]'s
    /// order: empty exactly when a claim at `now` may take it.
    pub fn failed(row: &JobRow, now: u64) -> Vec<ClaimCondition> {
        ClaimCondition::ALL
            .into_iter()
            .filter(|condition| !condition.holds(row, now))
            .collect()
    }
}

/// What a claim at `now` does to a row before it chooses (R9, R10): the
/// state the row is set aside to, or `None` when it stays as it is. A
/// leased row whose lease is over with no attempts left is quarantined
/// (the sweep for attempts runs first); any other live row past its
/// deadline expires. (A `pending` row has made no attempt, so it always
/// has attempts left.)
pub fn set_aside(row: &JobRow, now: u64) -> Option<JobState> {
    let failed = ClaimCondition::failed(row, now);
    let fails = |condition| failed.contains(&condition);
    if fails(ClaimCondition::Live) {
        None
    } else if row.state == JobState::Leased
        && !fails(ClaimCondition::Free)
        && fails(ClaimCondition::AttemptsLeft)
    {
        Some(JobState::Quarantined)
    } else if fails(ClaimCondition::BeforeDeadline) {
        Some(JobState::Expired)
    } else {
        None
    }
}

/// Whether a lease that ends at `lease_until` still holds at `now` (R5):
/// it ends *at* `lease_until`, so a finish sent then is already late
/// ([`crate::Condition::LeaseUntil`]) and a claim then may take the job
/// ([`ClaimCondition::Free`]). The one statement of the boundary both
/// read; the course's lease slider reads it too.
pub fn within_lease(now: u64, lease_until: u64) -> bool {
    now < lease_until
}
