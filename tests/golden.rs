//! Golden replays: every chapter's scenario (`chapters/<NN>-<id>/`)
//! replays to exactly its `expected.json` document, on every engine. This
//! file runs natively and in headless Chromium, on the same embedded bytes,
//! so both targets (and natively both engines) are held to one document.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod engines;
mod support;

use engines::Engine;
use leasefence::{Scenario, replay_on};
use support::SCENARIOS;

#[test]
fn every_scenario_replays_to_its_golden_document_on_every_engine() {
    for (engine, (name, scenario, expected)) in
        (Engine::ALL.iter()).flat_map(|engine| SCENARIOS.iter().map(move |each| (engine, each)))
    {
        let scenario = Scenario::parse(scenario).expect("a chapter's scenario reads");
        let queue = engine.open().expect("a fresh queue");
        let replay = replay_on(queue, scenario)
            .unwrap_or_else(|err| panic!("{name} on {engine:?}: replay failed: {err}"));
        let current = serde_json::to_value(&replay).expect("replay serializes");
        let expected: serde_json::Value = serde_json::from_str(expected)
            .unwrap_or_else(|err| panic!("{name}.expected.json: {err}"));
        check!(
            current,
            expected,
            "scenario {name} on {engine:?}: replay differs from its golden document"
        );
    }
}

/// R4 and R14 in the canonical timeline: A's late finish is refused for its
/// token, and the row it is shown beside is still B's. (The whole document
/// is compared with the contract's example by the golden test above.)
#[test]
fn canonical_timeline_refuses_the_late_finish_and_keeps_b_as_holder() {
    let (_, scenario, _) = SCENARIOS[0];
    let replay = leasefence::replay_json(scenario).expect("canonical replays");
    let late = serde_json::to_value(&replay.results[2]).expect("serializes");
    check!(
        late["reason"],
        serde_json::json!("token_mismatch"),
        "R4: A's token=1 finish at 1001 ms"
    );
    check!(
        late["current"]["owner"],
        serde_json::json!("B"),
        "R4: the row stays B's"
    );
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_embedded_list_names_every_chapter_folder() {
    let mut on_disk: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/chapters"))
            .expect("chapters/ exists")
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                Some(name.split_once('-')?.1.to_owned())
            })
            .collect();
    on_disk.sort();
    let mut listed: Vec<String> = SCENARIOS
        .iter()
        .map(|(name, _, _)| (*name).to_owned())
        .collect();
    listed.sort();
    check!(
        listed,
        on_disk,
        "tests/support/chapters.rs must list every folder of chapters/ (`make bless` writes it)"
    );
}
