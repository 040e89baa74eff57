//! The SQL of the naive variants, all of it in this one module: the
//! statements the course shows beside the queue's own and runs through
//! the queue's one seam for SQL written outside it
//! ([`leasefence::store::Statements`], [`leasefence::Queue::finish_with`]).
//! The queue's own statements are in [`leasefence::store`].

use leasefence::store::{Bound, Executed, Statements};
use leasefence::{Claim, Error, JobRow, Problem, Queue, Result, Stamp};
use serde::Serialize;

/// The id-only finish: a finish
/// guarded by the job id alone. After a reclaim it overwrites the new holder's work.
pub const NAIVE_FINISH_BY_ID: &str = "
UPDATE jobs SET state = 'done' WHERE id = :id";

/// The id-and-owner finish: guarded by id and owner name. A worker that
/// restarted under the same name passes it with a stale claim (R8).
pub const NAIVE_FINISH_BY_OWNER: &str = "
UPDATE jobs SET state = 'done' WHERE id = :id AND owner = :owner";

/// The naive claim's read, as a literal, so the transaction scripts below
/// can be made of it at compile time.
macro_rules! claim_read {
    () => {
        "SELECT id, token, attempts FROM jobs
 WHERE state IN ('pending', 'leased')
   AND (state = 'pending' OR lease_until <= :now)
   AND :now < deadline
 ORDER BY seq LIMIT 1"
    };
}

/// The naive claim's write, as a literal (see [`claim_read`]).
macro_rules! claim_write {
    () => {
        "UPDATE jobs
   SET state = 'leased', owner = :owner,
       token = :read_token + 1, attempts = :read_attempts + 1,
       lease_until = MIN(:now_plus_lease, deadline)
 WHERE id = :id
RETURNING id, qty, owner, token, attempts, lease_until"
    };
}

/// The boundary the misread finish checks, as a literal (see
/// [`FINISH_AT_LEASE_END_BOUNDARY`]).
macro_rules! finish_at_lease_end_boundary {
    () => {
        ":now <= lease_until"
    };
}

/// The freedom the misread claim checks, as a literal (see
/// [`CLAIM_AFTER_LEASE_END_FREE`]).
macro_rules! claim_after_lease_end_free {
    () => {
        "(state = 'pending' OR lease_until < :now)"
    };
}

/// The naive claim's first half: the
/// candidate is read with a plain `SELECT`, outside any write transaction.
/// Two workers that both read before either writes see the same row and
/// the same token; [`leasefence::store::CLAIM`] chooses and writes in one statement
/// instead.
pub const NAIVE_CLAIM_READ: &str = claim_read!();

/// The naive claim's second half: the row read
/// by [`NAIVE_CLAIM_READ`] is written later, from the token that was read,
/// guarded by the id alone. A second writer hands out the same token again.
pub const NAIVE_CLAIM_WRITE: &str = claim_write!();

/// The claim taken apart into its read and its write, in one `BEGIN
/// IMMEDIATE` transaction: the write lock is taken before the read, so no
/// other claim reads between this one's read and its write (R6; the lab's
/// transaction level passes with it).
pub const CLAIM_SCRIPT: &str = concat!(
    "BEGIN IMMEDIATE;\n",
    claim_read!(),
    ";\n",
    claim_write!(),
    ";\nCOMMIT;"
);

/// The same read and write with the transaction begun after the read (the
/// course: "먼저 가능한 일을 읽고 트랜잭션을 나중에 시작하면 A와 B가 같은
/// pending 행을 읽을 수 있습니다"): two workers read the same row, then
/// each writes it in turn, both with token 1 (the lab's transaction level
/// starts here).
pub const CLAIM_SCRIPT_READ_FIRST: &str = concat!(
    claim_read!(),
    ";\nBEGIN IMMEDIATE;\n",
    claim_write!(),
    ";\nCOMMIT;"
);

