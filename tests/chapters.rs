//! Each chapter's narration states facts about its timeline; these tests
//! state the same facts against the replay, and check that the numbers the
//! facts turn on (times, tokens, attempts) are the ones the narration says,
//! in both languages. Rule numbers refer to `CONTRACT.md`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::playground::{CHAPTERS, Lang};
use leasefence::unfenced::{Guard, replay as naive};
use leasefence::{Scenario, replay_json};
use serde_json::{Value, json};

fn chapter(id: &str) -> &'static str {
    CHAPTERS
        .iter()
        .find(|chapter| chapter.id == id)
        .expect("a chapter")
        .scenario()
}

/// The chapter's replay document, as JSON values.
fn replayed(id: &str) -> Value {
    serde_json::to_value(replay_json(chapter(id)).expect("replays")).expect("serializes")
}

/// The chapter's narration says each of these numbers (taken from its
/// replay), in English and in Korean.
fn narrates(id: &str, numbers: &[&Value]) {
    for lang in [Lang::En, Lang::Ko] {
        let text = lang.text(&format!("chapter.{id}.text")).to_owned();
        let missing: Vec<String> = numbers
            .iter()
            .map(|number| number.to_string())
            .filter(|number| !text.contains(number.as_str()))
            .collect();
        check!(
            missing,
            Vec::<String>::new(),
            "{id} ({}): numbers the narration should say",
            lang.tag()
        );
    }
}

/// Result `n`'s fields named in `fields`, as one object.
fn pick(doc: &Value, n: usize, fields: &[&str]) -> Value {
    let result = &doc["results"][n];
    let mut picked = serde_json::Map::new();
    for field in fields {
        let (head, tail) = field.split_once('.').unwrap_or((field, ""));
        let value = if tail.is_empty() {
            &result[head]
        } else {
            &result[head][tail]
        };
        picked.insert((*field).to_owned(), value.clone());
    }
    Value::Object(picked)
}

/// "A claims (token 1, lease until 1000 ms) and stalls. At 1000 ms B
/// reclaims it (token 2). At 1001 ms A's finish with token 1 is refused and
/// B's work stays intact."
#[test]
fn canonical_a_late_finish_is_refused_and_b_keeps_the_job() {
    let doc = replayed("canonical");
    narrates(
        "canonical",
        &[
            &doc["results"][0]["claim"]["lease_until"],
            &doc["results"][1]["claim"]["token"],
            &doc["results"][2]["at"],
        ],
    );
    let claims = [
        pick(&doc, 0, &["worker", "claim.token", "claim.lease_until"]),
        pick(&doc, 1, &["worker", "at", "claim.token"]),
    ];
    check!(
        claims,
        [
            json!({"worker": "A", "claim.token": 1, "claim.lease_until": 1000}),
            json!({"worker": "B", "at": 1000, "claim.token": 2}),
        ],
        "R2, R5: A's claim, B's reclaim at lease_until"
    );
    check!(
        pick(
            &doc,
            2,
            &["at", "accepted", "reason", "current.owner", "current.state"]
        ),
        json!({"at": 1001, "accepted": false, "reason": "token_mismatch",
               "current.owner": "B", "current.state": "leased"}),
        "R4: refused, the row is still B's"
    );
}

/// "Before, at 999 ms, B's claim finds nothing. Exactly at 1000 ms A's
/// lease has ended: A's finish is refused, and B may claim A's job. After
/// it, at 1001 ms, C's finish is refused too, though nobody has taken C's
/// job."
#[test]
fn expiry_boundary_before_at_and_after_lease_until() {
    let doc = replayed("expiry-boundary");
    narrates(
        "expiry-boundary",
        &[
            &doc["results"][2]["at"],
            &doc["results"][3]["at"],
            &doc["results"][5]["at"],
        ],
    );
    check!(
        [
            pick(&doc, 2, &["at", "worker", "claim"]),
            pick(&doc, 3, &["at", "worker", "accepted", "reason"]),
            pick(&doc, 4, &["at", "worker", "claim.id", "claim.token"]),
            pick(
                &doc,
                5,
                &["at", "worker", "accepted", "reason", "current.owner"]
            ),
        ],
        [
            json!({"at": 999, "worker": "B", "claim": null}),
            json!({"at": 1000, "worker": "A", "accepted": false, "reason": "lease_expired"}),
            json!({"at": 1000, "worker": "B", "claim.id": "snack-1", "claim.token": 2}),
            json!({"at": 1001, "worker": "C", "accepted": false, "reason": "lease_expired",
                   "current.owner": "C"}),
        ],
        "R5: before, at and after"
    );
}

