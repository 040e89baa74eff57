//! Every SQL statement leasefence runs, and the schema they run against.
//!
//! Nothing outside this module writes SQL. Keeping it in one place lets a
//! reader check the whole locking story at a glance:
//!
//! * claim and finish each run in one short `BEGIN IMMEDIATE` transaction
//!   that decides and writes together (R6): the row is never read first and
//!   written later;
//! * a finish is one guarded `UPDATE`; "0 rows changed" *is* the rejection,
//!   and a read in the same transaction only names the reason (R4, R14);
//! * file databases use the rollback journal (`journal_mode=DELETE`) with
//!   `synchronous=FULL`, and contention waits in a short busy handler.
//!
//! The statements are public constants so the playground can show learners
//! the exact SQL that decided a verdict.

use std::collections::BTreeMap;

use rusqlite::types::ToSqlOutput;
use rusqlite::{
    Connection, OptionalExtension, Row, ToSql, Transaction, TransactionBehavior, named_params,
};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::model::{Claim, Finish, JobRow, JobState, NewJob, Reason, Stamp};

/// Written into the header of a queue database (`PRAGMA application_id`),
/// so a file of another program is refused instead of altered ("LFjq").
#[cfg(not(target_arch = "wasm32"))]
const QUEUE_APP_ID: i32 = 0x4C46_6A71;
/// The same for a receiver database ("LFrc").
#[cfg(not(target_arch = "wasm32"))]
const RECEIVER_APP_ID: i32 = 0x4C46_7263;

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
/// before any new token can be issued for it.
pub const QUARANTINE: &str = "
UPDATE jobs SET state = 'quarantined'
 WHERE state = 'leased' AND lease_until <= :now AND attempts >= max_attempts";

/// A job at or past its deadline is never claimed; it ends as `expired`.
pub const EXPIRE: &str = "
UPDATE jobs SET state = 'expired'
 WHERE state IN ('pending', 'leased') AND deadline <= :now";

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

/// Which of our two schemas a connection holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The job queue.
    Queue,
    /// The idempotent receiver's ledger.
    Receiver,
}

impl Kind {
    #[cfg(not(target_arch = "wasm32"))]
    fn app_id(self) -> i32 {
        match self {
            Kind::Queue => QUEUE_APP_ID,
            Kind::Receiver => RECEIVER_APP_ID,
        }
    }

    fn schema(self) -> &'static str {
        match self {
            Kind::Queue => JOBS_SCHEMA,
            Kind::Receiver => DELIVERIES_SCHEMA,
        }
    }
}

/// Opens (creating if needed) a database file with the rollback journal and
/// a busy handler, and checks that it is ours.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn open_file(path: &std::path::Path, kind: Kind) -> Result<Connection> {
    let mut conn = Connection::open(path)?;
    conn.busy_handler(Some(wait_briefly))?;
    let shown = path.display().to_string();
    // Reading the header is the first access: a file that is not SQLite at
    // all fails here.
    let header = conn
        .pragma_query_value(None, "application_id", |row| row.get::<_, i32>(0))
        .map_err(|err| not_ours(&shown, err.to_string()))?;
    // Refuse another program's database before any pragma below writes to
    // it (setting journal_mode would convert a WAL file for good).
    if header != kind.app_id() {
        let tables: i64 =
            conn.query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))?;
        if let Some(why) = foreign(header, tables, kind) {
            return Err(not_ours(&shown, why));
        }
    }
    let journal: String =
        conn.pragma_update_and_check(None, "journal_mode", "DELETE", |row| row.get(0))?;
    if !journal.eq_ignore_ascii_case("delete") {
        return Err(not_ours(&shown, format!("journal_mode is {journal}")));
    }
    conn.pragma_update(None, "synchronous", "FULL")?;
    // A claim or finish dirties four b-tree pages (the row and three small
    // indexes); with 1 KiB pages its journal is as small as one default
    // page. Measured in BENCHMARKS.md. Only a new file takes the setting.
    conn.pragma_update(None, "page_size", 1024)?;
    if header != kind.app_id() {
        init(&conn, kind, &shown)?;
    }
    Ok(conn)
}

/// Opens a private in-memory database with the schema of `kind`. It is new
/// and no one else's, so there is no header to check or write: the
/// browser's SQLite is built without `PRAGMA` (`SQLITE_OMIT_PRAGMA`, see
/// `vendor/sqlite/README.md`), and this is all the browser runs to open one.
pub(crate) fn open_memory(kind: Kind) -> Result<Connection> {
    let conn = Connection::open_in_memory()?;
    let tx = immediate(&conn)?;
    tx.execute_batch(kind.schema())?;
    tx.commit()?;
    Ok(conn)
}

