//! A claim written outside the queue as a transaction script: a read that
//! chooses the job, a write that takes it, and where a transaction begins
//! and ends around them. The queue's own claim is one statement in one
//! `BEGIN IMMEDIATE` transaction (R6); a script lets a course show, and a
//! learner write, the claim taken apart, so that a model of several
//! workers (the course's statement panel) can interleave its statements
//! and show what each placement of `BEGIN` does.
//!
//! The text is split into statements where SQLite says one ends, and
//! each is checked as [`Outside`] checks one: the read as
//! [`Replaces::ClaimRead`], the write as [`Replaces::ClaimWrite`], on a
//! scratch database with the queue's schema. `BEGIN` and `COMMIT` are
//! kept apart: they are what the model runs as the write lock, and the
//! only statements besides the read and the write a script may hold.
//! Whether a `BEGIN` takes the write lock at once (`IMMEDIATE`,
//! `EXCLUSIVE`) or at the first write (`DEFERRED`, the default) is asked
//! of SQLite itself: the scratch database runs it and says which lock its
//! transaction holds.

use rusqlite::fallible_iterator::FallibleIterator;
use rusqlite::{Batch, Connection, TransactionState};

use super::outside::{Control, Scratch, check_text, invalid, sqlite_problem};
use super::{Outside, Replaces};
use crate::error::{Error, Problem, Result, ScriptMistake};

/// The most statements a claim script holds: a read, a write, a `BEGIN`
/// and a `COMMIT`.
const MOST_PIECES: usize = 4;

/// One statement of a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// `BEGIN`, as written.
    Begin {
        /// The statement's text.
        sql: String,
        /// Whether its transaction takes the write lock at once (`BEGIN
        /// IMMEDIATE`, `BEGIN EXCLUSIVE`), not at its first write.
        immediate: bool,
    },
    /// `COMMIT` (or `END`), as written.
    Commit {
        /// The statement's text.
        sql: String,
    },
    /// The read that chooses the job ([`Replaces::ClaimRead`]).
    Read(Outside),
    /// The write that takes it ([`Replaces::ClaimWrite`]).
    Write(Outside),
}

/// A checked claim script: one read, one write after it, and at most one
/// `BEGIN` with its `COMMIT` after it, in the order written. Made only by
/// [`Script::new`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    pieces: Vec<Piece>,
}

impl Script {
    /// Checks `text` as a claim script. Refused (field `sql`): a statement
    /// [`Outside::new`] refuses as the read or the write, SQLite's own
    /// complaint about the text ([`Problem::Sqlite`]), and
    /// [`Problem::Script`] for a script that is not one read, one write
    /// and one transaction at most.
    pub fn new(text: &str) -> Result<Script> {
        let scratch = Scratch::open(true)?;
        let refusal = |err: rusqlite::Error| -> Error {
            match scratch.refused() {
                Some(what) => invalid(Problem::NotAllowed { what }),
                None => invalid(sqlite_problem(&err)),
            }
        };
        check_text(text)?;
        let mut pieces = Vec::new();
        let conn = &scratch.conn;
        let split = statements(conn, text).map_err(refusal)?;
        // What splitting the text let through or refused is not a
        // statement's own.
        scratch.control();
        scratch.refused();
        for sql in split.map_err(mistake)? {
            scratch.control(); // the last BEGIN's own ROLLBACK, below
            let statement = conn.prepare(sql).map_err(refusal)?;
            let (readonly, binds_read) = (
                statement.readonly(),
                statement.parameter_index(":id").ok().flatten().is_some(),
            );
            drop(statement);
            pieces.push(match scratch.control() {
                Some(Control::Begin) => Piece::Begin {
                    sql: sql.to_owned(),
                    immediate: takes_write_lock(conn, sql).map_err(refusal)?,
                },
                Some(Control::Commit) => Piece::Commit {
                    sql: sql.to_owned(),
                },
                Some(Control::Rollback) => return Err(mistake(ScriptMistake::Rollback)),
                None if readonly => Piece::Read(Outside::new(Replaces::ClaimRead, sql)?),
                // A write that does not name the job read would choose its
                // own: a claim in one statement, not the read-then-write
                // this script is.
                None if !binds_read => return Err(mistake(ScriptMistake::WriteIgnoresRead)),
                None => Piece::Write(Outside::new(Replaces::ClaimWrite, sql)?),
            });
        }
        shape(&pieces).map_err(mistake)?;
        Ok(Script { pieces })
    }

