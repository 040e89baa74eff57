//! The queue on a PostgreSQL server: the contract of [`crate::Queue`]
//! (enqueue, claim, finish, the rows), run through the `postgres` client
//! with the statements of [`sql`]. Native only.
//!
//! Each call is one short transaction that decides and writes together
//! (R6), and nothing here waits on the network but for the server itself
//! (R7 is the caller's: [`crate::Queue::process_one`] sends between the
//! claim's commit and the finish). A lock another session holds is waited
//! for at most [`LOCK_TIMEOUT`], then [`Error::Busy`], as a SQLite file's.

mod ledger;
mod sql;

pub(crate) use ledger::Ledger;

use std::cell::{RefCell, RefMut};
use std::collections::HashMap;

use postgres::error::SqlState;
use postgres::types::ToSql;
use postgres::{Client, NoTls, Row, Statement};

use crate::error::{Error, Result};
use crate::fence::{Finish, Verdict};
use crate::model::{Claim, JobRow, JobState, NewJob, Stamp};
use crate::store::Create;
use sql::*;

/// How long a statement waits for a row lock another session holds.
/// Claims never wait (they skip locked rows); a finish waits for the
/// claim or finish that holds its job's row, which is short.
const LOCK_TIMEOUT: &str = "10s";

/// How long connecting may take when the URL sets no `connect_timeout`:
/// a server that does not answer fails the call, as a lock held too long
/// does, instead of waiting for the system's own timeout (minutes).
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// One of the two tables leasefence keeps in a database: its name, how it
/// is created, the comment that marks it as ours, and the advisory lock
/// that serializes creating it.
pub(super) struct Table {
    name: &'static str,
    schema: &'static str,
    mark: &'static str,
    key: i64,
    /// What it holds, as a refusal says it.
    holds: &'static str,
}

const QUEUE: Table = Table {
    name: "jobs",
    schema: JOBS_SCHEMA,
    mark: JOBS_MARK,
    key: QUEUE_SCHEMA_KEY,
    holds: "no queue yet (no `jobs` table): enqueue a job to create one",
};

pub(super) const LEDGER: Table = Table {
    name: "deliveries",
    schema: DELIVERIES_SCHEMA,
    mark: DELIVERIES_MARK,
    key: LEDGER_KEY,
    holds: "no ledger yet (no `deliveries` table)",
};

/// Connects to `url` (`postgres://…` or `postgresql://…`) and makes sure
/// `table` is there: created in a database (or schema, by the URL's
/// `search_path`) that has none if `create` allows, checked in one that
/// has. A table of that name that is not ours is [`Error::NotOurDatabase`],
/// and nothing is written to it.
pub(super) fn connect(url: &str, table: &Table, create: Create) -> Result<Client> {
    let shown = shown(url);
    let refused = |why: String| Error::NotOurDatabase {
        path: shown.clone(),
        why,
    };
    let mut config: postgres::Config = (url.parse())
        .map_err(|err: postgres::Error| refused(format!("not a PostgreSQL URL: {err}")))?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    let mut client = config.connect(NoTls).map_err(failed)?;
    (client.batch_execute(&format!("SET lock_timeout = '{LOCK_TIMEOUT}'"))).map_err(failed)?;
    let mut tx = client.transaction().map_err(failed)?;
    tx.execute(LOCK_SCHEMA, &[&table.key]).map_err(failed)?;
    let mark = tx.query_one(TABLE_MARK, &[&table.name]).map_err(failed)?;
    let (exists, comment): (bool, Option<String>) = (mark.get(0), mark.get(1));
    match (exists, comment.as_deref(), create) {
        (false, _, Create::IfEmpty) => tx.batch_execute(table.schema).map_err(failed)?,
        (false, _, Create::Never) => return Err(refused(format!("it holds {}", table.holds))),
        (true, Some(mark), _) if mark == table.mark => {}
        (true, _, _) => {
            return Err(refused(format!(
                "it has a `{}` table that leasefence did not create",
                table.name
            )));
        }
    }
    tx.commit().map_err(failed)?;
    Ok(client)
}

/// A connection to one of our tables that comes back: a server that
/// restarts, or a session an administrator ends, fails the call it was in
/// ([`Error::Database`]), and the next call connects again. No call is
/// retried: whether a claim cut off at its commit took a job is not
/// known, and a job a lost claim took is reclaimed once its lease is over,
/// as a dead worker's is (R5).
pub(super) struct Session {
    url: String,
    table: &'static Table,
    connected: RefCell<Option<Connected>>,
}

