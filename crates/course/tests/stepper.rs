//! The learner's place in a timeline (`playground::stepper`): predicting a
//! claim or a finish before it is shown, the boundary panel's sliders,
//! which move the finish a chapter is about or the lease it presents, and
//! how the finish they land on is told (its refusal, its conditions).
//! Rule numbers refer to `CONTRACT.md`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::Scenario;
use leasefence_course::playground::{CHAPTERS, Lang};

fn canonical_stepper() -> leasefence_course::playground::stepper::Stepper {
    let scenario = Scenario::parse(CHAPTERS[0].scenario()).expect("valid");
    leasefence_course::playground::stepper::Stepper::new("canonical", scenario, 0).expect("builds")
}

/// Predicting: a claim or a finish is not revealed until the learner
/// answers, and the answer is scored against what the queue did.
#[test]
fn a_prediction_is_asked_before_a_claim_or_a_finish_and_scored() {
    use leasefence_course::playground::stepper::{Guessed, Question, Stepped};
    let mut stepper = canonical_stepper();
    stepper.set_predict(true);
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
    check!(stepper.position(), 2, "not revealed yet");
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
        (stepper.position(), stepper.score()),
        (3, (1, 3)),
        "revealed and scored"
    );
    check!(
        (
            stepper.question() == Some(Question::Field),
            stepper.step() == Stepped::Waiting
        ),
        (true, true),
        "the refusal asks for a failed condition before anything moves"
    );
    stepper.answer_field("token");
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
    let verdict_at = |stepper: &mut leasefence_course::playground::stepper::Stepper, at| {
        stepper.move_finish(at).expect("moves");
        match &stepper
            .frame()
            .expect("stands after the finish")
            .result
            .outcome
        {
            Outcome::Finished(finish) => finish.reason(),
            other => panic!("expected the finish, got {other:?}"),
        }
    };
    check!(verdict_at(&mut stepper, 999), None, "R5: finish at 999 ms");
    check!(
        stepper.chapter(),
        "sandbox",
        "the moved timeline is the learner's"
    );
    check!(
        verdict_at(&mut stepper, 1000),
        Some(leasefence::Reason::TokenMismatch),
        "R5: at 1000 ms B has reclaimed"
    );
    stepper.back();
    check!(stepper.position(), 2, "back one step");
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
    let outcomes = |stepper: &leasefence_course::playground::stepper::Stepper| {
        stepper
            .timeline()
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
        (stepper.chapter(), stepper.position()),
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
        Outcome::Finished(finish) => finish.reason(),
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
    use leasefence_course::playground::explain::{error_text, problem_text};
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
        Problem::NotPlayedThrough {
            applied: 1,
            total: 3,
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
    use leasefence_course::playground::chapters::find;
    use leasefence_course::playground::stepper::Stepper;
    let stepper_for = |id: &str| {
        let chapter = find(id).expect("a chapter");
        Stepper::new(id, Scenario::parse(chapter.scenario()).expect("valid"), 0).expect("builds")
    };
    let boundary = |stepper: &Stepper| {
        stepper.boundary_event().map(|index| {
            let event = &stepper.scenario().events()[index];
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
    let ranges = canonical.ranges();
    check!(
        (ranges.finish_max, ranges.lease_max),
        (2500, 2002),
        "canonical: finish up to 500 ms past B's lease end, lease up to twice 1001 ms"
    );
    canonical.move_finish(999).expect("moves");
    canonical.set_lease(1900).expect("sets");
    check!(
        (canonical.chapter(), canonical.forked_from()),
        ("sandbox", Some("canonical")),
        "after two drags the timeline is the learner's, started from canonical"
    );
    check!(
        (canonical.ranges().finish_max, canonical.ranges().lease_max),
        (ranges.finish_max, ranges.lease_max),
        "the ranges after two drags"
    );
}

/// R14 for an accepted finish: the row shown is the one after it (`done`),
/// and no line is marked, since every condition held.
#[test]
fn an_accepted_finish_marks_no_condition_as_failed() {
    use leasefence::Outcome;
    use leasefence_course::playground::explain::side_by_side;
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
            ("deadline", "5000", false),
        ],
        "accepted at 999 ms: every condition of R4, the deadline's too"
    );
}

/// Which finish each chapter's sliders move, and which claim's lease: the
/// stale stamp the chapter is about, where there is one.
#[test]
fn every_chapter_puts_its_sliders_on_the_finish_it_is_about() {
    use leasefence_course::playground::stepper::Stepper;
    let current: Vec<(&str, Option<String>, Option<u64>)> = CHAPTERS
        .iter()
        .map(|chapter| {
            let scenario = Scenario::parse(chapter.scenario()).expect("valid");
            let stepper = Stepper::new(chapter.id, scenario, 0).expect("builds");
            let finish = stepper.boundary_event().map(|index| {
                let event = &stepper.scenario().events()[index];
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
        row("polling-cannot-steal", "A at 999", Some(1000)),
        // Old A's refused finish, not A-restarted's accepted one.
        row("restart-same-name", "A at 1001", Some(1000)),
        row("fencing-off-vs-on", "C at 3001", Some(1000)),
        row("expiry-boundary", "C at 1001", Some(1000)),
        row("write-lock", "A at 306", Some(1000)),
        // Nothing is refused on screen: A's finish in time, the last
        // finish made with a claim.
        row("every-ordering", "A at 500", Some(1000)),
        row("late-delivery", "A at 1300", Some(1000)),
        // Its lease is cut to the deadline (100 ms): the slider says so.
        row("deadline-caps-lease", "A at 100", Some(1000)),
        // C never claimed: no lease to change, and the slider says why.
        row("deadline-expired", "C at 800", None),
        row("quarantine", "B at 200", Some(100)),
    ];
    check!(
        current,
        expected,
        "each chapter's boundary finish and its lease"
    );
}