/// Creates the schema in an empty database file. Two processes may race to
/// do it, so the check and the creation share one write transaction.
#[cfg(not(target_arch = "wasm32"))]
fn init(conn: &Connection, kind: Kind, shown: &str) -> Result<()> {
    let tx = immediate(conn)?;
    let app_id: i32 = tx.query_row("PRAGMA application_id", [], |row| row.get(0))?;
    if app_id == kind.app_id() {
        return Ok(()); // another process created it first
    }
    let tables: i64 = tx.query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))?;
    if let Some(why) = foreign(app_id, tables, kind) {
        return Err(not_ours(shown, why));
    }
    tx.execute_batch(kind.schema())?;
    tx.pragma_update(None, "application_id", kind.app_id())?;
    tx.commit()?;
    Ok(())
}

/// Why a database with this header and this many schema objects is not one
/// of ours to use as `kind`; `None` for ours or for an empty one.
#[cfg(not(target_arch = "wasm32"))]
fn foreign(app_id: i32, tables: i64, kind: Kind) -> Option<String> {
    if app_id == kind.app_id() || (app_id == 0 && tables == 0) {
        return None;
    }
    Some(match (app_id, kind) {
        (QUEUE_APP_ID, Kind::Receiver) => "it is a queue database, not a receiver's".into(),
        (RECEIVER_APP_ID, Kind::Queue) => "it is a receiver database, not a queue".into(),
        _ => format!("it holds {tables} other schema objects"),
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn not_ours(path: &str, why: String) -> Error {
    Error::NotOurDatabase {
        path: path.to_owned(),
        why,
    }
}

/// SQLite's own busy timeout sleeps longer and longer (up to 100 ms), so a
/// waiting process can lose every race to one that never stops claiming.
/// Short, jittered sleeps keep the workers' shares fair; after about ten
/// seconds of waiting the caller gets `SQLITE_BUSY`.
#[cfg(not(target_arch = "wasm32"))]
fn wait_briefly(retries: i32) -> bool {
    const GIVE_UP_AFTER: i32 = 20_000;
    if retries >= GIVE_UP_AFTER {
        return false;
    }
    // Cheap jitter from the process id and the retry count: 50..=1049 us.
    let mixed =
        (retries as u64 ^ u64::from(std::process::id())).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let micros = 50 + (mixed >> 32) % 1000;
    std::thread::sleep(std::time::Duration::from_micros(micros));
    true
}

fn immediate(conn: &Connection) -> Result<Transaction<'_>> {
    Ok(Transaction::new_unchecked(
        conn,
        TransactionBehavior::Immediate,
    )?)
}

/// A value bound to a statement parameter: what SQLite received.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Bound {
    /// An integer (times, quantities, tokens).
    Int(i64),
    /// A string (ids and names).
    Text(String),
}

impl ToSql for Bound {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Bound::Int(value) => value.to_sql(),
            Bound::Text(value) => value.to_sql(),
        }
    }
}

/// SQLite stores signed 64-bit integers; every value we bind was checked to
/// be at most [`crate::MAX_INT`], so the conversion cannot fail in practice.
fn int(value: u64) -> Bound {
    Bound::Int(i64::try_from(value).unwrap_or(i64::MAX))
}

fn text(value: &str) -> Bound {
    Bound::Text(value.to_owned())
}

/// One statement as the queue ran it: the text, the values bound to it, and
/// how many rows it changed (a write) or returned (a read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Executed {
    /// The statement, as in this module's constants.
    pub sql: &'static str,
    /// Parameter name -> bound value, in binding order.
    pub params: Vec<(&'static str, Bound)>,
    /// Whether the statement writes.
    pub write: bool,
    /// Rows changed (a write) or returned (a read).
    pub rows: usize,
}

/// Where the statements of one operation are written down, when someone
/// (the playground) asked for them. Off, it costs nothing.
#[derive(Debug, Default)]
pub struct SqlLog {
    entries: Option<Vec<Executed>>,
}

impl SqlLog {
    /// Starts (or stops) writing statements down.
    pub fn record(&mut self, on: bool) {
        self.entries = on.then(Vec::new);
    }

