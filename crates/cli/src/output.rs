//! What every command shares at its edge: one JSON value per line on
//! stdout, and bad input named by its flag.
//!
//! It has its own module so that the commands (`cli`), the HTTP servers
//! (`http`) and the worker (`work`) all depend on it and none of them on
//! each other: `cli` only parses and dispatches.

use std::io::Write;

use leasefence::{Error, Problem};

/// Bad input to the command line itself, in words.
pub fn invalid(field: &str, text: impl Into<String>) -> Error {
    Error::invalid(field, Problem::Text(text.into()))
}

/// Prints one JSON value on its own line.
pub fn print_json(value: &impl serde::Serialize) -> Result<(), Error> {
    let line = serde_json::to_string(value).map_err(|err| invalid("output", err.to_string()))?;
    let mut out = std::io::stdout().lock();
    // A closed pipe (e.g. `| head`) is not worth a panic.
    let _ = writeln!(out, "{line}");
    Ok(())
}
