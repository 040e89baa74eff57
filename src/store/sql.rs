//! The schema and every statement, as public constants: the playground
//! shows learners the exact SQL that decided a verdict.

use serde::Serialize;

/// The `jobs` table and the indexes that keep a claim's cost flat however
/// many finished rows pile up: each index covers only live rows.
pub const JOBS_SCHEMA: &str = "
CREATE TABLE jobs (
    seq          INTEGER PRIMARY KEY,          -- enqueue order
    id           TEXT    NOT NULL UNIQUE,
    qty          INTEGER NOT NULL CHECK (qty >= 1),
    state        TEXT    NOT NULL DEFAULT 'pending'
                 CHECK (state IN ('pending', 'leased', 'done', 'quarantined', 'expired')),
    owner        TEXT,                         -- NULL until the first claim
    lease_until  INTEGER,                      -- NULL until the first claim
    token        INTEGER NOT NULL DEFAULT 0,   -- claim generation (R2)
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL CHECK (max_attempts >= 1),
    deadline     INTEGER NOT NULL,
    CHECK (lease_until IS NULL OR lease_until <= deadline)  -- R9
);
CREATE INDEX jobs_live_in_order ON jobs (seq)         WHERE state IN ('pending', 'leased');
CREATE INDEX jobs_live_deadline ON jobs (deadline)    WHERE state IN ('pending', 'leased');
CREATE INDEX jobs_lease_ends    ON jobs (lease_until) WHERE state = 'leased';
";

/// The receiver's ledger (R12): one row per job id, never overwritten.
pub const DELIVERIES_SCHEMA: &str = "
CREATE TABLE deliveries (
    seq     INTEGER PRIMARY KEY,               -- arrival order
    id      TEXT    NOT NULL UNIQUE,
    qty     INTEGER NOT NULL CHECK (qty >= 1),
    repeats INTEGER NOT NULL DEFAULT 0          -- deliveries ignored as repeats
);
";

/// Adds a job; a taken id fails on the UNIQUE constraint.
pub const ENQUEUE: &str = "
INSERT INTO jobs (id, qty, max_attempts, deadline)
VALUES (:id, :qty, :max_attempts, :deadline)";

/// R10: a job whose lease ran out with its attempts used up is set aside
/// before any new token can be issued for it. It names the jobs it set
/// aside, so a caller watching (the playground) re-reads only those.
pub const QUARANTINE: &str = "
UPDATE jobs SET state = 'quarantined'
 WHERE state = 'leased' AND lease_until <= :now AND attempts >= max_attempts
RETURNING id";

/// A job at or past its deadline is never claimed; it ends as `expired`.
pub const EXPIRE: &str = "
UPDATE jobs SET state = 'expired'
 WHERE state IN ('pending', 'leased') AND deadline <= :now
RETURNING id";

/// R6, R9, R11: choose the first claimable job in enqueue order and take it,
/// in one statement. A lease is over exactly when `lease_until <= now` (R5).
pub const CLAIM: &str = "
UPDATE jobs
   SET state = 'leased', owner = :owner,
       token = token + 1, attempts = attempts + 1,
       lease_until = MIN(:now_plus_lease, deadline)
 WHERE seq = (SELECT seq FROM jobs
               WHERE state IN ('pending', 'leased')
                 AND (state = 'pending' OR lease_until <= :now)
               ORDER BY seq LIMIT 1)
RETURNING id, qty, owner, token, attempts, lease_until";

/// R4: the fenced finish. It changes the row only if the stamp is still the
/// row's current claim and time is left on the lease and on the job.
pub const FINISH: &str = "
UPDATE jobs SET state = 'done'
 WHERE id = :id AND owner = :owner AND token = :token AND attempts = :attempt
   AND state = 'leased' AND :now < lease_until AND :now < deadline";

/// Teaching counter-example (the playground's "fencing off"): a finish
/// guarded by the job id alone. After a reclaim it overwrites the new holder's work.
pub const NAIVE_FINISH_BY_ID: &str = "
UPDATE jobs SET state = 'done' WHERE id = :id";

/// Teaching counter-example: guarded by id and owner name. A worker that
/// restarted under the same name passes it with a stale claim (R8).
pub const NAIVE_FINISH_BY_OWNER: &str = "
UPDATE jobs SET state = 'done' WHERE id = :id AND owner = :owner";

/// Teaching counter-example (issue 11, the naive claim's first half): the
/// candidate is read with a plain `SELECT`, outside any write transaction.
/// Two workers that both read before either writes see the same row and
/// the same token; [`CLAIM`] chooses and writes in one statement instead.
pub const NAIVE_CLAIM_READ: &str = "
SELECT id, token, attempts FROM jobs
 WHERE state IN ('pending', 'leased')
   AND (state = 'pending' OR lease_until <= :now)
   AND :now < deadline
 ORDER BY seq LIMIT 1";

/// Teaching counter-example (the naive claim's second half): the row read
/// by [`NAIVE_CLAIM_READ`] is written later, from the token that was read,
/// guarded by the id alone. A second writer hands out the same token again.
pub const NAIVE_CLAIM_WRITE: &str = "
UPDATE jobs
   SET state = 'leased', owner = :owner,
       token = :read_token + 1, attempts = :read_attempts + 1,
       lease_until = MIN(:now_plus_lease, deadline)
 WHERE id = :id
RETURNING id, qty, owner, token, attempts, lease_until";

/// Which naive finish to run instead of [`FINISH`]: the guards a queue
/// without fencing tokens would use. Kept beside their statements so the
/// store never depends on the teaching code that compares them.
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

/// Puts one row's changing columns back to an earlier point of the same
/// replay, so the census of every ordering (`crate::mechanism::orderings`)
/// can try the next branch from a shared prefix instead of replaying the
/// prefix again. `qty`, `max_attempts` and `deadline` never change.
pub const PUT_BACK_ROW: &str = "
UPDATE jobs SET state = :state, owner = :owner, lease_until = :lease_until,
                token = :token, attempts = :attempts
 WHERE id = :id";

/// Takes back a job enqueued after the point a replay goes back to (the
/// census's rewind, as [`PUT_BACK_ROW`]).
pub const TAKE_BACK_JOB: &str = "DELETE FROM jobs WHERE id = :id";

/// Takes back a delivery made after the point a replay goes back to.
pub const TAKE_BACK_DELIVERY: &str = "DELETE FROM deliveries WHERE id = :id";

/// One row by id.
pub const ROW: &str = "
SELECT id, qty, state, owner, token, attempts, max_attempts, lease_until, deadline
  FROM jobs WHERE id = :id";

/// All rows, in enqueue order.
pub const ROWS: &str = "
SELECT id, qty, state, owner, token, attempts, max_attempts, lease_until, deadline
  FROM jobs ORDER BY seq";

/// How many jobs can still be claimed or finished.
pub const LIVE_COUNT: &str = "
SELECT count(*) FROM jobs WHERE state IN ('pending', 'leased')";

/// R12: the first delivery of an id is recorded; a repeat changes nothing.
pub const DELIVER: &str = "
INSERT INTO deliveries (id, qty) VALUES (:id, :qty) ON CONFLICT (id) DO NOTHING";

/// Counts a repeated delivery of an id the ledger holds with the same qty.
pub const COUNT_REPEAT: &str = "
UPDATE deliveries SET repeats = repeats + 1 WHERE id = :id RETURNING qty";

/// The ledger, in arrival order.
pub const DELIVERIES: &str = "
SELECT id, qty, repeats FROM deliveries ORDER BY seq";
