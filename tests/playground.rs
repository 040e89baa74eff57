//! The playground's model: both languages have every message, every
//! chapter replays, and a step is explained with the numbers that decided
//! it.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use std::collections::BTreeSet;

use leasefence::playground::explain::{describe, row_changes};
use leasefence::playground::{CHAPTERS, Lang};
use leasefence::{Scenario, Timeline};

fn source(lang: Lang) -> &'static str {
    support::message_file(lang)
}

fn keys(lang: Lang) -> BTreeSet<String> {
    let table: serde_json::Map<String, serde_json::Value> = serde_json::from_str(source(lang))
        .unwrap_or_else(|err| panic!("{} messages: {err}", lang.tag()));
    table.keys().cloned().collect()
}

#[test]
fn every_message_key_exists_in_korean_and_english() {
    let (en, ko) = (keys(Lang::En), keys(Lang::Ko));
    let only_en: Vec<_> = en.difference(&ko).collect();
    let only_ko: Vec<_> = ko.difference(&en).collect();
    check!(
        (only_en, only_ko),
        (Vec::<&String>::new(), Vec::<&String>::new()),
        "keys missing in ko (left) / en (right)"
    );
}

#[test]
fn every_chapter_has_a_title_and_a_narration_and_replays() {
    for chapter in CHAPTERS {
        for lang in [Lang::En, Lang::Ko] {
            for part in ["title", "text"] {
                let key = format!("chapter.{}.{part}", chapter.id);
                assert_ne!(lang.text(&key), key, "{} has no {key}", lang.tag());
            }
        }
        let scenario = Scenario::parse(chapter.scenario())
            .unwrap_or_else(|err| panic!("{}: {err}", chapter.id));
        Timeline::build(scenario).unwrap_or_else(|err| panic!("{}: {err}", chapter.id));
    }
}

/// R14 on the page: the canonical refusal names both tokens, in both
/// languages, and the row shows as unchanged.
#[test]
fn the_canonical_refusal_is_explained_with_both_tokens() {
    let timeline =
        Timeline::build(Scenario::parse(CHAPTERS[0].scenario()).expect("valid")).expect("replays");
    let late = &timeline.frames[2];
    check!(
        describe(Lang::En, late),
        "A's finish was refused: the row's token is 2, the stamp's is 1: the job was claimed again after this stamp was issued.".to_owned(),
        "English explanation"
    );
    check!(
        describe(Lang::Ko, late),
        "A의 완료 요청은 거절되었습니다. 현재 행의 token은 2인데 표식의 token은 1입니다. 이 표식을 받은 뒤 업무가 재선점되었습니다.".to_owned(),
        "Korean explanation"
    );
    let changes = row_changes(&timeline, 2);
    check!(changes.len(), 1, "the refused finish shows its row");
    check!(
        changes[0].changed_columns(),
        Vec::<&str>::new(),
        "R4: nothing changed"
    );
    let reclaim = row_changes(&timeline, 1);
    check!(
        reclaim[0].changed_columns(),
        vec!["owner", "token", "attempts", "lease_until"],
        "B's reclaim changed"
    );
}

/// A reclaim says so, and a claim that set aside dead jobs says that first.
#[test]
fn reclaims_and_set_aside_jobs_are_named() {
    let canonical =
        Timeline::build(Scenario::parse(CHAPTERS[0].scenario()).expect("valid")).expect("replays");
    check!(
        describe(Lang::En, &canonical.frames[1]),
        "B reclaimed snack-1 after the earlier lease ended: token 2, attempt 2, lease until 2000 ms.".to_owned(),
        "B's reclaim"
    );
    let quarantine = CHAPTERS
        .iter()
        .find(|c| c.id == "quarantine")
        .expect("chapter");
    let timeline =
        Timeline::build(Scenario::parse(quarantine.scenario()).expect("valid")).expect("replays");
    check!(
        describe(Lang::En, &timeline.frames[2]),
        "First, jobs whose last lease had ended with no attempts left were quarantined: 1. C found nothing claimable at 200 ms."
            .to_owned(),
        "C's claim after the attempts ran out"
    );
}

#[test]
fn a_language_is_chosen_from_its_tag() {
    let tag = |tag: &str| Lang::from_tag(tag).map(Lang::tag);
    check!(tag("ko-KR"), Some("ko"), "ko-KR");
    check!(tag("en_US"), Some("en"), "en_US");
    check!(tag("fr"), None, "fr");
}

