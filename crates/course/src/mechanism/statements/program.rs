//! An actor's program: its ops expanded into the statements they run, and
//! where it stands in them.

use std::borrow::Cow;

use leasefence::model::{Claim, NewJob};
use leasefence::store::{Outside, Piece};

use super::{Actor, Does, Op};
use crate::variants::sql::{Candidate, NAIVE_CLAIM_READ, NAIVE_CLAIM_WRITE};

/// One statement of an actor's program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Stmt {
    Begin,
    Sweep {
        expire: bool,
    },
    Claim {
        lease_ms: u64,
        owner: Option<String>,
    },
    Commit,
    NaiveRead,
    NaiveWrite {
        lease_ms: u64,
        owner: Option<String>,
    },
    Insert(NewJob),
    Finish,
    SendStarts {
        send_ms: u64,
    },
    SendReturns,
    /// A claim script's `BEGIN`: the lock it stands for is the model's.
    ScriptBegin {
        sql: String,
        immediate: bool,
    },
    /// A claim script's read.
    ScriptRead(Outside),
    /// A claim script's write of what its read chose.
    ScriptWrite {
        outside: Outside,
        lease_ms: u64,
        owner: Option<String>,
    },
    /// A claim script's `COMMIT`.
    ScriptCommit {
        sql: String,
    },
    /// The `ROLLBACK` a worker runs after SQLite refused its write.
    ScriptRollback,
}

impl Stmt {
    /// The statement text a waiting actor is shown waiting to run.
    pub(super) fn text(&self) -> Cow<'static, str> {
        match self {
            Stmt::NaiveRead => Cow::Borrowed(NAIVE_CLAIM_READ.trim()),
            Stmt::NaiveWrite { .. } => Cow::Borrowed(NAIVE_CLAIM_WRITE.trim()),
            Stmt::ScriptBegin { sql, .. } | Stmt::ScriptCommit { sql } => Cow::Owned(sql.clone()),
            Stmt::ScriptRollback => Cow::Borrowed("ROLLBACK"),
            Stmt::ScriptRead(outside) | Stmt::ScriptWrite { outside, .. } => {
                Cow::Owned(outside.sql().to_owned())
            }
            _ => Cow::Borrowed("BEGIN IMMEDIATE"),
        }
    }

    /// What it is for.
    pub(super) fn does(&self) -> Does {
        match self {
            Stmt::Begin
            | Stmt::ScriptBegin {
                immediate: true, ..
            } => Does::Begin,
            Stmt::ScriptBegin { .. } => Does::BeginDeferred,
            Stmt::Commit | Stmt::ScriptCommit { .. } => Does::Commit,
            Stmt::Sweep { expire: false } => Does::Quarantine,
            Stmt::Sweep { expire: true } => Does::Expire,
            Stmt::Claim { .. } => Does::Claim,
            Stmt::NaiveRead | Stmt::ScriptRead(_) => Does::Read,
            Stmt::NaiveWrite { .. } | Stmt::ScriptWrite { .. } => Does::Write,
            Stmt::Insert(_) => Does::Enqueue,
            Stmt::Finish => Does::Finish,
            Stmt::SendStarts { .. } => Does::SendStarts,
            Stmt::SendReturns => Does::SendReturns,
            Stmt::ScriptRollback => Does::Rollback,
        }
    }

    /// Whether it writes what a read chose (a write skipped when the read
    /// found nothing).
    fn writes_what_was_read(&self) -> bool {
        matches!(self, Stmt::NaiveWrite { .. } | Stmt::ScriptWrite { .. })
    }
}

fn expand(op: &Op) -> Vec<Stmt> {
    let claim = |lease_ms, owner: &Option<String>| {
        vec![
            Stmt::Begin,
            Stmt::Sweep { expire: false },
            Stmt::Sweep { expire: true },
            Stmt::Claim {
                lease_ms,
                owner: owner.clone(),
            },
        ]
    };
    match op {
        Op::Claim { lease_ms, owner } => [claim(*lease_ms, owner), vec![Stmt::Commit]].concat(),
        Op::NaiveClaim { lease_ms, owner } => vec![
            Stmt::NaiveRead,
            Stmt::NaiveWrite {
                lease_ms: *lease_ms,
                owner: owner.clone(),
            },
        ],
        Op::ScriptClaim {
            script,
            lease_ms,
            owner,
        } => (script.pieces().iter())
            .map(|piece| match piece {
                Piece::Begin { sql, immediate } => Stmt::ScriptBegin {
                    sql: sql.clone(),
                    immediate: *immediate,
                },
                Piece::Commit { sql } => Stmt::ScriptCommit { sql: sql.clone() },
                Piece::Read(outside) => Stmt::ScriptRead(outside.clone()),
                Piece::Write(outside) => Stmt::ScriptWrite {
                    outside: outside.clone(),
                    lease_ms: *lease_ms,
                    owner: owner.clone(),
                },
            })
            .collect(),
        Op::ClaimSendingInside { lease_ms, send_ms } => {
            let send = [
                Stmt::SendStarts { send_ms: *send_ms },
                Stmt::SendReturns,
                Stmt::Commit,
            ];
            [claim(*lease_ms, &None), send.to_vec()].concat()
        }
        Op::Send { send_ms } => vec![Stmt::SendStarts { send_ms: *send_ms }, Stmt::SendReturns],
        Op::Finish => vec![Stmt::Begin, Stmt::Finish, Stmt::Commit],
        Op::Enqueue { job } => vec![Stmt::Begin, Stmt::Insert(job.clone()), Stmt::Commit],
    }
}

