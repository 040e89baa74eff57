//! The one error type of the crate.
//!
//! Errors are for input the queue refuses and for a database that cannot be
//! used. A *rejected finish* is not an error: it is the fence doing its job,
//! so it comes back as a normal [`crate::Finish`] value.
//!
//! Every variant names what was wrong (a field, an event index, a path), so a
//! learner or an operator can act on the message without reading the code.

/// Everything that can go wrong in the queue, the scenario parser and the
/// receiver.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A value given to an operation is out of range or malformed.
    #[error("{field}: {problem}")]
    InvalidInput {
        /// The field (or argument) that was wrong, as the caller named it.
        field: String,
        /// What was wrong with it, including the value that was given.
        problem: Problem,
    },

    /// `enqueue` was given an id the table already holds.
    #[error("id: job {id:?} already exists")]
    DuplicateJob {
        /// The id that is already taken.
        id: String,
    },

    /// A scenario document was refused; nothing of it was applied.
    #[error("scenario: {path}: {problem}")]
    Scenario {
        /// Where in the document, e.g. `events[2].lease_ms`.
        path: String,
        /// What is wrong there.
        problem: Problem,
    },

    /// The receiver already holds this job id with another quantity (R12):
    /// a delivery never overwrites an effect that was applied.
    #[error("qty: job {id:?} was delivered with qty {stored}, refusing qty {offered}")]
    DeliveryConflict {
        /// The job id.
        id: String,
        /// The quantity the receiver applied first.
        stored: u64,
        /// The quantity this delivery carried.
        offered: u64,
    },

    /// The file exists but is not a database this program created.
    #[error("{path}: not a leasefence database ({why})")]
    NotOurDatabase {
        /// The file that was opened.
        path: String,
        /// Why it was not accepted.
        why: String,
    },

    /// leasefence contradicted itself; this is a bug worth reporting.
    #[error("internal error: {what}")]
    Internal {
        /// What did not add up.
        what: String,
    },

    /// Another connection held the database's lock past the busy handler's
    /// patience (at least ten seconds of waiting). The file is in use, not
    /// damaged: saying so keeps an operator from deleting a good queue.
    #[error(
        "database is busy: another process held its lock for 10 s or more; the transaction that waited was rolled back, try again"
    )]
    Busy,

    /// SQLite itself failed (I/O, a full disk, ...).
    #[error("database: {0}")]
    Sqlite(#[source] rusqlite::Error),

    /// The database server could not be reached or failed (a refused
    /// login, a lost connection, a full disk, ...): the server's own
    /// words, whatever the engine.
    #[error("database: {0}")]
    Database(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// SQLite's busy error (another connection holds the lock) becomes
/// [`Error::Busy`]; every other failure stays SQLite's own, including
/// `SQLITE_LOCKED`, a conflict inside one connection rather than another
/// process's lock.
impl From<rusqlite::Error> for Error {
    fn from(err: rusqlite::Error) -> Self {
        match err.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy) => Error::Busy,
            _ => Error::Sqlite(err),
        }
    }
}

/// What is wrong with one value: a type rather than a sentence, so that the
/// playground can say it in the learner's language. `Display` is the
/// English the command line and the JavaScript API print. Not
/// `#[non_exhaustive]`: the course says every problem in each language and
/// matches them all, so a new one fails its build until it is said.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// An integer below its minimum.
    #[error("must be an integer >= {min}, got {got}")]
    TooSmall {
        /// The smallest value allowed.
        min: u64,
        /// The value given.
        got: u64,
    },
    /// An integer above [`crate::MAX_INT`].
    #[error("{got} is too large (at most {max})")]
    TooLarge {
        /// The value given.
        got: u64,
        /// The largest value allowed.
        max: u64,
    },
    /// An empty (or all-blank) name.
    #[error("must be a non-empty string")]
    Empty,
    /// A name, or SQL, longer than allowed.
    #[error("is {len} bytes long (at most {max})")]
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// The most allowed.
        max: usize,
    },
    /// A name with control characters (a newline, a NUL, ...).
    #[error("must not contain control characters")]
    ControlCharacters,
    /// SQL with a NUL byte: SQLite reads a statement only up to it, so
    /// what follows would be silently dropped.
    #[error("must not contain a NUL byte: SQLite would not read past it")]
    NulByte,
    /// An event earlier than the one before it.
    #[error("{at} is earlier than the event before it ({previous}); times must not go back")]
    TimeGoesBack {
        /// The event's time.
        at: u64,
        /// The time of the event before it.
        previous: u64,
    },
    /// A job id listed twice among a scenario's starting jobs.
    #[error("job {id:?} appears twice")]
    JobListedTwice {
        /// The id.
        id: String,
    },
    /// An enqueue of an id the scenario already has.
    #[error("job {id:?} is already in the scenario")]
    JobAlreadyInScenario {
        /// The id.
        id: String,
    },
    /// A claim without `lease_ms`.
    #[error("a claim needs lease_ms")]
    LeaseMissing,
    /// `lease_ms` on anything but a claim.
    #[error("only a claim takes lease_ms")]
    LeaseNotTaken,
    /// An enqueue without `job`.
    #[error("an enqueue needs a job")]
    JobMissing,
    /// `job` on anything but an enqueue.
    #[error("only an enqueue takes a job")]
    JobNotTaken,
    /// More jobs or events than one scenario may hold.
    #[error("at most {max} {what}")]
    TooMany {
        /// `jobs` or `events`.
        what: &'static str,
        /// The limit.
        max: usize,
    },
    /// An event added live before the document's own were all applied.
    #[error("{applied} of {total} events are applied; step through the rest before adding one")]
    NotPlayedThrough {
        /// Events applied.
        applied: usize,
        /// Events in the timeline.
        total: usize,
    },
    /// Text that is not JSON, in the JSON parser's words (with the line
    /// and column).
    #[error("{0}")]
    Syntax(String),
    /// JSON whose value does not fit the field (a string for a number, an
    /// unknown field, a missing one), in the parser's words.
    #[error("{0}")]
    Unfit(String),
    /// Statement text (written outside the queue) that is empty, or holds
    /// more than one statement.
    #[error("must be exactly one SQL statement")]
    NotOneStatement,
    /// A statement names a parameter the queue does not bind to it (or a
    /// positional `?`).
    #[error("names {name}, which the queue does not bind here (it binds {allowed})")]
    UnknownParameter {
        /// The parameter as written (`?` for a positional one).
        name: String,
        /// The ones it may name, joined with ", ".
        allowed: String,
    },
    /// A statement reaches past the `jobs` table (SQLite's authorizer
    /// refused it).
    #[error("may not use {what}; only the jobs table")]
    NotAllowed {
        /// What it reached for.
        what: Forbidden,
    },
    /// A statement in place of a write that returns rows.
    #[error("returns rows; this statement only writes")]
    ReturnsRows,
    /// A statement in place of the claim whose `RETURNING` is not the
    /// claim's columns, in order.
    #[error("must return the claim's columns, in order: RETURNING {expected}")]
    ReturnsOtherColumns {
        /// The columns a claim returns.
        expected: String,
    },
    /// A statement in place of a write that writes nothing.
    #[error("writes nothing; this statement must change the jobs table")]
    WritesNothing,
    /// A statement in place of the claim's read (a claim taken apart into
    /// its read and its write) that writes.
    #[error("writes; this statement only reads the job to claim")]
    ReadWrites,
    /// A claim's read that returned a candidate whose id is not text, or
    /// whose token or attempts is not a whole number of at least 0.
    #[error(
        "read a candidate the queue cannot hold: id must be text, token and attempts whole numbers >= 0"
    )]
    ReadsBadValue,
    /// A claim's read whose columns are not the candidate's, in order.
    #[error("must read the candidate's columns, in order: SELECT {expected}")]
    ReadsOtherColumns {
        /// The columns the read returns.
        expected: String,
    },
    /// A claim written as a transaction script that is not one read, one
    /// write and, around any part of them, one transaction.
    #[error("{0}")]
    Script(ScriptMistake),
    /// SQLite refused the statement or stopped it, in its own words (a
    /// syntax error, a column that does not exist, a failed `CHECK`).
    #[error("SQLite says: {0}")]
    Sqlite(String),
    /// A statement stopped after this many of SQLite's steps.
    #[error("stopped after {steps} steps of SQLite's work")]
    TooMuchWork {
        /// The bound it reached.
        steps: u64,
    },
}

