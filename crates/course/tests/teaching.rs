//! The naive finishes of the teaching module do what the course warns
//! about, which is why the queue does not use them.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::{JobState, Scenario};
use leasefence_course::variants::{Guard, unfenced};

fn scenario(name: &str) -> Scenario {
    let (_, json, _) = support::SCENARIOS
        .iter()
        .find(|(n, _, _)| *n == name)
        .expect("known scenario");
    Scenario::parse(json).expect("valid")
}

/// R4 without the token: A's late finish lands on B's claim.
#[test]
fn an_id_only_finish_lets_the_late_worker_overwrite_the_reclaim() {
    let naive = unfenced::play(&scenario("canonical"), Guard::IdOnly).expect("replays");
    check!(
        naive.finishes[0].accepted,
        true,
        "id-only guard: A's finish at 1001 ms"
    );
    let row = &naive.rows[0];
    check!(
        (row.state, row.owner.as_deref(), row.token),
        (JobState::Done, Some("B"), 2),
        "B's claim was marked done by A"
    );
}

/// R8 without the token: the old run of a restarted worker passes.
#[test]
fn an_owner_guard_lets_a_restarted_workers_old_claim_through() {
    let naive = unfenced::play(&scenario("restart-same-name"), Guard::IdAndOwner).expect("replays");
    check!(
        naive.finishes[0].accepted,
        true,
        "id+owner guard: the old run's finish"
    );
    check!(
        naive.finishes[1].accepted,
        true,
        "the guard cannot tell the two runs apart: both pass"
    );
}
