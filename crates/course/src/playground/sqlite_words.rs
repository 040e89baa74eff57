//! SQLite's complaints about a learner's statement, in the learner's
//! language.
//!
//! SQLite words its errors in English, in a few fixed shapes (`no such
//! column: attempt`, `near "WHERE": syntax error`, `CHECK constraint
//! failed: …`). A learner writing the lab's SQL meets them on every typo,
//! so the page reads the shape and says it again from the message files,
//! with the name or the text SQLite quoted kept as written. The English
//! templates give back SQLite's own words exactly (a test holds them to
//! it, on statements SQLite really refuses). A complaint of any other
//! shape is said as a failure with SQLite's words quoted, marked as
//! SQLite's.

use crate::playground::Lang;

/// The shapes read: a prefix SQLite's message starts with, the message
/// that says it again, and the name of the placeholder the rest of the
/// message fills (`None`: the message is all of it).
const SHAPES: &[(&str, &str, Option<&str>)] = &[
    ("no such column: ", "sqlite.no_such_column", Some("name")),
    ("no such table: ", "sqlite.no_such_table", Some("name")),
    (
        "no such function: ",
        "sqlite.no_such_function",
        Some("name"),
    ),
    (
        "ambiguous column name: ",
        "sqlite.ambiguous_column",
        Some("name"),
    ),
    (
        "unrecognized token: ",
        "sqlite.unrecognized_token",
        Some("token"),
    ),
    (
        "CHECK constraint failed: ",
        "sqlite.check_failed",
        Some("check"),
    ),
    (
        "NOT NULL constraint failed: ",
        "sqlite.not_null_failed",
        Some("column"),
    ),
    (
        "UNIQUE constraint failed: ",
        "sqlite.unique_failed",
        Some("column"),
    ),
    (
        "wrong number of arguments to function ",
        "sqlite.wrong_arguments",
        Some("name"),
    ),
    (
        "misuse of aggregate function ",
        "sqlite.misuse_of_aggregate",
        Some("name"),
    ),
    (
        "misuse of aggregate: ",
        "sqlite.misuse_of_aggregate_at",
        Some("name"),
    ),
    ("incomplete input", "sqlite.incomplete", None),
    ("row value misused", "sqlite.row_value_misused", None),
];

/// `message` (SQLite's error text) in `lang`.
pub fn sqlite_words(lang: Lang, message: &str) -> String {
    if let Some(words) = near(lang, message) {
        return words;
    }
    for &(prefix, key, placeholder) in SHAPES {
        let Some(rest) = message.strip_prefix(prefix) else {
            continue;
        };
        match placeholder {
            Some(name) => return lang.fill(key, &[(name, rest.to_owned())]),
            None if rest.is_empty() => return lang.text(key).to_owned(),
            None => {}
        }
    }
    if let Some(columns) = sub_select(message) {
        return lang.fill(
            "sqlite.sub_select_columns",
            &[("columns", columns.to_owned())],
        );
    }
    lang.fill("sqlite.other", &[("message", message.to_owned())])
}

/// `near "WHERE": syntax error`: the text SQLite stopped at.
fn near(lang: Lang, message: &str) -> Option<String> {
    let quoted = message
        .strip_prefix("near \"")?
        .strip_suffix("\": syntax error")?;
    Some(lang.fill("sqlite.syntax_near", &[("near", quoted.to_owned())]))
}

/// `sub-select returns 2 columns - expected 1`: how many columns.
fn sub_select(message: &str) -> Option<&str> {
    message
        .strip_prefix("sub-select returns ")?
        .strip_suffix(" columns - expected 1")
}
