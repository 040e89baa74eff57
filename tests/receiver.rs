//! The receiver's ledger (R12), on an in-memory database (and, natively,
//! on an older ledger file). Runs natively and in headless Chromium
//! (`wasm-pack test`), like `rules.rs`.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::{Error, MAX_INT, Problem, Receiver};

type TestResult = Result<(), Error>;

/// R12: a repeated delivery adds nothing; another qty is refused.
#[test]
fn receiver_applies_each_job_once_and_refuses_another_qty() -> TestResult {
    let receiver = Receiver::open_in_memory()?;
    check!(receiver.deliver("snack-1", 2)?, true, "R12: first delivery");
    check!(receiver.deliver("snack-1", 2)?, false, "R12: repeat");
    let conflict = receiver.deliver("snack-1", 5);
    assert!(
        matches!(
            conflict,
            Err(Error::DeliveryConflict {
                stored: 2,
                offered: 5,
                ..
            })
        ),
        "R12: another qty for a known id must be refused, got {conflict:?}"
    );
    let totals = receiver.totals()?;
    check!(
        (totals.jobs, totals.qty, totals.repeats),
        (1, 2, 1),
        "R12: totals"
    );
    Ok(())
}

/// Each qty is at most 2^53 - 1; two of them summed were not checked, so
/// the ledger held a total no JavaScript number holds and `totals` failed
/// for good (the state is in the file). The delivery that would pass the
/// bound is refused and changes nothing.
#[test]
fn a_delivery_that_would_take_the_total_past_its_bound_is_refused_and_changes_nothing() -> TestResult
{
    let receiver = Receiver::open_in_memory()?;
    check!(receiver.deliver("big-1", MAX_INT)?, true, "the first fits");
    let refused = receiver.deliver("big-2", MAX_INT);
    assert!(
        matches!(
            refused,
            Err(Error::InvalidInput {
                problem: Problem::TotalTooLarge { max: MAX_INT },
                ..
            })
        ),
        "a total past {MAX_INT} must be refused, got {refused:?}"
    );
    let totals = receiver.totals()?;
    check!(
        (totals.jobs, totals.qty),
        (1, MAX_INT),
        "the ledger after the refusal"
    );
    check!(
        receiver.deliver("small", 1).is_err(),
        true,
        "one more does not fit either"
    );
    Ok(())
}

/// A ledger file written before its rows kept running totals is given
/// them when it is opened, from its own rows, and the bound holds on them.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn an_older_ledger_file_gets_its_running_totals_when_opened() -> TestResult {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("rx.db");
    let old = rusqlite::Connection::open(&path)?;
    old.execute_batch(&format!(
        "CREATE TABLE deliveries (
             seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
             qty INTEGER NOT NULL CHECK (qty >= 1), repeats INTEGER NOT NULL DEFAULT 0);
         INSERT INTO deliveries (id, qty) VALUES ('a', 3), ('b', {});
         PRAGMA application_id = {};",
        MAX_INT - 5,
        0x4C46_7263 // the receiver's (src/store/open.rs)
    ))?;
    drop(old);
    let receiver = Receiver::open(&path)?;
    check!(
        receiver.totals()?.qty,
        MAX_INT - 2,
        "the total read from the old rows"
    );
    let refused = receiver.deliver("c", 3);
    assert!(
        matches!(
            refused,
            Err(Error::InvalidInput {
                problem: Problem::TotalTooLarge { max: MAX_INT },
                ..
            })
        ),
        "3 more would pass the bound: expected TotalTooLarge, got {refused:?}"
    );
    check!(receiver.deliver("c", 2)?, true, "2 more fit");
    check!(receiver.totals()?.qty, MAX_INT, "the total");
    Ok(())
}
