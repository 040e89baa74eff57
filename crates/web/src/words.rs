//! serde's complaints in JavaScript's words.
//!
//! A JavaScript caller who passes `{qty: "2"}` should read "expected an
//! integer, got a string", not serde's `invalid type: string "2", expected
//! u64`: JavaScript has no `u64`, `struct NewJob` or `sequence`. serde words
//! its errors in a few fixed shapes (the playground's `parser_words` reads
//! the same ones for learners); this module says them again for the JS API,
//! names a missing key in the path, and tells a wrong JavaScript type (a
//! `TypeError`) from a wrong value of the right type (an `Error`). A
//! message of any other shape is kept as serde wrote it.

/// One complaint, ready to throw.
pub(crate) struct Said {
    /// The value has the wrong JavaScript type (throw a `TypeError`).
    pub(crate) wrong_type: bool,
    /// A key to add to the path (the one a `missing field` names).
    pub(crate) key: Option<String>,
    /// What to say after the path.
    pub(crate) text: String,
}

/// `said` (a serde error's text) in JavaScript's words. A position in JSON
/// text (` at line 1 column 18`) is dropped: the path names the key.
pub(crate) fn js_words(said: &str) -> Said {
    let said = said.split(" at line ").next().unwrap_or(said);
    let plain = |text: String| Said {
        wrong_type: false,
        key: None,
        text,
    };
    if let Some(key) = said
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        return Said {
            wrong_type: true,
            key: Some(key.to_owned()),
            text: "is missing".to_owned(),
        };
    }
    if let Some(rest) = said.strip_prefix("unknown field ") {
        let expected = rest.split_once(", expected ").map_or("", |(_, e)| e);
        return plain(format!("unknown key; expected {}", quoted(expected)));
    }
    if let Some(rest) = said.strip_prefix("unknown variant ") {
        let (got, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        return plain(format!(
            "expected {}, got {}",
            quoted(expected),
            quoted(got)
        ));
    }
    let mismatch = said
        .strip_prefix("invalid type: ")
        .or_else(|| said.strip_prefix("invalid value: "))
        .and_then(|rest| rest.split_once(", expected "));
    match mismatch {
        Some((got, expected)) => {
            let (got_type, got) = unexpected(got);
            let expected = expectation(expected);
            // An integer expected and a number given is a wrong value
            // (1.5, -1), not a wrong type.
            let wrong_value = got_type == "number" && expected.starts_with("an integer");
            let got = match got_type {
                "number" if !wrong_value => format!("a number ({got})"),
                _ => got,
            };
            Said {
                wrong_type: !wrong_value,
                key: None,
                text: format!("expected {expected}, got {got}"),
            }
        }
        None => plain(said.to_owned()),
    }
}

/// serde's `expected ...` (a Rust type, mostly) as a JavaScript one.
fn expectation(expected: &str) -> String {
    match expected {
        "u8" | "u16" | "u32" | "u64" | "usize" | "i32" | "i64" => {
            format!("an integer from 0 to {}", leasefence::model::MAX_INT)
        }
        "a sequence" => "an array".to_owned(),
        "a map" => "an object".to_owned(),
        "variant identifier" | "string or map" => "a string".to_owned(),
        other if other.starts_with("struct ") => "an object".to_owned(),
        other => quoted(other),
    }
}

/// serde's `Unexpected` (`string "x"`, `floating point `1.5``, `map`, ...)
/// as `(typeof, what to show)`.
fn unexpected(got: &str) -> (&'static str, String) {
    let value = |prefix: &str| {
        got.strip_prefix(prefix)
            .map(|rest| rest.trim_matches('`').to_owned())
    };
    if let Some(number) = value("integer ").or_else(|| value("floating point ")) {
        return ("number", number);
    }
    if let Some(text) = value("string ") {
        return ("string", format!("a string ({text})"));
    }
    if let Some(boolean) = value("boolean ") {
        return ("boolean", format!("a boolean ({boolean})"));
    }
    match got {
        "unit value" | "Option value" => ("object", "null".to_owned()),
        "map" => ("object", "an object".to_owned()),
        "sequence" => ("object", "an array".to_owned()),
        other => ("", quoted(other)),
    }
}

/// serde's backticks as JavaScript's string quotes.
fn quoted(text: &str) -> String {
    text.replace('`', "\"")
}

#[cfg(test)]
mod tests {
    use super::js_words;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn rust_types_become_javascript_ones_and_the_key_is_named() {
        for (said, wrong_type, key, text) in [
            (
                "invalid type: string \"2\", expected u64 at line 1 column 18",
                true,
                None,
                "expected an integer from 0 to 9007199254740991, got a string (\"2\")",
            ),
            (
                "invalid type: floating point `1.5`, expected u64",
                false,
                None,
                "expected an integer from 0 to 9007199254740991, got 1.5",
            ),
            (
                "invalid type: integer `5`, expected a string",
                true,
                None,
                "expected a string, got a number (5)",
            ),
            (
                "invalid type: sequence, expected struct NewJob",
                true,
                None,
                "expected an object, got an array",
            ),
            (
                "missing field `attempt`",
                true,
                Some("attempt"),
                "is missing",
            ),
            (
                "unknown field `colour`, expected one of `id`, `qty`",
                false,
                None,
                "unknown key; expected one of \"id\", \"qty\"",
            ),
            (
                "unknown variant `fly`, expected one of `claim`, `finish`",
                false,
                None,
                "expected one of \"claim\", \"finish\", got \"fly\"",
            ),
            ("something else", false, None, "something else"),
        ] {
            let said = js_words(said);
            assert_eq!(
                (said.wrong_type, said.key.as_deref(), said.text.as_str()),
                (wrong_type, key, text)
            );
        }
    }
}
