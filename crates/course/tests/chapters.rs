//! Each chapter's narration states facts about its timeline; these tests
//! state the same facts against the replay, and check that the numbers the
//! facts turn on (times, tokens, attempts) are the ones the narration says,
//! in both languages. Rule numbers refer to `CONTRACT.md`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::Scenario;
use leasefence_course::playground::{CHAPTERS, Lang};
use leasefence_course::variants::{Guard, unfenced};
use serde_json::{Value, json};
use support::narration::{chapter, narrates, pick, replayed, says_numbers};

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
        let naive = unfenced::play(&scenario, guard).expect("replays");
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

// The course points (`playground::chapters::Point`): each is a step of its chapter,
// shown in the step card at its place, with its facts stated against the
// chapter's replay like the narrations above.

/// The point's text, filled as the step card shows it, says each of these
/// numbers, in both languages.
fn point_says(key: &str, numbers: &[&Value]) {
    let (chapter, point) = leasefence_course::playground::chapters::points()
        .find(|(_, point)| point.key == key)
        .expect("a point");
    let text_of = |lang: Lang| point.text(chapter, lang, "A");
    says_numbers(&format!("point {key}"), text_of, numbers);
}

/// The point the step card shows in `chapter` at `position`.
fn point_at(chapter: &str, position: usize, lang: Lang) -> Option<(String, Option<String>)> {
    use leasefence_course::playground::{session::Session, view};
    let scenario = Scenario::parse(self::chapter(chapter)).expect("parses");
    let mut session = Session::new(lang, chapter, scenario).expect("replays");
    session.stepper.seek(position);
    let point = view::position(&session, None, 640.0).step?.point?;
    Some((point.key.to_owned(), point.code))
}

/// Every course point the brief lists is on screen, as a step: each shows
/// in its chapter at its position, in both languages, and nowhere else; a
/// timeline the learner changed shows none (its facts may differ).
#[test]
fn every_course_point_is_a_step_of_its_chapter_and_shown_only_there() {
    use leasefence_course::playground::chapters;
    use leasefence_course::playground::session::{Knob, Session};
    let keys: Vec<&str> = chapters::points().map(|(_, point)| point.key).collect();
    check!(
        keys,
        vec![
            "claim_result",
            "no_heartbeat",
            "why_leased",
            "visibility_timeout",
            "tell_apart",
            "not_a_credential",
            "one_boundary",
            "receiver_unfenced",
            "rollback_journal"
        ],
        "the course points, in the order of their chapters"
    );
    for chapter in CHAPTERS {
        let total = Scenario::parse(chapter.scenario())
            .expect("parses")
            .events()
            .len();
        for position in 0..=total {
            for lang in [Lang::En, Lang::Ko] {
                let shown = point_at(chapter.id, position, lang).map(|(key, _)| key);
                let placed =
                    chapters::point_at(chapter.id, position).map(|(_, point)| point.key.to_owned());
                check!(
                    shown,
                    placed,
                    "{} at {position} ({})",
                    chapter.id,
                    lang.tag()
                );
            }
        }
    }
    for (chapter, point) in chapters::points() {
        let scenario = Scenario::parse(chapter.scenario()).expect("parses");
        let mut session = Session::new(Lang::En, chapter.id, scenario).expect("replays");
        session
            .drag(Knob::Lease, 5)
            .expect("a drag forks the chapter");
        session.stepper.seek(point.position);
        let step = leasefence_course::playground::view::position(&session, None, 640.0).step;
        check!(
            step.and_then(|step| step.point).map(|p| p.key),
            None,
            "{}: no point in the learner's own timeline",
            point.key
        );
    }
}

/// "A's claim returned these six fields" (R3): the point shows the claim
/// itself, exactly as the replay returned it, with the course's six fields.
#[test]
fn the_claim_result_point_shows_the_six_fields_a_claim_returns() {
    let doc = replayed("canonical");
    let (_, code) = point_at("canonical", 1, Lang::Ko).expect("a point after A's claim");
    let shown: Value = serde_json::from_str(&code.expect("the claim")).expect("JSON");
    check!(
        shown,
        doc["results"][0]["claim"],
        "R3: the claim A received"
    );
    let fields: Vec<&String> = shown.as_object().expect("an object").keys().collect();
    let mut course = ["id", "qty", "owner", "token", "attempt", "lease_until"];
    course.sort_unstable();
    check!(fields, course.to_vec(), "the course's six fields");
}

/// "A's lease ended at 1000 ms, and B reclaimed the job right then": no
/// event extends a lease (the scenario format has none to offer).
#[test]
fn the_no_heartbeat_point_stands_where_b_reclaims_at_lease_until() {
    let doc = replayed("canonical");
    point_says(
        "no_heartbeat",
        &[&doc["results"][0]["claim"]["lease_until"]],
    );
    check!(
        (
            doc["results"][1]["at"].clone(),
            doc["results"][1]["claim"]["owner"].clone()
        ),
        (
            doc["results"][0]["claim"]["lease_until"].clone(),
            json!("B")
        ),
        "R5: B reclaims at A's lease_until"
    );
}

