//! Statement-level steps: a claim, a finish, an enqueue and a send taken
//! apart into the statements they run, with several actors' statements
//! interleaved and SQLite's write lock drawn as who holds it and who waits.
//!
//! A claim is one indivisible step everywhere else in the crate, so
//! nothing could show *why* it must be: a claim that reads its candidate
//! first and writes later hands the same token to two workers, and a
//! worker that sends inside its transaction makes every other writer wait
//! out the send. Here the real claim is `BEGIN IMMEDIATE`, the two sweeps,
//! the choose-and-take `UPDATE ... RETURNING` and `COMMIT`; the naive claim
//! is a `SELECT` and, later, an `UPDATE` of what was read, each in its own
//! autocommit transaction.
//!
//! **The lock is modelled.** Every statement runs for real on one
//! in-memory connection, in the order the model lets it, but the lock is
//! the model's: the browser's memory VFS has no real locks, and on one
//! connection a second `BEGIN` is an error rather than a wait. The model:
//! `BEGIN IMMEDIATE` takes the write lock or, while another actor holds it,
//! waits (one `waits` step; the actor then sleeps, as in SQLite's busy
//! handler, until the lock is free); `COMMIT` releases it. An autocommit
//! statement (the naive claim's two) takes and releases the lock within
//! itself, so it too waits while another holds it. (Real SQLite would let
//! the naive `SELECT` read the last committed state under another's open
//! transaction; the course's races never meet this case, so the naive
//! read keeps the simpler wait.)
//!
//! **A claim script** (the lab's, [`Op::ScriptClaim`]) is modelled as
//! SQLite's rollback journal locks it. A deferred `BEGIN` takes no lock;
//! its read takes a read lock (`SHARED`) held to the transaction's end,
//! and its write the write lock (`RESERVED`). A read never waits for the
//! write lock: it reads the table as last committed (put back for it on
//! the one connection), and waits only while the holder's `COMMIT` waits
//! for the readers to go (`PENDING`). A write by a transaction that holds
//! a read lock while another holds the write lock would wait for a
//! `COMMIT` that waits for it: SQLite refuses it at once (`SQLITE_BUSY`,
//! [`StepKind::Busy`]), and the worker rolls back.
//!
//! **Time.** Each statement takes `tick_ms`; a send takes its `send_ms`
//! between its start and its return, and other actors run meanwhile. An
//! actor starts at its `start_ms`. [`round_robin`] lets the actors take
//! turns; [`Machine`] lets a caller (a test, a page's step button) choose
//! every turn itself.

mod program;
mod run;

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::Refusal;
use leasefence::error::{Error, Problem};
use leasefence::model::{Claim, JobRow, NewJob};
use leasefence::store::{Bound, Budget, Executed, Statements};

use crate::variants::sql::Candidate;
use program::{Running, Span, Stmt};
pub use run::{Actor, Does, Op, Run, Step, StepKind};

/// The statement-level model: actors, the one connection their
/// statements run on, and the modelled write lock.
pub struct Machine {
    db: Statements,
    actors: Vec<Running>,
    lock: Option<usize>,
    /// The actors whose open claim script transaction holds a read lock
    /// (SQLite's `SHARED`): it read without the write lock.
    reading: Vec<usize>,
    /// The table as last committed, while the write lock's holder may
    /// have changed it: what another actor's read sees (one connection
    /// would show it the uncommitted rows).
    committed: Option<Vec<JobRow>>,
    waiting: Vec<usize>,
    steps: Vec<Step>,
    clock: u64,
}

impl std::fmt::Debug for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine")
            .field("steps", &self.steps.len())
            .finish_non_exhaustive()
    }
}

impl Machine {
    /// A fresh in-memory queue holding `jobs`, and the actors at their
    /// first statement.
    pub fn new(jobs: &[NewJob], actors: &[Actor]) -> Result<Machine, Refusal> {
        Machine::bounded(jobs, actors, &Budget::default())
    }

    /// [`Machine::new`], the statements written outside the queue (a
    /// claim script's) spending `budget`, which the caller may share among
    /// machines (a grading replays on a fresh one for every ordering).
    pub fn bounded(jobs: &[NewJob], actors: &[Actor], budget: &Budget) -> Result<Machine, Refusal> {
        Ok(Machine {
            db: Statements::open(jobs, budget)?,
            actors: actors.iter().map(Running::new).collect(),
            lock: None,
            reading: Vec::new(),
            committed: None,
            waiting: Vec::new(),
            steps: Vec::new(),
            clock: 0,
        })
    }

    /// Whether every actor has run its last statement.
    pub fn done(&self) -> bool {
        self.actors.iter().all(|actor| actor.current().is_none())
    }

