//! A statement written outside the queue (a learner's, typed into a page
//! or a file) that runs in place of one of the queue's own, on its schema.
//!
//! Such text is untrusted, so it is checked once, when it is made into an
//! [`Outside`], on a scratch database with the queue's schema: it must be
//! exactly one statement; it may name only the parameters the queue binds
//! to the statement it replaces, and no positional one; it may touch only
//! the `jobs` table (SQLite's authorizer refuses any other table, and
//! every `PRAGMA`, `ATTACH`, transaction or schema change); and it must
//! have the replaced statement's shape (a finish returns no rows, a claim
//! the claim's columns). What
//! the authorizer allows depends only on the text and the schema, so the
//! answer on the scratch database is the answer on every queue with the
//! same schema.
//!
//! While it runs, its work is bounded: the queue's progress handler stops
//! the outside statements once they have taken [`MAX_STEPS`] of SQLite's
//! virtual-machine steps together on that queue, so a runaway statement
//! (a join of `jobs` with itself ten times over), or a slow one run for
//! every finish of every ordering, ends with [`Problem::TooMuchWork`]
//! instead of hanging the page.
//!
//! The check on the scratch database holds for a queue whose schema is
//! the one this crate creates (every in-memory queue; a file another
//! program changed, with triggers of its own, is not covered).

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use rusqlite::hooks::{AuthAction, AuthContext, Authorization, TransactionOperation};
use rusqlite::{Connection, ErrorCode};

use super::open::{Kind, open_memory};
use crate::error::{Error, Forbidden, Problem, Result};

/// Which of the queue's statements an outside one stands in for, or
/// which half of a claim taken apart into a read and a write (a claim
/// written as a transaction script, [`super::Script`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replaces {
    /// [`super::FINISH`]: the finish's guarded `UPDATE`.
    Finish,
    /// [`super::CLAIM`]: the claim's `UPDATE ... RETURNING`, which chooses
    /// a job and takes it in one statement. The queue's sweeps (a job out
    /// of attempts quarantined, one past its deadline expired) still run
    /// before it, in the same transaction, as they do before its own.
    Claim,
    /// A claim's read: a `SELECT` of the job to claim, returning
    /// [`CANDIDATE_COLUMNS`].
    ClaimRead,
    /// A claim's write: an `UPDATE ... RETURNING` of the job the read
    /// chose, bound to what the read returned (`:id`, `:read_token`,
    /// `:read_attempts`).
    ClaimWrite,
}

/// The columns a claim returns, in order: the claim its worker gets.
const CLAIM_COLUMNS: [&str; 6] = ["id", "qty", "owner", "token", "attempts", "lease_until"];

/// The columns a claim's read returns, in order: the job it chose, and
/// the token and attempts its write counts on from.
pub const CANDIDATE_COLUMNS: [&str; 3] = ["id", "token", "attempts"];

impl Replaces {
    /// The parameters the queue binds to it; an outside statement may
    /// name only these (each is bound if named).
    pub fn parameters(self) -> &'static [&'static str] {
        match self {
            Replaces::Finish => &[":id", ":owner", ":token", ":attempt", ":now"],
            Replaces::Claim => &[":owner", ":now", ":now_plus_lease"],
            Replaces::ClaimRead => &[":now"],
            Replaces::ClaimWrite => &[
                ":owner",
                ":now",
                ":now_plus_lease",
                ":id",
                ":read_token",
                ":read_attempts",
            ],
        }
    }
}

/// Checked text of a statement written outside the queue; see the module
/// documentation. Made only by [`Outside::new`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outside {
    replaces: Replaces,
    sql: String,
}

