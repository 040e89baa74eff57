//! A timeline written live (`Player::push`): events added one at a time
//! give the same results as the same events in a document, and an event the
//! document parser would refuse is refused here too, changing nothing.
//! Runs natively and in headless Chromium.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::{Action, Event, Player, Scenario};
use support::SCENARIOS;

/// The event a caller sends as the JSON text `text`, read as the event at
/// `index` of a timeline.
fn event(text: &str, index: usize) -> leasefence::Result<Event> {
    Event::from_value(serde_json::from_str(text).expect("JSON"), index)
}

/// Each event of `json`, as the text a caller would send for it.
fn event_texts(json: &str) -> Vec<String> {
    let document: serde_json::Value = serde_json::from_str(json).expect("valid JSON");
    document["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|event| event.to_string())
        .collect()
}

/// R14 for a timeline built live: every golden scenario, pushed event by
/// event, gives exactly its golden results, rows and receiver.
#[test]
fn events_pushed_one_at_a_time_match_every_golden_document() {
    for (name, json, expected) in SCENARIOS {
        let scenario = Scenario::parse(json).expect("parses");
        let mut player = Player::new(scenario.first(0)).expect("opens");
        let mut results = Vec::new();
        for (index, text) in event_texts(json).iter().enumerate() {
            let event = event(text, index).expect("a valid event");
            results.push(player.push(event).expect("applies"));
        }
        let current = serde_json::json!({
            "results": results,
            "rows": player.rows().expect("rows"),
            "receiver": player.receiver().expect("receiver"),
        });
        let expected: serde_json::Value = serde_json::from_str(expected).expect("golden JSON");
        check!(current, expected, "{name} pushed live");
        check!(
            player.scenario().to_json(),
            scenario.to_json(),
            "{name}: the live timeline is the document's"
        );
    }
}

/// R5 and the scenario rules for live events: time going back, a job id
/// used twice and a malformed event are refused with the field named, and
/// the table, the position and the timeline stay as they were.
#[test]
fn a_refused_live_event_names_the_field_and_changes_nothing() {
    let canonical = Scenario::parse(SCENARIOS[0].1).expect("parses");
    let mut player = Player::new(canonical.first(0)).expect("opens");
    player
        .push(
            event(
                r#"{"at": 500, "worker": "A", "do": "claim", "lease_ms": 1000}"#,
                0,
            )
            .expect("valid"),
        )
        .expect("claims");
    let rows_before = player.rows().expect("rows");

    let earlier = event(
        r#"{"at": 499, "worker": "B", "do": "claim", "lease_ms": 1000}"#,
        1,
    )
    .expect("valid on its own");
    let refused = player.push(earlier).expect_err("time went back");
    check!(
        refused.to_string(),
        "scenario: events[1].at: 499 is earlier than the event before it (500); times must not go back",
        "time going back"
    );

    let twice = event(
        r#"{"at": 600, "worker": "B", "do": "enqueue", "job": {"id": "snack-1", "qty": 1, "deadline": 9000}}"#,
        1,
    )
    .expect("valid on its own");
    let refused = player.push(twice).expect_err("the id is taken");
    check!(
        refused.to_string(),
        "scenario: events[1].job.id: job \"snack-1\" is already in the scenario",
        "a job id used twice"
    );

    for (text, place, problem) in [
        (
            r#"{"at": 600, "worker": "B", "do": "claim"}"#,
            "events[1].lease_ms",
            "LeaseMissing",
        ),
        (
            r#"{"at": 600, "worker": "B", "do": "claim", "lease_ms": 1000, "color": "red"}"#,
            "events[1].color",
            "Unfit",
        ),
        (
            r#"{"at": 1.5, "worker": "B", "do": "finish"}"#,
            "events[1].at",
            "Unfit",
        ),
    ] {
        let refused = event(text, 1).expect_err("malformed");
        check!(
            support::place_and_problem(&refused),
            (place.to_owned(), problem.to_owned()),
            "Event::from_value({text}): {refused}"
        );
    }

    check!(
        player.rows().expect("rows"),
        rows_before,
        "the table changed"
    );
    check!(player.position(), 1, "the position moved");
    check!(player.scenario().events().len(), 1, "the timeline grew");
}

/// A live event goes after the document's own: it cannot jump ahead of
/// events that have not been applied yet.
#[test]
fn pushing_before_the_document_is_played_through_is_refused() {
    let canonical = Scenario::parse(SCENARIOS[0].1).expect("parses");
    let mut player = Player::new(canonical).expect("opens");
    let finish = event(r#"{"at": 5000, "worker": "C", "do": "finish"}"#, 3).expect("valid");
    let refused = player.push(finish.clone()).expect_err("three events wait");
    check!(
        refused.to_string(),
        "events: 0 of 3 events are applied; step through the rest before adding one",
        "pushing ahead of the document"
    );
    while player.step().expect("steps").is_some() {}
    let result = player.push(finish).expect("now it applies");
    check!(result.event, 3, "the pushed event's index");
    check!(
        serde_json::to_value(&result).expect("serializes")["reason"],
        serde_json::json!("no_claim"),
        "C holds no claim"
    );
}

/// A pushed event is checked against the pushed ones before it, and a
/// hand-built `Event` is held to the same rules as a written one.
#[test]
fn pushed_events_are_checked_like_written_ones() {
    let mut player = Player::new(Scenario::default()).expect("opens an empty queue");
    let enqueue = |index| {
        event(
            r#"{"at": 10, "worker": "A", "do": "enqueue", "job": {"id": "j", "qty": 1, "deadline": 99}}"#,
            index,
        )
        .expect("valid on its own")
    };
    player.push(enqueue(0)).expect("enqueues j");
    let refused = player.push(enqueue(1)).expect_err("j is taken");
    check!(
        refused.to_string(),
        "scenario: events[1].job.id: job \"j\" is already in the scenario",
        "an id taken by an earlier push"
    );
    let nameless = Event {
        at: 20,
        worker: String::new(),
        owner: None,
        action: Action::Finish,
    };
    let refused = player.push(nameless).expect_err("a worker needs a name");
    check!(
        refused.to_string(),
        "scenario: events[1].worker: must be a non-empty string",
        "a hand-built event with an empty worker"
    );
    check!(player.position(), 1, "the position moved");
    check!(player.scenario().events().len(), 1, "the timeline grew");
}

/// A `Scenario` built in code is held to the document's rules: here, time
/// going back is refused with the document parser's words.
#[test]
fn a_scenario_built_in_code_is_checked_as_a_document_is() {
    let canonical = Scenario::parse(SCENARIOS[0].1).expect("parses");
    let mut events = canonical.events().to_vec();
    events[2].at = 999; // A's finish, now before B's claim at 1000
    let refused =
        Scenario::new(canonical.jobs().to_vec(), events.clone()).expect_err("time goes back");
    check!(
        refused.to_string(),
        "scenario: events[2].at: 999 is earlier than the event before it (1000); times must not go back",
        "a scenario built in code"
    );
    let mut document: serde_json::Value = serde_json::from_str(SCENARIOS[0].1).expect("JSON");
    document["events"][2]["at"] = 999.into();
    check!(
        Scenario::parse(&document.to_string())
            .map(drop)
            .map_err(|err| err.to_string()),
        Err(refused.to_string()),
        "the document parser says the same"
    );
}
