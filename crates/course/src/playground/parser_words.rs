//! The JSON parser's complaints in the learner's language.
//!
//! serde and serde_json word their errors in English, in a handful of
//! fixed shapes (`missing field `x``, `invalid type: string "1", expected
//! u64`, ... ` at line 3 column 9`). A learner who mistypes the editor's JSON
//! meets them first, so the page reads the shape and says it again from the
//! message files. English templates give back the parser's own words
//! exactly (a test holds them to it); a message of any other shape is shown
//! as the parser wrote it, except that the parser's `u64` is said as a
//! whole number, in the words of the JavaScript a learner writes, with the
//! field's true least value when the place is known (`qty` takes 1 and
//! up, `at` 0 and up).

use crate::key;
use crate::playground::Lang;
use crate::playground::messages::Key;

/// `message` (a serde_json error's text) in `lang`.
pub fn parser_words(lang: Lang, message: &str) -> String {
    words(lang, message, None)
}

/// `message` in `lang` for the value at `place` (`jobs[0].qty`): a whole
/// number is asked for with the field's least value.
pub fn parser_words_at(lang: Lang, message: &str, place: &str) -> String {
    words(lang, message, least(place))
}

/// The least value the scenario's checks take for the whole-number field
/// `place` names (`model::check_int`'s `min` for it); `None` for a field
/// this table does not know. A test holds it to the checks.
fn least(place: &str) -> Option<u64> {
    let field = place.rsplit('.').next()?;
    match field {
        "qty" | "max_attempts" | "lease_ms" => Some(1),
        "at" | "deadline" => Some(0),
        _ => None,
    }
}

fn words(lang: Lang, message: &str, least: Option<u64>) -> String {
    let (said, place) = match message.rsplit_once(" at line ") {
        Some((head, rest)) => (head, rest.split_once(" column ")),
        None => (message, None),
    };
    let said = complaint(lang, said, least).unwrap_or_else(|| said.to_owned());
    match place {
        Some((line, column)) => lang.fill(
            key!("json.at"),
            &[
                ("said", said),
                ("line", line.to_owned()),
                ("column", column.to_owned()),
            ],
        ),
        None => said,
    }
}

/// The complaint without its position, if it has a known shape.
fn complaint(lang: Lang, said: &str, least: Option<u64>) -> Option<String> {
    let named = |key: Key, field: &str, rest: &str| {
        let name = rest.strip_prefix('`')?.strip_suffix('`')?;
        Some(lang.fill(key, &[(field, name.to_owned())]))
    };
    let listed = |key: Key, field: &str, rest: &str| {
        let (name, expected) = rest.split_once(", expected ")?;
        let name = name.strip_prefix('`')?.strip_suffix('`')?;
        Some(lang.fill(
            key,
            &[
                (field, name.to_owned()),
                ("expected", choices(lang, expected)),
            ],
        ))
    };
    let mismatched = |key: Key, rest: &str| {
        let (got, expected) = rest.split_once(", expected ")?;
        Some(lang.fill(
            key,
            &[
                ("got", unexpected(lang, got)),
                ("expected", expectation(lang, expected, least)),
            ],
        ))
    };
    if let Some(rest) = said.strip_prefix("missing field ") {
        return named(key!("json.missing_field"), "field", rest);
    }
    if let Some(rest) = said.strip_prefix("duplicate field ") {
        return named(key!("json.duplicate_field"), "field", rest);
    }
    if let Some(rest) = said.strip_prefix("unknown field ") {
        return listed(key!("json.unknown_field"), "field", rest);
    }
    if let Some(rest) = said.strip_prefix("unknown variant ") {
        return listed(key!("json.unknown_variant"), "value", rest);
    }
    if let Some(rest) = said.strip_prefix("invalid type: ") {
        return mismatched(key!("json.invalid_type"), rest);
    }
    if let Some(rest) = said.strip_prefix("invalid value: ") {
        return mismatched(key!("json.invalid_value"), rest);
    }
    if let Some(thing) = said.strip_prefix("EOF while parsing ") {
        return Some(lang.fill(key!("json.eof"), &[("thing", thing.to_owned())]));
    }
    let key = match said {
        "trailing comma" => key!("json.trailing_comma"),
        "trailing characters" => key!("json.trailing_characters"),
        "expected value" => key!("json.expected_value"),
        "expected `:`" => key!("json.expected_colon"),
        "expected `,` or `}`" => key!("json.expected_comma_or_brace"),
        "expected `,` or `]`" => key!("json.expected_comma_or_bracket"),
        "key must be a string" => key!("json.key_must_be_a_string"),
        "invalid number" => key!("json.invalid_number"),
        _ => return None,
    };
    Some(lang.text(key).to_owned())
}

/// `one of `a`, `b`` or `` `a` or `b` ``: the names a field or value may take.
fn choices(lang: Lang, expected: &str) -> String {
    if let Some(list) = expected.strip_prefix("one of ") {
        return lang.fill(key!("json.one_of"), &[("list", list.to_owned())]);
    }
    match expected.split_once(" or ") {
        Some((a, b)) => lang.fill(
            key!("json.either"),
            &[("a", a.to_owned()), ("b", b.to_owned())],
        ),
        None => expected.to_owned(),
    }
}

/// What was found instead: `string "1000"`, `integer `-5``, `map`, ...
fn unexpected(lang: Lang, got: &str) -> String {
    for (kind, key) in [
        ("string ", key!("json.got_string")),
        ("integer ", key!("json.got_integer")),
        ("floating point ", key!("json.got_float")),
        ("boolean ", key!("json.got_boolean")),
    ] {
        if let Some(value) = got.strip_prefix(kind) {
            return lang.fill(key, &[("value", value.to_owned())]);
        }
    }
    match got {
        "map" => lang.text(key!("json.got_map")).to_owned(),
        "sequence" => lang.text(key!("json.got_sequence")).to_owned(),
        other => other.to_owned(),
    }
}

/// What the field takes: `u64` (with its least value when known), `a
/// string`, `a sequence`, `struct NewJob`.
fn expectation(lang: Lang, expected: &str, least: Option<u64>) -> String {
    match (expected, least) {
        ("u64", Some(min)) => lang.fill(key!("json.expect_u64_from"), &[("min", min.to_string())]),
        ("u64", None) => lang.text(key!("json.expect_u64")).to_owned(),
        (expected, _) => expected_kind(lang, expected),
    }
}

fn expected_kind(lang: Lang, expected: &str) -> String {
    match expected {
        "a string" => lang.text(key!("json.expect_string")).to_owned(),
        "a sequence" => lang.text(key!("json.expect_sequence")).to_owned(),
        other => match other.strip_prefix("struct ") {
            Some(name) => lang.fill(key!("json.expect_struct"), &[("name", name.to_owned())]),
            None => other.to_owned(),
        },
    }
}