impl Outside {
    /// Checks `sql` as a stand-in for `replaces`. Refused (field `sql`):
    /// [`Problem::NotOneStatement`], [`Problem::UnknownParameter`],
    /// [`Problem::NotAllowed`], [`Problem::ReturnsRows`] (a finish),
    /// [`Problem::ReturnsOtherColumns`] (a claim),
    /// [`Problem::WritesNothing`], and SQLite's own
    /// complaints (a syntax error, a column that does not exist) as
    /// [`Problem::Sqlite`]; before SQLite reads it, a text over
    /// [`MAX_SQL_BYTES`] as [`Problem::TooLong`] and one with a NUL byte as
    /// [`Problem::NulByte`].
    pub fn new(replaces: Replaces, sql: &str) -> Result<Outside> {
        check_text(sql)?;
        let scratch = Scratch::open(false)?;
        let statement = match scratch.conn.prepare(sql) {
            Ok(statement) => statement,
            Err(err) => {
                let denied = scratch.refused();
                return Err(invalid(match (denied, err) {
                    (Some(what), _) => Problem::NotAllowed { what },
                    // Nothing but blanks, semicolons and comments, or more
                    // than one statement.
                    (None, rusqlite::Error::Empty | rusqlite::Error::MultipleStatement) => {
                        Problem::NotOneStatement
                    }
                    (None, err) => sqlite_problem(&err),
                }));
            }
        };
        let allowed = replaces.parameters();
        for index in 1..=statement.parameter_count() {
            let name = statement.parameter_name(index).unwrap_or("?");
            if !allowed.contains(&name) {
                return Err(invalid(Problem::UnknownParameter {
                    name: name.to_owned(),
                    allowed: allowed.join(", "),
                }));
            }
        }
        let columns: Vec<&str> = statement.column_names().collect();
        match replaces {
            Replaces::Finish if !columns.is_empty() => {
                return Err(invalid(Problem::ReturnsRows));
            }
            Replaces::Claim | Replaces::ClaimWrite if columns != CLAIM_COLUMNS => {
                return Err(invalid(Problem::ReturnsOtherColumns {
                    expected: CLAIM_COLUMNS.join(", "),
                }));
            }
            Replaces::ClaimRead if !statement.readonly() => {
                return Err(invalid(Problem::ReadWrites));
            }
            Replaces::ClaimRead if columns != CANDIDATE_COLUMNS => {
                return Err(invalid(Problem::ReadsOtherColumns {
                    expected: CANDIDATE_COLUMNS.join(", "),
                }));
            }
            Replaces::ClaimRead => {}
            _ if statement.readonly() => return Err(invalid(Problem::WritesNothing)),
            Replaces::Finish | Replaces::Claim | Replaces::ClaimWrite => {}
        }
        Ok(Outside {
            replaces,
            sql: sql.to_owned(),
        })
    }

    /// The statement it replaces.
    pub fn replaces(&self) -> Replaces {
        self.replaces
    }

    /// Its text, as given.
    pub fn sql(&self) -> &str {
        &self.sql
    }
}

/// A transaction statement a scratch database's authorizer let through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Control {
    Begin,
    Commit,
    Rollback,
}

/// A scratch database with the queue's schema, on which outside text is
/// checked: its authorizer lets a statement read and write `jobs` and
/// nothing else ([`allowed`]), and notes what it refused; with
/// `transactions` (a claim script's), it also lets transaction statements
/// through and notes which. One authorizer for both, so the browser's
/// module carries one copy of rusqlite's authorizer glue.
pub(super) struct Scratch {
    pub(super) conn: rusqlite::Connection,
    refused: Arc<Mutex<Option<Forbidden>>>,
    control: Arc<Mutex<Option<Control>>>,
}

