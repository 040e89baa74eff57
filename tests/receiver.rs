//! The receiver's ledger (R12), on every engine (and, natively, on an
//! older ledger file). Runs natively and in headless Chromium
//! (`wasm-pack test`), like `rules.rs`.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod engines;
mod support;

use engines::on_each_engine;

use leasefence::{Error, MAX_INT};

type TestResult = Result<(), Error>;

/// R12: a repeated delivery adds nothing; another qty is refused.
#[test]
fn receiver_applies_each_job_once_and_refuses_another_qty() -> TestResult {
    on_each_engine(|engine| {
        let receiver = engine.receiver()?;
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
    })
}

/// Each qty is at most 2^53 - 1; their sum need not be. A receiver that
/// refused a delivery taking its total past the bound took one delivery of
/// 2^53 - 1 and then refused every later one, of any id and qty: `work`
/// could finish nothing. Every delivery lands; the total is held at the
/// bound and says so (R12).
#[test]
fn a_total_past_its_bound_is_held_there_and_every_later_delivery_still_lands() -> TestResult {
    on_each_engine(|engine| {
        let receiver = engine.receiver()?;
        check!(receiver.deliver("big-1", MAX_INT)?, true, "the first lands");
        let totals = receiver.totals()?;
        check!(
            (totals.qty, totals.capped),
            (MAX_INT, false),
            "the total at the bound"
        );
        check!(receiver.deliver("big-2", MAX_INT)?, true, "a second lands");
        check!(receiver.deliver("small", 1)?, true, "one more lands");
        check!(
            receiver.deliver("small", 1)?,
            false,
            "R12: its repeat is a repeat"
        );
        let totals = receiver.totals()?;
        check!(
            (totals.jobs, totals.qty, totals.capped, totals.repeats),
            (3, MAX_INT, true, 1),
            "(jobs, qty, capped, repeats) past the bound"
        );
        check!(
            totals.applied.get("big-2"),
            Some(&MAX_INT),
            "the ledger keeps each qty exactly"
        );
        Ok(())
    })
}

/// A ledger file written before its rows kept running totals is given
/// them when it is opened, from its own rows, and takes deliveries past
/// the bound as a new one does.
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
    let receiver = leasefence::Receiver::open(&path)?;
    check!(
        receiver.totals()?.qty,
        MAX_INT - 2,
        "the total read from the old rows"
    );
    let running: Vec<i64> = rusqlite::Connection::open(&path)?
        .prepare("SELECT total FROM deliveries ORDER BY seq")?
        .query_map([], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    check!(
        running,
        vec![3, MAX_INT as i64 - 2],
        "the running totals filled in"
    );
    check!(receiver.deliver("c", 3)?, true, "3 more land");
    let totals = receiver.totals()?;
    check!(
        (totals.qty, totals.capped),
        (MAX_INT, true),
        "the total held at the bound"
    );
    Ok(())
}