/// Which naive finish to run instead of the queue's fenced one
/// ([`leasefence::store::FINISH`]): the guards a queue without fencing
/// tokens would use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Guard {
    /// `WHERE id = :id` ([`NAIVE_FINISH_BY_ID`])
    IdOnly,
    /// `WHERE id = :id AND owner = :owner` ([`NAIVE_FINISH_BY_OWNER`])
    IdAndOwner,
}

impl Guard {
    /// The statement this guard runs, as shown to the learner.
    pub fn sql(self) -> &'static str {
        match self {
            Guard::IdOnly => NAIVE_FINISH_BY_ID.trim(),
            Guard::IdAndOwner => NAIVE_FINISH_BY_OWNER.trim(),
        }
    }
}

/// What the naive claim's `SELECT` ([`NAIVE_CLAIM_READ`]) read: the row it
/// means to write later.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Candidate {
    /// The job id.
    pub id: String,
    /// The token as read (the write adds 1 to this, not to the row's).
    pub token: u64,
    /// The attempts as read.
    pub attempts: u64,
}

impl Candidate {
    /// Runs the naive claim's read at `now`: the candidate it read, if any.
    pub(crate) fn read(db: &mut Statements, now: u64) -> Result<(Executed, Option<Candidate>)> {
        let (ran, row) = db.read_with(NAIVE_CLAIM_READ, &[(":now", now.into())])?;
        Ok((ran, row.map(|row| Candidate::from_row(&row)).transpose()?))
    }

    /// The candidate in a read's row, `id, token, attempts`
    /// ([`leasefence::store::CANDIDATE_COLUMNS`]). A learner's read may
    /// return other values in them (a `NULL`, text for a token): that is
    /// the statement's problem ([`Problem::ReadsBadValue`]), on the field
    /// `sql`.
    pub(crate) fn from_row(row: &[Bound]) -> Result<Candidate> {
        let count = |value: &i64| u64::try_from(*value).ok();
        if let [Bound::Text(id), Bound::Int(token), Bound::Int(attempts)] = row
            && let (Some(token), Some(attempts)) = (count(token), count(attempts))
        {
            return Ok(Candidate {
                id: id.clone(),
                token,
                attempts,
            });
        }
        Err(Error::invalid("sql", Problem::ReadsBadValue))
    }

    /// Runs the naive claim's write of this candidate for `owner`: the
    /// token as read plus 1, whatever the row holds by now.
    pub(crate) fn write(
        &self,
        db: &mut Statements,
        owner: &str,
        now: u64,
        lease_ms: u64,
    ) -> Result<(Executed, Option<Claim>)> {
        let params = [
            (":owner", owner.into()),
            (":read_token", self.token.into()),
            (":read_attempts", self.attempts.into()),
            (":now_plus_lease", now.saturating_add(lease_ms).into()),
            (":id", self.id.as_str().into()),
        ];
        db.claim_with(NAIVE_CLAIM_WRITE, &params)
    }
}

impl Guard {
    /// Runs this naive finish of `stamp` on `queue` at `now`: whether it
    /// changed the row, and the row after it.
    pub(crate) fn finish(
        self,
        queue: &Queue,
        stamp: &Stamp,
        now: u64,
    ) -> Result<(bool, Option<JobRow>)> {
        queue.finish_with(self.sql(), stamp, now)
    }
}

/// The lease's end as [`NAIVE_FINISH_AT_LEASE_END`] reads it: still valid
/// at `lease_until`, where R5's `:now < lease_until`
/// ([`leasefence::Condition::LeaseUntil`]) says it is over.
pub const FINISH_AT_LEASE_END_BOUNDARY: &str = finish_at_lease_end_boundary!();

