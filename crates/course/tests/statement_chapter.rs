//! The statement panel's chapter and the timeline race: the write-lock
//! chapter's narration against its replay and the races' numbers, and
//! what the timeline race takes apart while the learner predicts. Rule
//! numbers refer to `CONTRACT.md`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::replay_json;
use leasefence_course::mechanism::races::{real_claim_race, send_race};
use leasefence_course::playground::assertions::Assertion;
use leasefence_course::playground::session::Session;
use leasefence_course::playground::statements::{Move, Race, SEND_MS};
use leasefence_course::playground::view;
use leasefence_course::playground::{CHAPTERS, Lang};
use serde_json::{Value, json};
use support::session;

/// The chapter's narration states what its replay and the races do: A
/// gets token 1 and B nothing at 0 ms, B's wait for the lock, the enqueue
/// at 10 ms during A's send, A's accepted finish at 306 ms, and the wait
/// a send inside the transaction causes, in both languages.
#[test]
fn the_write_lock_chapter_narrates_its_replay_and_the_races_numbers_r6_r7() {
    let json = CHAPTERS
        .iter()
        .find(|chapter| chapter.id == support::statement_chapter())
        .expect("the chapter")
        .scenario();
    let doc = serde_json::to_value(replay_json(json).expect("replays")).expect("json");
    let results = &doc["results"];
    let picked: Vec<Value> = (0..5)
        .map(|n| {
            let r = &results[n];
            json!([
                r["at"],
                r["worker"],
                r["do"],
                r["claim"]["token"],
                r["accepted"]
            ])
        })
        .collect();
    let expected = vec![
        json!([0, "A", "claim", 1, null]),
        json!([0, "B", "claim", null, null]),
        json!([5, "A", "send", null, null]),
        json!([10, "C", "enqueue", null, null]),
        json!([306, "A", "finish", null, true]),
    ];
    check!(picked, expected, "the chapter's replay");
    let b_waited = real_claim_race(1).expect("runs").waited_ms["B"];
    let inside = send_race(true, SEND_MS).expect("runs");
    let (producer_waited, claim_waited) = (inside.waited_ms["producer"], inside.waited_ms["B"]);
    for lang in [Lang::En, Lang::Ko] {
        let chapter = leasefence_course::playground::chapters::find("write-lock");
        let text = chapter.expect("a chapter").narration(lang);
        let numbers = [b_waited, 5, 10, 306, producer_waited, claim_waited];
        let said: Vec<bool> = numbers
            .iter()
            .map(|n| text.contains(&format!("{n} ms")) || text.contains(&format!("{n}ms")))
            .collect();
        check!(
            said,
            vec![true; numbers.len()],
            "{lang:?}: the narration says {numbers:?} ms"
        );
        check!(
            text.matches("token=1").count() + text.matches("token 1").count() >= 2,
            true,
            "{lang:?}: A's token 1, and the naive claim's token 1 for both"
        );
    }
}

/// While the learner predicts, the timeline race takes
/// apart only the events already applied, whose outcomes they have seen,
/// and says so; it follows each answer, and once the last is given it
/// takes the whole timeline. (It printed A's refusal at step 0.) Turning
/// predicting on hides what is not answered yet; turning it off shows all.
#[test]
fn while_predicting_the_timeline_race_shows_only_the_events_seen() {
    let mut session = session("canonical", Lang::En);
    session.set_predict(true).expect("sets predicting");
    session.statements(Move::Open(true)).expect("opens");
    session
        .statements(Move::Race(Race::Timeline))
        .expect("runs");
    let cut = |session: &Session| {
        let cut = view::statements(session).and_then(|v| v.cut);
        cut.map(|cut| cut.asserts().into_iter().cloned().collect::<Vec<_>>())
    };
    check!(
        session.statement_panel.taken(),
        Some(0),
        "nothing applied yet"
    );
    check!(
        cut(&session),
        Some(vec![Assertion::TakenApart {
            taken: 0,
            events: 3
        }]),
        "says why the race is empty"
    );
    let mut seen = Vec::new();
    for answer in [true, true, false] {
        session.stepper.step();
        session.stepper.guess(answer);
        session.follow_statements().expect("follows");
        seen.push(session.statement_panel.taken());
    }
    check!(
        seen,
        vec![Some(1), Some(2), Some(2)],
        "each answered event joins the race; A's refused finish waits for its field question"
    );
    session.stepper.answer_field("token");
    session.follow_statements().expect("follows");
    check!(
        (session.statement_panel.taken(), cut(&session)),
        (Some(3), None),
        "every question answered: the whole timeline"
    );
    let mut again = support::session("canonical", Lang::En);
    again.set_predict(false).expect("sets predicting");
    again.statements(Move::Open(true)).expect("opens");
    again.statements(Move::Race(Race::Timeline)).expect("runs");
    check!(
        again.statement_panel.taken(),
        Some(3),
        "not predicting: every event"
    );
    again.set_predict(true).expect("sets predicting");
    check!(
        again.statement_panel.taken(),
        Some(0),
        "predicting turned on: only what is answered (nothing yet)"
    );
}
