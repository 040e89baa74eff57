//! Every statement the queue runs on PostgreSQL, and its schema: the same
//! queue as [`crate::store`]'s statements for SQLite, in PostgreSQL's
//! dialect. A reader checks the locking story here at a glance:
//!
//! * SQLite has one writer at a time, so its claim may choose a row and
//!   write it without locking anything else. PostgreSQL runs writers at
//!   once (`READ COMMITTED`), so every statement that picks rows to change
//!   picks them `FOR UPDATE SKIP LOCKED`, with every condition of its pick
//!   in the locking `SELECT`: PostgreSQL re-reads a row that changed under
//!   it and checks those conditions again on the new version before it
//!   locks it. Two claims never take one job, and a claim never waits on
//!   another's row (R6, R13).
//! * The claim's own conditions include attempts left and time left
//!   ([`crate::ClaimCondition::ALL`]): here the sweeps before it skip rows
//!   another transaction holds, so the claim cannot lean on them to have
//!   set aside every dead job (R9, R10).
//! * A finish is one guarded `UPDATE`: "0 rows changed" is the refusal
//!   (R4). A refused finish then reads the job's row to say why (R14).
//! * Time is a parameter everywhere: no statement calls `now()` or reads
//!   the server's clock.
//!
//! Parameters are positional (`$1`, ...); each statement's comment names
//! them in order.

/// The `jobs` table, as [`crate::store::JOBS_SCHEMA`] for SQLite, with the
/// same partial indexes. The table's comment marks it as ours: a `jobs`
/// table without it is another program's, and is never written to.
pub(super) const JOBS_SCHEMA: &str = "
CREATE TABLE jobs (
    seq          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- enqueue order
    id           text   NOT NULL UNIQUE,
    qty          bigint NOT NULL CHECK (qty >= 1),
    state        text   NOT NULL DEFAULT 'pending'
                 CHECK (state IN ('pending', 'leased', 'done', 'quarantined', 'expired')),
    owner        text,                         -- NULL until the first claim
    lease_until  bigint,                       -- NULL until the first claim
    token        bigint NOT NULL DEFAULT 0,    -- claim generation (R2)
    attempts     bigint NOT NULL DEFAULT 0,
    max_attempts bigint NOT NULL CHECK (max_attempts >= 1),
    deadline     bigint NOT NULL,
    CHECK (lease_until IS NULL OR lease_until <= deadline)  -- R9
);
CREATE INDEX jobs_live_in_order ON jobs (seq)         WHERE state IN ('pending', 'leased');
CREATE INDEX jobs_live_deadline ON jobs (deadline)    WHERE state IN ('pending', 'leased');
CREATE INDEX jobs_lease_ends    ON jobs (lease_until) WHERE state = 'leased';
COMMENT ON TABLE jobs IS 'leasefence queue';
";

/// What [`JOBS_SCHEMA`] writes as the table's comment.
pub(super) const JOBS_MARK: &str = "leasefence queue";

/// Serializes creating a schema between processes that connect to a new
/// database at once (a transaction-scoped advisory lock). `$1`: the lock's
/// key.
pub(super) const LOCK_SCHEMA: &str = "SELECT pg_advisory_xact_lock($1)";

/// The key [`LOCK_SCHEMA`] takes for the queue's schema ("LFjq").
pub(super) const QUEUE_SCHEMA_KEY: i64 = 0x4C46_6A71;

/// Whether a table is on the search path, and its comment. `$1`: the
/// table's name.
pub(super) const TABLE_MARK: &str = "
SELECT to_regclass($1) IS NOT NULL, obj_description(to_regclass($1), 'pg_class')";

/// Adds a job and returns its row; a taken id fails on the `UNIQUE`
/// constraint. `$1` id, `$2` qty, `$3` max_attempts, `$4` deadline.
pub(super) const ENQUEUE: &str = "
INSERT INTO jobs (id, qty, max_attempts, deadline)
VALUES ($1, $2, $3, $4)
RETURNING id, qty, state, owner, token, attempts, max_attempts, lease_until, deadline";

/// R10: a job whose lease ran out with its attempts used up is set aside.
/// `$1` now.
pub(super) const QUARANTINE: &str = "
UPDATE jobs SET state = 'quarantined'
 WHERE seq IN (SELECT seq FROM jobs
                WHERE state = 'leased' AND lease_until <= $1 AND attempts >= max_attempts
                  FOR UPDATE SKIP LOCKED)";