    /// Whether `actor`'s next statement must wait for another's lock:
    /// * `BEGIN IMMEDIATE`, and the naive claim's two statements, for the
    ///   write lock another holds;
    /// * a script's read, only while the write lock's holder waits to
    ///   commit (SQLite's `PENDING` lets no new reader in), unless it
    ///   already holds a read lock; otherwise it reads the table as last
    ///   committed ([`Machine::committed`]);
    /// * a script's write inside a deferred `BEGIN`, for the write lock
    ///   another holds, unless it holds a read lock: then it is refused
    ///   ([`Self::busy`]);
    /// * a script's write on its own (autocommit), for the write lock
    ///   another holds or a read lock another's transaction holds: it
    ///   must write the file (a simplification: SQLite would take the
    ///   write lock first and wait for the readers holding it);
    /// * a script's `COMMIT` by the write lock's holder, for the read
    ///   locks others hold.
    fn blocked(&self, actor: usize) -> bool {
        let running = &self.actors[actor];
        let Some(stmt) = running.current() else {
            return false;
        };
        let other_writes = self.lock.is_some_and(|holder| holder != actor);
        let reads = self.reading.contains(&actor);
        let others_read = self.reading.iter().any(|&reader| reader != actor);
        let holds = self.lock == Some(actor);
        let pending = self
            .lock
            .is_some_and(|holder| holder != actor && self.waiting.contains(&holder));
        match stmt {
            Stmt::Begin | Stmt::NaiveRead | Stmt::NaiveWrite { .. } => other_writes,
            Stmt::ScriptBegin { immediate, .. } => *immediate && other_writes,
            Stmt::ScriptRead(_) => pending && !reads,
            Stmt::ScriptWrite { .. } if holds => false,
            Stmt::ScriptWrite { .. } if running.in_transaction => other_writes && !reads,
            Stmt::ScriptWrite { .. } => other_writes || others_read,
            Stmt::ScriptCommit { .. } => holds && others_read,
            _ => false,
        }
    }

    /// Whether SQLite refuses `actor`'s next statement at once: a
    /// script's write while another holds the write lock and `actor`'s
    /// open transaction holds a read lock ([`StepKind::Busy`]).
    fn busy(&self, actor: usize) -> bool {
        let write = matches!(self.actors[actor].current(), Some(Stmt::ScriptWrite { .. }));
        let other_writes = self.lock.is_some_and(|holder| holder != actor);
        write && other_writes && self.reading.contains(&actor)
    }

    /// Whether `actor` waits for the lock and has said so: its next turn
    /// would only wait again.
    pub fn asleep(&self, actor: usize) -> bool {
        self.blocked(actor) && self.waiting.contains(&actor)
    }

    /// Whether `actor` has asked for the lock and not had it yet.
    pub fn waits(&self, actor: usize) -> bool {
        self.waiting.contains(&actor)
    }

    /// How many of `actor`'s ops have run to their end.
    pub fn ops_done(&self, actor: usize) -> usize {
        self.actors.get(actor).map_or(0, |running| {
            let done = |span: &&Span| span.end <= running.next;
            running.spans.iter().filter(done).count()
        })
    }

    /// The actors whose next statement would run now (not wait).
    pub fn runnable(&self) -> Vec<usize> {
        (0..self.actors.len())
            .filter(|&actor| self.actors[actor].current().is_some() && !self.blocked(actor))
            .collect()
    }

    /// The time of the last step.
    pub fn clock(&self) -> u64 {
        self.clock
    }

    /// `actor` takes one step at `at` (later, if its send has not come
    /// back by then): its next statement runs, or waits for the lock.
    pub fn turn(&mut self, actor: usize, at: u64) -> Result<(), Refusal> {
        if at < self.clock {
            // The queue's own problem, said the queue's way: a turn is an
            // event of the statement-level timeline.
            return Err(Refusal::Queue(Error::invalid(
                "at",
                Problem::TimeGoesBack {
                    at,
                    previous: self.clock,
                },
            )));
        }
        let running = self
            .actors
            .get(actor)
            .ok_or(Refusal::NoSuchActor { actor })?;
        let Some(stmt) = running.current().cloned() else {
            return Err(Refusal::NothingLeft {
                actor: running.name.clone(),
            });
        };
        let at = running.ready_at(at);
        self.clock = at;
        if let Some(end) = running.unclaimed_end() {
            self.actors[actor].next = end;
            self.record(actor, StepKind::NoClaim, stmt.does(), None);
            return Ok(());
        }
        if self.busy(actor) {
            // The transaction stays open, its read lock held, until the
            // worker rolls it back: its next statement.
            let running = &mut self.actors[actor];
            running.roll_back();
            (running.busy, running.read) = (true, None);
            self.record(actor, StepKind::Busy, stmt.does(), Some(not_run(&stmt)));
            return Ok(());
        }
        if self.blocked(actor) {
            let running = &mut self.actors[actor];
            running.since.get_or_insert(at);
            if !self.waiting.contains(&actor) {
                self.waiting.push(actor);
            }
            self.record(actor, StepKind::Waits, stmt.does(), Some(not_run(&stmt)));
            return Ok(());
        }
        if let Some(since) = self.actors[actor].since.take() {
            self.actors[actor].waited_ms += at - since;
            self.waiting.retain(|&other| other != actor);
        }
        let (kind, sql) = self.execute(actor, &stmt, at)?;
        self.actors[actor].advance();
        self.record(actor, kind, stmt.does(), sql);
        Ok(())
    }

