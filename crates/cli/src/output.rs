//! What every command shares at its edge: one JSON value per line on
//! stdout, and bad input named by its flag.
//!
//! It has its own module so that the commands (`cli`), the HTTP servers
//! (`http`) and the worker (`work`) all depend on it and none of them on
//! each other: `cli` only parses and dispatches.

use std::io::Write;

use leasefence::Error;

/// What stops a command: the queue's own error, or input the command line
/// itself cannot use (a missing flag, an unreadable file), which only it
/// meets and says in English where no learner sees it. The queue's error
/// type holds no problem of the command line's.
#[derive(Debug)]
pub enum Failure {
    /// The queue, the receiver or the course refused or failed.
    Queue(Error),
    /// Bad input to the command line itself.
    Input {
        /// The flag or argument, as the user typed it (`--db`, `FILE`).
        flag: String,
        /// What was wrong with it.
        text: String,
    },
}

impl From<Error> for Failure {
    fn from(err: Error) -> Self {
        Failure::Queue(err)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Queue(err) => err.fmt(f),
            Failure::Input { flag, text } => write!(f, "{flag}: {text}"),
        }
    }
}

/// Bad input to the command line itself, in words.
pub fn invalid(flag: &str, text: impl Into<String>) -> Failure {
    Failure::Input {
        flag: flag.to_owned(),
        text: text.into(),
    }
}

/// Prints one JSON value on its own line.
pub fn print_json(value: &impl serde::Serialize) -> Result<(), Failure> {
    let line = serde_json::to_string(value).map_err(|err| invalid("output", err.to_string()))?;
    let mut out = std::io::stdout().lock();
    // A closed pipe (e.g. `| head`) is not worth a panic.
    let _ = writeln!(out, "{line}");
    Ok(())
}