    /// The statements written down since the last call.
    pub fn take(&mut self) -> Vec<Executed> {
        self.entries
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    fn note(
        &mut self,
        sql: &'static str,
        params: &[(&'static str, Bound)],
        write: bool,
        rows: usize,
    ) {
        if let Some(entries) = &mut self.entries {
            entries.push(Executed {
                sql: sql.trim(),
                params: params.to_vec(),
                write,
                rows,
            });
        }
    }
}

type Params = [(&'static str, Bound)];

fn bind(params: &Params) -> Vec<(&str, &dyn ToSql)> {
    params
        .iter()
        .map(|(name, value)| (*name, value as &dyn ToSql))
        .collect()
}

/// Runs a write and notes it.
fn write(conn: &Connection, log: &mut SqlLog, sql: &'static str, params: &Params) -> Result<usize> {
    let changed = conn.prepare_cached(sql)?.execute(bind(params).as_slice())?;
    log.note(sql, params, true, changed);
    Ok(changed)
}

/// Runs a statement that yields at most one row (a read, or a write with
/// `RETURNING`; the flag says which) and notes it.
fn one<T>(
    conn: &Connection,
    log: &mut SqlLog,
    (sql, write): (&'static str, bool),
    params: &Params,
    map: impl FnOnce(&Row<'_>) -> rusqlite::Result<T>,
) -> Result<Option<T>> {
    let found = conn
        .prepare_cached(sql)?
        .query_row(bind(params).as_slice(), map)
        .optional()?;
    log.note(sql, params, write, usize::from(found.is_some()));
    Ok(found)
}

/// `BEGIN IMMEDIATE`, noted: the write lock is taken before anything is read.
fn begin<'c>(conn: &'c Connection, log: &mut SqlLog) -> Result<Transaction<'c>> {
    let tx = immediate(conn)?;
    log.note("BEGIN IMMEDIATE", &[], false, 0);
    Ok(tx)
}

fn commit(tx: Transaction<'_>, log: &mut SqlLog) -> Result<()> {
    tx.commit()?;
    log.note("COMMIT", &[], false, 0);
    Ok(())
}

fn read_u64(row: &Row<'_>, index: usize) -> rusqlite::Result<u64> {
    Ok(row.get::<_, i64>(index)?.max(0) as u64)
}

fn read_job(row: &Row<'_>) -> rusqlite::Result<JobRow> {
    let state: String = row.get(2)?;
    Ok(JobRow {
        id: row.get(0)?,
        qty: read_u64(row, 1)?,
        state: JobState::parse(&state).ok_or_else(|| {
            rusqlite::Error::FromSqlConversionFailure(
                2,
                rusqlite::types::Type::Text,
                format!("unknown state {state:?}").into(),
            )
        })?,
        owner: row.get(3)?,
        token: read_u64(row, 4)?,
        attempts: read_u64(row, 5)?,
        max_attempts: read_u64(row, 6)?,
        lease_until: row.get::<_, Option<i64>>(7)?.map(|v| v.max(0) as u64),
        deadline: read_u64(row, 8)?,
    })
}

fn job_row(conn: &Connection, log: &mut SqlLog, id: &str) -> Result<Option<JobRow>> {
    one(conn, log, (ROW, false), &[(":id", text(id))], read_job)
}

/// Inserts a job and returns it as stored.
pub(crate) fn enqueue(conn: &Connection, log: &mut SqlLog, job: &NewJob) -> Result<JobRow> {
    let tx = begin(conn, log)?;
    let params = [
        (":id", text(&job.id)),
        (":qty", int(job.qty)),
        (":max_attempts", int(job.max_attempts)),
        (":deadline", int(job.deadline)),
    ];
    match write(&tx, log, ENQUEUE, &params) {
        Err(Error::Sqlite(rusqlite::Error::SqliteFailure(err, _)))
            if err.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE =>
        {
            return Err(Error::DuplicateJob { id: job.id.clone() });
        }
        other => other?,
    };
    let row = job_row(&tx, log, &job.id)?.ok_or_else(|| Error::Internal {
        what: format!("job {:?} vanished after insert", job.id),
    })?;
    commit(tx, log)?;
    Ok(row)
}

/// Sets aside dead jobs, then claims the first claimable one, all in one
/// write transaction (R6, R10).
pub(crate) fn claim(
    conn: &Connection,
    log: &mut SqlLog,
    owner: &str,
    now: u64,
    lease_ms: u64,
) -> Result<Option<Claim>> {
    let tx = begin(conn, log)?;
    write(&tx, log, QUARANTINE, &[(":now", int(now))])?;
    write(&tx, log, EXPIRE, &[(":now", int(now))])?;
    let params = [
        (":owner", text(owner)),
        (":now_plus_lease", int(now.saturating_add(lease_ms))),
        (":now", int(now)),
    ];
    let claim = one(&tx, log, (CLAIM, true), &params, |row| {
        Ok(Claim {
            id: row.get(0)?,
            qty: read_u64(row, 1)?,
            owner: row.get(2)?,
            token: read_u64(row, 3)?,
            attempt: read_u64(row, 4)?,
            lease_until: read_u64(row, 5)?,
        })
    })?;
    commit(tx, log)?;
    Ok(claim)
}

/// Runs the fenced finish and, in the same transaction, reads the row to
/// say why when nothing changed (R4, R14).
pub(crate) fn finish(
    conn: &Connection,
    log: &mut SqlLog,
    stamp: &Stamp,
    now: u64,
) -> Result<Finish> {
    let tx = begin(conn, log)?;
    let params = [
        (":id", text(&stamp.id)),
        (":owner", text(&stamp.owner)),
        (":token", int(stamp.token)),
        (":attempt", int(stamp.attempt)),
        (":now", int(now)),
    ];
    let changed = write(&tx, log, FINISH, &params)?;
    let current = job_row(&tx, log, &stamp.id)?;
    commit(tx, log)?;
    if changed == 1 {
        return Ok(Finish {
            accepted: true,
            reason: None,
            expected: Some(stamp.clone()),
            current,
        });
    }
    // The row was read after the UPDATE found nothing, inside the same
    // transaction, so it is exactly the row the guard refused.
    let reason = Reason::first(stamp, current.as_ref(), now).ok_or_else(|| Error::Internal {
        what: format!(
            "finish of {:?} changed nothing, yet every condition holds",
            stamp.id
        ),
    })?;
    Ok(Finish::rejected(reason, Some(stamp.clone()), current))
}

/// Runs one of the naive finishes on purpose, for the side-by-side
/// comparison; never used by [`crate::Queue`].
pub(crate) fn naive_finish(
    conn: &Connection,
    log: &mut SqlLog,
    guard: Guard,
    stamp: &Stamp,
) -> Result<(bool, Option<JobRow>)> {
    let tx = begin(conn, log)?;
    let changed = match guard {
        Guard::IdOnly => write(&tx, log, NAIVE_FINISH_BY_ID, &[(":id", text(&stamp.id))])?,
        Guard::IdAndOwner => write(
            &tx,
            log,
            NAIVE_FINISH_BY_OWNER,
            &[(":id", text(&stamp.id)), (":owner", text(&stamp.owner))],
        )?,
    };
    let current = job_row(&tx, log, &stamp.id)?;
    commit(tx, log)?;
    Ok((changed == 1, current))
}

/// All rows in enqueue order.
pub(crate) fn rows(conn: &Connection) -> Result<Vec<JobRow>> {
    let mut stmt = conn.prepare_cached(ROWS)?;
    let rows = stmt
        .query_map([], read_job)?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// One row by id.
pub(crate) fn row(conn: &Connection, id: &str) -> Result<Option<JobRow>> {
    job_row(conn, &mut SqlLog::default(), id)
}

/// Jobs still pending or leased.
pub(crate) fn live_count(conn: &Connection) -> Result<u64> {
    let count: i64 = conn
        .prepare_cached(LIVE_COUNT)?
        .query_row([], |row| row.get(0))?;
    Ok(count.max(0) as u64)
}

/// What the ledger did with one delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recorded {
    /// First delivery of this id: its qty now counts.
    Applied,
    /// The id was already recorded with the same qty: nothing added.
    Repeat,
}

/// Records a delivery once (R12). A repeat with another qty is refused and
/// changes nothing.
pub(crate) fn deliver(conn: &Connection, id: &str, qty: u64) -> Result<Recorded> {
    let tx = immediate(conn)?;
    let inserted = tx
        .prepare_cached(DELIVER)?
        .execute(named_params! {":id": id, ":qty": i64::try_from(qty).unwrap_or(i64::MAX)})?;
    if inserted == 1 {
        tx.commit()?;
        return Ok(Recorded::Applied);
    }
    let stored: i64 = tx
        .prepare_cached(COUNT_REPEAT)?
        .query_row(named_params! {":id": id}, |row| row.get(0))?;
    let stored = stored.max(0) as u64;
    if stored != qty {
        // Dropping the transaction rolls the repeat count back.
        return Err(Error::DeliveryConflict {
            id: id.to_owned(),
            stored,
            offered: qty,
        });
    }
    tx.commit()?;
    Ok(Recorded::Repeat)
}

/// The ledger: job id -> (qty applied, repeats ignored).
pub(crate) fn deliveries(conn: &Connection) -> Result<BTreeMap<String, (u64, u64)>> {
    let mut stmt = conn.prepare_cached(DELIVERIES)?;
    let ledger = stmt
        .query_map([], |row| {
            Ok((
                row.get::<_, String>(0)?,
                (read_u64(row, 1)?, read_u64(row, 2)?),
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(ledger)
}