/// The finish with its lease boundary read the wrong way: `<=` where R5
/// says a lease is over exactly at `lease_until`. At that instant the old
/// holder's finish passes while another worker may already claim the job:
/// two valid holders at once (the lab's boundary level starts here).
pub const NAIVE_FINISH_AT_LEASE_END: &str = concat!(
    "
UPDATE jobs SET state = 'done'
 WHERE id = :id AND owner = :owner AND token = :token AND attempts = :attempt
   AND state = 'leased' AND ",
    finish_at_lease_end_boundary!(),
    " AND :now < deadline"
);

/// Which rows [`NAIVE_CLAIM_AFTER_LEASE_END`] takes as free: a lease only
/// after its end, where R5's `lease_until <= :now`
/// ([`leasefence::ClaimCondition::Free`]) frees it at its end.
pub const CLAIM_AFTER_LEASE_END_FREE: &str = claim_after_lease_end_free!();

/// The claim that takes a leased job only after its lease's end
/// (`lease_until < :now`), one instant later than the fenced finish
/// refuses the old holder (`:now < lease_until`): at the instant the
/// lease ends, nobody may work on the job, a gap (the course: "아무도 맡지
/// 못하는 빈틈"; the lab's reclaim level starts here).
pub const NAIVE_CLAIM_AFTER_LEASE_END: &str = concat!(
    "
UPDATE jobs
   SET state = 'leased', owner = :owner,
       token = token + 1, attempts = attempts + 1,
       lease_until = MIN(:now_plus_lease, deadline)
 WHERE seq = (SELECT seq FROM jobs
               WHERE state IN ('pending', 'leased')
                 AND ",
    claim_after_lease_end_free!(),
    "
               ORDER BY seq LIMIT 1)
RETURNING id, qty, owner, token, attempts, lease_until"
);

/// The claim with its lease not capped at the job's deadline: it gives
/// `:now + lease_ms` even when the deadline comes first, so a worker may
/// hold a lease on a job that may no longer be done (R9; the lab's claim
/// level starts here).
pub const NAIVE_CLAIM_UNCAPPED: &str = "
UPDATE jobs
   SET state = 'leased', owner = :owner,
       token = token + 1, attempts = attempts + 1,
       lease_until = :now_plus_lease
 WHERE seq = (SELECT seq FROM jobs
               WHERE state IN ('pending', 'leased')
                 AND (state = 'pending' OR lease_until <= :now)
               ORDER BY seq LIMIT 1)
RETURNING id, qty, owner, token, attempts, lease_until";

/// The claim that takes the job out of the queue: it deletes the row and
/// hands its worker the job, so from then on only that worker's memory
/// holds it (the course: "큐에서 주문을 완전히 삭제하고 A의 메모리에만
/// 두었다면 주문도 같이 사라집니다"). The worker's claim is what the
/// queue's claim would have given; nothing in the table says so.
pub const NAIVE_CLAIM_DELETE: &str = "
DELETE FROM jobs
 WHERE seq = (SELECT seq FROM jobs
               WHERE state IN ('pending', 'leased')
                 AND (state = 'pending' OR lease_until <= :now)
               ORDER BY seq LIMIT 1)
RETURNING id, qty, :owner AS owner, token + 1 AS token,
          attempts + 1 AS attempts, MIN(:now_plus_lease, deadline) AS lease_until";

/// The claim that leaves the job visible: it counts the claim (its token
/// and attempts) and hands its worker the job, but writes no owner and no
/// lease and leaves the row `pending`, so the next claim takes it too (the
/// course: "큐에 그대로 보이게 두면 B도 동시에 가져갈 수 있습니다").
pub const NAIVE_CLAIM_VISIBLE: &str = "
UPDATE jobs
   SET token = token + 1, attempts = attempts + 1
 WHERE seq = (SELECT seq FROM jobs
               WHERE state IN ('pending', 'leased')
                 AND (state = 'pending' OR lease_until <= :now)
               ORDER BY seq LIMIT 1)
RETURNING id, qty, :owner AS owner, token, attempts,
          MIN(:now_plus_lease, deadline) AS lease_until";