/// The histories keep one version per change and re-read only what changed; this
/// checks them against a full read after every event, on every chapter and
/// on a long generated timeline with many expiries and reclaims.
#[test]
fn every_frame_holds_exactly_the_table_after_its_event() {
    let mut scenarios: Vec<Scenario> = CHAPTERS
        .iter()
        .map(|c| Scenario::parse(c.scenario()).expect("valid"))
        .collect();
    scenarios.push(Scenario::generated(600));
    for scenario in scenarios {
        let timeline = Timeline::build(scenario.clone()).expect("builds");
        let mut player = leasefence::Player::new(scenario).expect("starts");
        let table = |applied| -> Vec<leasefence::JobRow> {
            timeline.rows_after(applied).into_iter().cloned().collect()
        };
        check!(
            table(0),
            player.rows().expect("rows"),
            "the table before the first event"
        );
        for index in 0..timeline.frames.len() {
            player.step().expect("steps");
            check!(
                table(index + 1),
                player.rows().expect("rows"),
                "the table after event {index}"
            );
            check!(
                timeline.receiver_after(index + 1),
                player.receiver().expect("ledger"),
                "the receiver after event {index}"
            );
        }
    }
}

/// Values are inserted once: a worker named like a placeholder stays itself.
#[test]
fn a_worker_named_like_a_placeholder_is_shown_as_named() {
    let text = Lang::En.fill(
        "step.rejected",
        &[("worker", "{reason}".into()), ("reason", "late".into())],
    );
    check!(
        text,
        "{reason}'s finish was refused: late".to_owned(),
        "fill"
    );
}

/// The page refuses a scenario whose frames would exhaust the tab, naming
/// the sizes; every chapter and the 2,000-event budget scenario fit.
#[test]
fn the_page_refuses_scenarios_too_large_to_step_through() {
    use leasefence::playground::chapters::fits_the_page;
    for chapter in CHAPTERS {
        let scenario = Scenario::parse(chapter.scenario()).expect("valid");
        check!(
            fits_the_page(&scenario).map_err(|err| err.to_string()),
            Ok(()),
            "{} fits",
            chapter.id
        );
    }
    check!(
        fits_the_page(&Scenario::generated(2000)).map_err(|err| err.to_string()),
        Ok(()),
        "2,000 events fit"
    );
    let hostile = Scenario::generated(20_000);
    let refusal = fits_the_page(&hostile).expect_err("2,001 jobs × 20,000 events is refused");
    check!(
        refusal.to_string(),
        "scenario: (document): 2001 jobs × 20000 events is too large for the playground (at most 2000000); replay it with `leasefence replay`",
        "the refusal names the sizes"
    );
}

fn canonical_stepper() -> leasefence::playground::stepper::Stepper {
    let scenario = Scenario::parse(CHAPTERS[0].scenario()).expect("valid");
    leasefence::playground::stepper::Stepper::new("canonical", scenario, 0).expect("builds")
}

/// Predicting: a claim or a finish is not revealed until the learner
/// answers, and the answer is scored against what the queue did.
#[test]
fn a_prediction_is_asked_before_a_claim_or_a_finish_and_scored() {
    use leasefence::playground::stepper::{Guessed, Question, Stepped};
    let mut stepper = canonical_stepper();
    stepper.predict = true;
    check!(
        stepper.step() == Stepped::AskFirst,
        true,
        "A's claim asks first"
    );
    check!(
        stepper.question() == Some(Question::Claim),
        true,
        "about a claim"
    );
    check!(
        stepper.guess(true).map(|g| g.right),
        Some(true),
        "A gets the job"
    );
    check!(
        stepper.step() == Stepped::AskFirst,
        true,
        "B's reclaim asks first"
    );
    check!(
        stepper.guess(false).map(|g| g.right),
        Some(false),
        "B does get it, at 1000 ms"
    );
    check!(
        stepper.step() == Stepped::AskFirst,
        true,
        "A's finish asks first"
    );
    check!(
        stepper.step() == Stepped::Waiting,
        true,
        "stepping again waits for the answer"
    );
    check!(stepper.position, 2, "not revealed yet");
    let guessed = stepper.guess(true).expect("a question was open");
    check!(
        guessed
            == Guessed {
                question: Question::Finish,
                happened: false,
                right: false
            },
        true,
        "guessed accepted; it was rejected"
    );
    check!(
        (stepper.position, stepper.score),
        (3, (1, 3)),
        "revealed and scored"
    );
    check!(
        stepper.step() == Stepped::AtEnd,
        true,
        "nothing after the end"
    );
}