/// How a claim written as a transaction script ([`crate::store::Script`])
/// is not one: its statements are one read, one write after it, and at
/// most one `BEGIN` with its `COMMIT` after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ScriptMistake {
    /// No `SELECT` that reads the job to claim.
    #[error("has no read: a SELECT of the job to claim comes first")]
    NoRead,
    /// No `UPDATE` that takes it.
    #[error("has no write: an UPDATE takes the job the SELECT read")]
    NoWrite,
    /// More than one read.
    #[error("has more than one read (SELECT)")]
    TwoReads,
    /// More than one write.
    #[error("has more than one write (UPDATE)")]
    TwoWrites,
    /// The write comes before the read whose values it binds.
    #[error("writes before it reads: the UPDATE binds what the SELECT read")]
    WriteBeforeRead,
    /// More than one `BEGIN` or `COMMIT`.
    #[error("has more than one BEGIN or COMMIT: the claim is at most one transaction")]
    TwoTransactions,
    /// A `BEGIN` with no `COMMIT` after it.
    #[error("has a BEGIN with no COMMIT after it")]
    NoCommit,
    /// A `COMMIT` with no `BEGIN` before it.
    #[error("has a COMMIT with no BEGIN before it")]
    NoBegin,
    /// `ROLLBACK` or a savepoint: the claim commits what it wrote.
    #[error("has a ROLLBACK or a SAVEPOINT: the claim commits what it wrote")]
    Rollback,
    /// A write that does not name `:id`: it chooses its own job instead of
    /// taking the one the read chose.
    #[error("writes a job it did not read: the UPDATE names :id, the job the SELECT read")]
    WriteIgnoresRead,
    /// Text whose statements could not be told apart where SQLite ends
    /// them (a `;` between a comment and the next statement).
    #[error("could not be split into its statements: end each one with ; outside any comment")]
    Unsplittable,
}

/// What a statement written outside the queue reached for beyond the
/// `jobs` table ([`Problem::NotAllowed`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Forbidden {
    /// Another table (`deliveries`, `sqlite_schema`).
    Table(String),
    /// A `PRAGMA`.
    Pragma(String),
    /// `BEGIN`, `COMMIT`, a savepoint: the queue opens and commits its own.
    Transaction,
    /// `ATTACH` or `DETACH`.
    Attach,
    /// `CREATE`, `DROP`, `ALTER` and the like.
    Schema,
}

impl std::fmt::Display for Forbidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Forbidden::Table(table) => write!(f, "the table {table}"),
            Forbidden::Pragma(name) => write!(f, "PRAGMA {name}"),
            Forbidden::Transaction => f.write_str("a transaction (the queue opens its own)"),
            Forbidden::Attach => f.write_str("ATTACH"),
            Forbidden::Schema => f.write_str("a change to the schema"),
        }
    }
}

impl Error {
    /// Shorthand for [`Error::InvalidInput`].
    pub fn invalid(field: impl Into<String>, problem: Problem) -> Self {
        Error::InvalidInput {
            field: field.into(),
            problem,
        }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