    /// Runs `stmt` for `actor` at `at`.
    fn execute(
        &mut self,
        actor: usize,
        stmt: &Stmt,
        at: u64,
    ) -> Result<(StepKind, Option<Executed>), Refusal> {
        let running = &mut self.actors[actor];
        let ran = match stmt {
            Stmt::Begin => {
                self.lock = Some(actor);
                self.committed = Some(self.db.rows()?);
                self.db.transaction("BEGIN IMMEDIATE")?
            }
            Stmt::Commit => {
                (self.lock, self.committed) = (None, None);
                self.db.transaction("COMMIT")?
            }
            Stmt::Sweep { expire } => self.db.sweep(*expire, at)?,
            Stmt::Claim { lease_ms, owner } => {
                let owner = owner.as_deref().unwrap_or(&running.name);
                let (ran, claim) = self.db.claim(owner, at, *lease_ms)?;
                running.claim = claim.or(running.claim.take());
                ran
            }
            Stmt::NaiveRead => {
                let (ran, read) = Candidate::read(&mut self.db, at)?;
                if read.is_none() {
                    running.read_nothing();
                }
                running.read = read;
                ran
            }
            Stmt::ScriptBegin { sql, immediate } => {
                if *immediate {
                    self.lock = Some(actor);
                    self.committed = Some(self.db.rows()?);
                }
                running.in_transaction = true;
                modelled(sql)
            }
            Stmt::ScriptRead(outside) => {
                if running.in_transaction
                    && self.lock != Some(actor)
                    && !self.reading.contains(&actor)
                {
                    self.reading.push(actor);
                }
                // Another's write not yet committed is not seen: the read
                // runs on the table as last committed, put back for it.
                let others = self.lock.is_some_and(|holder| holder != actor);
                let committed = self.committed.as_deref().filter(|_| others);
                let uncommitted = committed.map(|rows| self.db.put_back(rows)).transpose()?;
                let read = self.db.read_outside(outside, at);
                if let Some(rows) = &uncommitted {
                    self.db.put_back(rows)?;
                }
                let (ran, row) = read?;
                let read = row.map(|row| Candidate::from_row(&row)).transpose()?;
                if read.is_none() {
                    running.read_nothing();
                }
                running.read = read;
                ran
            }
            Stmt::ScriptWrite {
                outside,
                lease_ms,
                owner,
            } => {
                let read = running
                    .read
                    .take()
                    .ok_or_else(|| internal("a write without a read"))?;
                if running.in_transaction && self.lock != Some(actor) {
                    self.lock = Some(actor);
                    self.committed = Some(self.db.rows()?);
                    self.reading.retain(|&reader| reader != actor);
                }
                let owner = owner.as_deref().unwrap_or(&running.name);
                let params = [
                    (":owner", Bound::from(owner)),
                    (":now", at.into()),
                    (":now_plus_lease", at.saturating_add(*lease_ms).into()),
                    (":id", read.id.as_str().into()),
                    (":read_token", read.token.into()),
                    (":read_attempts", read.attempts.into()),
                ];
                let (ran, claim) = self.db.write_outside(outside, &params)?;
                running.claim = claim.or(running.claim.take());
                ran
            }
            Stmt::ScriptCommit { sql } => {
                if self.lock == Some(actor) {
                    (self.lock, self.committed) = (None, None);
                }
                self.reading.retain(|&reader| reader != actor);
                running.in_transaction = false;
                modelled(sql)
            }
            Stmt::ScriptRollback => {
                self.reading.retain(|&reader| reader != actor);
                running.in_transaction = false;
                modelled("ROLLBACK")
            }
            Stmt::NaiveWrite { lease_ms, owner } => {
                let read = running
                    .read
                    .take()
                    .ok_or_else(|| internal("a write without a read"))?;
                let owner = owner.as_deref().unwrap_or(&running.name);
                let (ran, claim) = read.write(&mut self.db, owner, at, *lease_ms)?;
                running.claim = claim.or(running.claim.take());
                ran
            }
            Stmt::Insert(job) => self.db.insert(job)?,
            Stmt::Finish => {
                let stamp = running.claim.as_ref().map(Claim::stamp);
                let stamp = stamp.ok_or_else(|| internal("a finish without a claim"))?;
                self.db.finish(&stamp, at)?.0
            }
            Stmt::SendStarts { send_ms } => {
                running.returns_at = Some(at.saturating_add(*send_ms));
                return Ok((StepKind::SendStarts, None));
            }
            Stmt::SendReturns => {
                running.returns_at = None;
                return Ok((StepKind::SendReturns, None));
            }
        };
        Ok((StepKind::Ran, Some(ran)))
    }