impl Scratch {
    pub(super) fn open(transactions: bool) -> Result<Scratch> {
        let mut conn = open_memory(Kind::Queue)?;
        limit(&conn)?;
        let (refused, control) = (Arc::new(Mutex::new(None)), Arc::new(Mutex::new(None)));
        let (noted_refusal, noted_control) = (Arc::clone(&refused), Arc::clone(&control));
        conn.authorizer(Some(move |context: AuthContext<'_>| {
            let seen = match context.action {
                // SQLite names a transaction's operation BEGIN, COMMIT or
                // ROLLBACK; rusqlite knows no COMMIT and says Unknown.
                AuthAction::Transaction { operation } => Some(match operation {
                    TransactionOperation::Begin => Control::Begin,
                    TransactionOperation::Unknown => Control::Commit,
                    _ => Control::Rollback,
                }),
                AuthAction::Savepoint { .. } => Some(Control::Rollback),
                _ => None,
            };
            let verdict = match seen {
                Some(seen) if transactions => {
                    if let Ok(mut noted) = noted_control.lock() {
                        *noted = Some(seen);
                    }
                    Ok(())
                }
                _ => allowed(&context.action),
            };
            if let Err(what) = &verdict
                && let Ok(mut noted) = noted_refusal.lock()
            {
                noted.get_or_insert_with(|| what.clone());
            }
            verdict.map_or(Authorization::Deny, |()| Authorization::Allow)
        }))?;
        Ok(Scratch {
            conn,
            refused,
            control,
        })
    }

    /// What the authorizer refused first since the last call.
    pub(super) fn refused(&self) -> Option<Forbidden> {
        self.refused.lock().ok().and_then(|mut noted| noted.take())
    }

    /// The transaction statement it let through last since the last call.
    pub(super) fn control(&self) -> Option<Control> {
        self.control.lock().ok().and_then(|mut noted| noted.take())
    }
}

/// What an outside statement may do: read and write rows of `jobs`, and
/// call SQL functions; `Err` names anything else.
fn allowed(action: &AuthAction<'_>) -> std::result::Result<(), Forbidden> {
    match action {
        AuthAction::Read { table_name, .. } => match *table_name {
            "jobs" => Ok(()),
            other => Err(Forbidden::Table(other.to_owned())),
        },
        AuthAction::Update { table_name, .. }
        | AuthAction::Insert { table_name }
        | AuthAction::Delete { table_name } => match *table_name {
            "jobs" => Ok(()),
            // Writing the schema's own table is how CREATE and DROP begin.
            "sqlite_master" | "sqlite_temp_master" => Err(Forbidden::Schema),
            other => Err(Forbidden::Table(other.to_owned())),
        },
        AuthAction::Select | AuthAction::Function { .. } | AuthAction::Recursive => Ok(()),
        AuthAction::Pragma { pragma_name, .. } => Err(Forbidden::Pragma((*pragma_name).to_owned())),
        AuthAction::Transaction { .. } | AuthAction::Savepoint { .. } => {
            Err(Forbidden::Transaction)
        }
        AuthAction::Attach { .. } | AuthAction::Detach { .. } => Err(Forbidden::Attach),
        _ => Err(Forbidden::Schema),
    }
}

/// The longest SQL text taken, a statement's or a script's: splitting
/// prepares a script once per `;` in it, and SQLite's parser and planner
/// work in proportion to the text, so neither a page nor a grader can be
/// kept busy by a pasted book. The queue's longest statement is under 400
/// bytes.
pub const MAX_SQL_BYTES: usize = 10_000;

/// What is checked of SQL from outside before SQLite reads it: its length
/// ([`Problem::TooLong`], over [`MAX_SQL_BYTES`]) and that it has no NUL
/// byte ([`Problem::NulByte`]: SQLite would silently read only what comes
/// before it).
pub(super) fn check_text(sql: &str) -> Result<()> {
    if sql.len() > MAX_SQL_BYTES {
        return Err(invalid(Problem::TooLong {
            len: sql.len(),
            max: MAX_SQL_BYTES,
        }));
    }
    if sql.as_bytes().contains(&0) {
        return Err(invalid(Problem::NulByte));
    }
    Ok(())
}

pub(super) fn invalid(problem: Problem) -> Error {
    Error::invalid("sql", problem)
}

