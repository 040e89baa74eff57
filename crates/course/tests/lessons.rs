//! An author's lesson document: a scenario
//! document that may also carry its `title` and `narration`, in one or
//! both languages. A lesson file, `check`, a link and so an iframe's
//! address all read the same document; a mistake in it is placed by key,
//! line and column, as in a scenario.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::playground::lesson::{self, LESSON, Lesson, Source};
use leasefence_course::playground::session::{Session, Start};
use leasefence_course::playground::{Lang, view};

/// The course's late worker, as an author would write their own lesson.
const LESSON_DOCUMENT: &str = r#"{
  "title": {"ko": "늦게 돌아온 미나", "en": "Mina is late"},
  "narration": {"ko": "미나의 완료 요청은 임대가 만료된 뒤에 도착합니다.", "en": "Mina's finish arrives after her lease ends."},
  "jobs": [{"id": "tea-1", "qty": 1, "deadline": 9000}],
  "events": [
    {"at": 0, "worker": "Mina", "do": "claim", "lease_ms": 500},
    {"at": 700, "worker": "Mina", "do": "finish"}
  ]
}"#;

fn read(text: &str) -> Result<Lesson, String> {
    let source = Source {
        scenario: Ok(text.to_owned()),
        ..Source::default()
    };
    Lesson::read(&source).map_err(|refused| refused.to_string())
}

fn started(lesson: Option<Source>, hash: Option<String>, lang: &str) -> Session {
    Session::start(&Start {
        lang: Some(lang.into()),
        lesson,
        hash,
        ..Start::default()
    })
    .expect("starts")
}