impl Session {
    /// Connects to `table` at `url` (see [`connect`]).
    pub(super) fn open(url: &str, table: &'static Table, create: Create) -> Result<Session> {
        let client = connect(url, table, create)?;
        Ok(Session {
            url: url.to_owned(),
            table,
            connected: RefCell::new(Some(Connected::new(client))),
        })
    }

    /// The connection, made again if the last one closed.
    pub(super) fn client(&self) -> Result<RefMut<'_, Connected>> {
        let mut slot = self.connected.borrow_mut();
        if slot.as_ref().is_none_or(|now| now.client.is_closed()) {
            *slot = None;
            let client = connect(&self.url, self.table, Create::Never)?;
            *slot = Some(Connected::new(client));
        }
        RefMut::filter_map(slot, Option::as_mut).map_err(|_| Error::Internal {
            what: "a PostgreSQL session with no connection".into(),
        })
    }
}

/// A live connection, and the statements it has prepared: each of the
/// queue's few statements is parsed once per connection, not once per
/// call (a round trip saved on every call, as SQLite's statement cache
/// saves the compiling).
pub(super) struct Connected {
    pub(super) client: Client,
    prepared: HashMap<&'static str, Statement>,
}

type Params<'a> = [&'a (dyn ToSql + Sync)];

impl Connected {
    fn new(client: Client) -> Connected {
        Connected {
            client,
            prepared: HashMap::new(),
        }
    }

    /// `sql`, prepared on this connection.
    pub(super) fn statement(&mut self, sql: &'static str) -> Result<Statement> {
        if let Some(statement) = self.prepared.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.client.prepare(sql).map_err(failed)?;
        self.prepared.insert(sql, statement.clone());
        Ok(statement)
    }

    pub(super) fn query(&mut self, sql: &'static str, params: &Params) -> Result<Vec<Row>> {
        let statement = self.statement(sql)?;
        self.client.query(&statement, params).map_err(failed)
    }

    pub(super) fn query_opt(&mut self, sql: &'static str, params: &Params) -> Result<Option<Row>> {
        let statement = self.statement(sql)?;
        self.client.query_opt(&statement, params).map_err(failed)
    }
}

/// One connection to a PostgreSQL database holding (or about to hold) a
/// queue.
pub(crate) struct Server {
    session: Session,
}

impl Server {
    /// Connects to the queue at `url` (see [`connect`]).
    pub(crate) fn connect(url: &str, create: Create) -> Result<Server> {
        Ok(Server {
            session: Session::open(url, &QUEUE, create)?,
        })
    }

