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
//! transaction; one connection would show it the uncommitted one, so the
//! model has it wait instead. The demos never meet this case.)
//!
//! **Time.** Each statement takes `tick_ms`; a send takes its `send_ms`
//! between its start and its return, and other actors run meanwhile. An
//! actor starts at its `start_ms`. [`round_robin`] lets the actors take
//! turns; [`Machine`] lets a caller (a test, a page's step button) choose
//! every turn itself.

mod program;

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Serialize;

use super::Refusal;
use leasefence::error::{Error, Problem};
use leasefence::model::{Claim, JobRow, NewJob};
use leasefence::store::{Bound, Executed, Script, Statements};

use crate::variants::sql::Candidate;
use program::{Running, Span, Stmt};

/// What an actor does, as a scenario would say it; each expands into the
/// statements it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// The real claim (R6): `BEGIN IMMEDIATE`, sweeps, `UPDATE`, `COMMIT`.
    Claim {
        /// Requested lease length.
        lease_ms: u64,
        /// The name it claims under; `None`: the actor's own (R8).
        owner: Option<String>,
    },
    /// The naive claim: `SELECT` the candidate, later `UPDATE` it.
    NaiveClaim {
        /// Requested lease length.
        lease_ms: u64,
        /// The name it claims under; `None`: the actor's own (R8).
        owner: Option<String>,
    },
    /// A claim written as a transaction script (the lab's): its read, its
    /// write and its `BEGIN` and `COMMIT` in the order written, the
    /// transaction run as the lock the model gives it.
    ScriptClaim {
        /// The script.
        script: Script,
        /// Requested lease length.
        lease_ms: u64,
        /// The name it claims under; `None`: the actor's own (R8).
        owner: Option<String>,
    },
    /// The real claim, but the job is sent before `COMMIT` (breaks R7).
    ClaimSendingInside {
        /// Requested lease length.
        lease_ms: u64,
        /// How long the send takes.
        send_ms: u64,
    },
    /// Deliver the claimed job, outside any transaction (R7). Like a
    /// finish, it needs a claim: without one it is a step of its own
    /// ([`StepKind::NoClaim`]) and runs nothing.
    Send {
        /// How long the send takes.
        send_ms: u64,
    },
    /// The fenced finish of the claim held: `BEGIN`, `UPDATE`, `COMMIT`.
    Finish,
    /// The producer's enqueue: `BEGIN IMMEDIATE`, `INSERT`, `COMMIT`.
    Enqueue {
        /// The job put on the queue.
        job: NewJob,
    },
}

/// One actor of a statement-level script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    /// Its name (and the owner it claims under).
    pub name: String,
    /// When its first statement may run.
    pub start_ms: u64,
    /// What it does, in order.
    pub ops: Vec<Op>,
}

/// What kind of step an actor took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// A statement ran.
    Ran,
    /// The statement needs the write lock another actor holds: it waits.
    Waits,
    /// A send left (no SQL).
    SendStarts,
    /// A send came back (no SQL).
    SendReturns,
    /// A finish or a send by an actor holding no claim: nothing to
    /// present or deliver, so nothing runs (the replay's `no_claim`).
    NoClaim,
    /// A claim script's write that needs the write lock another actor
    /// holds, by an actor whose open transaction holds a read lock: the
    /// holder's `COMMIT` waits for that read lock to go, so SQLite
    /// refuses the write at once (`SQLITE_BUSY`, "database is locked")
    /// rather than let the two wait for each other, and the claim's
    /// transaction ends with nothing claimed.
    Busy,
}

/// What a statement is for in its op: the page names a statement by
/// this, not by its text, which for a learner's script is theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Does {
    /// `BEGIN IMMEDIATE`: takes the write lock.
    Begin,
    /// A deferred `BEGIN`: opens a transaction that takes no lock yet.
    BeginDeferred,
    /// `COMMIT`: releases the locks.
    Commit,
    /// The claim's sweep of jobs out of attempts.
    Quarantine,
    /// The claim's sweep of jobs past their deadline.
    Expire,
    /// The real claim's choose-and-take.
    Claim,
    /// A read of the job to claim (the naive claim's, a script's).
    Read,
    /// A write of what that read chose.
    Write,
    /// The enqueue's `INSERT`.
    Enqueue,
    /// The fenced finish.
    Finish,
    /// A send leaves.
    SendStarts,
    /// A send comes back.
    SendReturns,
}