    fn record(&mut self, actor: usize, kind: StepKind, does: Does, sql: Option<Executed>) {
        let name = |index: usize| self.actors[index].name.clone();
        let mut holding = BTreeMap::new(); // inserted, not collected: see `into_run`
        for actor in &self.actors {
            if let Some(claim) = &actor.claim {
                holding.insert(actor.name.clone(), claim.clone());
            }
        }
        let step = Step {
            at: self.clock,
            actor: name(actor),
            kind,
            does,
            sql,
            lock: self.lock.map(name),
            waiting: self.waiting.iter().map(|&index| name(index)).collect(),
            reading: self.reading.iter().map(|&index| name(index)).collect(),
            holding,
        };
        self.steps.push(step);
    }

    /// The next actor in turn after `last`: one whose statement is ready
    /// now and is not already asleep on the lock; else the one ready
    /// soonest (a send coming back, an actor starting). `None` when all
    /// are done.
    fn next_in_turn(&self, last: Option<usize>) -> Option<usize> {
        let count = self.actors.len();
        let first = last.map_or(0, |last| last + 1);
        let order = (0..count).map(|offset| (first + offset) % count);
        let candidates: Vec<usize> = order
            .filter(|&actor| self.actors[actor].current().is_some())
            .filter(|&actor| !(self.blocked(actor) && self.waiting.contains(&actor)))
            .collect();
        let ready = |actor: &usize| self.actors[*actor].ready_at(self.clock);
        candidates
            .iter()
            .find(|actor| ready(actor) <= self.clock)
            .or_else(|| candidates.iter().min_by_key(|actor| ready(actor)))
            .copied()
    }

    /// The run so far, with each actor's final claim and wait.
    pub fn into_run(self) -> Result<Run, Refusal> {
        // Filled by inserting, not collected: a collected map sorts its
        // entries first, code the browser's module would carry for nothing.
        let (mut claims, mut waited_ms) = (BTreeMap::new(), BTreeMap::new());
        for actor in &self.actors {
            claims.insert(actor.name.clone(), actor.claim.clone());
            waited_ms.insert(actor.name.clone(), actor.waited_ms);
        }
        let busy = (self.actors.iter())
            .filter(|actor| actor.busy)
            .map(|actor| actor.name.clone())
            .collect();
        Ok(Run {
            rows: self.db.rows()?,
            claims,
            waited_ms,
            busy,
            steps: self.steps,
        })
    }
}

/// A script's `BEGIN` or `COMMIT`, as the model ran it: on the one
/// connection a second actor's `BEGIN` would be an error, so only the lock
/// it stands for is run (see the module's documentation).
fn modelled(sql: &str) -> Executed {
    Executed {
        sql: Cow::Owned(sql.to_owned()),
        params: Vec::new(),
        write: false,
        rows: 0,
    }
}

/// The statement an actor waits to run, or that SQLite refused: its text,
/// unbound, nothing done.
fn not_run(stmt: &Stmt) -> Executed {
    Executed {
        sql: stmt.text(),
        params: Vec::new(),
        write: true,
        rows: 0,
    }
}

fn internal(what: &str) -> Refusal {
    Refusal::Queue(Error::Internal { what: what.into() })
}

/// Runs `actors` to their end, taking turns: each actor in order runs
/// one statement, `tick_ms` apart; an actor asleep on the lock is skipped
/// until the lock is free; a send in flight lets the others go first.
pub fn round_robin(jobs: &[NewJob], actors: &[Actor], tick_ms: u64) -> Result<Run, Refusal> {
    let mut machine = Machine::new(jobs, actors)?;
    let mut last = None;
    let mut at = 0;
    while let Some(actor) = machine.next_in_turn(last) {
        machine.turn(actor, at)?;
        at = machine.clock().saturating_add(tick_ms);
        last = Some(actor);
    }
    machine.into_run()
}
