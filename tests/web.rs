//! The JavaScript-facing API in headless Chromium: the facade's replay is
//! the golden document, connections share one in-memory database, R7 holds
//! in the browser (with a control that proves the check can fail), and bad
//! input from JavaScript throws an `Error` naming the field and changes
//! nothing.

#![cfg(target_arch = "wasm32")]

mod support;

use leasefence::web::{Queue, Receiver, replay};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test as test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// A JavaScript value as JSON, via the browser's own `JSON.stringify`.
fn as_json(value: &JsValue) -> serde_json::Value {
    let text = js_sys::JSON::stringify(value).expect("stringifies");
    serde_json::from_str(&String::from(text)).expect("valid JSON")
}

fn js(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("valid JSON literal")
}

/// The message of the `Error` a facade call threw.
fn thrown(result: Result<impl std::fmt::Debug, wasm_bindgen::JsError>) -> String {
    let err = JsValue::from(result.expect_err("the call must throw"));
    let err: js_sys::Error = err.dyn_into().expect("an Error object");
    String::from(err.message())
}

#[test]
fn replay_from_javascript_returns_the_golden_documents() {
    for (name, scenario, expected) in support::SCENARIOS {
        let current = as_json(&replay(scenario).unwrap_or_else(|_| panic!("{name} replays")));
        let expected: serde_json::Value = serde_json::from_str(expected).expect("golden JSON");
        check!(current, expected, "browser replay of {name}");
    }
}

#[test]
fn queues_with_one_name_share_one_database() {
    let a = Queue::new("shared-one").expect("opens");
    let b = Queue::new("shared-one").expect("opens again");
    a.enqueue(js(r#"{"id": "snack-1", "qty": 2, "deadline": 5000}"#))
        .expect("enqueues");
    check!(
        as_json(&b.rows().expect("rows"))[0]["id"],
        serde_json::json!("snack-1"),
        "b sees a's job"
    );
    let other = Queue::new("another-name").expect("opens");
    check!(
        as_json(&other.rows().expect("rows")),
        serde_json::json!([]),
        "another name is another database"
    );
}

/// R7 in the browser: after A's claim, B's connection enqueues at once.
#[test]
fn another_connection_enqueues_after_a_claim_commits() {
    let a = Queue::new("r7-browser").expect("opens");
    let b = Queue::new("r7-browser").expect("opens");
    a.enqueue(js(r#"{"id": "snack-1", "qty": 2, "deadline": 5000}"#))
        .expect("enqueues");
    let claim = as_json(&a.claim("A", 0.0, 1000.0).expect("claims"));
    check!(claim["token"], serde_json::json!(1), "A's claim");
    // This is where A would send: no transaction of A's is open.
    b.enqueue(js(r#"{"id": "snack-2", "qty": 1, "deadline": 5000}"#))
        .expect("R7: B enqueues while A holds the claim");
}

/// R7's control: while a write transaction is held open on one connection,
/// the other connection's enqueue is refused, so the test above can fail.
#[test]
fn enqueue_is_refused_while_another_connection_holds_a_write_transaction() {
    let holder = rusqlite::Connection::open("r7-control").expect("opens the memory VFS");
    let queue = Queue::new("r7-control").expect("opens");
    holder
        .execute_batch("BEGIN IMMEDIATE")
        .expect("takes the write lock");
    let message = thrown(queue.enqueue(js(r#"{"id": "snack-2", "qty": 1, "deadline": 5000}"#)));
    assert!(
        message.contains("locked") || message.contains("busy"),
        "expected a busy refusal, got {message}"
    );
    holder.execute_batch("ROLLBACK").expect("releases");
    queue
        .enqueue(js(r#"{"id": "snack-2", "qty": 1, "deadline": 5000}"#))
        .expect("succeeds once the lock is gone");
}

#[test]
fn bad_numbers_from_javascript_throw_naming_the_field_and_change_nothing() {
    let queue = Queue::new("bad-input").expect("opens");
    queue
        .enqueue(js(r#"{"id": "snack-1", "qty": 2, "deadline": 5000}"#))
        .expect("enqueues");
    let before = as_json(&queue.rows().expect("rows"));
    for (now, lease_ms, field) in [
        (f64::NAN, 1000.0, "now"),
        (f64::INFINITY, 1000.0, "now"),
        (-1.0, 1000.0, "now"),
        (0.5, 1000.0, "now"),
        (9_007_199_254_740_992.0, 1000.0, "now"),
        (0.0, 0.0, "lease_ms"),
        (0.0, -5.0, "lease_ms"),
        (0.0, f64::NAN, "lease_ms"),
    ] {
        let message = thrown(queue.claim("A", now, lease_ms));
        assert!(
            message.starts_with(field),
            "claim(now={now}, lease_ms={lease_ms}): {message}"
        );
    }
    check!(
        as_json(&queue.rows().expect("rows")),
        before,
        "bad claims changed the table"
    );
}

#[test]
fn malformed_objects_and_documents_throw_naming_the_field() {
    let queue = Queue::new("bad-objects").expect("opens");
    let cases = [
        (
            thrown(queue.enqueue(js(r#"{"id": 5, "qty": 1, "deadline": 1}"#))),
            "job",
        ),
        (
            thrown(queue.enqueue(js(r#"{"id": "x", "qty": 0, "deadline": 1}"#))),
            "qty",
        ),
        (
            thrown(queue.enqueue(js(r#"{"id": "x", "qty": 1.5, "deadline": 1}"#))),
            "job",
        ),
        (thrown(queue.enqueue(JsValue::UNDEFINED)), "job"),
        (
            thrown(queue.finish(js(r#"{"id": "x", "owner": "A", "token": 1}"#), 0.0)),
            "stamp",
        ),
        (thrown(queue.claim("", 0.0, 10.0)), "owner"),
        (thrown(replay("{")), "scenario"),
        (
            thrown(replay(
                r#"{"events": [{"at": 0, "worker": "A", "do": "claim", "lease_ms": -1}]}"#,
            )),
            "scenario: events[0].lease_ms",
        ),
        (
            thrown(Receiver::new().expect("opens").deliver("x", f64::NAN)),
            "qty",
        ),
    ];
    for (message, field) in cases {
        assert!(
            message.starts_with(field),
            "expected a message naming {field:?}, got {message:?}"
        );
    }
    check!(
        as_json(&queue.rows().expect("rows")),
        serde_json::json!([]),
        "nothing was enqueued"
    );
}

#[test]
fn receiver_in_the_browser_counts_each_job_once() {
    let receiver = Receiver::new().expect("opens");
    check!(
        receiver.deliver("snack-1", 2.0).expect("delivers"),
        true,
        "first delivery"
    );
    check!(
        receiver.deliver("snack-1", 2.0).expect("delivers"),
        false,
        "repeat"
    );
    let message = thrown(receiver.deliver("snack-1", 3.0));
    assert!(message.starts_with("qty"), "{message}");
    let totals = as_json(&receiver.totals().expect("totals"));
    check!(
        (&totals["jobs"], &totals["qty"]),
        (&serde_json::json!(1), &serde_json::json!(2)),
        "R12 totals"
    );
}
