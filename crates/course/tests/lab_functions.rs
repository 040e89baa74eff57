//! The SQL functions the lab's panel says a statement may call
//! (`FUNCTIONS`) exist in this target's SQLite: in
//! Chromium (`wasm-pack test crates/course`) that is the trimmed build,
//! which keeps only the functions of
//! vendor/sqlite/regen/keep-functions.txt, so a name listed there and
//! not here, or here and not there, fails this test in the browser.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use leasefence::store::{Outside, Replaces};
use leasefence_course::playground::view::FUNCTIONS;

#[test]
fn every_function_the_lab_names_is_in_this_targets_sqlite() {
    for name in FUNCTIONS {
        let call = match name {
            "count" | "sum" => format!("(SELECT {name}(qty) FROM jobs)"),
            _ => format!("{name}(qty, 1)"),
        };
        let sql = format!("UPDATE jobs SET state = 'done' WHERE id = :id AND {call} > 0");
        if let Err(err) = Outside::new(Replaces::Finish, &sql) {
            panic!("{name}: {err}");
        }
    }
}

#[test]
fn a_function_the_lab_does_not_name_is_refused_in_the_browser() {
    let refused = Outside::new(
        Replaces::Finish,
        "UPDATE jobs SET state = 'done' WHERE id = :id AND length(owner) > 0",
    );
    // Natively SQLite is whole; in the browser `length` is trimmed away.
    assert_eq!(
        refused.is_err(),
        cfg!(target_arch = "wasm32"),
        "length() is refused exactly in the browser's trimmed SQLite: {refused:?}"
    );
}
