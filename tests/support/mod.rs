//! Helpers shared by the test files: side-by-side failure messages (R14),
//! the scenario files, embedded so the browser tests read the very same
//! bytes as the native ones. The command line's tests (`crates/cli/tests`)
//! share this module and add its processes; the web crate's
//! (`crates/web/tests`) add the JavaScript helpers.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![allow(dead_code)] // each test file uses a different part of this module

use serde::Serialize;

#[cfg(not(target_arch = "wasm32"))]
pub mod random;

/// Renders `expected` and `current` as pretty JSON in two columns.
pub fn side_by_side(expected: &impl Serialize, current: &impl Serialize) -> String {
    let left = serde_json::to_string_pretty(expected).unwrap_or_default();
    let right = serde_json::to_string_pretty(current).unwrap_or_default();
    let width = left.lines().map(str::len).max().unwrap_or(0).max(8);
    let mut out = format!(
        "{:<width$} | current\n{}-+-{}\n",
        "expected",
        "-".repeat(width),
        "-".repeat(8)
    );
    let (mut l, mut r) = (left.lines(), right.lines());
    loop {
        match (l.next(), r.next()) {
            (None, None) => break,
            (a, b) => {
                let (a, b) = (a.unwrap_or(""), b.unwrap_or(""));
                let mark = if a == b { ' ' } else { '≠' };
                out.push_str(&format!("{a:<width$} {mark} {b}\n"));
            }
        }
    }
    out
}

/// `assert_eq!` for serializable values that prints both sides as JSON,
/// expected on the left and current on the right, differing lines marked.
#[macro_export]
macro_rules! check {
    ($current:expr, $expected:expr, $($what:tt)+) => {{
        let (current, expected) = (&$current, &$expected);
        if current != expected {
            panic!(
                "{}\n{}",
                format!($($what)+),
                $crate::support::side_by_side(expected, current)
            );
        }
    }};
}

/// A scenario refusal as its place and its problem. The JSON parser's
/// complaints are given by kind (`Syntax`, `Unfit`) without their sentence,
/// which is serde's wording, not the project's; every other problem whole.
pub fn place_and_problem(refusal: &leasefence::Error) -> (String, String) {
    use leasefence::{Error, Problem};
    match refusal {
        Error::Scenario { path, problem } => (
            path.clone(),
            match problem {
                Problem::Syntax(_) => "Syntax".to_owned(),
                Problem::Unfit(_) => "Unfit".to_owned(),
                other => format!("{other:?}"),
            },
        ),
        other => panic!("expected a scenario refusal, got {other:?}"),
    }
}

macro_rules! with_expected {
    ($($name:literal),* $(,)?) => {
        /// Every shipped scenario (the product's own list, `scenarios/`)
        /// with its expected replay document.
        pub const SCENARIOS: &[(&str, &str, &str)] = &[$((
            $name,
            include_str!(concat!("../../scenarios/", $name, ".json")),
            include_str!(concat!("../../scenarios/", $name, ".expected.json")),
        )),*];
    };
}

leasefence::with_scenarios!(with_expected);

/// A language's message file as written (the product carries its texts as
/// tables made by the build script, not the file).
pub fn message_file(lang: leasefence::playground::Lang) -> &'static str {
    match lang {
        leasefence::playground::Lang::En => include_str!("../../src/playground/messages/en.json"),
        leasefence::playground::Lang::Ko => include_str!("../../src/playground/messages/ko.json"),
    }
}

/// A session on a chapter, at its start.
pub fn session(
    chapter: &str,
    lang: leasefence::playground::Lang,
) -> leasefence::playground::session::Session {
    let found = leasefence::playground::CHAPTERS
        .iter()
        .find(|c| c.id == chapter)
        .expect("a chapter");
    let scenario = leasefence::Scenario::parse(found.scenario()).expect("parses");
    leasefence::playground::session::Session::new(lang, chapter, scenario).expect("replays")
}

/// The narration tests' shared helpers.
pub mod narration;

/// The Korean messages as written, keyed.
pub fn korean_messages() -> Vec<(String, String)> {
    let table: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(message_file(leasefence::playground::Lang::Ko))
            .expect("ko.json parses");
    table
        .into_iter()
        .map(|(key, value)| (key, value.as_str().unwrap_or_default().to_owned()))
        .collect()
}
