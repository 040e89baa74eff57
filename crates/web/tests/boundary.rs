//! The JavaScript boundary never crashes: every exported
//! function and class checks its arguments' JavaScript types first and
//! throws a `TypeError` naming the argument, in JavaScript's words, and the
//! module keeps working after a thousand of them. An async `send` is
//! awaited before the finish, and its rejection leaves the job unfinished.
//! In headless Chromium.

#![cfg(target_arch = "wasm32")]

mod support;

use leasefence_web::{Player, Queue, Receiver, replay};
use support::browser::{as_json, js};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::{wasm_bindgen_test as test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// The message of the `TypeError` a call threw; fails on anything else.
fn type_error<T>(result: Result<T, JsValue>) -> String {
    let Err(thrown) = result else {
        panic!("the call must throw");
    };
    match thrown.dyn_into::<js_sys::TypeError>() {
        Ok(error) => String::from(error.message()),
        Err(other) => panic!("expected a TypeError, got {other:?}"),
    }
}

const JOB: &str = "{ id: 'snack-1', qty: 2, deadline: 5000 }";
const CLAIM: &str = "{ at: 0, worker: 'A', do: 'claim', lease_ms: 1000 }";

/// Each call with one argument of the wrong JavaScript type, and the
/// message its `TypeError` must start with.
fn wrong_types(
    queue: &Queue,
    player: &mut Player,
    receiver: &Receiver,
) -> Vec<(String, &'static str)> {
    let send = js("() => {}");
    let clock = js("() => 0");
    vec![
        (
            type_error(replay(JsValue::from(f64::NAN))),
            "scenario: expected a scenario object or its JSON text, got a number (NaN)",
        ),
        (
            type_error(replay(JsValue::UNDEFINED)),
            "scenario: expected a scenario object or its JSON text, got undefined",
        ),
        (
            type_error(replay(js("[]"))),
            "scenario: expected a scenario object or its JSON text, got an array",
        ),
        (
            type_error(replay(js("{ events: 'none' }"))),
            "scenario: events: expected an array, got a string (\"none\")",
        ),
        (
            type_error(replay(js("{ jobs: [] }"))),
            "scenario.events: is missing",
        ),
        (
            type_error(replay(js(
                "{ events: [{ at: '0', worker: 'A', do: 'finish' }] }",
            ))),
            "scenario: events[0].at: expected an integer from 0 to 9007199254740991, got a string (\"0\")",
        ),
        (
            type_error(replay(js("{ events: [{ at: 0, do: 'finish' }] }"))),
            "scenario: events[0].worker: is missing",
        ),
        (
            type_error(Player::new(Some(JsValue::from(42.0)))),
            "scenario: expected a scenario object or its JSON text, got a number (42)",
        ),
        (
            type_error(Player::new(Some(js(
                "{ events: [{ at: 0, worker: 7, do: 'send' }] }",
            )))),
            "scenario: events[0].worker: expected a string, got a number (7)",
        ),
        (
            type_error(player.push(JsValue::UNDEFINED)),
            "scenario: events[0]: expected an object, got undefined",
        ),
        (
            type_error(queue.enqueue(JsValue::from("snack-1"))),
            "job: expected an object, got a string",
        ),
        (
            type_error(queue.enqueue(js("{ id: 'x', qty: '2', deadline: 1 }"))),
            "job.qty: expected an integer from 0 to 9007199254740991, got a string (\"2\")",
        ),
        (
            type_error(queue.enqueue(js("{ id: 'x', qty: 2 }"))),
            "job.deadline: is missing",
        ),
        (
            type_error(queue.claim(JsValue::from(42.0), 0.0.into(), 1000.0.into())),
            "owner: expected a string, got a number (42)",
        ),
        (
            type_error(queue.claim("A".into(), "0".into(), 1000.0.into())),
            "now: expected an integer, got a string",
        ),
        (
            type_error(queue.claim("A".into(), 0.0.into(), JsValue::UNDEFINED)),
            "lease_ms: expected an integer, got undefined",
        ),
        (
            type_error(queue.finish(js("null"), 0.0.into())),
            "stamp: expected an object, got null",
        ),
        (
            type_error(queue.finish(
                js("{ id: 'x', owner: 'A', token: 1, attempt: true }"),
                0.0.into(),
            )),
            "stamp.attempt: expected an integer from 0 to 9007199254740991, got a boolean (true)",
        ),
        (
            type_error(queue.finish(
                js("{ id: 'x', owner: 'A', token: 1, attempt: 1 }"),
                JsValue::TRUE,
            )),
            "now: expected an integer, got a boolean",
        ),
        (
            type_error(queue.process(JsValue::NULL, 1000.0.into(), clock.clone(), send.clone())),
            "owner: expected a string, got null",
        ),
        (
            type_error(queue.process("A".into(), 1000.0.into(), JsValue::from(0.0), send)),
            "clock: expected a function, got a number (0)",
        ),
        (
            type_error(queue.process("A".into(), 1000.0.into(), clock, js("{}"))),
            "send: expected a function, got an object",
        ),
        (
            type_error(receiver.deliver(JsValue::from(1.0), 1.0.into())),
            "id: expected a string, got a number (1)",
        ),
        (
            type_error(receiver.deliver("x".into(), "1".into())),
            "qty: expected an integer, got a string",
        ),
    ]
}

#[test]
fn each_wrong_javascript_type_throws_a_type_error_naming_the_argument() {
    let queue = Queue::new().expect("opens");
    let mut player = Player::new(None).expect("opens");
    let receiver = Receiver::new().expect("opens");
    for (message, start) in wrong_types(&queue, &mut player, &receiver) {
        assert!(
            message.starts_with(start),
            "expected a TypeError starting {start:?}, got {message:?}"
        );
    }
}

/// A thousand rounds of wrong types leave nothing borrowed or broken: the
/// same objects then enqueue, claim, push and replay as if nothing happened.
#[test]
fn the_module_keeps_working_after_a_thousand_type_errors() {
    let queue = Queue::new().expect("opens");
    let mut player = Player::new(None).expect("opens");
    let receiver = Receiver::new().expect("opens");
    let mut thrown = 0;
    while thrown < 1000 {
        thrown += wrong_types(&queue, &mut player, &receiver).len();
    }
    queue.enqueue(js(JOB)).expect("enqueues");
    let claim = as_json(
        &queue
            .claim("A".into(), 0.0.into(), 1000.0.into())
            .expect("claims"),
    );
    check!(
        claim["token"],
        serde_json::json!(1),
        "the claim after {thrown} TypeErrors"
    );
    check!(
        as_json(&player.push(js(CLAIM)).expect("pushes"))["claim"],
        serde_json::Value::Null,
        "the player's claim on its empty queue"
    );
    check!(
        receiver.deliver("x".into(), 1.0.into()).expect("delivers"),
        true,
        "a delivery"
    );
    let (_, canonical, expected) = support::SCENARIOS[0];
    let expected: serde_json::Value = serde_json::from_str(expected).expect("golden JSON");
    check!(
        as_json(&replay(canonical.into()).expect("replays")),
        expected,
        "canonical, as JSON text"
    );
    check!(
        as_json(&replay(js_sys::JSON::parse(canonical).expect("JSON")).expect("replays")),
        expected,
        "canonical, as an object"
    );
}

/// A `send` that returns a promise: `process` returns a promise too, the
/// job stays leased until `send`'s promise is fulfilled, then it is
/// finished at the clock's time after it.
#[test]
async fn a_promise_returned_by_send_is_awaited_before_the_finish() {
    let queue = Queue::new().expect("opens");
    queue.enqueue(js(JOB)).expect("enqueues");
    let send = js("() => new Promise((resolve) => setTimeout(resolve, 20))");
    let processed = queue
        .process("A".into(), 1000.0.into(), js("() => 10"), send)
        .expect("claims and sends");
    let processed: js_sys::Promise = processed.dyn_into().expect("a promise");
    check!(
        as_json(&queue.rows().expect("rows"))[0]["state"],
        serde_json::json!("leased"),
        "while send is pending"
    );
    let processed = JsFuture::from(processed).await.expect("fulfilled");
    check!(
        as_json(&processed)["finish"]["accepted"],
        serde_json::json!(true),
        "the finish after send"
    );
    check!(
        as_json(&queue.rows().expect("rows"))[0]["state"],
        serde_json::json!("done"),
        "after send"
    );
}

/// A `send` whose promise rejects ("receiver down"): `process`'s promise
/// rejects with the same reason and the job is not finished.
#[test]
async fn a_rejected_send_leaves_the_job_unfinished() {
    let queue = Queue::new().expect("opens");
    queue.enqueue(js(JOB)).expect("enqueues");
    let send = js("async () => { throw new Error('receiver down'); }");
    let processed = queue
        .process("A".into(), 1000.0.into(), js("() => 10"), send)
        .expect("claims and sends");
    let rejected = JsFuture::from(processed.dyn_into::<js_sys::Promise>().expect("a promise"))
        .await
        .expect_err("send's rejection is passed on");
    let message = rejected
        .dyn_into::<js_sys::Error>()
        .expect("an Error")
        .message();
    check!(
        String::from(message),
        "receiver down".to_owned(),
        "the reason"
    );
    let row = as_json(&queue.rows().expect("rows"))[0].clone();
    check!(
        (&row["state"], &row["token"]),
        (&serde_json::json!("leased"), &serde_json::json!(1)),
        "the job stays leased, unfinished"
    );
}
