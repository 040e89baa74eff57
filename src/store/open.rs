//! Opening databases: files with the rollback journal, a busy handler and
//! a check that the file is ours; in-memory databases for the browser and
//! the playground.

use rusqlite::{Connection, Transaction, TransactionBehavior};

#[cfg(not(target_arch = "wasm32"))]
use super::sql::{ADD_RUNNING_TOTALS, HAS_RUNNING_TOTALS};
use super::sql::{DELIVERIES_SCHEMA, JOBS_SCHEMA};
#[cfg(not(target_arch = "wasm32"))]
use crate::error::Error;
use crate::error::Result;

/// Written into the header of a queue database (`PRAGMA application_id`),
/// so a file of another program is refused instead of altered ("LFjq").
#[cfg(not(target_arch = "wasm32"))]
const QUEUE_APP_ID: i32 = 0x4C46_6A71;
/// The same for a receiver database ("LFrc").
#[cfg(not(target_arch = "wasm32"))]
const RECEIVER_APP_ID: i32 = 0x4C46_7263;

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

/// Whether opening a file may create our schema in it.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Create {
    /// In a new or empty file (the first `enqueue`, the receiver).
    IfEmpty,
    /// Never: the file must already be ours (every read, and writes to a
    /// queue that must exist).
    Never,
}

/// Opens a database file with the rollback journal and a busy handler,
/// creating the schema in an empty one if `create` allows; checks that it
/// is ours and that it passes SQLite's integrity check, before anything is
/// written to it.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn open_file(path: &std::path::Path, kind: Kind, create: Create) -> Result<Connection> {
    let mut conn = Connection::open(path)?;
    conn.busy_handler(Some(wait_briefly))?;
    let shown = path.display().to_string();
    // Reading the header is the first access: a file that is not SQLite at
    // all fails here. A file whose lock another process holds past the
    // busy handler's patience is busy (`Error::Busy`), not a stranger's
    // file: it may be a good queue.
    let header = conn
        .pragma_query_value(None, "application_id", |row| row.get::<_, i32>(0))
        .map_err(|err| match err.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                err.into()
            }
            _ => not_ours(&shown, err.to_string()),
        })?;
    // Refuse another program's database before any pragma below writes to
    // it (setting journal_mode would convert a WAL file for good).
    if header != kind.app_id() {
        let tables: i64 =
            conn.query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))?;
        if let Some(why) = foreign(header, tables, kind) {
            return Err(not_ours(&shown, why));
        }
        if create == Create::Never {
            return Err(not_ours(
                &shown,
                "it is empty: nothing was created in it yet".into(),
            ));
        }
    } else {
        // integrity_check, not quick_check: only it compares each index
        // with its table, and a claim reads the index (an index entry
        // moved to another row passed quick_check and was written to).
        // It costs about a third more than quick_check, which reads every
        // page too (BENCHMARKS.md).
        let verdict: String = conn.query_row("PRAGMA integrity_check", [], |row| row.get(0))?;
        if verdict != "ok" {
            return Err(not_ours(
                &shown,
                format!("it fails SQLite's integrity check: {verdict}"),
            ));
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
    } else if kind == Kind::Receiver {
        add_running_totals(&conn)?;
    }
    Ok(conn)
}

/// A ledger written before its rows kept running totals gets
/// the column, filled from the rows themselves, in one write transaction;
/// a ledger that has it is only read.
#[cfg(not(target_arch = "wasm32"))]
fn add_running_totals(conn: &Connection) -> Result<()> {
    let has_totals = |conn: &Connection| -> Result<bool> {
        Ok(conn.query_row(HAS_RUNNING_TOTALS, [], |row| row.get(0))?)
    };
    // Asked first without a write lock: a ledger that has them is only read.
    if has_totals(conn)? {
        return Ok(());
    }
    let tx = immediate(conn)?;
    if !has_totals(&tx)? {
        tx.execute_batch(ADD_RUNNING_TOTALS)?; // unless another process just did
    }
    tx.commit()?;
    Ok(())
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
/// Short, jittered sleeps keep the workers' shares fair. The caller gets
/// `SQLITE_BUSY` once the sleeps asked for add up to [`PATIENCE_MICROS`]:
/// a sleep is never shorter than asked, so it has then waited at least
/// that long (counting retries instead said "about 10 s" and took 16 s on
/// a loaded machine, where each sleep overshoots). The sum is kept per
/// thread, from the first retry of each wait (SQLite passes 0 then).
#[cfg(not(target_arch = "wasm32"))]
fn wait_briefly(retries: i32) -> bool {
    thread_local! {
        static WAITED_MICROS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }
    let waited = if retries == 0 { 0 } else { WAITED_MICROS.get() };
    if waited >= PATIENCE_MICROS {
        return false;
    }
    // Cheap jitter from the process id and the retry count: 50..=1049 us.
    let mixed =
        (retries as u64 ^ u64::from(std::process::id())).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let micros = 50 + (mixed >> 32) % 1000;
    WAITED_MICROS.set(waited + micros);
    std::thread::sleep(std::time::Duration::from_micros(micros));
    true
}

/// How long a transaction waits for another process's lock before it
/// gives up ([`crate::Error::Busy`]): 10 s.
#[cfg(not(target_arch = "wasm32"))]
const PATIENCE_MICROS: u64 = 10_000_000;

pub(super) fn immediate(conn: &Connection) -> Result<Transaction<'_>> {
    Ok(Transaction::new_unchecked(
        conn,
        TransactionBehavior::Immediate,
    )?)
}