/// Dragging A's finish across lease_until flips its verdict exactly there,
/// and the moved timeline becomes the learner's own.
#[test]
fn moving_the_finish_flips_the_verdict_at_lease_until() {
    use leasefence::Outcome;
    let mut stepper = canonical_stepper();
    let verdict_at = |stepper: &mut leasefence::playground::stepper::Stepper, at| {
        stepper.move_finish(at).expect("moves");
        match &stepper
            .frame()
            .expect("stands after the finish")
            .result
            .outcome
        {
            Outcome::Finished(finish) => finish.reason,
            other => panic!("expected the finish, got {other:?}"),
        }
    };
    check!(verdict_at(&mut stepper, 999), None, "R5: finish at 999 ms");
    check!(
        stepper.chapter.as_str(),
        "sandbox",
        "the moved timeline is the learner's"
    );
    check!(
        verdict_at(&mut stepper, 1000),
        Some(leasefence::Reason::TokenMismatch),
        "R5: at 1000 ms B has reclaimed"
    );
    stepper.back();
    check!(stepper.position, 2, "back one step");
}

/// R5 and R3 from the lease's side: A's late finish at 1001 ms is saved by
/// a lease that lasts past it, and then B's reclaim at 1000 ms finds
/// nothing (R2). The course's point: a longer lease only moves the
/// boundary, it does not remove it.
#[test]
fn lengthening_the_lease_saves_the_late_finish_and_empties_the_reclaim() {
    use leasefence::Outcome;
    let mut stepper = canonical_stepper();
    check!(
        stepper
            .lease()
            .map(|lease| (lease.event, lease.lease_ms, lease.lease_until)),
        Some((0, 1000, 1000)),
        "A's claim is event 0"
    );
    let outcomes = |stepper: &leasefence::playground::stepper::Stepper| {
        stepper
            .timeline
            .frames
            .iter()
            .map(|frame| frame.result.outcome.label())
            .collect::<Vec<_>>()
    };
    stepper.set_lease(1002).expect("sets the lease");
    check!(
        outcomes(&stepper),
        vec!["claimed", "empty", "accepted"],
        "lease_until 1002: B finds nothing, A's finish at 1001 is accepted"
    );
    check!(
        (stepper.chapter.as_str(), stepper.position),
        ("sandbox", 3),
        "the learner's own timeline, standing after the finish"
    );
    stepper.set_lease(1001).expect("sets the lease");
    check!(
        outcomes(&stepper),
        vec!["claimed", "empty", "rejected"],
        "lease_until 1001: at 1001 ms the lease has ended (R5), though nobody reclaimed"
    );
    let rejected = match &stepper.frame().expect("after the finish").result.outcome {
        Outcome::Finished(finish) => finish.reason,
        other => panic!("expected the finish, got {other:?}"),
    };
    check!(
        rejected,
        Some(leasefence::Reason::LeaseExpired),
        "refused for the lease, not the token"
    );
    let refused = stepper.set_lease(0).expect_err("a lease of 0 ms");
    check!(
        refused.to_string(),
        "lease_ms: must be an integer >= 1, got 0",
        "a lease must last"
    );
}

