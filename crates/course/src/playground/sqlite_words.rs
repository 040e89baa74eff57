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

use crate::key;
use crate::playground::Lang;
use crate::playground::messages::Key;

/// The shapes read: the text SQLite's message starts with, the text it
/// ends with, and the message that says it again, whose `{quoted}` is
/// what lies between (a name, a token, a `CHECK`'s expression).
const SHAPES: &[(&str, &str, Key)] = &[
    ("no such column: ", "", key!("sqlite.no_such_column")),
    ("no such table: ", "", key!("sqlite.no_such_table")),
    ("no such function: ", "", key!("sqlite.no_such_function")),
    ("near \"", "\": syntax error", key!("sqlite.syntax_near")),
    (
        "unrecognized token: ",
        "",
        key!("sqlite.unrecognized_token"),
    ),
    ("CHECK constraint failed: ", "", key!("sqlite.check_failed")),
    (
        "NOT NULL constraint failed: ",
        "",
        key!("sqlite.not_null_failed"),
    ),
    (
        "UNIQUE constraint failed: ",
        "",
        key!("sqlite.unique_failed"),
    ),
    (
        "wrong number of arguments to function ",
        "",
        key!("sqlite.wrong_arguments"),
    ),
    (
        "misuse of aggregate function ",
        "",
        key!("sqlite.misuse_of_aggregate"),
    ),
    (
        "sub-select returns ",
        " columns - expected 1",
        key!("sqlite.sub_select_columns"),
    ),
    ("incomplete input", "", key!("sqlite.incomplete")),
    ("row value misused", "", key!("sqlite.row_value_misused")),
    ("string or blob too big", "", key!("sqlite.too_big")),
    (
        "Expression tree is too large (maximum depth ",
        ")",
        key!("sqlite.expression_too_deep"),
    ),
];

/// `message` (SQLite's error text) in `lang`.
pub fn sqlite_words(lang: Lang, message: &str) -> String {
    let read = SHAPES.iter().find_map(|&(starts, ends, key)| {
        let quoted = message.strip_prefix(starts)?.strip_suffix(ends)?;
        Some((key, quoted))
    });
    let (key, quoted) = read.unwrap_or((key!("sqlite.other"), message));
    lang.fill(key, &[("quoted", quoted.to_owned())])
}