/// "Deadline 100 ms, a 1000 ms lease asked at 0 ms: lease_until is 100.
/// At the deadline the job is expired instead of claimed."
#[test]
fn deadline_caps_lease_no_lease_outlives_its_job() {
    let doc = replayed("deadline-caps-lease");
    narrates(
        "deadline-caps-lease",
        &[&doc["results"][0]["claim"]["lease_until"]],
    );
    check!(
        pick(&doc, 0, &["claim.lease_until"]),
        json!({"claim.lease_until": 100}),
        "R9"
    );
    check!(
        (pick(&doc, 2, &["claim"]), doc["rows"][0]["state"].clone()),
        (json!({"claim": null}), json!("expired")),
        "at the deadline: expired, not claimed"
    );
}

/// "Two attempts allowed. After A's and B's leases run out, C's claim does
/// not issue token 3: the job is quarantined and never claimed again."
#[test]
fn quarantine_a_job_out_of_attempts_gets_no_new_token() {
    let doc = replayed("quarantine");
    narrates("quarantine", &[&doc["rows"][0]["max_attempts"]]);
    check!(
        (
            pick(&doc, 1, &["claim.token"]),
            pick(&doc, 2, &["worker", "claim"]),
        ),
        (
            json!({"claim.token": 2}),
            json!({"worker": "C", "claim": null}),
        ),
        "R10: no token 3"
    );
    check!(doc["rows"][0]["state"], json!("quarantined"), "set aside");
}

/// "B asks again and again while A's lease is valid; every claim finds
/// nothing, and A still finishes at 999 ms."
#[test]
fn polling_cannot_steal_a_valid_lease() {
    let doc = replayed("polling-cannot-steal");
    narrates("polling-cannot-steal", &[&doc["results"][4]["at"]]);
    let polls: Vec<Value> = (1..=3)
        .map(|n| pick(&doc, n, &["worker", "claim"]))
        .collect();
    check!(
        polls,
        vec![json!({"worker": "B", "claim": null}); 3],
        "R11: nothing while A's lease is valid"
    );
    check!(
        pick(&doc, 4, &["worker", "at", "accepted"]),
        json!({"worker": "A", "at": 999, "accepted": true}),
        "A finishes"
    );
}

/// "A restarts under the same name A: the new run gets token 2, so the old
/// run's finish with token 1 is refused although the owner name matches."
#[test]
fn restart_same_name_the_old_run_is_refused_though_the_name_matches() {
    let doc = replayed("restart-same-name");
    narrates(
        "restart-same-name",
        &[
            &doc["results"][1]["claim"]["token"],
            &doc["results"][0]["claim"]["token"],
        ],
    );
    check!(
        pick(&doc, 1, &["claim.owner", "claim.token"]),
        json!({"claim.owner": "A", "claim.token": 2}),
        "R8: same name, new token"
    );
    check!(
        pick(
            &doc,
            2,
            &["accepted", "reason", "expected.owner", "current.owner"]
        ),
        json!({"accepted": false, "reason": "token_mismatch",
               "expected.owner": "A", "current.owner": "A"}),
        "the name matches, the token does not"
    );
    check!(
        pick(&doc, 3, &["accepted"]),
        json!({"accepted": true}),
        "the new run finishes"
    );
}

/// "A delivers, then stalls; B reclaims and delivers again. The queue
/// refuses A's finish but cannot undo A's delivery: the receiver ignores
/// the repeat, so the order counts once."
#[test]
fn late_delivery_the_receiver_counts_the_order_once() {
    let doc = replayed("late-delivery");
    check!(
        [
            pick(&doc, 1, &["worker", "applied"]),
            pick(&doc, 3, &["worker", "applied"]),
            pick(&doc, 5, &["worker", "accepted"]),
        ],
        [
            json!({"worker": "A", "applied": true}),
            json!({"worker": "B", "applied": false}),
            json!({"worker": "A", "accepted": false}),
        ],
        "R12: the repeat adds nothing; A's finish is refused"
    );
    check!(doc["receiver"], json!({"snack-1": 2}), "counted once");
}

