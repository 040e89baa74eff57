//! The JavaScript-facing API in headless Chromium: the facade's replay is
//! the golden document, R7 holds in the browser (with a control that proves
//! the check can fail), and bad
//! input from JavaScript throws an `Error` naming the field and changes
//! nothing.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(target_arch = "wasm32")]

mod support;

use leasefence_web::{Player, Queue, Receiver, replay};
use support::browser::{as_json, thrown};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test as test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn js(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("valid JSON literal")
}

/// A valid new job, except that `field` holds `value` (NaN, Infinity: what
/// a JSON literal cannot write).
fn with_number(field: &str, value: f64) -> JsValue {
    let job = js(r#"{"id": "x", "qty": 1, "deadline": 1}"#);
    js_sys::Reflect::set(&job, &field.into(), &value.into()).expect("sets the field");
    job
}

/// A JavaScript expression's value (for what JSON cannot write: NaN,
/// BigInt, getters, `toJSON`).
fn js_eval(expression: &str) -> JsValue {
    js_sys::eval(expression).expect("a valid expression")
}

#[test]
fn replay_from_javascript_returns_the_golden_documents() {
    for (name, scenario, expected) in support::SCENARIOS {
        let current = as_json(
            &replay(JsValue::from_str(scenario)).unwrap_or_else(|_| panic!("{name} replays")),
        );
        let expected: serde_json::Value = serde_json::from_str(expected).expect("golden JSON");
        check!(current, expected, "browser replay of {name}");
    }
}

/// Why the browser queue uses one connection per database: the memory VFS
/// makes SQLite's locks no-ops, so a second connection writes straight
/// through another's open write transaction. If a future VFS locks, this
/// test fails and multi-connection actors become possible.
#[test]
fn memory_vfs_does_not_lock_one_connection_out_of_another() {
    let holder = rusqlite::Connection::open("vfs-locks").expect("opens the memory VFS");
    let other = rusqlite::Connection::open("vfs-locks").expect("opens it again");
    holder
        .execute_batch("CREATE TABLE t (n INTEGER)")
        .expect("creates");
    holder
        .execute_batch("BEGIN IMMEDIATE")
        .expect("takes the write lock");
    let second_writer = other.execute_batch("BEGIN IMMEDIATE; INSERT INTO t VALUES (1); COMMIT;");
    assert!(
        second_writer.is_ok(),
        "the memory VFS now locks: {second_writer:?}"
    );
    holder.execute_batch("ROLLBACK").expect("ends");
}

/// R7 in the browser: inside `send`, the same queue enqueues another job.
/// Enqueue starts its own `BEGIN IMMEDIATE`, which SQLite refuses while a
/// transaction is open, so this succeeds only if the claim has committed.
#[test]
fn enqueue_inside_send_succeeds_because_the_claim_committed() {
    use std::rc::Rc;
    use wasm_bindgen::closure::Closure;

    let queue = Rc::new(Queue::new().expect("opens"));
    queue
        .enqueue(js(r#"{"id": "snack-1", "qty": 2, "deadline": 5000}"#))
        .expect("enqueues");
    let inside = Rc::clone(&queue);
    let send = Closure::<dyn FnMut(JsValue) -> Result<(), JsValue>>::new(move |claim: JsValue| {
        check!(
            as_json(&claim)["id"],
            serde_json::json!("snack-1"),
            "send receives the claim"
        );
        inside
            .enqueue(js(r#"{"id": "snack-2", "qty": 1, "deadline": 5000}"#))
            .map(drop)
    });
    let clock = Closure::<dyn FnMut() -> f64>::new(|| 10.0);
    let processed = queue
        .process(
            "A".into(),
            1000.0.into(),
            clock.as_ref().clone(),
            send.as_ref().clone(),
        )
        .expect("R7: enqueue inside send must succeed");
    check!(
        as_json(&processed)["finish"]["accepted"],
        serde_json::json!(true),
        "the job is finished after send"
    );
    check!(
        as_json(&queue.rows().expect("rows"))
            .as_array()
            .map(Vec::len),
        Some(2),
        "snack-2 was stored"
    );
}

/// R7's control: while a transaction is open on a connection, a second
/// `BEGIN IMMEDIATE` on it is refused, so the test above would fail if the
/// claim's transaction were still open during `send`.
#[test]
fn a_transaction_cannot_begin_inside_an_open_one() {
    let conn = rusqlite::Connection::open_in_memory().expect("opens");
    conn.execute_batch("BEGIN IMMEDIATE").expect("begins");
    let nested = conn.execute_batch("BEGIN IMMEDIATE");
    assert!(
        nested.is_err(),
        "control: a nested BEGIN IMMEDIATE must fail, got {nested:?}"
    );
}

/// What `send` throws comes back to JavaScript, and the job stays leased.
#[test]
fn an_error_thrown_by_send_is_rethrown_and_the_job_stays_leased() {
    use wasm_bindgen::closure::Closure;

    let queue = Queue::new().expect("opens");
    queue
        .enqueue(js(r#"{"id": "snack-1", "qty": 2, "deadline": 5000}"#))
        .expect("enqueues");
    let send = Closure::<dyn FnMut(JsValue) -> Result<(), JsValue>>::new(|_claim: JsValue| {
        Err(js_sys::Error::new("receiver unreachable").into())
    });
    let clock = Closure::<dyn FnMut() -> f64>::new(|| 10.0);
    let thrown = queue
        .process(
            "A".into(),
            1000.0.into(),
            clock.as_ref().clone(),
            send.as_ref().clone(),
        )
        .expect_err("send threw");
    let message = String::from(
        thrown
            .dyn_into::<js_sys::Error>()
            .expect("an Error")
            .message(),
    );
    check!(
        message,
        "receiver unreachable".to_owned(),
        "the thrown error"
    );
    check!(
        as_json(&queue.rows().expect("rows"))[0]["state"],
        serde_json::json!("leased"),
        "the job stays leased"
    );
}

#[test]
fn bad_numbers_from_javascript_throw_naming_the_field_and_change_nothing() {
    let queue = Queue::new().expect("opens");
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
        let message = thrown(queue.claim("A".into(), now.into(), lease_ms.into()));
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
    let queue = Queue::new().expect("opens");
    let cases = [
        (
            thrown(queue.enqueue(js(r#"{"id": 5, "qty": 1, "deadline": 1}"#))),
            "job.id: expected a string, got a number (5)",
        ),
        (
            thrown(queue.enqueue(js(r#"{"id": "x", "qty": 0, "deadline": 1}"#))),
            "job.qty: must be",
        ),
        (
            thrown(queue.enqueue(js(r#"{"id": "x", "qty": 1.5, "deadline": 1}"#))),
            "job.qty: expected an integer from 0 to 9007199254740991, got 1.5",
        ),
        (
            thrown(queue.enqueue(with_number("qty", f64::NAN))),
            "job.qty: must be a finite number, got NaN",
        ),
        (
            thrown(queue.enqueue(with_number("deadline", f64::INFINITY))),
            "job.deadline: must be a finite number, got Infinity",
        ),
        (
            thrown(queue.enqueue(JsValue::UNDEFINED)),
            "job: expected an object, got undefined",
        ),
        (
            thrown(queue.enqueue(JsValue::NULL)),
            "job: expected an object, got null",
        ),
        (
            thrown(queue.enqueue(js(r#"["x", 1, 5000]"#))),
            "job: expected an object, got an array",
        ),
        (
            thrown(queue.enqueue(js_eval("({ id: 'x', qty: 1n, deadline: 1 })"))),
            "job.qty: expected a JSON value, got a BigInt",
        ),
        (
            thrown(queue.enqueue(js_eval(
                "({ id: 'x', qty: 1, deadline: 1, toJSON() { return undefined; } })",
            ))),
            "job: cannot be written as JSON",
        ),
        (
            thrown(queue.finish(js(r#"{"id": "x", "owner": "A", "token": 1}"#), 0.0.into())),
            "stamp.attempt: is missing",
        ),
        (
            // A claim passed whole: a stamp has no qty (it was once
            // accepted; the README says unknown keys are refused).
            thrown(queue.finish(
                js(r#"{"id": "x", "owner": "A", "token": 1, "attempt": 1, "qty": 2}"#),
                0.0.into(),
            )),
            "stamp.qty: unknown key",
        ),
        (
            thrown(queue.claim("".into(), 0.0.into(), 10.0.into())),
            "owner",
        ),
        (thrown(replay("{".into())), "scenario"),
        (
            thrown(replay(
                r#"{"events": [{"at": 0, "worker": "A", "do": "claim", "lease_ms": -1}]}"#.into(),
            )),
            "scenario: events[0].lease_ms: expected an integer from 0 to 9007199254740991, got -1",
        ),
        (
            thrown(
                Receiver::new()
                    .expect("opens")
                    .deliver("x".into(), f64::NAN.into()),
            ),
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
        receiver
            .deliver("snack-1".into(), 2.0.into())
            .expect("delivers"),
        true,
        "first delivery"
    );
    check!(
        receiver
            .deliver("snack-1".into(), 2.0.into())
            .expect("delivers"),
        false,
        "repeat"
    );
    let message = thrown(receiver.deliver("snack-1".into(), 3.0.into()));
    assert!(message.starts_with("qty"), "{message}");
    let totals = as_json(&receiver.totals().expect("totals"));
    check!(
        (&totals["jobs"], &totals["qty"]),
        (&serde_json::json!(1), &serde_json::json!(2)),
        "R12 totals"
    );
}

/// A timeline written live from JavaScript (the course author's scripted
/// story): the canonical events pushed as plain objects give the golden
/// results, and the timeline reads back as the canonical document.
#[test]
fn a_player_fed_event_objects_matches_the_golden_document() {
    let (_, canonical, expected) = support::SCENARIOS[0];
    let document: serde_json::Value = serde_json::from_str(canonical).expect("valid JSON");
    let jobs_only = serde_json::json!({"jobs": document["jobs"], "events": []});
    let mut player = Player::new(Some(jobs_only.to_string().into())).expect("opens");
    let mut results = Vec::new();
    for event in document["events"].as_array().expect("events") {
        results.push(as_json(
            &player.push(js(&event.to_string())).expect("applies"),
        ));
    }
    let expected: serde_json::Value = serde_json::from_str(expected).expect("golden JSON");
    check!(
        serde_json::json!({
            "results": results,
            "rows": as_json(&player.rows().expect("rows")),
            "receiver": as_json(&player.receiver().expect("receiver")),
        }),
        expected,
        "canonical, pushed from JavaScript"
    );
    check!(player.position(), 3, "position");
    let replayed = as_json(&replay(player.scenario_json().into()).expect("its document replays"));
    check!(replayed, expected, "the live timeline as a document");
}

/// Bad live events throw naming the field, and change nothing.
#[test]
fn a_refused_live_event_throws_naming_the_field_and_changes_nothing() {
    let mut player = Player::new(None).expect("opens on an empty queue");
    player
        .push(js(r#"{"at": 10, "worker": "A", "do": "enqueue", "job": {"id": "j", "qty": 1, "deadline": 99}}"#))
        .expect("enqueues");
    let cases = [
        (
            thrown(player.push(js(r#"{"at": 9, "worker": "A", "do": "finish"}"#))),
            "scenario: events[1].at: 9 is earlier than the event before it (10)",
        ),
        (
            thrown(player.push(js(r#"{"at": 10, "worker": "A", "do": "claim"}"#))),
            "scenario: events[1].lease_ms: a claim needs lease_ms",
        ),
        (
            thrown(player.push(JsValue::from_str("claim"))),
            "scenario: events[1]: expected an object, got a string",
        ),
        (
            thrown(player.push(js_eval(
                "({ at: 11, worker: 'B', do: 'enqueue', job: { id: 'k', qty: NaN, deadline: 99 } })",
            ))),
            "scenario: events[1].job.qty: must be a finite number, got NaN",
        ),
        (
            thrown(player.push(js(
                r#"{"at": 11, "worker": "B", "do": "enqueue", "job": {"id": "j", "qty": 1, "deadline": 99}}"#,
            ))),
            "scenario: events[1].job.id: job \"j\" is already in the scenario",
        ),
        (
            thrown(player.push(js_eval(
                "({ at: 11, worker: 'B', get do() { throw new Error('boom'); } })",
            ))),
            "scenario: events[1].do: cannot be read",
        ),
        (
            thrown(player.push({
                let event = js(r#"{"worker": "A", "do": "finish"}"#);
                js_sys::Reflect::set(&event, &"at".into(), &f64::NAN.into()).expect("sets");
                event
            })),
            "scenario: events[1].at: must be a finite number, got NaN",
        ),
    ];
    for (message, start) in cases {
        assert!(
            message.starts_with(start),
            "expected a message starting {start:?}, got {message:?}"
        );
    }
    check!(player.position(), 1, "position");
    check!(
        as_json(&player.rows().expect("rows"))
            .as_array()
            .map(Vec::len),
        Some(1),
        "rows"
    );
    // Still usable: nothing a refused event threw left the player borrowed.
    let result = player
        .push(js(
            r#"{"at": 12, "worker": "A", "do": "claim", "lease_ms": 5}"#,
        ))
        .expect("a good event after refused ones applies");
    check!(
        as_json(&result)["claim"]["token"],
        serde_json::json!(1),
        "claimed"
    );
}

/// RETURNING still returns rows: SQLITE_OMIT_TRIGGER would let CLAIM's
/// UPDATE run and return nothing, so the trim keeps triggers.
#[test]
fn returning_returns_the_claimed_row_in_the_browser() {
    let queue = Queue::new().expect("opens");
    queue
        .enqueue(js(r#"{"id": "snack-1", "qty": 2, "deadline": 5000}"#))
        .expect("enqueues");
    check!(
        as_json(
            &queue
                .claim("A".into(), 0.0.into(), 1000.0.into())
                .expect("claims")
        )["token"],
        serde_json::json!(1),
        "CLAIM ... RETURNING gave the claim"
    );
}

/// The control that the vendored amalgamation is the one compiled: its
/// parser has no PRAGMA (SQLite as shipped would accept this).
#[test]
fn the_browser_sqlite_has_no_pragma() {
    let conn = rusqlite::Connection::open_in_memory().expect("opens");
    let pragma = conn.execute_batch("PRAGMA application_id = 1");
    assert!(
        pragma.is_err(),
        "PRAGMA parsed: the build uses an untrimmed SQLite ({pragma:?})"
    );
}

/// The control for the function trim: a built-in function the queue never
/// calls is gone (SQLite as shipped has `upper`), the two it calls are not.
#[test]
fn the_browser_sqlite_has_only_the_kept_functions() {
    let conn = rusqlite::Connection::open_in_memory().expect("opens");
    let upper = conn.prepare("SELECT upper('a')").map(|_| ());
    assert!(
        upper
            .as_ref()
            .is_err_and(|err| err.to_string().contains("no such function")),
        "upper() prepared: the build uses SQLite's full function table ({upper:?})"
    );
    let kept: i64 = conn
        .query_row("SELECT min(2, 3) + count(*)", [], |row| row.get(0))
        .expect("min and count are kept");
    assert_eq!(kept, 3);
}

/// Objects cross through `serde_wasm_bindgen` with JSON's meaning: an
/// `undefined` optional field takes its default (as `JSON.stringify`
/// leaves it out), and an unknown key is refused, naming it.
#[test]
fn objects_from_javascript_read_as_their_json() {
    let queue = Queue::new().expect("opens");
    let row = queue
        .enqueue(js_eval(
            "({ id: 'snack-1', qty: 2, deadline: 5000, max_attempts: undefined })",
        ))
        .expect("an undefined optional field is left out");
    check!(
        as_json(&row)["max_attempts"],
        serde_json::json!(3),
        "the default max_attempts"
    );
    let message = thrown(queue.enqueue(js(
        r#"{"id": "snack-2", "qty": 1, "deadline": 5000, "colour": "red"}"#,
    )));
    assert!(
        message.starts_with("job.colour: unknown key; expected one of \"id\", \"qty\""),
        "{message}"
    );
    check!(
        as_json(&queue.rows().expect("rows"))
            .as_array()
            .map(Vec::len),
        Some(1),
        "only the good job was stored"
    );
}