    /// Its statements, in the order written.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }
}

/// Each statement of `text`, without its `;`, at most one more than
/// [`MOST_PIECES`]. A statement ends at the first `;` after which SQLite
/// reads another statement: a `;` in a string or a comment ends none.
/// SQLite's own count of the statements ([`Batch`]) must agree, or the
/// text is refused rather than a statement lost.
fn statements<'t>(
    scratch: &Connection,
    text: &'t str,
) -> rusqlite::Result<std::result::Result<Vec<&'t str>, ScriptMistake>> {
    let mut counted = 0;
    let mut batch = Batch::new(scratch, text);
    while counted <= MOST_PIECES && batch.next()?.is_some() {
        counted += 1;
    }
    let mut found = Vec::new();
    let mut rest = text;
    while found.len() < counted {
        rest = rest.trim_start_matches(|c: char| c == ';' || c.is_whitespace());
        let ends = |end: &usize| {
            let probe = format!("{} SELECT 1", &rest[..*end]);
            matches!(
                scratch.prepare(&probe),
                Err(rusqlite::Error::MultipleStatement)
            )
        };
        let semicolons = rest.match_indices(';').map(|(at, _)| at + 1);
        let end = semicolons.into_iter().find(ends).unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        let piece = bare(&rest[..end]);
        if scratch.prepare(piece).is_err_and(is_empty) {
            break; // a comment and a `;` that SQLite reads as no statement
        }
        found.push(piece);
        rest = &rest[end..];
    }
    let past = counted > MOST_PIECES; // refused by its shape, the rest unread
    let agrees = found.len() == counted && (past || scratch.prepare(rest).is_err_and(is_empty));
    Ok(if agrees {
        Ok(found)
    } else {
        Err(ScriptMistake::Unsplittable)
    })
}

fn is_empty(err: rusqlite::Error) -> bool {
    matches!(err, rusqlite::Error::Empty)
}

/// A statement's text without the blanks around it and its `;`.
fn bare(sql: &str) -> &str {
    sql.trim().trim_end_matches(';').trim_end()
}

/// Whether the `BEGIN` in `sql` takes the write lock at once: SQLite runs
/// it on the scratch database and says which lock its transaction holds.
fn takes_write_lock(scratch: &Connection, sql: &str) -> rusqlite::Result<bool> {
    scratch.execute_batch(sql)?;
    let state = scratch.transaction_state(None::<&str>)?;
    scratch.execute_batch("ROLLBACK")?;
    Ok(state == TransactionState::Write)
}

/// One read, one write after it, at most one `BEGIN` and one `COMMIT`,
/// both or neither, the `BEGIN` first.
fn shape(pieces: &[Piece]) -> std::result::Result<(), ScriptMistake> {
    let at = |wanted: fn(&Piece) -> bool| -> Vec<usize> {
        (pieces.iter().enumerate())
            .filter(|(_, piece)| wanted(piece))
            .map(|(index, _)| index)
            .collect()
    };
    let reads = at(|piece| matches!(piece, Piece::Read(_)));
    let writes = at(|piece| matches!(piece, Piece::Write(_)));
    let begins = at(|piece| matches!(piece, Piece::Begin { .. }));
    let commits = at(|piece| matches!(piece, Piece::Commit { .. }));
    match (reads.as_slice(), writes.as_slice()) {
        ([], _) => Err(ScriptMistake::NoRead),
        (_, []) => Err(ScriptMistake::NoWrite),
        ([_, _, ..], _) => Err(ScriptMistake::TwoReads),
        (_, [_, _, ..]) => Err(ScriptMistake::TwoWrites),
        ([read], [write]) if write < read => Err(ScriptMistake::WriteBeforeRead),
        _ => match (begins.as_slice(), commits.as_slice()) {
            ([_, _, ..], _) | (_, [_, _, ..]) => Err(ScriptMistake::TwoTransactions),
            ([], []) => Ok(()),
            ([_], []) => Err(ScriptMistake::NoCommit),
            ([], [_]) => Err(ScriptMistake::NoBegin),
            ([begin], [commit]) if commit < begin => Err(ScriptMistake::NoBegin),
            _ => Ok(()),
        },
    }
}

fn mistake(mistake: ScriptMistake) -> Error {
    invalid(Problem::Script(mistake))
}