/// One step: who did what, and the lock and the claims after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// When, in milliseconds.
    pub at: u64,
    /// The actor.
    pub actor: String,
    /// What kind of step.
    pub kind: StepKind,
    /// What the statement is for (the one waited for, when it waits).
    pub does: Does,
    /// The statement (with its bound values and rows when it ran; the one
    /// waited for, unbound, when it waits); `None` for a send.
    pub sql: Option<Executed>,
    /// Who holds the write lock after the step.
    pub lock: Option<String>,
    /// Who waits for it after the step, in the order they asked.
    pub waiting: Vec<String>,
    /// Actor -> the claim it holds after the step.
    pub holding: BTreeMap<String, Claim>,
}

/// A whole statement-level run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Run {
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// Actor -> the claim it ended with (`None`: it got nothing).
    pub claims: BTreeMap<String, Option<Claim>>,
    /// Actor -> how long it waited for the write lock in all.
    pub waited_ms: BTreeMap<String, u64>,
    /// The actors whose claim SQLite refused with `SQLITE_BUSY`
    /// ([`StepKind::Busy`]), in the order refused.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub busy: Vec<String>,
    /// The table at the end.
    pub rows: Vec<JobRow>,
}

/// The statement-level model: actors, the one connection their
/// statements run on, and the modelled write lock.
pub struct Machine {
    db: Statements,
    actors: Vec<Running>,
    lock: Option<usize>,
    /// The actors whose open claim script transaction holds a read lock
    /// (SQLite's `SHARED`): it read without the write lock.
    reading: Vec<usize>,
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
        Ok(Machine {
            db: Statements::open(jobs)?,
            actors: actors.iter().map(Running::new).collect(),
            lock: None,
            reading: Vec::new(),
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
    /// * `BEGIN IMMEDIATE`, and a statement run on its own (autocommit:
    ///   the naive claim's two, a script's outside any transaction), for
    ///   the write lock another holds; an autocommit write also for a
    ///   read lock another's open transaction holds, as it must write;
    /// * a script's read inside a deferred `BEGIN`, for the write lock
    ///   another holds, unless it already holds a read lock;
    /// * a script's write inside one, for the write lock another holds,
    ///   unless it holds a read lock: then it is refused ([`Self::busy`]);
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
        match stmt {
            Stmt::Begin | Stmt::NaiveRead | Stmt::NaiveWrite { .. } => other_writes,
            Stmt::ScriptBegin { immediate, .. } => *immediate && other_writes,
            Stmt::ScriptRead(_) => other_writes && !reads,
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
            let running = &mut self.actors[actor];
            running.next = running.span_end();
            (running.busy, running.in_transaction, running.read) = (true, false, None);
            self.reading.retain(|&reader| reader != actor);
            let refused = Executed {
                sql: stmt.text(),
                params: Vec::new(),
                write: true,
                rows: 0,
            };
            self.record(actor, StepKind::Busy, stmt.does(), Some(refused));
            return Ok(());
        }
        if self.blocked(actor) {
            let running = &mut self.actors[actor];
            running.since.get_or_insert(at);
            if !self.waiting.contains(&actor) {
                self.waiting.push(actor);
            }
            let waited = Executed {
                sql: stmt.text(),
                params: Vec::new(),
                write: true,
                rows: 0,
            };
            self.record(actor, StepKind::Waits, stmt.does(), Some(waited));
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
                self.db.transaction("BEGIN IMMEDIATE")?
            }
            Stmt::Commit => {
                self.lock = None;
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
                let (ran, row) = self.db.read_outside(outside, at)?;
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
                if running.in_transaction {
                    self.lock = Some(actor);
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
                    self.lock = None;
                }
                self.reading.retain(|&reader| reader != actor);
                running.in_transaction = false;
                modelled(sql)
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
