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
//! The statements are public constants so a caller (the course) can show
//! learners the exact SQL that decided a verdict. [`Statements`] runs them
//! one at a time, for a model that interleaves several actors' statements,
//! and runs a statement written outside this crate (a teaching variant's,
//! a learner's) in place of one of the queue's: the one seam through which
//! other SQL reaches the queue's schema.

mod log;
mod open;
mod outside;
mod script;
mod sql;
mod steps;

use rusqlite::{Connection, OptionalExtension, Row, Transaction, named_params};

use crate::error::{Error, Result};
use crate::fence::Finish;
use crate::fence::Verdict;
use crate::model::{Claim, JobRow, JobState, MAX_INT, NewJob, Stamp};
use log::{Params, bind, int, text};
use open::immediate;

pub(crate) use log::SqlLog;
pub use log::{Bound, Executed};
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use open::{Create, open_file};
pub(crate) use open::{Kind, open_memory};
pub use outside::{Budget, CANDIDATE_COLUMNS, MAX_SQL_BYTES, MAX_STEPS, Outside, Replaces};
pub use script::{Piece, Script};
pub use sql::*;
pub use steps::Statements;

/// `sql`, compiled once per connection and kept (rusqlite's statement
/// cache): a queue runs the same few statements again and again, and
/// compiling each one every time made long replays in the browser twice
/// as slow (BENCHMARKS.md).
fn prepare<'c>(conn: &'c Connection, sql: &str) -> rusqlite::Result<rusqlite::CachedStatement<'c>> {
    conn.prepare_cached(sql)
}

/// Runs a write of the job named by its `:id` and notes it.
fn write(conn: &Connection, log: &mut SqlLog, sql: &'static str, params: &Params) -> Result<usize> {
    let changed = prepare(conn, sql)?.execute(bind(params).as_slice())?;
    log.note(sql, params, true, changed);
    if changed > 0 {
        for (name, value) in params {
            if let (":id", Bound::Text(id)) = (*name, value) {
                log.touch(id);
            }
        }
    }
    Ok(changed)
}