/// A Korean learner reads refusals in Korean: every problem the core can
/// name has a message in both languages, and a scenario's refusal keeps its
/// place (`events[1].at`) and its numbers.
#[test]
fn refusals_are_told_in_the_learners_language() {
    use leasefence::Problem;
    use leasefence::playground::explain::{error_text, problem_text};
    let every_problem = [
        Problem::TooSmall { min: 1, got: 0 },
        Problem::TooLarge {
            got: 1 << 60,
            max: leasefence::MAX_INT,
        },
        Problem::Empty,
        Problem::TooLong { len: 300, max: 200 },
        Problem::ControlCharacters,
        Problem::TimeGoesBack { at: 5, previous: 9 },
        Problem::JobListedTwice { id: "j".into() },
        Problem::JobAlreadyInScenario { id: "j".into() },
        Problem::LeaseMissing,
        Problem::LeaseNotTaken,
        Problem::JobMissing,
        Problem::JobNotTaken,
        Problem::TooMany {
            what: "events",
            max: 100_000,
        },
        Problem::TooLargeForThePage {
            jobs: 2001,
            events: 20_000,
            max: 2_000_000,
        },
        Problem::NotPlayedThrough {
            applied: 1,
            total: 3,
        },
        Problem::TotalTooLarge {
            max: leasefence::MAX_INT,
        },
        Problem::Syntax("expected value at line 1 column 1".into()),
        Problem::Unfit("missing field `at` at line 1 column 9".into()),
    ];
    for problem in &every_problem {
        let (en, ko) = (
            problem_text(Lang::En, problem),
            problem_text(Lang::Ko, problem),
        );
        assert!(
            !en.starts_with("problem.") && !ko.starts_with("problem.") && en != ko,
            "{problem:?}: en {en:?}, ko {ko:?}"
        );
        assert!(
            !en.contains('{') && !ko.contains('{'),
            "{problem:?}: a placeholder left unfilled: en {en:?}, ko {ko:?}"
        );
        // The page's English is the command line's, except that a syntax
        // error gets a frame ("not JSON: ...").
        if !matches!(problem, Problem::Syntax(_)) {
            check!(en, problem.to_string(), "{problem:?} in the page's English");
        }
    }
    let back_in_time = r#"{"events": [
        {"at": 10, "worker": "A", "do": "claim", "lease_ms": 1000},
        {"at": 5, "worker": "B", "do": "claim", "lease_ms": 1000}]}"#;
    let refused = Scenario::parse(back_in_time).expect_err("time goes back");
    check!(
        (
            error_text(Lang::Ko, &refused),
            error_text(Lang::En, &refused)
        ),
        (
            "events[1].at: 5는 앞 이벤트의 시각 10보다 이릅니다. 시간은 거꾸로 갈 수 없습니다"
                .to_owned(),
            "events[1].at: 5 is earlier than the event before it (10); times must not go back"
                .to_owned()
        ),
        "the refusal in Korean and in English"
    );
    let not_json = Scenario::parse("{").expect_err("not JSON");
    assert!(
        error_text(Lang::Ko, &not_json).starts_with("(문서 전체): JSON 문법 오류: "),
        "{}",
        error_text(Lang::Ko, &not_json)
    );
}

/// The sliders work on the finish the lesson is about (a stale stamp's,
/// not the last one), and their ranges hold still while the learner drags.
#[test]
fn the_boundary_finish_is_the_lessons_and_its_ranges_hold_still() {
    use leasefence::playground::chapters::find;
    use leasefence::playground::stepper::Stepper;
    let stepper_for = |id: &str| {
        let chapter = find(id).expect("a chapter");
        Stepper::new(id, Scenario::parse(chapter.scenario()).expect("valid"), 0).expect("builds")
    };
    let boundary = |stepper: &Stepper| {
        stepper.boundary_event.map(|index| {
            let event = &stepper.scenario.events[index];
            (index, event.worker.clone(), event.at)
        })
    };
    check!(
        boundary(&stepper_for("expiry-boundary")),
        Some((5, "C".to_owned(), 1001)),
        "C's finish after its lease, not B's accepted one at 1999"
    );
    let restart = stepper_for("restart-same-name");
    check!(
        boundary(&restart).map(|(_, worker, _)| worker),
        Some("A".to_owned()),
        "old A's refused finish, not A-restarted's accepted one"
    );
    let mut canonical = stepper_for("canonical");
    let ranges = canonical.ranges;
    check!(
        (ranges.finish_max, ranges.lease_max),
        (2500, 2002),
        "canonical: finish up to 500 ms past B's lease end, lease up to twice 1001 ms"
    );
    canonical.move_finish(999).expect("moves");
    canonical.set_lease(1900).expect("sets");
    check!(
        (canonical.chapter.as_str(), canonical.forked_from.as_deref()),
        ("sandbox", Some("canonical")),
        "after two drags the timeline is the learner's, started from canonical"
    );
    check!(
        (canonical.ranges.finish_max, canonical.ranges.lease_max),
        (ranges.finish_max, ranges.lease_max),
        "the ranges after two drags"
    );
}

/// R14 for an accepted finish: the row shown is the one after it (`done`),
/// and no line is marked, since every condition held.
#[test]
fn an_accepted_finish_marks_no_condition_as_failed() {
    use leasefence::Outcome;
    use leasefence::playground::explain::side_by_side;
    let mut stepper = canonical_stepper();
    stepper.move_finish(999).expect("moves");
    let frame = stepper.frame().expect("after the finish");
    let Outcome::Finished(finish) = &frame.result.outcome else {
        panic!("expected the finish, got {:?}", frame.result.outcome);
    };
    let lines = side_by_side(finish, frame.result.at);
    check!(
        lines
            .iter()
            .map(|line| (line.field, line.current.as_str(), line.differs))
            .collect::<Vec<_>>(),
        vec![
            ("id", "snack-1", false),
            ("owner", "A", false),
            ("token", "1", false),
            ("attempt", "1", false),
            ("state", "done", false),
            ("lease_until", "1000", false),
        ],
        "accepted at 999 ms"
    );
}

