//! Helpers shared by the test files: side-by-side failure messages (R14),
//! the chapters' scenarios and expected replays, embedded so the browser
//! tests read the very same bytes as the native ones. The other crates'
//! tests share this module: the course's (`crates/course/tests`) add its
//! sessions and messages, the command line's its processes, the web
//! crate's the JavaScript helpers.
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

mod chapters;

#[allow(unused_imports)] // the tests that read no chapter
pub use chapters::SCENARIOS;