/// Runs a sweep (a write over any number of jobs, `RETURNING id`) and
/// notes it with the jobs it changed.
fn sweep(conn: &Connection, log: &mut SqlLog, sql: &'static str, params: &Params) -> Result<usize> {
    let mut statement = prepare(conn, sql)?;
    let ids = statement
        .query_map(bind(params).as_slice(), |row| row.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    log.note(sql, params, true, ids.len());
    for id in &ids {
        log.touch(id);
    }
    Ok(ids.len())
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
    let found = prepare(conn, sql)?
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

/// A claim from `RETURNING id, qty, owner, token, attempts, lease_until`.
fn read_claim(row: &Row<'_>) -> rusqlite::Result<Claim> {
    Ok(Claim {
        id: row.get(0)?,
        qty: read_u64(row, 1)?,
        owner: row.get(2)?,
        token: read_u64(row, 3)?,
        attempt: read_u64(row, 4)?,
        lease_until: read_u64(row, 5)?,
    })
}

fn job_row(conn: &Connection, log: &mut SqlLog, id: &str) -> Result<Option<JobRow>> {
    one(conn, log, (ROW, false), &[(":id", text(id))], read_job)
}

/// The values [`ENQUEUE`] binds.
fn enqueue_params(job: &NewJob) -> [(&'static str, Bound); 4] {
    [
        (":id", text(&job.id)),
        (":qty", int(job.qty)),
        (":max_attempts", int(job.max_attempts)),
        (":deadline", int(job.deadline)),
    ]
}

/// The values [`CLAIM`] binds.
fn claim_params(owner: &str, now: u64, lease_ms: u64) -> [(&'static str, Bound); 3] {
    [
        (":owner", text(owner)),
        (":now_plus_lease", int(now.saturating_add(lease_ms))),
        (":now", int(now)),
    ]
}

/// The values [`FINISH`] binds.
fn finish_params(stamp: &Stamp, now: u64) -> [(&'static str, Bound); 5] {
    [
        (":id", text(&stamp.id)),
        (":owner", text(&stamp.owner)),
        (":token", int(stamp.token)),
        (":attempt", int(stamp.attempt)),
        (":now", int(now)),
    ]
}

/// Inserts a job and returns it as stored.
pub(crate) fn enqueue(conn: &Connection, log: &mut SqlLog, job: &NewJob) -> Result<JobRow> {
    let tx = begin(conn, log)?;
    match write(&tx, log, ENQUEUE, &enqueue_params(job)) {
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

/// What every claim does first, in its transaction: a job out of attempts
/// is quarantined and one past its deadline expired (R10, R9), so neither
/// is claimed.
fn set_aside(tx: &Transaction<'_>, log: &mut SqlLog, now: u64) -> Result<()> {
    sweep(tx, log, QUARANTINE, &[(":now", int(now))])?;
    sweep(tx, log, EXPIRE, &[(":now", int(now))])?;
    Ok(())
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
    set_aside(&tx, log, now)?;
    let params = claim_params(owner, now, lease_ms);
    let claim = one(&tx, log, (CLAIM, true), &params, read_claim)?;
    if let Some(claim) = &claim {
        log.touch(&claim.id);
    }
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
    let changed = write(&tx, log, FINISH, &finish_params(stamp, now))?;
    let current = job_row(&tx, log, &stamp.id)?;
    commit(tx, log)?;
    // The row was read after the UPDATE, inside the same transaction, so it
    // is exactly the row the guard decided on.
    if changed != 1 {
        return Finish::refused(stamp, current, now);
    }
    Ok(Finish {
        verdict: Verdict::Accepted,
        expected: Some(stamp.clone()),
        current,
    })
}

/// Runs `sql`, a finish written outside this crate, in place of [`FINISH`]
/// (see [`crate::Queue::finish_with`]): it binds those of the stamp's
/// `:id, :owner, :token, :attempt` and `:now` that `sql` names.
pub(crate) fn finish_with(
    conn: &Connection,
    log: &mut SqlLog,
    sql: &'static str,
    stamp: &Stamp,
    now: u64,
) -> Result<(bool, Option<JobRow>)> {
    let tx = begin(conn, log)?;
    let params = used(&tx, sql, &finish_params(stamp, now))?;
    let changed = write(&tx, log, sql, &params)?;
    let current = job_row(&tx, log, &stamp.id)?;
    commit(tx, log)?;
    Ok((changed == 1, current))
}

/// Runs `outside`, a checked finish written outside the queue, in place of
/// [`FINISH`], its work bounded by `budget`, in its own write transaction:
/// `(whether it changed any row, the stamp's row after)`. An error SQLite
/// raises while it runs (a failed `CHECK`, too much work) rolls it back.
/// Its text is not in the log, which holds the statements of this module
/// by their constants; the transaction around it and the row read after
/// it are.
pub(crate) fn finish_outside(
    conn: &Connection,
    log: &mut SqlLog,
    budget: &Budget,
    outside: &Outside,
    stamp: &Stamp,
    now: u64,
) -> Result<(bool, Option<JobRow>)> {
    let tx = begin(conn, log)?;
    let params = used(&tx, outside.sql(), &finish_params(stamp, now))?;
    let changed = budget
        .bounded(|| prepare(&tx, outside.sql())?.execute(bind(&params).as_slice()))
        .map_err(|err| Error::invalid("sql", outside::sqlite_problem(&err)))?;
    let current = job_row(&tx, log, &stamp.id)?;
    commit(tx, log)?;
    Ok((changed > 0, current))
}

/// Runs `outside`, a checked claim written outside the queue, in place of
/// [`CLAIM`], after the queue's own sweeps and in the same write
/// transaction, its work bounded by `budget`: the claim it returned, if
/// any (its first row, read as [`CLAIM`]'s). A value the claim cannot hold
/// (a `NULL` token) or an error SQLite raises rolls it back.
pub(crate) fn claim_outside(
    conn: &Connection,
    log: &mut SqlLog,
    budget: &Budget,
    outside: &Outside,
    owner: &str,
    now: u64,
    lease_ms: u64,
) -> Result<Option<Claim>> {
    let tx = begin(conn, log)?;
    set_aside(&tx, log, now)?;
    let params = used(&tx, outside.sql(), &claim_params(owner, now, lease_ms))?;
    let claim = budget
        .bounded(|| {
            prepare(&tx, outside.sql())?
                .query_row(bind(&params).as_slice(), read_claim)
                .optional()
        })
        .map_err(|err| Error::invalid("sql", outside::sqlite_problem(&err)))?;
    commit(tx, log)?;
    Ok(claim)
}

/// The values of `params` that `sql` names: a statement written outside
/// this crate may use only some of them, and SQLite refuses a value bound
/// to a name the statement does not have.
pub(super) fn used(
    conn: &Connection,
    sql: &str,
    params: &[(&'static str, Bound)],
) -> Result<Vec<(&'static str, Bound)>> {
    let statement = prepare(conn, sql)?;
    let named: Vec<&str> = (1..=statement.parameter_count())
        .filter_map(|index| statement.parameter_name(index))
        .collect();
    Ok(params
        .iter()
        .filter(|(name, _)| named.contains(name))
        .cloned()
        .collect())
}

/// All rows in enqueue order.
pub(crate) fn rows(conn: &Connection) -> Result<Vec<JobRow>> {
    let mut stmt = prepare(conn, ROWS)?;
    let rows = stmt
        .query_map([], read_job)?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// One row by id.
pub(crate) fn row(conn: &Connection, id: &str) -> Result<Option<JobRow>> {
    job_row(conn, &mut SqlLog::default(), id)
}

/// Puts the table back to `then`, an earlier point of the replay that led
/// to `now` (the table as it is): rows that differ get their changing
/// columns back, jobs enqueued since are taken out. Because rows are only
/// ever added, every job of `then` is in `now`, under the same `seq`.
pub(crate) fn put_back(conn: &Connection, now: &[JobRow], then: &[JobRow]) -> Result<()> {
    for row in now {
        match then.iter().find(|old| old.id == row.id) {
            Some(old) if old == row => {}
            Some(old) => {
                prepare(conn, PUT_BACK_ROW)?.execute(named_params! {
                    ":state": old.state.as_str(),
                    ":owner": old.owner.as_deref(),
                    ":lease_until": old.lease_until.map(|v| i64::try_from(v).unwrap_or(i64::MAX)),
                    ":token": i64::try_from(old.token).unwrap_or(i64::MAX),
                    ":attempts": i64::try_from(old.attempts).unwrap_or(i64::MAX),
                    ":id": old.id,
                })?;
            }
            None => {
                prepare(conn, TAKE_BACK_JOB)?.execute(named_params! {":id": row.id})?;
            }
        }
    }
    Ok(())
}

/// Takes the deliveries of `ids` out of the ledger (the census's rewind,
/// as [`put_back`]). They must be the ledger's last rows (those made since
/// the point it goes back to), so the running totals of the rows that stay
/// are still right: a take-back that would leave a later row is refused
/// and changes nothing.
pub(crate) fn take_back_deliveries(conn: &Connection, ids: &[String]) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    let tx = immediate(conn)?;
    let mut first: Option<i64> = None;
    for id in ids {
        let seq: Option<i64> = prepare(&tx, TAKE_BACK_DELIVERY)?
            .query_row(named_params! {":id": id}, |row| row.get(0))
            .optional()?;
        if let Some(seq) = seq {
            first = Some(first.map_or(seq, |first| first.min(seq)));
        }
    }
    if let Some(first) = first {
        let after: i64 = prepare(&tx, DELIVERIES_AFTER)?
            .query_row(named_params! {":seq": first}, |row| row.get(0))?;
        if after > 0 {
            return Err(Error::Internal {
                what: "deliveries taken back that are not the ledger's last".into(),
            });
        }
    }
    tx.commit()?;
    Ok(())
}

/// Jobs still pending or leased.
pub(crate) fn live_count(conn: &Connection) -> Result<u64> {
    let count: i64 = prepare(conn, LIVE_COUNT)?.query_row([], |row| row.get(0))?;
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
/// changes nothing. The sum of the quantities never refuses one: a total
/// that refused past [`MAX_INT`] let one delivery of that qty shut out
/// every later one.
pub(crate) fn deliver(conn: &Connection, id: &str, qty: u64) -> Result<Recorded> {
    let tx = immediate(conn)?;
    let params = named_params! {
        ":id": id,
        ":qty": i64::try_from(qty).unwrap_or(i64::MAX),
        ":max": MAX_INT as i64,
    };
    let applied = prepare(&tx, DELIVER)?
        .query_row(params, |_| Ok(()))
        .optional()?;
    if applied.is_some() {
        tx.commit()?;
        return Ok(Recorded::Applied);
    }
    let stored: i64 =
        prepare(&tx, COUNT_REPEAT)?.query_row(named_params! {":id": id}, |row| row.get(0))?;
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

/// The ledger in arrival order: (job id, qty applied, repeats ignored).
/// A list, not a map: the callers build what they answer with, and a
/// second map type would be code the browser's module carries for nothing.
pub(crate) fn deliveries(conn: &Connection) -> Result<Vec<(String, u64, u64)>> {
    let mut stmt = prepare(conn, DELIVERIES)?;
    let mut rows = stmt.query([])?;
    let mut ledger = Vec::new();
    while let Some(row) = rows.next()? {
        ledger.push((row.get(0)?, read_u64(row, 1)?, read_u64(row, 2)?));
    }
    Ok(ledger)
}
