//! The schema and every statement, as public constants: a caller (the
//! course) shows learners the exact SQL that decided a verdict.

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
/// Each row keeps the ledger's running total up to it, held at 2^53 - 1:
/// the ledger's total as each delivery found it, for whoever reads the
/// file. (It once bounded the total, which let one delivery shut out every
/// later one; ledger files have the column, `NOT NULL`, so it stays.)
pub const DELIVERIES_SCHEMA: &str = "
CREATE TABLE deliveries (
    seq     INTEGER PRIMARY KEY,               -- arrival order
    id      TEXT    NOT NULL UNIQUE,
    qty     INTEGER NOT NULL CHECK (qty >= 1),
    repeats INTEGER NOT NULL DEFAULT 0,        -- deliveries ignored as repeats
    total   INTEGER NOT NULL                   -- sum of qty up to this row
);
";

/// Whether a ledger file's rows keep running totals (files written by
/// earlier versions do not). Files only: the browser's ledgers are new.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) const HAS_RUNNING_TOTALS: &str = "
SELECT count(*) FROM pragma_table_info('deliveries') WHERE name = 'total'";

/// Gives an older ledger file its running totals, from its own rows, held
/// at 2^53 - 1 as [`DELIVER`] holds them.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) const ADD_RUNNING_TOTALS: &str = "
ALTER TABLE deliveries ADD COLUMN total INTEGER NOT NULL DEFAULT 0;
UPDATE deliveries SET total = min(9007199254740991, running.total)
  FROM (SELECT seq, sum(qty) OVER (ORDER BY seq) AS total FROM deliveries) AS running
 WHERE running.seq = deliveries.seq";

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

/// Puts one row's changing columns back to an earlier point of the same
/// playing ([`crate::Player::go_back`]), so a caller that tries every
/// ordering can take the next branch from a shared prefix instead of
/// replaying the prefix again. `qty`, `max_attempts` and `deadline` never
/// change.
pub(crate) const PUT_BACK_ROW: &str = "
UPDATE jobs SET state = :state, owner = :owner, lease_until = :lease_until,
                token = :token, attempts = :attempts
 WHERE id = :id";

/// Takes back a job enqueued after the point a playing goes back to (as
/// [`PUT_BACK_ROW`]).
pub(crate) const TAKE_BACK_JOB: &str = "DELETE FROM jobs WHERE id = :id";

/// Takes back a delivery made after the point a replay goes back to.
pub(crate) const TAKE_BACK_DELIVERY: &str = "
DELETE FROM deliveries WHERE id = :id RETURNING seq";

/// How many deliveries arrived after `:seq`: none may stay after the ones
/// taken back, whose running totals the rows after them would still count.
pub(crate) const DELIVERIES_AFTER: &str = "
SELECT count(*) FROM deliveries WHERE seq > :seq";

/// One row by id.
pub(crate) const ROW: &str = "
SELECT id, qty, state, owner, token, attempts, max_attempts, lease_until, deadline
  FROM jobs WHERE id = :id";

/// All rows, in enqueue order.
pub(crate) const ROWS: &str = "
SELECT id, qty, state, owner, token, attempts, max_attempts, lease_until, deadline
  FROM jobs ORDER BY seq";

/// How many jobs can still be claimed or finished.
pub(crate) const LIVE_COUNT: &str = "
SELECT count(*) FROM jobs WHERE state IN ('pending', 'leased')";

/// R12: the first delivery of an id is recorded, with the ledger's new
/// total (the last row's plus its qty, held at `:max`), and returns its
/// row; a repeat changes nothing and returns no row. (`WHERE true` tells
/// SQLite's parser the `ON` begins the upsert, not a join.)
pub(crate) const DELIVER: &str = "
INSERT INTO deliveries (id, qty, total)
SELECT :id, :qty, min(:max, :qty + coalesce((SELECT total FROM deliveries ORDER BY seq DESC LIMIT 1), 0))
 WHERE true
    ON CONFLICT (id) DO NOTHING
RETURNING seq";

/// Counts a repeated delivery of an id the ledger holds with the same qty.
pub(crate) const COUNT_REPEAT: &str = "
UPDATE deliveries SET repeats = repeats + 1 WHERE id = :id RETURNING qty";

/// The ledger, in arrival order.
pub(crate) const DELIVERIES: &str = "
SELECT id, qty, repeats FROM deliveries ORDER BY seq";

/// The browser's SQLite is the trimmed one of `vendor/sqlite/` (its parser
/// generated without PRAGMA, views, triggers' neighbours, ...; only the
/// built-in SQL functions of `vendor/sqlite/regen/keep-functions.txt`),
/// while native tests use full SQLite: so in Chromium (`wasm-pack test` at
/// the root) this prepares every statement of this file, where one the
/// trimmed parser refuses, or one calling a function the trim removed
/// ("no such function"), fails. The course's statements run in its own
/// browser tests, through [`crate::store::Statements`].
#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;
    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    #[test]
    fn every_statement_of_the_store_parses_in_this_targets_sqlite() {
        let conn = rusqlite::Connection::open_in_memory().expect("opens");
        conn.execute_batch(JOBS_SCHEMA).expect("the jobs schema");
        conn.execute_batch(DELIVERIES_SCHEMA)
            .expect("the ledger schema");
        let statements = [
            ("ENQUEUE", ENQUEUE),
            ("QUARANTINE", QUARANTINE),
            ("EXPIRE", EXPIRE),
            ("CLAIM", CLAIM),
            ("FINISH", FINISH),
            ("PUT_BACK_ROW", PUT_BACK_ROW),
            ("TAKE_BACK_JOB", TAKE_BACK_JOB),
            ("TAKE_BACK_DELIVERY", TAKE_BACK_DELIVERY),
            ("DELIVERIES_AFTER", DELIVERIES_AFTER),
            ("ROW", ROW),
            ("ROWS", ROWS),
            ("LIVE_COUNT", LIVE_COUNT),
            ("DELIVER", DELIVER),
            ("COUNT_REPEAT", COUNT_REPEAT),
            ("DELIVERIES", DELIVERIES),
        ];
        // The transactions: the store's and the statement panel's, and the
        // rollback a dropped rusqlite transaction runs.
        for (name, sql) in statements.into_iter().chain([
            ("BEGIN IMMEDIATE", "BEGIN IMMEDIATE"),
            ("COMMIT", "COMMIT"),
            ("ROLLBACK", "ROLLBACK"),
        ]) {
            if let Err(err) = conn.prepare(sql) {
                panic!("{name} does not parse in this target's SQLite: {err}");
            }
        }
        // The list above is every statement of this file: a constant added
        // here and not there fails this test. The two that upgrade an older
        // ledger file are native only (no file in the browser, no ALTER
        // TABLE in its SQLite); tests/receiver.rs runs them on such a file.
        let declared = include_str!("sql.rs")
            .lines()
            .filter_map(|line| {
                let line = line
                    .strip_prefix("pub(crate) ")
                    .or(line.strip_prefix("pub "))?;
                Some(line.strip_prefix("const ")?.split_once(": &str")?.0)
            })
            .filter(|name| !name.ends_with("_SCHEMA"))
            .filter(|name| !["HAS_RUNNING_TOTALS", "ADD_RUNNING_TOTALS"].contains(name))
            .collect::<Vec<&str>>();
        let listed = statements.map(|(name, _)| name);
        assert_eq!(
            declared, listed,
            "every statement of sql.rs, in its order, is prepared by this test"
        );
    }
}
