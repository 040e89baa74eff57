//! The course's quiz (its point #23): what a worker's
//! name, a job's id and a token each tell apart. It is asked where two
//! claims on one job stand side by side, and every word of its answer is
//! read from those two claims in the chapter's replay.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::Scenario;
use leasefence_course::playground::assertions::Assertion;
use leasefence_course::playground::quiz::Field;
use leasefence_course::playground::session::Session;
use leasefence_course::playground::view::{self, QuizView};
use leasefence_course::playground::{CHAPTERS, Lang};
use support::narration::replayed;

const CHAPTER: &str = "restart-same-name";

fn session(lang: Lang, position: usize) -> Session {
    let chapter = CHAPTERS.iter().find(|chapter| chapter.id == CHAPTER);
    let scenario = Scenario::parse(chapter.expect("the chapter").scenario()).expect("parses");
    let mut session = Session::new(lang, CHAPTER, scenario).expect("replays");
    session.stepper.seek(position);
    session
}

fn quiz(session: &Session) -> Option<QuizView> {
    view::position(session, None, 640.0).step?.point?.quiz
}

/// R8, R2: after A-restarted's claim under the name A, the two claims on
/// snack-1 share their owner and their job; the token and the attempt
/// differ (every claim raises both), so exactly those two are right, the
/// answer says so whichever was picked, and it says each value.
#[test]
fn r8_the_quiz_is_right_only_for_the_values_that_differ_between_the_two_claims() {
    let doc = replayed(CHAPTER);
    let claim = |index: usize| &doc["results"][index]["claim"];
    let (old, new) = (claim(0), claim(1));
    let mut session = session(Lang::En, 2);
    let asked = quiz(&session).expect("the quiz is asked after both claims");
    assert!(asked.feedback.is_empty(), "no answer yet: {asked:#?}");
    assert_eq!(
        asked.question.text(),
        format!(
            "A and A-restarted have each claimed {}. Which value tells their two claims apart?",
            old["id"].as_str().expect("an id")
        )
    );
    let telling = Assertion::Tells {
        position: 2,
        first: "A".to_owned(),
        second: "A-restarted".to_owned(),
        fields: vec![Field::Token, Field::Attempt],
    };
    for (picked, right) in [
        ("owner", false),
        ("id", false),
        ("token", true),
        ("attempt", true),
    ] {
        session.quiz.answer(&session.stepper, picked);
        let answered = quiz(&session).expect("the quiz");
        assert_eq!(answered.picked, Some(picked));
        let field = Field::parse(picked).expect("a choice");
        let verdict = Assertion::Picked {
            position: 2,
            picked: field,
            right,
        };
        assert_eq!(
            answered.feedback[0].asserts(),
            [&verdict, &telling],
            "{picked}: expected vs current"
        );
    }
    let values: Vec<String> = quiz(&session).expect("the quiz").feedback[1..5]
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        values,
        [
            format!("owner: {} for both", old["owner"].as_str().expect("owner")),
            format!("id: {} for both", old["id"].as_str().expect("id")),
            format!("token: {} and {}, different", old["token"], new["token"]),
            format!(
                "attempt: {} and {}, different",
                old["attempt"], new["attempt"]
            ),
        ],
        "every value side by side: expected vs current"
    );
}

/// The quiz is asked at its place of its chapter only: an answer given
/// elsewhere changes nothing, and a timeline the learner changed asks
/// none.
#[test]
fn the_quiz_is_asked_only_at_its_place() {
    for position in [0, 1, 3, 4] {
        let mut session = session(Lang::Ko, position);
        session.quiz.answer(&session.stepper, "token");
        assert_eq!(
            session.quiz.answer_in(&session.stepper),
            None,
            "at {position}"
        );
        assert!(quiz(&session).is_none(), "no quiz at {position}");
    }
    let mut session = session(Lang::Ko, 2);
    session.quiz.answer(&session.stepper, "token");
    let korean = quiz(&session).expect("the quiz in Korean");
    assert!(
        korean.feedback[0].to_string().contains("token, attempt"),
        "answered in Korean: {:?}",
        korean.feedback
    );
}