#[test]
fn a_lesson_file_carries_its_title_and_narration_in_both_languages() {
    let lesson = read(LESSON_DOCUMENT).expect("the document reads");
    check!(
        lesson.title(Lang::Ko),
        "늦게 돌아온 미나".to_owned(),
        "Korean title"
    );
    check!(
        lesson.title(Lang::En),
        "Mina is late".to_owned(),
        "English title"
    );
    check!(
        lesson.narration(Lang::En),
        Some("Mina's finish arrives after her lease ends."),
        "English narration"
    );
    check!(
        lesson.scenario.events().len(),
        2,
        "the timeline is read whole"
    );
    let one_text = read(r#"{"title": "Tea", "events": []}"#).expect("reads");
    check!(
        (one_text.title(Lang::Ko), one_text.title(Lang::En)),
        ("Tea".to_owned(), "Tea".to_owned()),
        "one text is both languages' title"
    );
    let untitled = read(r#"{"events": []}"#).expect("a plain scenario is a lesson too");
    check!(untitled.has_words(), false, "no title, no narration");
}

#[test]
fn the_elements_own_title_and_narration_come_before_the_files() {
    let source = Source {
        scenario: Ok(LESSON_DOCUMENT.to_owned()),
        title: Some("From the attribute".into()),
        narration_ko: None,
        narration_en: Some("From the attribute too.".into()),
    };
    let lesson = Lesson::read(&source).expect("reads");
    check!(
        lesson.title(Lang::Ko),
        "From the attribute".to_owned(),
        "title"
    );
    check!(
        (lesson.narration(Lang::Ko), lesson.narration(Lang::En)),
        (
            Some("미나의 완료 요청은 임대가 만료된 뒤에 도착합니다."),
            Some("From the attribute too.")
        ),
        "each language from the element, else from the file"
    );
}

/// A mistake in a lesson's own keys, or in its scenario, is placed as a
/// scenario's is: by key, line and column.
#[test]
fn a_mistake_in_a_lesson_names_the_key_line_and_column() {
    let cases = [
        (
            "{\n  \"titel\": \"Tea\",\n  \"events\": []\n}",
            ["titel", "line 2"],
        ),
        (
            "{\n  \"title\": {\"kr\": \"차\"},\n  \"events\": []\n}",
            ["kr", "line 2"],
        ),
        (
            "{\n  \"narration\": 7,\n  \"events\": []\n}",
            ["narration", "line 2"],
        ),
        (
            "{\"title\": \"Tea\",\n \"events\": [{\"at\": 0, \"worker\": \"A\", \"do\": \"claim\", \"lease\": 10}]}",
            ["lease", "line 2"],
        ),
    ];
    for (text, [key, line]) in cases {
        let said = read(text).expect_err("refused");
        check!(
            said.contains(key) && said.contains(line),
            true,
            "{text:?} is refused naming {key:?} at {line:?}: {said}"
        );
    }
}

#[test]
fn check_reports_what_the_lesson_carries() {
    let answer = lesson::check(LESSON_DOCUMENT);
    check!(
        answer,
        serde_json::json!({
            "ok": true, "jobs": 1, "events": 2,
            "title": {"ko": "늦게 돌아온 미나", "en": "Mina is late"},
            "narration": {
                "ko": "미나의 완료 요청은 임대가 만료된 뒤에 도착합니다.",
                "en": "Mina's finish arrives after her lease ends."
            }
        }),
        "the answer"
    );
}

/// An iframe's address carries a lesson whole: it opens as the lesson,
/// under its title, with its narration, predicting; its copied link
/// carries the title and narration again.
#[test]
fn a_link_carries_a_lesson_with_its_title_and_narration() {
    let written = started(
        Some(Source {
            scenario: Ok(LESSON_DOCUMENT.to_owned()),
            ..Source::default()
        }),
        None,
        "ko",
    );
    let link = written.link(false);
    let opened = started(None, Some(format!("#{link}")), "ko");
    check!(opened.stepper.chapter(), LESSON, "opened as the lesson");
    check!(opened.stepper.predict(), true, "a lesson opens predicting");
    let chapters = view::scenario(&opened).chapters;
    check!(
        (chapters[0].id, chapters[0].label.as_str()),
        (LESSON, "늦게 돌아온 미나"),
        "first in the picker, under its title"
    );
    check!(opened.link(false), link, "its own link carries it again");
    let mut opened = opened;
    opened.set_predict(false).expect("just show it");
    let narration = view::position(&opened, None, 640.0).narration.to_string();
    check!(
        narration.contains("미나의 완료 요청은 임대가 만료된 뒤에 도착합니다."),
        true,
        "the lesson's narration is told: {narration}"
    );
}

/// A lesson without a title or a narration comes back from its link as a
/// shared timeline, which opens showing: its link says `predict=1` for a
/// learner who was predicting, so the choice travels.
#[test]
fn a_wordless_lessons_link_keeps_the_learners_predicting() {
    let plain = r#"{"events": [{"at": 0, "worker": "A", "do": "claim", "lease_ms": 10}]}"#;
    let written = started(
        Some(Source {
            scenario: Ok(plain.to_owned()),
            ..Source::default()
        }),
        None,
        "en",
    );
    check!(
        written.stepper.predict(),
        true,
        "the lesson opens predicting"
    );
    let opened = started(None, Some(format!("#{}", written.link(false))), "en");
    check!(
        opened.stepper.predict(),
        true,
        "its link opens predicting too"
    );
}

/// An author's narration sets up the questions the learner answers, so a
/// predicting learner reads it first; a chapter's own narration tells how
/// its events end and waits for the last answer.
#[test]
fn an_authors_narration_is_shown_before_the_questions_it_asks() {
    let source = Source {
        scenario: Ok(LESSON_DOCUMENT.to_owned()),
        ..Source::default()
    };
    for (lang, told) in [
        ("en", "Mina's finish arrives after her lease ends."),
        ("ko", "미나의 완료 요청은 임대가 만료된 뒤에 도착합니다."),
    ] {
        let mut session = started(Some(source.clone()), None, lang);
        check!(
            session.stepper.predict(),
            true,
            "{lang}: the lesson opens predicting"
        );
        let narration =
            |session: &Session| view::position(session, None, 640.0).narration.to_string();
        check!(
            narration(&session),
            told.to_owned(),
            "{lang}: before the first step"
        );
        session.stepper.step();
        check!(
            session.stepper.question().is_some(),
            true,
            "{lang}: a question is asked"
        );
        check!(
            narration(&session),
            told.to_owned(),
            "{lang}: while a question waits"
        );
    }
}
