//! Helpers shared by the test files: side-by-side failure messages (R14)
//! and the scenario files, embedded so the browser tests read the very same
//! bytes as the native ones.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![allow(dead_code)] // each test file uses a different part of this module

use serde::Serialize;

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

macro_rules! scenario {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("../scenarios/", $name, ".json")),
            include_str!(concat!("../scenarios/", $name, ".expected.json")),
        )
    };
}

/// Every scenario under `tests/scenarios/` with its expected replay
/// document. A native test checks this list against the directory.
pub const SCENARIOS: &[(&str, &str, &str)] = &[
    scenario!("canonical"),
    scenario!("expiry-boundary"),
    scenario!("deadline-caps-lease"),
    scenario!("quarantine"),
    scenario!("polling-cannot-steal"),
    scenario!("restart-same-name"),
    scenario!("late-delivery"),
    scenario!("deadline-expired"),
];