/// "A job past its deadline is never claimed: the claim moves it to
/// expired and takes the next job. A new job can be enqueued at any time.
/// An actor holding no claim has nothing to finish or send."
#[test]
fn deadline_expired_jobs_are_skipped_and_empty_hands_do_nothing() {
    let doc = replayed("deadline-expired");
    check!(
        (
            pick(&doc, 0, &["claim.id"]),
            doc["rows"][0]["state"].clone()
        ),
        (json!({"claim.id": "snack-2"}), json!("expired")),
        "the next job, the expired one set aside"
    );
    check!(
        [
            pick(&doc, 3, &["do", "reason"]),
            pick(&doc, 4, &["do", "reason"]),
        ],
        [
            json!({"do": "finish", "reason": "no_claim"}),
            json!({"do": "send", "reason": "no_claim"}),
        ],
        "C holds nothing"
    );
}

/// "With the id-only guard A's late finish marks B's claim done. With id +
/// owner A is refused, but C's old run, restarted under the same name, is
/// accepted. The fenced queue refuses both."
#[test]
fn fencing_off_vs_on_each_naive_guard_lets_a_stale_finish_through() {
    let scenario = Scenario::parse(chapter("fencing-off-vs-on")).expect("parses");
    let doc = replayed("fencing-off-vs-on");
    narrates(
        "fencing-off-vs-on",
        &[&doc["results"][2]["at"], &doc["results"][6]["at"]],
    );
    let stale = [2, 6];
    let fenced: Vec<Value> = stale
        .iter()
        .map(|&n| pick(&doc, n, &["worker", "accepted"]))
        .collect();
    check!(
        fenced,
        vec![
            json!({"worker": "A", "accepted": false}),
            json!({"worker": "C", "accepted": false}),
        ],
        "the fence refuses both"
    );
    for (guard, expected) in [
        (Guard::IdOnly, [true, true]),
        (Guard::IdAndOwner, [false, true]),
    ] {
        let naive = naive(&scenario, guard).expect("replays");
        let accepted: Vec<bool> = stale
            .iter()
            .map(|&n| {
                naive
                    .finishes
                    .iter()
                    .find(|f| f.event == n)
                    .expect("a finish")
                    .accepted
            })
            .collect();
        check!(
            accepted,
            expected.to_vec(),
            "{guard:?}: A, then C's old run"
        );
    }
}

/// "On screen nothing goes wrong, even without the fence: A finishes at
/// 500 ms, C takes snack-2 at 1000 ms, B finds nothing at 1010 ms. There
/// are 140 orderings; with the fence none breaks an invariant, without it
/// some accept A's stale finish and some deliver snack-1 twice."
#[test]
fn every_ordering_the_order_on_screen_is_fine_but_some_orderings_are_not() {
    use leasefence::mechanism::invariants::{Side, along};
    use leasefence::mechanism::orderings::census;
    let scenario = Scenario::parse(chapter("every-ordering")).expect("parses");
    let doc = replayed("every-ordering");
    let counted = census(&scenario).expect("within the bound");
    let orderings = json!(counted.orderings);
    narrates(
        "every-ordering",
        &[
            &doc["results"][2]["at"],
            &doc["results"][3]["at"],
            &doc["results"][4]["at"],
            &orderings,
        ],
    );
    check!(
        [
            pick(&doc, 2, &["worker", "accepted"]),
            pick(&doc, 3, &["worker", "claim.id"]),
            pick(&doc, 4, &["worker", "claim"]),
        ],
        [
            json!({"worker": "A", "accepted": true}),
            json!({"worker": "C", "claim.id": "snack-2"}),
            json!({"worker": "B", "claim": null}),
        ],
        "R4, R5: A in time, C on snack-2, B finds nothing"
    );
    for guard in [Guard::IdOnly, Guard::IdAndOwner] {
        let on_screen = along(&scenario, Side::Naive(guard)).expect("replays");
        let broken: usize = on_screen.iter().map(|check| check.broken.len()).sum();
        check!(broken, 0, "{guard:?}: the order on screen breaks nothing");
    }
    let tally = |side| {
        counted
            .sides
            .iter()
            .find(|t| t.side == side)
            .expect("a side")
    };
    let naive = tally(Side::Naive(Guard::IdOnly));
    check!(
        (
            tally(Side::Fenced).bad,
            naive.stale_finish > 0,
            naive.applied_twice > 0
        ),
        (0, true, true),
        "R4, R12 over {} orderings: fenced bad, naive stale finish, applied twice",
        counted.orderings
    );
}
