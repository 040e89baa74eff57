//! Malformed scenarios are refused whole, naming the event index and the
//! field. Runs natively and in the browser.
//!
//! The scenario format and its errors are described in CONTRACT.md.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::{Error, Scenario};

const JOB: &str = r#"{"id": "snack-1", "qty": 2, "deadline": 5000}"#;

/// A reader of scenario text.
type Reader = fn(&str) -> Result<Scenario, Error>;

/// The two readers of a scenario: of text (the library's and the command
/// line's), and of a JSON value (the JavaScript API's), here given the
/// text read as `JSON.parse` would.
const READERS: [(&str, Reader); 2] = [("parse", Scenario::parse), ("from_value", as_javascript)];

/// `text` read as the JavaScript API reads a string: `JSON.parse`, then
/// the reader of values.
fn as_javascript(text: &str) -> Result<Scenario, Error> {
    Scenario::from_value(serde_json::from_str(text).expect("valid JSON"))
}

fn refusal(read: Reader, events: &str) -> String {
    let json = format!(r#"{{"jobs": [{JOB}], "events": [{events}]}}"#);
    match read(&json) {
        Ok(scenario) => panic!("accepted a malformed scenario: {json}\nparsed as {scenario:?}"),
        Err(err @ Error::Scenario { .. }) => err.to_string(),
        Err(other) => panic!("expected a scenario error, got {other:?}"),
    }
}

#[test]
fn each_malformed_event_is_refused_naming_index_and_field() {
    let claim = r#"{"at": 0, "worker": "A", "do": "claim", "lease_ms": 1000}"#;
    let cases = [
        (format!(r#"{claim}, {{"at": -1, "worker": "B", "do": "finish"}}"#), "events[1].at"),
        (format!(r#"{claim}, {{"at": 1.5, "worker": "B", "do": "finish"}}"#), "events[1].at"),
        (format!(r#"{claim}, {{"at": "soon", "worker": "B", "do": "finish"}}"#), "events[1].at"),
        (r#"{"at": 9007199254740992, "worker": "A", "do": "finish"}"#.to_owned(), "events[0].at"),
        (format!(r#"{{"at": 5, "worker": "A", "do": "finish"}}, {claim}"#), "events[1].at"),
        (r#"{"at": 0, "worker": "", "do": "finish"}"#.to_owned(), "events[0].worker"),
        (r#"{"at": 0, "worker": "A", "do": "claim"}"#.to_owned(), "events[0].lease_ms"),
        (r#"{"at": 0, "worker": "A", "do": "claim", "lease_ms": 0}"#.to_owned(), "events[0].lease_ms"),
        (r#"{"at": 0, "worker": "A", "do": "finish", "lease_ms": 5}"#.to_owned(), "events[0].lease_ms"),
        (r#"{"at": 0, "worker": "A", "do": "fly"}"#.to_owned(), "events[0].do"),
        (r#"{"at": 0, "worker": "A", "do": "finish", "lease": 5}"#.to_owned(), "events[0]"),
        (r#"{"at": 0, "worker": "A", "do": "enqueue"}"#.to_owned(), "events[0].job"),
        (r#"{"at": 0, "do": "finish"}"#.to_owned(), "events[0]: missing field `worker`"),
        (r#"{"at": 0, "do": "claim", "lease_ms": 5}"#.to_owned(), "events[0]: missing field `worker`"),
        (r#"{"at": 0, "worker": null, "do": "send"}"#.to_owned(), "events[0]: missing field `worker`"),
        (
            format!(r#"{{"at": 0, "worker": "A", "do": "enqueue", "job": {JOB}}}"#),
            "events[0].job.id",
        ),
        (
            r#"{"at": 0, "worker": "A", "do": "enqueue", "job": {"id": "x", "qty": 18446744073709551616, "deadline": 1}}"#
                .to_owned(),
            "events[0].job.qty",
        ),
    ];
    for (reader, read) in READERS {
        for (events, path) in &cases {
            let message = refusal(read, events);
            assert!(
                message.starts_with(&format!("scenario: {path}")),
                "{reader}: expected a message naming {path:?}\n  events: {events}\n  message: {message}"
            );
        }
    }
}

/// The JavaScript API's reader reads every golden scenario as the
/// library's does.
#[test]
fn both_readers_of_scenario_text_read_every_golden_scenario_alike() {
    for (name, scenario, _) in support::SCENARIOS {
        let expected = Scenario::parse(scenario).expect("a golden scenario parses");
        let current = as_javascript(scenario);
        assert!(
            matches!(&current, Ok(read) if *read == expected),
            "{name}: expected {expected:?}\n  current: {current:?}"
        );
    }
}

#[test]
fn duplicate_job_ids_and_broken_json_are_refused() {
    let twice = format!(r#"{{"jobs": [{JOB}, {JOB}], "events": []}}"#);
    let message = Scenario::parse(&twice)
        .expect_err("duplicate ids")
        .to_string();
    assert!(message.starts_with("scenario: jobs[1].id"), "{message}");
    let broken = Scenario::parse(r#"{"jobs": [], "events": [}"#)
        .expect_err("broken JSON")
        .to_string();
    assert!(message_names_a_place(&broken), "{broken}");
    let trailing = Scenario::parse(r#"{"events": []} {}"#)
        .expect_err("trailing data")
        .to_string();
    assert!(trailing.starts_with("scenario: (document)"), "{trailing}");
}

fn message_names_a_place(message: &str) -> bool {
    message.starts_with("scenario: ") && message.contains("line")
}

#[test]
fn a_scenario_survives_a_round_trip_through_its_json() {
    let json = format!(
        r#"{{"jobs": [{JOB}], "events": [
            {{"at": 0, "worker": "A-restarted", "owner": "A", "do": "claim", "lease_ms": 10}},
            {{"at": 1, "worker": "B", "do": "enqueue", "job": {{"id": "s2", "qty": 1, "deadline": 9}}}},
            {{"at": 2, "worker": "A-restarted", "do": "send"}}]}}"#
    );
    let scenario = Scenario::parse(&json).expect("valid");
    let again = Scenario::parse(&scenario.to_json()).expect("its own JSON is valid");
    assert_eq!(again, scenario);
}

/// An enqueue is the producer's (the contract asks no worker of it): one
/// written without `worker` replays as `producer`'s and is written back
/// without it; one written with a worker keeps it, in the replay document
/// and in the scenario's JSON.
#[test]
fn an_enqueue_needs_no_worker_and_a_given_one_is_echoed() {
    use leasefence::scenario::PRODUCER;

    let json = r#"{"events": [
        {"at": 0, "do": "enqueue", "job": {"id": "s1", "qty": 1, "deadline": 9}},
        {"at": 1, "worker": "shop", "do": "enqueue", "job": {"id": "s2", "qty": 2, "deadline": 9}}]}"#;
    let scenario = Scenario::parse(json).expect("an enqueue without a worker is valid");
    check!(
        (
            scenario.events()[0].worker.as_str(),
            scenario.events()[1].worker.as_str()
        ),
        (PRODUCER, "shop"),
        "the actors"
    );
    let written: serde_json::Value = serde_json::from_str(&scenario.to_json()).expect("JSON");
    check!(
        (
            written["events"][0].get("worker"),
            &written["events"][1]["worker"]
        ),
        (None, &serde_json::json!("shop")),
        "the scenario's JSON"
    );
    let replayed = leasefence::replay_json(json).expect("replays");
    let replayed = serde_json::to_value(&replayed).expect("a document");
    check!(
        (
            &replayed["results"][0]["worker"],
            &replayed["results"][1]["worker"]
        ),
        (&serde_json::json!(PRODUCER), &serde_json::json!("shop")),
        "the replay document"
    );
}

/// Text that is not JSON is placed at the last field the parser knew, or
/// at the document, with its line and column; never at `?`. The rest of
/// the parser's sentence is serde's wording and is not pinned.
#[test]
fn a_syntax_error_names_the_last_known_place_and_its_line() {
    for (text, place, line, column) in [
        ("{", "(document)", 1, 1),
        (r#"{"events": [}"#, "events[0]", 1, 13),
        (
            r#"{"events": [{"at": 0 "worker": "A"}]}"#,
            "events[0]",
            1,
            22,
        ),
        ("{\n  \"events\": [\n    }", "events[0]", 3, 5),
    ] {
        let refused = Scenario::parse(text).expect_err("not JSON");
        check!(
            support::place_and_problem(&refused),
            (place.to_owned(), "Syntax".to_owned()),
            "parse({text}): {refused}"
        );
        let position = format!("line {line} column {column}");
        assert!(
            refused.to_string().ends_with(&position),
            "parse({text}): expected the message to end with {position:?}, got {refused}"
        );
    }
}

/// Text that is not JSON is refused by the JavaScript API's reader of text
/// (`scenario::read_json`) exactly as by the library's: at the last place
/// the parser knew, with the line and column.
#[test]
fn text_that_is_not_json_is_refused_at_the_same_place_by_both_readers() {
    for broken in [
        r#"{"jobs": [], "events": [}"#,
        r#"{"events": [{"at": 0, "worker": "A", "do": "claim", "lease_ms": 10,}]}"#,
        "",
    ] {
        check!(
            leasefence::scenario::read_json(broken)
                .map(drop)
                .map_err(|err| err.to_string()),
            Scenario::parse(broken)
                .map(drop)
                .map_err(|err| err.to_string()),
            "read_json({broken:?}) against parse"
        );
    }
}
