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
        problem: String,
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
        problem: String,
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

    /// SQLite itself failed (I/O, a lock held past the busy timeout, ...).
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

impl Error {
    /// Shorthand for [`Error::InvalidInput`].
    pub fn invalid(field: impl Into<String>, problem: impl Into<String>) -> Self {
        Error::InvalidInput {
            field: field.into(),
            problem: problem.into(),
        }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
