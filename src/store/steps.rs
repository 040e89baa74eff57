//! The statements of a claim, a finish and an enqueue run one at a time,
//! so that a model of several actors (the course's statement panel) can
//! interleave them and show each one with its bound values and rows; and
//! statements written outside this crate, run in their place.
//!
//! Everything runs on one in-memory connection. `BEGIN IMMEDIATE` and
//! `COMMIT` are real statements here, but the write lock they stand for is
//! modelled by the caller: the browser's memory VFS has no real locks (see
//! CONTRACT.md, "One connection per in-memory database"), and on one
//! connection a second `BEGIN` would be an error, not a wait. The caller
//! therefore never lets a second actor's statement run while the first
//! holds the modelled lock.

use std::borrow::Cow;

use rusqlite::Connection;

use super::log::{bind, int};
use super::outside::{Budget, sqlite_problem};
use super::{
    Bound, CLAIM, ENQUEUE, EXPIRE, Executed, FINISH, Outside, QUARANTINE, SqlLog, claim_params,
    enqueue_params, finish_params, one, prepare, read_claim, sweep, used, write,
};
use crate::error::{Error, Result};
use crate::model::{Claim, JobRow, NewJob, Stamp};

/// One connection on which single statements run, each written down.
pub struct Statements {
    conn: Connection,
    log: SqlLog,
    /// Bounds the statements written outside this crate.
    budget: Budget,
}

impl Statements {
    /// A fresh in-memory queue holding `jobs`, in order, whose outside
    /// statements spend `budget` (shared with other databases the caller
    /// bounds together).
    pub fn open(jobs: &[NewJob], budget: &Budget) -> Result<Statements> {
        let mut conn = super::open_memory(super::Kind::Queue)?;
        let budget = budget.clone();
        budget.install(&mut conn)?;
        let mut log = SqlLog::default();
        for job in jobs {
            super::enqueue(&conn, &mut log, job)?;
        }
        log.record(true);
        Ok(Statements { conn, log, budget })
    }

    /// The statement just run, as the log wrote it down.
    fn last(&mut self) -> Result<Executed> {
        self.log.take().pop().ok_or_else(|| Error::Internal {
            what: "a statement ran without being written down".into(),
        })
    }

    /// `BEGIN IMMEDIATE` (or `COMMIT`): a real statement; the lock it
    /// stands for is the caller's model.
    pub fn transaction(&mut self, sql: &'static str) -> Result<Executed> {
        self.conn.execute_batch(sql)?;
        self.log.note(sql, &[], false, 0);
        self.last()
    }

    /// One of the claim's sweeps ([`QUARANTINE`] or [`EXPIRE`]).
    pub fn sweep(&mut self, expire: bool, now: u64) -> Result<Executed> {
        let sql = if expire { EXPIRE } else { QUARANTINE };
        sweep(&self.conn, &mut self.log, sql, &[(":now", int(now))])?;
        self.last()
    }

    /// The real claim's choose-and-take [`CLAIM`].
    pub fn claim(
        &mut self,
        owner: &str,
        now: u64,
        lease_ms: u64,
    ) -> Result<(Executed, Option<Claim>)> {
        let params = claim_params(owner, now, lease_ms);
        let claim = one(
            &self.conn,
            &mut self.log,
            (CLAIM, true),
            &params,
            read_claim,
        )?;
        Ok((self.last()?, claim))
    }

