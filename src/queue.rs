//! The job queue: enqueue, claim, finish, and one worker step.
//!
//! `Queue` checks its inputs, then hands them to [`crate::store`], which owns
//! the SQL. It never reads a clock: every operation takes `now` (milliseconds)
//! from the caller, so tests can stand exactly on a lease boundary (R5) and
//! the browser can step a timeline.

use std::cell::RefCell;

use rusqlite::Connection;

use crate::error::{Error, Result};
use crate::fence::Finish;
use crate::model::{Claim, JobRow, NewJob, Stamp, check_int, check_name};
use crate::store::{self, Budget, Executed, Kind, Outside, SqlLog};

/// A handle on one queue database: one connection, one actor.
///
/// Several processes (natively) may each open the same file, or connect to
/// the same PostgreSQL database; the database's locks and the fencing
/// token keep them honest.
pub struct Queue {
    engine: Engine,
}

/// Where the queue's rows live. Each engine's SQL is in one place:
/// SQLite's in [`crate::store`], PostgreSQL's in `src/postgres/sql.rs`.
enum Engine {
    Sqlite(Local),
    #[cfg(not(target_arch = "wasm32"))]
    Postgres(crate::postgres::Server),
}

/// A queue in a SQLite file or in memory: the connection, the log of the
/// statements it ran (for the course), and the bound on the work of a
/// statement written outside the queue.
struct Local {
    conn: Connection,
    log: RefCell<SqlLog>,
    budget: Budget,
}

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queue").finish_non_exhaustive()
    }
}

/// What [`Queue::process_one`] did with one job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Processed {
    /// The claim the worker received.
    pub claim: Claim,
    /// The finish it then attempted.
    pub finish: Finish,
}

/// Why [`Queue::process_one`] stopped before finishing.
#[derive(Debug, thiserror::Error)]
pub enum ProcessError<E> {
    /// The queue refused or failed.
    #[error(transparent)]
    Queue(#[from] Error),
    /// `send` failed. The job stays leased; once the lease runs out another
    /// worker may claim it again.
    #[error("send failed: {0}")]
    Send(E),
}

impl Queue {
    fn with(mut conn: Connection) -> Result<Queue> {
        let budget = Budget::default();
        budget.install(&mut conn)?;
        Ok(Queue {
            engine: Engine::Sqlite(Local {
                conn,
                log: RefCell::new(SqlLog::default()),
                budget,
            }),
        })
    }

    /// The SQLite queue, for what only it does: run SQL written outside
    /// the queue, keep a log of its statements, go back in a playing. The
    /// course's queues are in-memory SQLite ones; asked of another engine,
    /// it is [`Error::Internal`].
    fn local(&self) -> Result<&Local> {
        match &self.engine {
            Engine::Sqlite(local) => Ok(local),
            #[cfg(not(target_arch = "wasm32"))]
            Engine::Postgres(_) => Err(Error::Internal {
                what: "only a SQLite queue runs statements written outside it".into(),
            }),
        }
    }

    /// Starts (or stops) writing down every statement that enqueue, claim
    /// and finish run, with their bound values; see [`Queue::take_sql`].
    pub fn record_sql(&self, on: bool) {
        if let Ok(local) = self.local() {
            local.log.borrow_mut().record(on);
        }
    }

    /// The statements run since the last call, when recording is on.
    pub fn take_sql(&self) -> Vec<Executed> {
        (self.local().ok()).map_or_else(Vec::new, |local| local.log.borrow_mut().take())
    }

    /// The ids of the jobs changed since the last call, when recording is
    /// on: what a watcher must re-read to know the table.
    pub fn take_touched(&self) -> Vec<String> {
        (self.local().ok()).map_or_else(Vec::new, |local| local.log.borrow_mut().take_touched())
    }

    /// Opens a queue file, creating it if it does not exist. The file uses
    /// the rollback journal and `synchronous=FULL` (R6).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<Queue> {
        let conn = store::open_file(path.as_ref(), Kind::Queue, store::Create::IfEmpty)?;
        Queue::with(conn)
    }