/// Which finish each chapter's sliders move, and which claim's lease: the
/// stale stamp the chapter is about, where there is one.
#[test]
fn every_chapter_puts_its_sliders_on_the_finish_it_is_about() {
    use leasefence::playground::stepper::Stepper;
    let current: Vec<(&str, Option<String>, Option<u64>)> = CHAPTERS
        .iter()
        .map(|chapter| {
            let scenario = Scenario::parse(chapter.scenario()).expect("valid");
            let stepper = Stepper::new(chapter.id, scenario, 0).expect("builds");
            let finish = stepper.boundary_event.map(|index| {
                let event = &stepper.scenario.events[index];
                format!("{} at {}", event.worker, event.at)
            });
            (
                chapter.id,
                finish,
                stepper.lease().map(|lease| lease.lease_ms),
            )
        })
        .collect();
    let row = |id, finish: &str, lease| (id, Some(finish.to_owned()), lease);
    let expected = vec![
        row("canonical", "A at 1001", Some(1000)),
        row("expiry-boundary", "C at 1001", Some(1000)),
        // Its lease is cut to the deadline (100 ms): the slider says so.
        row("deadline-caps-lease", "A at 100", Some(1000)),
        row("quarantine", "B at 200", Some(100)),
        row("polling-cannot-steal", "A at 999", Some(1000)),
        // Old A's refused finish, not A-restarted's accepted one.
        row("restart-same-name", "A at 1001", Some(1000)),
        row("late-delivery", "A at 1300", Some(1000)),
        // C never claimed: no lease to change, and the slider says why.
        row("deadline-expired", "C at 800", None),
        row("fencing-off-vs-on", "C at 3001", Some(1000)),
    ];
    check!(
        current,
        expected,
        "each chapter's boundary finish and its lease"
    );
}

/// The JSON parser's complaints, said again from the message files: the
/// English templates give back the parser's exact words (so the shapes are
/// read right) but for its `u64`, which a learner writing JavaScript reads
/// as "a whole number", and the Korean ones leave no English keyword
/// behind.
#[test]
fn the_parsers_complaints_are_said_in_the_learners_language() {
    use leasefence::playground::parser_words::parser_words;
    use leasefence::{Error, Problem};
    let documents = [
        r#"{"events":[{"at":0,"worker":"A","do":"claimm"}]}"#,
        r#"{"events":[{"at":"1000","worker":"A","do":"finish"}]}"#,
        r#"{"events":[{"at":-5,"worker":"A","do":"finish"}]}"#,
        r#"{"events":[{"at":1.5,"worker":"A","do":"finish"}]}"#,
        r#"{"events":[{"at":0,"worker":true,"do":"finish"}]}"#,
        r#"{"events":[{"at":0,"worker":"A","do":"finish","colour":1}]}"#,
        r#"{"events":[{"at":0,"do":"finish"}]}"#,
        r#"{"events":[{"at":0,"at":1,"worker":"A","do":"finish"}]}"#,
        r#"{"jobs":{},"events":[]}"#,
        r#"{"events":[],}"#,
        r#"{"events":[]} x"#,
        r#"{"events":[{"at":0 "worker":"A"}]}"#,
        r#"{"events":[}"#,
        r#"{"events" []}"#,
        r#"{events: []}"#,
        r#"{"events":[{"at":01}]}"#,
        "{",
    ];
    for document in documents {
        let message = match Scenario::parse(document) {
            Err(Error::Scenario {
                problem: Problem::Syntax(message) | Problem::Unfit(message),
                ..
            }) => message,
            other => panic!("{document}: expected a parser error, got {other:?}"),
        };
        check!(
            parser_words(Lang::En, &message),
            message.replace("expected u64", "expected a whole number"),
            "the English templates give back the parser's words for {document}"
        );
        let korean = parser_words(Lang::Ko, &message);
        for english in [
            "expected", "invalid", "field", "line", "EOF", "trailing", "string", "integer",
        ] {
            assert!(
                !korean.contains(english),
                "{document}: {message:?} became {korean:?}, still saying {english:?}"
            );
        }
    }
    check!(
        parser_words(
            Lang::Ko,
            r#"invalid type: string "1000", expected u64 at line 1 column 23"#
        ),
        r#"값의 종류가 다릅니다. 음수가 아닌 정수가 와야 하는데 문자열 "1000"이 왔습니다 (1행 23열)"#
            .to_owned(),
        "a string where a time goes"
    );
}