/// A job at or past its deadline is never claimed; it ends as `expired`.
/// `$1` now.
pub(super) const EXPIRE: &str = "
UPDATE jobs SET state = 'expired'
 WHERE seq IN (SELECT seq FROM jobs
                WHERE state IN ('pending', 'leased') AND deadline <= $1
                  FOR UPDATE SKIP LOCKED)";

/// R5, R6, R9, R10, R11: lock the first claimable job in enqueue order that
/// no other transaction holds, and take it, in one statement. A lease is
/// over exactly when `lease_until <= now` (R5). `$1` now, `$2` owner, `$3`
/// now + lease_ms.
pub(super) const CLAIM: &str = "
WITH chosen AS (
    SELECT seq FROM jobs
     WHERE state IN ('pending', 'leased')
       AND (state = 'pending' OR lease_until <= $1)
       AND attempts < max_attempts
       AND $1 < deadline
     ORDER BY seq
     LIMIT 1
       FOR UPDATE SKIP LOCKED
)
UPDATE jobs
   SET state = 'leased', owner = $2,
       token = token + 1, attempts = attempts + 1,
       lease_until = LEAST($3, deadline)
  FROM chosen
 WHERE jobs.seq = chosen.seq
RETURNING jobs.id, jobs.qty, jobs.owner, jobs.token, jobs.attempts, jobs.lease_until";

/// R4: the fenced finish, as [`crate::store::FINISH`]: one guarded
/// `UPDATE`, and "no row" is the refusal. An accepted finish returns the
/// row it left, in the one round trip an unfenced completion takes.
/// `$1` id, `$2` owner, `$3` token, `$4` attempt, `$5` now.
pub(super) const FINISH: &str = "
UPDATE jobs SET state = 'done'
 WHERE id = $1 AND owner = $2 AND token = $3 AND attempts = $4
   AND state = 'leased' AND $5 < lease_until AND $5 < deadline
RETURNING id, qty, state, owner, token, attempts, max_attempts, lease_until, deadline";

/// One row by id. `$1` id.
pub(super) const ROW: &str = "
SELECT id, qty, state, owner, token, attempts, max_attempts, lease_until, deadline
  FROM jobs WHERE id = $1";

/// All rows, in enqueue order.
pub(super) const ROWS: &str = "
SELECT id, qty, state, owner, token, attempts, max_attempts, lease_until, deadline
  FROM jobs ORDER BY seq";

/// How many jobs can still be claimed or finished.
pub(super) const LIVE_COUNT: &str = "
SELECT count(*) FROM jobs WHERE state IN ('pending', 'leased')";

/// The receiver's ledger (R12), as [`crate::store::DELIVERIES_SCHEMA`] for
/// SQLite: one row per job id, never overwritten, each keeping the
/// ledger's running total up to it, held at 2^53 - 1.
pub(super) const DELIVERIES_SCHEMA: &str = "
CREATE TABLE deliveries (
    seq     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- arrival order
    id      text   NOT NULL UNIQUE,
    qty     bigint NOT NULL CHECK (qty >= 1),
    repeats bigint NOT NULL DEFAULT 0,        -- deliveries ignored as repeats
    total   bigint NOT NULL                   -- sum of qty up to this row
);
COMMENT ON TABLE deliveries IS 'leasefence ledger';
";

/// What [`DELIVERIES_SCHEMA`] writes as the table's comment.
pub(super) const DELIVERIES_MARK: &str = "leasefence ledger";

/// The key [`LOCK_SCHEMA`] takes for the ledger's schema, and each
/// delivery for the ledger's running total: a delivery reads the last
/// row's total and adds to it, so two may not do it at once ("LFrc").
pub(super) const LEDGER_KEY: i64 = 0x4C46_7263;

/// R12: the first delivery of an id is recorded, with the ledger's new
/// total (the last row's plus its qty, held at `$3`), and returns its
/// `seq`; a repeat changes nothing and returns no row. `$1` id, `$2` qty,
/// `$3` the most a total may be.
pub(super) const DELIVER: &str = "
INSERT INTO deliveries (id, qty, total)
SELECT $1, $2, LEAST($3, $2 + coalesce((SELECT total FROM deliveries ORDER BY seq DESC LIMIT 1), 0))
    ON CONFLICT (id) DO NOTHING
RETURNING seq";

/// Counts a repeated delivery of an id the ledger holds, and returns the
/// qty it holds. `$1` id.
pub(super) const COUNT_REPEAT: &str = "
UPDATE deliveries SET repeats = repeats + 1 WHERE id = $1 RETURNING qty";

/// The ledger, in arrival order.
pub(super) const DELIVERIES: &str = "
SELECT id, qty, repeats FROM deliveries ORDER BY seq";