    /// Opens a queue file that must already be one: an empty file, another
    /// program's or one failing SQLite's integrity check is refused
    /// ([`Error::NotOurDatabase`], saying which) before anything is
    /// written to it. The command line opens every queue this way but for
    /// `enqueue`, which creates it.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open_existing(path: impl AsRef<std::path::Path>) -> Result<Queue> {
        let conn = store::open_file(path.as_ref(), Kind::Queue, store::Create::Never)?;
        Queue::with(conn)
    }

    /// Connects to a queue in a PostgreSQL database (`postgres://…` or
    /// `postgresql://…`), creating its `jobs` table there if the database
    /// (or the schema the URL's `search_path` names) has none. A `jobs`
    /// table another program made is [`Error::NotOurDatabase`], and nothing
    /// is written to it.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn connect(url: &str) -> Result<Queue> {
        let server = crate::postgres::Server::connect(url, store::Create::IfEmpty)?;
        Ok(Queue {
            engine: Engine::Postgres(server),
        })
    }

    /// Connects to a queue that must already be in the PostgreSQL database
    /// at `url`, as [`Queue::open_existing`] opens a file: a database with
    /// no `jobs` table is [`Error::NotOurDatabase`] and is left as it was.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn connect_existing(url: &str) -> Result<Queue> {
        let server = crate::postgres::Server::connect(url, store::Create::Never)?;
        Ok(Queue {
            engine: Engine::Postgres(server),
        })
    }

    /// Opens a fresh, private in-memory queue.
    pub fn open_in_memory() -> Result<Queue> {
        Queue::with(store::open_memory(Kind::Queue)?)
    }

    /// Adds a job and returns it as stored. An id that exists is
    /// [`Error::DuplicateJob`].
    pub fn enqueue(&self, job: &NewJob) -> Result<JobRow> {
        job.validate("")?;
        match &self.engine {
            Engine::Sqlite(local) => store::enqueue(&local.conn, &mut local.log.borrow_mut(), job),
            #[cfg(not(target_arch = "wasm32"))]
            Engine::Postgres(server) => server.enqueue(job),
        }
    }

    /// Claims the first claimable job in enqueue order for `owner` at `now`,
    /// for at most `lease_ms` (and never past the job's deadline, R9).
    ///
    /// `Ok(None)` means nothing is claimable: every job is done, set aside,
    /// or held under a valid lease (R11).
    pub fn claim(&self, owner: &str, now: u64, lease_ms: u64) -> Result<Option<Claim>> {
        check_name("owner", owner)?;
        check_int("now", now, 0)?;
        check_int("lease_ms", lease_ms, 1)?;
        match &self.engine {
            Engine::Sqlite(local) => {
                let log = &mut local.log.borrow_mut();
                store::claim(&local.conn, log, owner, now, lease_ms)
            }
            #[cfg(not(target_arch = "wasm32"))]
            Engine::Postgres(server) => server.claim(owner, now, lease_ms),
        }
    }

    /// Marks the job done if `stamp` is still the row's current claim and
    /// `now` is before both `lease_until` and the deadline (R4, R5).
    /// Otherwise nothing changes and the result says why.
    pub fn finish(&self, stamp: &Stamp, now: u64) -> Result<Finish> {
        stamp.validate()?;
        check_int("now", now, 0)?;
        match &self.engine {
            Engine::Sqlite(local) => {
                store::finish(&local.conn, &mut local.log.borrow_mut(), stamp, now)
            }
            #[cfg(not(target_arch = "wasm32"))]
            Engine::Postgres(server) => server.finish(stamp, now),
        }
    }

    /// Runs `sql`, a finish written outside this crate (a teaching
    /// variant's, a learner's), in place of [`store::FINISH`], in its own
    /// write transaction: `(whether it changed the row, the row after)`.
    /// It may name any of `:id, :owner, :token, :attempt` (the stamp's)
    /// and `:now`; the queue's own [`Queue::finish`] never runs it.
    pub fn finish_with(
        &self,
        sql: &'static str,
        stamp: &Stamp,
        now: u64,
    ) -> Result<(bool, Option<JobRow>)> {
        stamp.validate()?;
        check_int("now", now, 0)?;
        let local = self.local()?;
        store::finish_with(&local.conn, &mut local.log.borrow_mut(), sql, stamp, now)
    }

    /// Runs `finish`, a checked statement written outside this crate (a
    /// learner's), in place of [`store::FINISH`]: `(whether it changed
    /// any row, the stamp's row after)`, as [`Queue::finish_with`]. Its
    /// work is bounded ([`store::MAX_STEPS`]); an error SQLite raises
    /// while it runs is [`crate::Problem::Sqlite`] or
    /// [`crate::Problem::TooMuchWork`] (field `sql`) and changes nothing.
    pub fn finish_outside(
        &self,
        finish: &Outside,
        stamp: &Stamp,
        now: u64,
    ) -> Result<(bool, Option<JobRow>)> {
        stamp.validate()?;
        check_int("now", now, 0)?;
        let local = self.local()?;
        let log = &mut local.log.borrow_mut();
        store::finish_outside(&local.conn, log, &local.budget, finish, stamp, now)
    }

    /// Runs `claim`, a checked statement written outside this crate (a
    /// learner's), in place of [`store::CLAIM`]: the queue's sweeps first,
    /// then it, in one write transaction, as [`Queue::claim`]. Its work is
    /// bounded as [`Queue::finish_outside`]'s; what it returns is read as
    /// the claim, and a value no claim can hold (a `NULL` token) is
    /// [`crate::Problem::Sqlite`] (field `sql`) and changes nothing.
    pub fn claim_outside(
        &self,
        claim: &Outside,
        owner: &str,
        now: u64,
        lease_ms: u64,
    ) -> Result<Option<Claim>> {
        check_name("owner", owner)?;
        check_int("now", now, 0)?;
        check_int("lease_ms", lease_ms, 1)?;
        if claim.replaces() != store::Replaces::Claim {
            return Err(Error::Internal {
                what: "claim_outside was given a statement that is not a claim".into(),
            });
        }
        let local = self.local()?;
        let log = &mut local.log.borrow_mut();
        store::claim_outside(&local.conn, log, &local.budget, claim, owner, now, lease_ms)
    }

    /// Puts the table back to `then`, an earlier point of the playing that
    /// led to `now` ([`crate::Player::go_back`]).
    pub(crate) fn put_back(&self, now: &[JobRow], then: &[JobRow]) -> Result<()> {
        store::put_back(&self.local()?.conn, now, then)
    }

    /// Every job, in enqueue order, exactly as stored.
    pub fn rows(&self) -> Result<Vec<JobRow>> {
        match &self.engine {
            Engine::Sqlite(local) => store::rows(&local.conn),
            #[cfg(not(target_arch = "wasm32"))]
            Engine::Postgres(server) => server.rows(),
        }
    }

    /// One job by id.
    pub fn row(&self, id: &str) -> Result<Option<JobRow>> {
        match &self.engine {
            Engine::Sqlite(local) => store::row(&local.conn, id),
            #[cfg(not(target_arch = "wasm32"))]
            Engine::Postgres(server) => server.row(id),
        }
    }

    /// How many jobs are still pending or leased.
    pub fn live_jobs(&self) -> Result<u64> {
        match &self.engine {
            Engine::Sqlite(local) => store::live_count(&local.conn),
            #[cfg(not(target_arch = "wasm32"))]
            Engine::Postgres(server) => server.live_count(),
        }
    }

    /// One worker step: claim, commit, `send` with no transaction open (R7),
    /// then finish with the stamp of the claim.
    ///
    /// `now` is the caller's clock, read once before the claim and once
    /// after `send`. `Ok(None)` means there was nothing to claim.
    pub fn process_one<E>(
        &self,
        owner: &str,
        lease_ms: u64,
        mut now: impl FnMut() -> u64,
        send: impl FnOnce(&Claim) -> std::result::Result<(), E>,
    ) -> std::result::Result<Option<Processed>, ProcessError<E>> {
        let Some(claim) = self.claim(owner, now(), lease_ms)? else {
            return Ok(None);
        };
        // The claim's transaction has committed: other connections may
        // enqueue and claim while this one waits on the network.
        send(&claim).map_err(ProcessError::Send)?;
        let finish = self.finish(&claim.stamp(), now())?;
        Ok(Some(Processed { claim, finish }))
    }
}