    /// Inserts a job and returns it as stored.
    pub(crate) fn enqueue(&self, job: &NewJob) -> Result<JobRow> {
        let mut connected = self.session.client()?;
        let enqueue = connected.statement(ENQUEUE)?;
        let params: &Params = &[
            &job.id,
            &int(job.qty),
            &int(job.max_attempts),
            &int(job.deadline),
        ];
        match connected.client.query_one(&enqueue, params) {
            Ok(row) => read_job(&row),
            Err(err) if err.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
                Err(Error::DuplicateJob { id: job.id.clone() })
            }
            Err(err) => Err(failed(err)),
        }
    }

    /// Sets aside dead jobs, then claims the first claimable one, in one
    /// transaction (R6, R10).
    pub(crate) fn claim(&self, owner: &str, now: u64, lease_ms: u64) -> Result<Option<Claim>> {
        let mut connected = self.session.client()?;
        let [quarantine, expire, claim] =
            [QUARANTINE, EXPIRE, CLAIM].map(|sql| connected.statement(sql));
        let (quarantine, expire, claim) = (quarantine?, expire?, claim?);
        let mut tx = connected.client.transaction().map_err(failed)?;
        tx.execute(&quarantine, &[&int(now)]).map_err(failed)?;
        tx.execute(&expire, &[&int(now)]).map_err(failed)?;
        let until = int(now.saturating_add(lease_ms));
        let claim = tx
            .query_opt(&claim, &[&int(now), &owner, &until])
            .map_err(failed)?
            .map(|row| read_claim(&row))
            .transpose()?;
        tx.commit().map_err(failed)?;
        Ok(claim)
    }

    /// Runs the fenced finish, and says why when nothing changed (R4,
    /// R14).
    ///
    /// The row a refusal is explained by is read after the guard decided,
    /// so another session may have changed it in between; the reason stays
    /// true. A row with the stamp's token is the stamp's own claim (only a
    /// claim changes the token, and it only grows), so the row the guard
    /// saw had that claim too, and since then only a finish or a sweep can
    /// have changed it, each taking it out of `leased` for good: the row
    /// read fails at least what the guard saw fail. A row with another
    /// token fails the token whatever else changed.
    pub(crate) fn finish(&self, stamp: &Stamp, now: u64) -> Result<Finish> {
        let params: &Params = &[
            &stamp.id,
            &stamp.owner,
            &int(stamp.token),
            &int(stamp.attempt),
            &int(now),
        ];
        let mut connected = self.session.client()?;
        if let Some(done) = connected.query_opt(FINISH, params)? {
            return Ok(Finish {
                verdict: Verdict::Accepted,
                expected: Some(stamp.clone()),
                current: Some(read_job(&done)?),
            });
        }
        let current = (connected.query_opt(ROW, &[&stamp.id])?)
            .map(|row| read_job(&row))
            .transpose()?;
        Finish::refused(stamp, current, now)
    }

    /// Every job, in enqueue order.
    pub(crate) fn rows(&self) -> Result<Vec<JobRow>> {
        let rows = self.session.client()?.query(ROWS, &[])?;
        rows.iter().map(read_job).collect()
    }

    /// One job by id.
    pub(crate) fn row(&self, id: &str) -> Result<Option<JobRow>> {
        let row = self.session.client()?.query_opt(ROW, &[&id])?;
        row.as_ref().map(read_job).transpose()
    }

    /// How many jobs are still pending or leased.
    pub(crate) fn live_count(&self) -> Result<u64> {
        let rows = self.session.client()?.query(LIVE_COUNT, &[])?;
        let count: i64 = match rows.first() {
            Some(row) => row.try_get(0).map_err(failed)?,
            None => 0,
        };
        Ok(count.max(0) as u64)
    }
}

/// A number the queue stores: every one it is given was checked to be at
/// most [`crate::MAX_INT`], so it fits PostgreSQL's `bigint`.
pub(super) fn int(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

pub(super) fn read_u64(row: &Row, index: usize) -> Result<u64> {
    let value: i64 = row.try_get(index).map_err(failed)?;
    Ok(value.max(0) as u64)
}

fn read_job(row: &Row) -> Result<JobRow> {
    let state: String = row.try_get(2).map_err(failed)?;
    let lease_until: Option<i64> = row.try_get(7).map_err(failed)?;
    Ok(JobRow {
        id: row.try_get(0).map_err(failed)?,
        qty: read_u64(row, 1)?,
        state: JobState::parse(&state).ok_or_else(|| Error::Internal {
            what: format!("a job's state is {state:?}"),
        })?,
        owner: row.try_get(3).map_err(failed)?,
        token: read_u64(row, 4)?,
        attempts: read_u64(row, 5)?,
        max_attempts: read_u64(row, 6)?,
        lease_until: lease_until.map(|value| value.max(0) as u64),
        deadline: read_u64(row, 8)?,
    })
}

/// A claim from `RETURNING id, qty, owner, token, attempts, lease_until`.
fn read_claim(row: &Row) -> Result<Claim> {
    Ok(Claim {
        id: row.try_get(0).map_err(failed)?,
        qty: read_u64(row, 1)?,
        owner: row.try_get(2).map_err(failed)?,
        token: read_u64(row, 3)?,
        attempt: read_u64(row, 4)?,
        lease_until: read_u64(row, 5)?,
    })
}

/// A lock held past [`LOCK_TIMEOUT`] is [`Error::Busy`]; anything else the
/// server or the connection reports is [`Error::Database`].
pub(super) fn failed(err: postgres::Error) -> Error {
    if err.code() == Some(&SqlState::LOCK_NOT_AVAILABLE) {
        Error::Busy
    } else {
        Error::Database(Box::new(err))
    }
}

/// The URL as an error may show it: without its password, whether it is
/// written before the host or as a parameter.
fn shown(url: &str) -> String {
    let url = match url.split_once('?') {
        Some((base, query)) if query.contains("password") => base,
        _ => url,
    };
    match url.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('@') {
            Some((user, host)) => {
                let user = user.split_once(':').map_or(user, |(name, _)| name);
                format!("{scheme}://{user}@{host}")
            }
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}
