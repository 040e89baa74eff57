//! Whole scenarios from JavaScript: `replay` and `new
//! Player` read a scenario object through `serde_wasm_bindgen` and a
//! scenario's JSON text into the same kind of value first, then one
//! reader, so object and text give the same result and the same messages
//! (CONTRACT.md, "Scenarios from JavaScript are JSON values"). In headless
//! Chromium.

#![cfg(target_arch = "wasm32")]

mod support;

use leasefence_web::replay;
use support::browser::{as_json, js, thrown};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::{wasm_bindgen_test as test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// A claim by A at 1 ms with a key no event takes.
const WITH_COLOUR: &str = r#"{"events": [
    {"at": 0, "do": "enqueue", "job": {"id": "j", "qty": 1, "deadline": 5000}},
    {"at": 1, "worker": "A", "do": "claim", "lease_ms": 1000, "colour": "red"}]}"#;

#[test]
fn an_undefined_field_of_a_scenario_object_takes_its_default() {
    let document = replay(js(
        "{ jobs: [{ id: 'j', qty: 1, deadline: 5000, max_attempts: undefined }], \
           events: [{ at: 0, worker: 'A', do: 'claim', lease_ms: 1000, owner: undefined }] }",
    ))
    .expect("undefined fields are left out");
    check!(
        as_json(&document)["rows"][0]["max_attempts"],
        serde_json::json!(3),
        "the default max_attempts"
    );
}

#[test]
fn a_bad_key_is_named_alike_in_a_scenario_object_and_in_its_text() {
    let expected = "scenario: events[1].colour: unknown key";
    let as_object = thrown(replay(js(WITH_COLOUR)));
    assert!(
        as_object.starts_with(expected),
        "expected a message starting {expected:?}, current: {as_object:?}"
    );
    let as_text = thrown(replay(JsValue::from_str(WITH_COLOUR)));
    check!(as_text, as_object, "the same scenario as JSON text");
}

/// Text that is not JSON is refused where `leasefence replay` refuses it:
/// at the last place the parser knew, with the line and column.
#[test]
fn text_that_is_not_json_is_refused_with_its_place_line_and_column() {
    let expected = "line 1 column 13";
    let broken = thrown(replay(JsValue::from_str(r#"{"events": [}"#)));
    assert!(
        broken.contains(expected),
        "expected a message naming {expected:?}, current: {broken:?}"
    );
    let place = "scenario: events";
    assert!(
        broken.starts_with(place),
        "expected a message starting {place:?} (the last place the parser knew), current: {broken:?}"
    );
}

/// The decision CONTRACT.md writes down: JavaScript's JSON text means
/// what `JSON.parse` makes of it, so a key given twice keeps its last
/// value (`leasefence replay` refuses it).
#[test]
fn a_key_given_twice_in_json_text_keeps_its_last_value_as_json_parse_does() {
    let twice = r#"{"events": [],
        "events": [{"at": 0, "worker": "A", "do": "claim", "lease_ms": 1000}]}"#;
    let document = replay(JsValue::from_str(twice)).expect("replays");
    check!(
        as_json(&document)["results"].as_array().map(Vec::len),
        Some(1),
        "the events of the last `events` key"
    );
}