/// Where one op's statements lie in an actor's program.
#[derive(Debug, Clone, Copy)]
pub(super) struct Span {
    pub(super) start: usize,
    pub(super) end: usize,
    /// A finish or a send: it runs only for an actor holding a claim.
    needs_claim: bool,
}

/// An actor while the machine runs.
#[derive(Debug)]
pub(super) struct Running {
    pub(super) name: String,
    start_ms: u64,
    program: Vec<Stmt>,
    pub(super) spans: Vec<Span>,
    pub(super) next: usize,
    pub(super) read: Option<Candidate>,
    /// A write the read found nothing for: passed over.
    skip: Option<usize>,
    pub(super) claim: Option<Claim>,
    /// Inside a claim script's transaction (its `BEGIN` ran, its `COMMIT`
    /// not yet).
    pub(super) in_transaction: bool,
    /// SQLite refused its claim script's write with `SQLITE_BUSY`.
    pub(super) busy: bool,
    /// Since when it waits for the lock, while it does.
    pub(super) since: Option<u64>,
    pub(super) waited_ms: u64,
    /// When its send in flight returns.
    pub(super) returns_at: Option<u64>,
}

impl Running {
    pub(super) fn new(actor: &Actor) -> Running {
        let (mut program, mut spans) = (Vec::new(), Vec::new());
        for op in &actor.ops {
            let start = program.len();
            program.extend(expand(op));
            let needs_claim = matches!(op, Op::Finish | Op::Send { .. });
            let end = program.len();
            spans.push(Span {
                start,
                end,
                needs_claim,
            });
        }
        Running {
            name: actor.name.clone(),
            start_ms: actor.start_ms,
            program,
            spans,
            next: 0,
            read: None,
            skip: None,
            claim: None,
            in_transaction: false,
            busy: false,
            since: None,
            waited_ms: 0,
            returns_at: None,
        }
    }

    pub(super) fn current(&self) -> Option<&Stmt> {
        self.program.get(self.next)
    }

    /// On to its next statement, past a write whose read found nothing.
    pub(super) fn advance(&mut self) {
        self.next += 1;
        if self.skip == Some(self.next) {
            self.skip = None;
            self.next += 1;
        }
    }

    /// Its read found nothing: the write of the same op is passed over.
    pub(super) fn read_nothing(&mut self) {
        let end = self.span_end();
        self.skip = (self.next..end).find(|&index| self.program[index].writes_what_was_read());
    }

    /// SQLite refused its write: the rest of its op is the `ROLLBACK`
    /// that ends the transaction.
    pub(super) fn roll_back(&mut self) {
        let end = self.span_end();
        let removed = end - self.next;
        self.program.splice(self.next..end, [Stmt::ScriptRollback]);
        for span in &mut self.spans {
            if span.end >= end {
                span.end = span.end + 1 - removed;
                if span.start >= end {
                    span.start = span.start + 1 - removed;
                }
            }
        }
    }

    /// Where the op it is in ends.
    pub(super) fn span_end(&self) -> usize {
        (self.spans.iter())
            .find(|span| span.start <= self.next && self.next < span.end)
            .map_or(self.program.len(), |span| span.end)
    }

    /// Where its next op ends, when that op is a finish or a send and it
    /// holds no claim to present or deliver.
    pub(super) fn unclaimed_end(&self) -> Option<usize> {
        let span = self.spans.iter().find(|span| span.start == self.next)?;
        (span.needs_claim && self.claim.is_none()).then_some(span.end)
    }

    /// The earliest time its next statement may run.
    pub(super) fn ready_at(&self, clock: u64) -> u64 {
        match self.current() {
            Some(Stmt::SendReturns) => self.returns_at.unwrap_or(clock).max(clock),
            _ if self.next == 0 => self.start_ms.max(clock),
            _ => clock,
        }
    }
}