/// SQLite's own complaint about the statement, in its words.
pub(super) fn sqlite_problem(err: &rusqlite::Error) -> Problem {
    match err {
        rusqlite::Error::SqliteFailure(failure, _)
            if failure.code == ErrorCode::OperationInterrupted =>
        {
            Problem::TooMuchWork { steps: MAX_STEPS }
        }
        rusqlite::Error::SqliteFailure(_, Some(message))
        | rusqlite::Error::SqlInputError { msg: message, .. } => Problem::Sqlite(message.clone()),
        other => Problem::Sqlite(other.to_string()),
    }
}

/// How many of SQLite's virtual-machine steps the outside statements run
/// on one queue may take together: far more than any honest statement on
/// a course's table of a few jobs needs, run thousands of times, and a
/// bound on the whole of a grading, not only on one runaway statement.
pub const MAX_STEPS: u64 = STEPS_PER_CALL as u64 * CALLS as u64;

/// The longest string or blob a statement on a queue's connection may
/// make: far past any row of the queue's (ids are at most 200 bytes), far
/// short of what would make one step a long one.
const MAX_VALUE_BYTES: i32 = 100_000;

/// The deepest expression tree SQLite builds for a statement: the queue's
/// own are about ten deep. SQLite walks a tree recursively, and in the
/// browser a few thousand levels (`… AND 1+1+1…`, well inside
/// [`MAX_SQL_BYTES`]) overflowed the JavaScript engine's stack, a trap that
/// killed the page's module; a tree past this is refused as it is parsed.
const MAX_EXPR_DEPTH: i32 = 100;

/// The limits every connection that runs or checks an outside statement
/// has, the same on both targets, so the page and `leasefence grade` refuse
/// the same statements.
fn limit(conn: &Connection) -> Result<()> {
    use rusqlite::limits::Limit;
    // Few steps can still be much work: `zeroblob(10000000)` is one step
    // that allocates 10 MB (a graded finish padded with it ran 182 s).
    conn.set_limit(Limit::SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)?;
    conn.set_limit(Limit::SQLITE_LIMIT_EXPR_DEPTH, MAX_EXPR_DEPTH)?;
    Ok(())
}

/// The progress handler runs every this many steps.
const STEPS_PER_CALL: i32 = 1000;

/// Calls of the progress handler the outside statements of one queue may
/// take together.
const CALLS: u32 = 5_000;

/// What is left of an allowance for outside statements, and whether one
/// is running: the queue's own statements are never stopped. One budget
/// may bound several databases together (a grading that replays its
/// scenario on a fresh one for every ordering): it is shared, not copied,
/// by `clone`.
#[derive(Debug, Clone)]
pub struct Budget {
    left: Arc<AtomicU32>,
    armed: Arc<AtomicBool>,
}

impl Default for Budget {
    /// The whole allowance, [`MAX_STEPS`].
    fn default() -> Budget {
        Budget {
            left: Arc::new(AtomicU32::new(CALLS)),
            armed: Arc::new(AtomicBool::new(false)),
        }
    }
}

impl Budget {
    /// Installs the progress handler that spends this budget on `conn`.
    pub(crate) fn install(&self, conn: &mut Connection) -> Result<()> {
        limit(conn)?;
        let (left, armed) = (Arc::clone(&self.left), Arc::clone(&self.armed));
        conn.progress_handler(
            STEPS_PER_CALL,
            Some(move || {
                if !armed.load(Ordering::Relaxed) {
                    return false;
                }
                match left.load(Ordering::Relaxed) {
                    0 => true,
                    calls => {
                        left.store(calls - 1, Ordering::Relaxed);
                        false
                    }
                }
            }),
        )?;
        Ok(())
    }

    /// Runs `work` with the budget armed; it is disarmed after, even if
    /// `work` panics.
    pub(crate) fn bounded<T>(&self, work: impl FnOnce() -> T) -> T {
        struct Disarm<'a>(&'a AtomicBool);
        impl Drop for Disarm<'_> {
            fn drop(&mut self) {
                self.0.store(false, Ordering::Relaxed);
            }
        }
        self.armed.store(true, Ordering::Relaxed);
        let _disarm = Disarm(&self.armed);
        work()
    }
}
