//! What a learner does to a session, and what the page then shows: a drag
//! or an edit makes the timeline their own and the narration follows its
//! new verdicts; predicting hides the answers until they are given; a
//! chapter's end leads on and is remembered; a worker can be stalled,
//! crashed or restarted from the lanes. Rule numbers refer to
//! `CONTRACT.md`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::key;
use leasefence_course::playground::messages::Key;
use leasefence_course::playground::session::{Knob, Session, Start};
use leasefence_course::playground::status::StatusKind;
use leasefence_course::playground::stepper::{Question, Stepped};
use leasefence_course::playground::view::{self, SliderView};
use leasefence_course::playground::{CHAPTERS, Lang};
use support::session;

/// Whether `text` says the message `key` (in English; filled with
/// `values`): the tests check what is said, not how it is worded.
fn says(text: impl std::fmt::Display, key: Key, values: &[(&str, &str)]) -> bool {
    let values: Vec<(&str, String)> = values.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
    text.to_string().contains(&Lang::En.fill(key, &values))
}

#[test]
fn a_drag_rewrites_the_sliders_and_says_the_timeline_is_now_the_learners() {
    let mut session = session("canonical", Lang::En);
    let readout = |session: &Session| match view::position(session, None, 640.0).finish {
        SliderView::Enabled { readout, value, .. } => (value, readout),
        other => panic!("not enabled: {other:?}"),
    };
    let (at, before) = readout(&session);
    check!(at, 1001, "the slider starts on A's late finish");
    check!(
        says(&before, key!("verdict.rejected"), &[]),
        true,
        "refused at 1001: {before}"
    );
    session.drag(Knob::Finish, 999).expect("moves");
    let (at, after) = readout(&session);
    check!(at, 999, "moved");
    check!(
        says(&after, key!("verdict.accepted"), &[]),
        true,
        "accepted at 999: {after}"
    );
    let scenario = view::scenario(&session);
    check!(
        scenario.chapter,
        "sandbox".to_owned(),
        "now the learner's own"
    );
    check!(
        scenario.editor_status.map(|s| s.kind),
        Some(StatusKind::Done),
        "a note, not an error"
    );
}

/// Apply on the editor's text as shown (reformatted or
/// not) changes nothing: the chapter stays the chapter, at the same place,
/// and the editor says nothing changed.
#[test]
fn applying_the_unchanged_timeline_keeps_the_chapter() {
    let mut session = session("canonical", Lang::En);
    session.stepper.step();
    let shown = view::scenario(&session).editor_text;
    session.apply_editor(&shown).expect("runs");
    check!(
        (session.stepper.chapter(), session.stepper.position()),
        ("canonical", 1),
        "still the chapter, at the same step"
    );
    check!(
        view::scenario(&session)
            .editor_status
            .map(|status| status.text),
        Some(Lang::En.text(key!("editor.unchanged")).to_owned()),
        "says nothing changed"
    );
}

