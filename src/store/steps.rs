//! The statements of a claim, a finish and an enqueue run one at a time,
//! so that a model of several actors (`crate::mechanism`) can interleave
//! them and show each one with its bound values and rows.
//!
//! Everything runs on one in-memory connection. `BEGIN IMMEDIATE` and
//! `COMMIT` are real statements here, but the write lock they stand for is
//! modelled by the caller: the browser's memory VFS has no real locks (see
//! CONTRACT.md, "One connection per in-memory database"), and on one
//! connection a second `BEGIN` would be an error, not a wait. The caller
//! therefore never lets a second actor's statement run while the first
//! holds the modelled lock.

use rusqlite::Connection;

use super::log::{int, text};
use super::{
    CLAIM, ENQUEUE, EXPIRE, Executed, FINISH, NAIVE_CLAIM_READ, NAIVE_CLAIM_WRITE, QUARANTINE,
    SqlLog, claim_params, enqueue_params, finish_params, one, read_claim, read_u64, sweep, write,
};
use crate::error::{Error, Result};
use crate::model::{Claim, JobRow, NewJob, Stamp};

/// What the naive claim's `SELECT` read: the row it means to write later.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Candidate {
    /// The job id.
    pub id: String,
    /// The token as read (the write adds 1 to this, not to the row's).
    pub token: u64,
    /// The attempts as read.
    pub attempts: u64,
}

/// One connection on which single statements run, each written down.
pub(crate) struct Statements {
    conn: Connection,
    log: SqlLog,
}

impl Statements {
    /// A fresh in-memory queue holding `jobs`, in order.
    pub(crate) fn open(jobs: &[NewJob]) -> Result<Statements> {
        let conn = super::open_memory(super::Kind::Queue)?;
        let mut log = SqlLog::default();
        for job in jobs {
            super::enqueue(&conn, &mut log, job)?;
        }
        log.record(true);
        Ok(Statements { conn, log })
    }

    /// The statement just run, as the log wrote it down.
    fn last(&mut self) -> Result<Executed> {
        self.log.take().pop().ok_or_else(|| Error::Internal {
            what: "a statement ran without being written down".into(),
        })
    }

    /// `BEGIN IMMEDIATE` (or `COMMIT`): a real statement; the lock it
    /// stands for is the caller's model.
    pub(crate) fn transaction(&mut self, sql: &'static str) -> Result<Executed> {
        self.conn.execute_batch(sql)?;
        self.log.note(sql, &[], false, 0);
        self.last()
    }

    /// One of the claim's sweeps ([`QUARANTINE`] or [`EXPIRE`]).
    pub(crate) fn sweep(&mut self, expire: bool, now: u64) -> Result<Executed> {
        let sql = if expire { EXPIRE } else { QUARANTINE };
        sweep(&self.conn, &mut self.log, sql, &[(":now", int(now))])?;
        self.last()
    }

    /// The real claim's choose-and-take [`CLAIM`].
    pub(crate) fn claim(
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

    /// The naive claim's read ([`NAIVE_CLAIM_READ`]).
    pub(crate) fn naive_read(&mut self, now: u64) -> Result<(Executed, Option<Candidate>)> {
        let found = one(
            &self.conn,
            &mut self.log,
            (NAIVE_CLAIM_READ, false),
            &[(":now", int(now))],
            |row| {
                Ok(Candidate {
                    id: row.get(0)?,
                    token: read_u64(row, 1)?,
                    attempts: read_u64(row, 2)?,
                })
            },
        )?;
        Ok((self.last()?, found))
    }

    /// The naive claim's write ([`NAIVE_CLAIM_WRITE`]) of what was read.
    pub(crate) fn naive_write(
        &mut self,
        owner: &str,
        read: &Candidate,
        now: u64,
        lease_ms: u64,
    ) -> Result<(Executed, Option<Claim>)> {
        let params = [
            (":owner", text(owner)),
            (":read_token", int(read.token)),
            (":read_attempts", int(read.attempts)),
            (":now_plus_lease", int(now.saturating_add(lease_ms))),
            (":id", text(&read.id)),
        ];
        let sql = (NAIVE_CLAIM_WRITE, true);
        let claim = one(&self.conn, &mut self.log, sql, &params, read_claim)?;
        Ok((self.last()?, claim))
    }

    /// The enqueue's `INSERT` ([`ENQUEUE`]).
    pub(crate) fn insert(&mut self, job: &NewJob) -> Result<Executed> {
        let params = enqueue_params(job);
        write(&self.conn, &mut self.log, ENQUEUE, &params)?;
        self.last()
    }

    /// The fenced finish's guarded `UPDATE` ([`FINISH`]); `true` when it
    /// changed the row.
    pub(crate) fn finish(&mut self, stamp: &Stamp, now: u64) -> Result<(Executed, bool)> {
        let changed = write(
            &self.conn,
            &mut self.log,
            FINISH,
            &finish_params(stamp, now),
        )?;
        Ok((self.last()?, changed == 1))
    }

    /// The table, in enqueue order.
    pub(crate) fn rows(&self) -> Result<Vec<JobRow>> {
        super::rows(&self.conn)
    }
}