/// "B's claim at 500 ms found nothing: while A's lease is valid, A's job
/// stays in the table, leased, and nobody else can claim it."
#[test]
fn the_visibility_timeout_point_stands_where_a_valid_lease_hides_the_job() {
    let doc = replayed("polling-cannot-steal");
    point_says("visibility_timeout", &[&doc["results"][2]["at"]]);
    check!(
        (
            pick(&doc, 2, &["worker", "at", "claim"]),
            doc["results"][0]["claim"]["lease_until"].clone()
        ),
        (
            json!({"worker": "B", "at": 500, "claim": null}),
            json!(1000)
        ),
        "R11: nothing for B while A's lease (until 1000) is valid"
    );
    let scenario = Scenario::parse(chapter("polling-cannot-steal")).expect("parses");
    let timeline = leasefence_course::Timeline::build(scenario).expect("replays");
    let row = timeline.rows_after(3)[0];
    check!(
        (row.state.as_str(), row.owner.as_deref()),
        ("leased", Some("A")),
        "R1: the job stays in the table, leased, A's"
    );
}

/// "C's claim quarantined snack-1 and looked for a job in one
/// transaction": the quarantine and the claim run between one BEGIN
/// IMMEDIATE and its COMMIT. (Files use the rollback journal:
/// `files.rs` `file_database_uses_the_rollback_journal`.)
#[test]
fn the_rollback_journal_point_stands_on_one_transaction_that_writes_twice() {
    use leasefence::store::{CLAIM, QUARANTINE};
    let scenario = Scenario::parse(chapter("quarantine")).expect("parses");
    let timeline = leasefence_course::Timeline::build(scenario).expect("replays");
    let frame = &timeline.frames[2];
    let ran: Vec<(&str, usize)> = frame
        .sql
        .iter()
        .filter(|s| [QUARANTINE.trim(), CLAIM.trim()].contains(&&*s.sql) || !s.write)
        .map(|s| (s.sql.split_whitespace().next().unwrap_or(""), s.rows))
        .collect();
    let first_and_last = (
        frame.sql.first().map(|s| &*s.sql),
        frame.sql.last().map(|s| &*s.sql),
    );
    check!(
        first_and_last,
        (Some("BEGIN IMMEDIATE"), Some("COMMIT")),
        "R6: one transaction"
    );
    check!(
        (
            frame.result.worker.as_str(),
            ran.iter()
                .filter(|(verb, rows)| *verb == "UPDATE" && *rows == 1)
                .count(),
            timeline.rows_after(3)[0].state.as_str()
        ),
        ("C", 1, "quarantined"),
        "R10: C's transaction quarantined snack-1: {ran:?}"
    );
}

/// "Token 1 was refused, token 2 finished; it is a small number, one more
/// per claim, that anyone can guess" (R15).
#[test]
fn the_not_a_credential_point_stands_after_both_runs_tokens_were_judged() {
    let doc = replayed("restart-same-name");
    point_says(
        "not_a_credential",
        &[
            &doc["results"][2]["expected"]["token"],
            &doc["results"][3]["current"]["token"],
        ],
    );
    check!(
        [
            pick(&doc, 2, &["accepted", "expected.token"]),
            pick(&doc, 3, &["accepted", "current.token", "current.attempts"]),
        ],
        [
            json!({"accepted": false, "expected.token": 1}),
            json!({"accepted": true, "current.token": 2, "current.attempts": 2}),
        ],
        "R2, R15: refused 1, accepted 2, the count of claims"
    );
}

/// "A's delivery at 10 ms counted; B's delivery of snack-1 at 1100 ms added
/// nothing": the receiver, not the queue, ignored the repeat, by job id.
#[test]
fn the_receiver_point_stands_where_the_repeat_was_ignored_by_job_id() {
    let doc = replayed("late-delivery");
    point_says(
        "receiver_unfenced",
        &[&doc["results"][1]["at"], &doc["results"][3]["at"]],
    );
    check!(
        [
            pick(&doc, 1, &["worker", "at", "applied"]),
            pick(&doc, 3, &["worker", "at", "applied"]),
        ],
        [
            json!({"worker": "A", "at": 10, "applied": true}),
            json!({"worker": "B", "at": 1100, "applied": false}),
        ],
        "R12: the first delivery counts, the repeat adds nothing"
    );
    let scenario = Scenario::parse(chapter("late-delivery")).expect("parses");
    let timeline = leasefence_course::Timeline::build(scenario).expect("replays");
    check!(
        timeline.receiver_after(4).into_iter().collect::<Vec<_>>(),
        vec![("snack-1".to_owned(), 2)],
        "counted once, at the point's place"
    );
}