#[test]
fn a_refused_edit_changes_nothing_and_says_where() {
    let mut session = session("canonical", Lang::Ko);
    let before = session.stepper.scenario().to_json();
    session
        .apply_editor(r#"{"jobs": [], "events": [{"at": 0}]}"#)
        .expect("runs");
    check!(
        session.stepper.scenario().to_json(),
        before,
        "nothing applied"
    );
    let status = view::scenario(&session).editor_status.expect("a status");
    let text = &status.text;
    check!(status.kind, StatusKind::Refused, "refused");
    check!(text.contains("events[0]"), true, "the place: {text}");
    let added = session.add_to_editor("{\"jobs\": [], \"events\": []}", "claim");
    check!(
        session.editor_status.as_ref().map(|s| s.kind),
        Some(StatusKind::Pending),
        "a template waits for Apply: a note, not a refusal"
    );
    check!(
        added.is_some_and(|text| text.contains("\"claim\"")),
        true,
        "a claim template"
    );
    check!(
        session.add_to_editor("not json", "job"),
        None,
        "broken text is left alone"
    );
}

#[test]
fn a_session_starts_from_the_link_then_the_options_then_the_browser() {
    let start = |hash: Option<&str>, lang: Option<&str>, browser: &str| {
        Session::start(&Start {
            lang: lang.map(str::to_owned),
            chapter: Some("late-delivery".into()),
            hash: hash.map(str::to_owned),
            browser_lang: Some(browser.into()),
            ..Start::default()
        })
        .expect("starts")
    };
    let plain = start(None, None, "ko-KR");
    check!(
        (plain.lang, plain.stepper.chapter()),
        (Lang::Ko, "late-delivery"),
        "options"
    );
    let linked = start(
        Some("#v=1&chapter=quarantine&lang=en&step=2&predict=0"),
        None,
        "ko-KR",
    );
    check!(
        (
            linked.lang,
            linked.stepper.chapter(),
            linked.stepper.position(),
            linked.stepper.predict()
        ),
        (Lang::En, "quarantine", 2, false),
        "the link wins"
    );
    // A chapter opens predicting: a link's step
    // then stops at the first question not answered yet.
    let predicting = start(Some("#v=1&chapter=quarantine&step=2"), None, "ko-KR");
    check!(
        (predicting.stepper.predict(), predicting.stepper.position()),
        (true, 0),
        "predicting: A's claim, event 0, is asked first"
    );
    check!(
        predicting.link(true).contains("predict="),
        false,
        "predicting is a chapter's default: the link says nothing of it"
    );
    check!(
        linked.link(true).contains("&lang=en&predict=0"),
        true,
        "just watching travels in the link"
    );
    let typo = Session::start(&Start {
        chapter: Some("canonicall".into()),
        ..Start::default()
    })
    .expect("starts");
    check!(
        typo.unknown_chapter.as_deref(),
        Some("canonicall"),
        "remembered, to warn"
    );
    check!(
        typo.stepper.chapter(),
        CHAPTERS[0].id,
        "the first chapter instead"
    );
    let broken = start(Some("#v=1&scenario=%%%"), Some("en"), "en");
    check!(
        broken.editor_status.map(|s| s.kind),
        Some(StatusKind::Refused),
        "a broken link says so"
    );
}

/// Predicting hides what would give the answers away, and only that long:
/// the narration and the sliders until the last question (here which condition
/// decided A's refusal) is answered (which finish the sliders move, and its
/// verdict, would tell); the event list's stamps (they would tell which
/// claims succeeded).
#[test]
fn predicting_hides_the_verdicts_until_the_last_answer() {
    let mut session = session("canonical", Lang::En);
    session.set_predict(true).expect("sets predicting");
    let narration = |session: &Session| view::position(session, None, 640.0).narration.to_string();
    let sliders = |session: &Session| {
        let view = view::position(session, None, 640.0);
        [view.finish, view.lease]
    };
    let waiting = SliderView::Disabled {
        why: Lang::En.text(key!("predict.sliders_hidden")).to_owned(),
    };
    let hidden = Lang::En.text(key!("predict.narration_hidden")).to_owned();
    let stamps: Vec<String> = view::scenario(&session)
        .events
        .iter()
        .map(|l| l.detail.to_string())
        .collect();
    check!(
        stamps,
        vec!["lease_ms=1000", "lease_ms=1000", ""],
        "no stamp before its claim is shown"
    );
    for answer in [true, true] {
        session.stepper.step();
        check!(narration(&session), hidden.clone(), "a question waits");
        check!(
            sliders(&session),
            [waiting.clone(), SliderView::Waiting {}],
            "the sliders wait, and say why once"
        );
        session.stepper.guess(answer);
    }
    session.stepper.step();
    session.stepper.guess(false);
    // A's finish was refused: a failed condition is the last question,
    // and the refusal's reason would answer it.
    check!(
        narration(&session),
        hidden.clone(),
        "the field question waits"
    );
    check!(
        sliders(&session),
        [waiting.clone(), SliderView::Waiting {}],
        "the sliders wait for the field too"
    );
    session.stepper.answer_field("token");
    check!(
        narration(&session),
        leasefence_course::playground::chapters::find("canonical")
            .expect("a chapter")
            .narration(Lang::En),
        "answered the last question: the chapter's story"
    );
    let [SliderView::Enabled { readout, .. }, _] = sliders(&session) else {
        panic!("the sliders are back");
    };
    check!(
        says(&readout, key!("verdict.rejected"), &[]),
        true,
        "revealed: {readout}"
    );
}

/// After a drag the narration tells the new verdicts, not the chapter's.
#[test]
fn a_drag_rewrites_the_narration_from_the_new_verdicts() {
    let mut session = session("canonical", Lang::En);
    session.drag(Knob::Finish, 999).expect("moves");
    let told = view::position(&session, None, 640.0).narration.to_string();
    check!(
        says(
            &told,
            key!("story.accepted"),
            &[("worker", "A"), ("at", "999")]
        ),
        true,
        "{told}"
    );
    // The whole narration is the one accepted finish: no refusal is left.
    let story = Lang::En.fill(
        key!("story.accepted"),
        &[("worker", "A".into()), ("at", "999".into())],
    );
    let title = Lang::En.text(key!("chapter.canonical.title")).to_owned();
    check!(
        told,
        Lang::En.fill(
            key!("chapter.forked"),
            &[("title", title), ("story", story)]
        ),
        "the old verdict is gone"
    );
    session.drag(Knob::Finish, 1000).expect("moves");
    let told = view::position(&session, None, 640.0).narration.to_string();
    check!(
        // The refusal's reason ends the sentence; its start names who and when.
        says(
            &told,
            key!("story.refused"),
            &[("worker", "A"), ("at", "1000"), ("reason", "")]
        ),
        true,
        "R5: at lease_until it has ended: {told}"
    );
}

/// The lease slider shows both sides of the trade: a longer lease saves a
/// slow finish, and a crashed worker's job waits that much longer.
#[test]
fn the_lease_slider_shows_what_a_longer_lease_costs() {
    let mut session = session("canonical", Lang::En);
    session.drag(Knob::Lease, 2000).expect("lengthens");
    let SliderView::Enabled { readout, cost, .. } = view::position(&session, None, 640.0).lease
    else {
        panic!("the lease slider is enabled");
    };
    check!(
        says(&readout, key!("verdict.accepted"), &[]),
        true,
        "saved: {readout}"
    );
    let cost = cost.expect("a cost is said");
    check!(
        says(
            &cost,
            key!("lease.cost"),
            &[
                ("worker", "A"),
                ("at", "0"),
                ("wait", "2000"),
                ("until", "2000")
            ]
        ),
        true,
        "the wait a crash would cost: {cost}"
    );
}

/// A lease too short for the finish has the other cost,
/// said as that: the live worker's finish comes too late (R5) and its work
/// is wasted. A crash's long wait is not what a 1 ms lease costs.
#[test]
fn a_lease_too_short_for_the_finish_costs_the_live_workers_work() {
    let mut session = session("canonical", Lang::En);
    for (lease, at_the_end) in [(1, true), (1001, true), (1002, false)] {
        session.drag(Knob::Lease, lease).expect("sets the lease");
        let SliderView::Enabled { cost, .. } = view::position(&session, None, 640.0).lease else {
            panic!("the lease slider is enabled");
        };
        let cost = cost.expect("a cost is said");
        let until = lease.to_string();
        check!(
            says(
                &cost,
                key!("lease.cost_short"),
                &[("worker", "A"), ("at", "1001"), ("until", until.as_str())]
            ),
            at_the_end,
            "R5: a lease of {lease} ms ends before or at A's finish at 1001 ms: {cost}"
        );
        check!(
            says(
                &cost,
                key!("lease.cost"),
                &[
                    ("worker", "A"),
                    ("at", "0"),
                    ("wait", until.as_str()),
                    ("until", until.as_str())
                ]
            ),
            !at_the_end,
            "a lease of {lease} ms outlasts the finish, so a crash's wait is its cost: {cost}"
        );
    }
}

/// A lease the deadline cut short (R9) has no lease cost to tell: the
/// deadline ends it whatever its length, and the job then expires, never
/// reclaimed; the readout says the lease was capped.
#[test]
fn a_lease_capped_at_the_deadline_tells_no_lease_cost() {
    let session = session("deadline-caps-lease", Lang::En);
    let SliderView::Enabled { cost, readout, .. } = view::position(&session, None, 640.0).lease
    else {
        panic!("the lease slider is enabled");
    };
    check!(
        cost,
        None,
        "no cost for a capped lease (readout: {readout})"
    );
}

/// At the end of a chapter the prompt offers the next one, and once its
/// questions are answered the chapter counts as finished (once); the
/// picker marks what the learner finished, also after a reload that
/// restores the saved ids.
#[test]
fn the_end_of_a_chapter_leads_to_the_next_and_is_remembered() {
    let mut session = session("canonical", Lang::En);
    check!(session.note_progress(), false, "not at the end yet");
    check!(
        view::position(&session, None, 640.0).prompt.next.is_none(),
        true,
        "no way on yet"
    );
    session.stepper.seek(session.stepper.total());
    let next = view::position(&session, None, 640.0)
        .prompt
        .next
        .expect("a next chapter");
    check!(next.id, CHAPTERS[1].id, "course order");
    check!(session.note_progress(), false, "watched, not answered");
    session.set_predict(true).expect("sets predicting");
    session.stepper.seek(0);
    while session.stepper.step() != Stepped::AtEnd {
        match session.stepper.question() {
            Some(Question::Field) => {
                session.stepper.answer_field("token");
            }
            Some(_) => {
                session.stepper.guess(true);
            }
            None => {}
        }
    }
    check!(session.note_progress(), true, "finished");
    check!(session.note_progress(), false, "only once");
    let label = |session: &Session| view::scenario(session).chapters[0].label.clone();
    check!(
        label(&session).starts_with('✓'),
        true,
        "marked: {}",
        label(&session)
    );
    let mut reloaded = self::session("quarantine", Lang::Ko);
    reloaded.restore_progress(["no-such-chapter", "quarantine", "canonical"]);
    check!(
        reloaded.progress().to_vec(),
        vec!["canonical", "quarantine"],
        "restored in course order, unknown ids left out"
    );
    check!(
        label(&reloaded).starts_with('✓'),
        true,
        "marked after a reload"
    );
    let last = CHAPTERS.last().expect("chapters").id;
    let mut end = self::session(last, Lang::En);
    end.stepper.seek(end.stepper.total());
    check!(
        view::position(&end, None, 640.0).prompt.next.is_none(),
        true,
        "the last chapter"
    );
}

/// On the lanes a learner stalls, crashes or restarts a worker from where
/// they stand; the past stays, the future is replayed by the same core.
#[test]
fn a_worker_can_be_stalled_crashed_or_restarted_from_here_on() {
    use leasefence_course::playground::twist::Twist;
    let outcome = |twist: Twist| {
        let mut session = session("canonical", Lang::En);
        session.stepper.seek(1);
        session.twist("A", twist).expect("replays");
        let stepper = &session.stepper;
        let events: Vec<String> = stepper
            .scenario()
            .events()
            .iter()
            .zip(&stepper.timeline().frames)
            .map(|(e, f)| format!("{} {} {}", e.at, e.worker, f.result.outcome.label()))
            .collect();
        (stepper.chapter().to_owned(), stepper.position(), events)
    };
    check!(
        outcome(Twist::Crash),
        (
            "sandbox".to_owned(),
            1,
            vec!["0 A claimed".to_owned(), "1000 B claimed".to_owned()]
        ),
        "A never finishes; its job was reclaimed anyway"
    );
    check!(
        outcome(Twist::Stall).2,
        vec!["0 A claimed", "1000 B claimed", "2001 A rejected"],
        "A comes back a second later, still refused"
    );
    check!(
        outcome(Twist::Restart).2,
        vec![
            "0 A claimed",
            "0 A-restarted empty",
            "1000 B claimed",
            "1001 A rejected"
        ],
        "the restarted run finds A's job still leased"
    );
}

/// An author's own scenario is a lesson beside the chapters, with their
/// title and narration; a broken one, or a chapter that does not exist, is
/// said to the learner in their language, and the first chapter is shown.
#[test]
fn an_authors_lesson_is_shown_with_its_title_and_a_broken_one_is_said() {
    use leasefence_course::playground::lesson::{LESSON, Source};
    let text = r#"{"jobs": [{"id": "tea-1", "qty": 1, "deadline": 9000}], "events": [
        {"at": 0, "worker": "Mina", "do": "claim", "lease_ms": 500},
        {"at": 700, "worker": "Mina", "do": "finish"}]}"#;
    let start = |scenario: Result<String, String>, lang: &str| {
        Session::start(&Start {
            lang: Some(lang.into()),
            lesson: Some(Source {
                scenario,
                title: Some("Tea for one".into()),
                narration_ko: Some("미나가 늦었습니다.".into()),
                narration_en: None,
            }),
            predict: Some(false),
            ..Start::default()
        })
        .expect("starts")
    };
    let lesson = start(Ok(text.into()), "en");
    check!(lesson.stepper.chapter(), LESSON, "the lesson is shown");
    let options = view::scenario(&lesson).chapters;
    check!(
        (options[0].id, options[0].label.as_str()),
        (LESSON, "Tea for one"),
        "first in the picker, by its title"
    );
    check!(
        view::position(&lesson, None, 640.0).narration.to_string(),
        "미나가 늦었습니다.".to_owned(),
        "no English narration: the Korean one rather than none"
    );
    let broken = start(Ok(r#"{"jobs": [], "events": [{"at": 0}]}"#.into()), "ko");
    check!(
        broken.stepper.chapter(),
        CHAPTERS[0].id,
        "the first chapter instead"
    );
    let notice = view::position(&broken, None, 640.0).notice.expect("said");
    check!(notice.contains("events[0]"), true, "where: {notice}");
    let unfetched = start(Err("lesson.json: HTTP 404".into()), "en");
    let notice = unfetched.notice.clone().expect("said");
    check!(notice.contains("lesson.json: HTTP 404"), true, "{notice}");
    let typo = Session::start(&Start {
        chapter: Some("canonicall".into()),
        ..Start::default()
    })
    .expect("starts");
    check!(
        typo.notice.is_some(),
        true,
        "an unknown chapter is said on the page too"
    );
}

/// While predicting, nothing on screen tells how a question ends: the same
/// events with another outcome (B's reclaim finds nothing when A's job had
/// one attempt) look the same until B's claim is answered.
#[test]
fn while_predicting_the_same_events_look_the_same_whatever_their_outcome() {
    let canonical = CHAPTERS[0].scenario();
    let mut variant: serde_json::Value = serde_json::from_str(canonical).expect("json");
    variant["jobs"][0]["max_attempts"] = serde_json::json!(1);
    let one_attempt = variant.to_string();
    assert_ne!(one_attempt, canonical, "the variant changes the job");
    let seen = |text: &str| {
        let scenario = leasefence::Scenario::parse(text).expect("parses");
        let mut session = Session::new(Lang::En, "sandbox", scenario).expect("replays");
        session.set_predict(true).expect("sets predicting");
        session.stepper.step();
        session.stepper.guess(true);
        session.stepper.step(); // the question: will B get a job?
        let mut position = serde_json::to_value(view::position(&session, None, 640.0)).unwrap();
        let mut scenario = serde_json::to_value(view::scenario(&session)).unwrap();
        // The tables show the job's max_attempts itself, and the editor its
        // JSON: the data the learner was given, not an outcome.
        position["table"] = serde_json::Value::Null;
        position["step"]["changes"] = serde_json::Value::Null;
        scenario["editor_text"] = serde_json::Value::Null;
        (position, scenario)
    };
    check!(
        seen(&one_attempt),
        seen(canonical),
        "nothing tells B's claim's outcome"
    );
}
