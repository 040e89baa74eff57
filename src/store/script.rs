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

use rusqlite::{Connection, TransactionState};

use super::outside::{Control, Scratch, invalid, sqlite_problem};
use super::{Outside, Replaces};
use crate::error::{Error, Problem, Result, ScriptMistake};

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
        let mut pieces = Vec::new();
        let conn = &scratch.conn;
        for sql in statements(conn, text).map_err(refusal)? {
            scratch.control(); // what splitting the text let through
            let readonly = conn.prepare(sql).map_err(refusal)?.readonly();
            let control = scratch.control();
            pieces.push(match control {
                Some(Control::Begin) => Piece::Begin {
                    sql: sql.to_owned(),
                    immediate: takes_write_lock(conn, sql)?,
                },
                Some(Control::Commit) => Piece::Commit {
                    sql: sql.to_owned(),
                },
                Some(Control::Rollback) => return Err(mistake(ScriptMistake::Rollback)),
                None if readonly => Piece::Read(Outside::new(Replaces::ClaimRead, sql)?),
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

/// Each statement of `text`, without its `;`. A statement ends at the
/// first `;` after which SQLite reads the next one as another statement:
/// a `;` in a string or a comment ends none.
fn statements<'t>(scratch: &Connection, text: &'t str) -> rusqlite::Result<Vec<&'t str>> {
    let mut found = Vec::new();
    let mut rest = text;
    loop {
        match scratch.prepare(rest) {
            Err(rusqlite::Error::Empty) => return Ok(found),
            Ok(_) => {
                found.push(bare(rest));
                return Ok(found);
            }
            Err(rusqlite::Error::MultipleStatement) => {
                let ends = |end: &usize| {
                    let probe = format!("{} SELECT 1", &rest[..*end]);
                    matches!(
                        scratch.prepare(&probe),
                        Err(rusqlite::Error::MultipleStatement)
                    )
                };
                let semicolons = rest.match_indices(';').map(|(at, _)| at + 1);
                let Some(end) = semicolons.into_iter().find(ends) else {
                    // SQLite read two statements, so one ended at a `;`.
                    return Err(rusqlite::Error::MultipleStatement);
                };
                found.push(bare(&rest[..end]));
                rest = &rest[end..];
            }
            Err(err) => return Err(err),
        }
    }
}

/// A statement's text without the blanks around it and its `;`.
fn bare(sql: &str) -> &str {
    sql.trim().trim_end_matches(';').trim_end()
}

/// Whether the `BEGIN` in `sql` takes the write lock at once: SQLite runs
/// it on the scratch database and says which lock its transaction holds.
fn takes_write_lock(scratch: &Connection, sql: &str) -> Result<bool> {
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