    /// Runs `sql`, a read written outside this crate, binding `params`:
    /// the first row it returns, each column as a [`Bound`].
    pub fn read_with(
        &mut self,
        sql: &'static str,
        params: &[(&'static str, Bound)],
    ) -> Result<(Executed, Option<Vec<Bound>>)> {
        let found = one(&self.conn, &mut self.log, (sql, false), params, |row| {
            (0..row.as_ref().column_count())
                .map(|column| Bound::read(row.get_ref(column)?))
                .collect()
        })?;
        Ok((self.last()?, found))
    }

    /// Runs `sql`, a claim written outside this crate, in place of
    /// [`CLAIM`], binding `params`: it must return the columns [`CLAIM`]
    /// returns (`id, qty, owner, token, attempts, lease_until`).
    pub fn claim_with(
        &mut self,
        sql: &'static str,
        params: &[(&'static str, Bound)],
    ) -> Result<(Executed, Option<Claim>)> {
        let claim = one(&self.conn, &mut self.log, (sql, true), params, read_claim)?;
        Ok((self.last()?, claim))
    }

    /// Runs `outside`, a checked statement written outside this crate
    /// (a claim script's read or write, [`super::Script`]), on its own:
    /// the transaction around it, if any, is the caller's model. It binds
    /// those of `params` it names, and its work is bounded; the first row
    /// it returns comes back as read by `row`. SQLite's error while it
    /// runs (a failed `CHECK`, too much work) is the statement's problem,
    /// on the field `sql`.
    fn run_outside<T>(
        &mut self,
        outside: &Outside,
        params: &[(&'static str, Bound)],
        row: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> Result<(Executed, Option<T>)> {
        let sql = outside.sql();
        let params = used(&self.conn, sql, params)?;
        let (conn, budget) = (&self.conn, &self.budget);
        // Every row, so a write's count is the rows it changed (one
        // returned per row) and a read's the rows it found.
        let (write, found) = budget
            .bounded(|| {
                let mut statement = prepare(conn, sql)?;
                let write = !statement.readonly();
                let found = (statement.query_map(bind(&params).as_slice(), row)?)
                    .collect::<rusqlite::Result<Vec<T>>>()?;
                Ok((write, found))
            })
            .map_err(|err| Error::invalid("sql", sqlite_problem(&err)))?;
        let ran = Executed {
            sql: Cow::Owned(sql.to_owned()),
            params,
            write,
            rows: found.len(),
        };
        Ok((ran, found.into_iter().next()))
    }

    /// The table as it stands, then `then` put back in its place: for a
    /// model that shows a reader the rows as last committed while another
    /// actor's write is not (one connection sees its own uncommitted
    /// rows). Returns what to put back after.
    pub fn put_back(&mut self, then: &[JobRow]) -> Result<Vec<JobRow>> {
        let now = self.rows()?;
        super::put_back(&self.conn, &now, then)?;
        Ok(now)
    }

    /// A claim script's read ([`super::Replaces::ClaimRead`]) at `now`:
    /// the candidate's `id, token, attempts`, as [`Bound`]s.
    pub fn read_outside(
        &mut self,
        outside: &Outside,
        now: u64,
    ) -> Result<(Executed, Option<Vec<Bound>>)> {
        self.run_outside(outside, &[(":now", int(now))], |row| {
            (0..row.as_ref().column_count())
                .map(|column| Bound::read(row.get_ref(column)?))
                .collect()
        })
    }

    /// A claim script's write ([`super::Replaces::ClaimWrite`]), bound to
    /// `params`: the claim it returned, read as [`CLAIM`]'s.
    pub fn write_outside(
        &mut self,
        outside: &Outside,
        params: &[(&'static str, Bound)],
    ) -> Result<(Executed, Option<Claim>)> {
        self.run_outside(outside, params, read_claim)
    }

    /// The enqueue's `INSERT` ([`ENQUEUE`]).
    pub fn insert(&mut self, job: &NewJob) -> Result<Executed> {
        let params = enqueue_params(job);
        write(&self.conn, &mut self.log, ENQUEUE, &params)?;
        self.last()
    }

    /// The fenced finish's guarded `UPDATE` ([`FINISH`]); `true` when it
    /// changed the row.
    pub fn finish(&mut self, stamp: &Stamp, now: u64) -> Result<(Executed, bool)> {
        let changed = write(
            &self.conn,
            &mut self.log,
            FINISH,
            &finish_params(stamp, now),
        )?;
        Ok((self.last()?, changed == 1))
    }

    /// The table, in enqueue order.
    pub fn rows(&self) -> Result<Vec<JobRow>> {
        super::rows(&self.conn)
    }
}
