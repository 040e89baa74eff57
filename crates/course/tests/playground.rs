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

use leasefence::Scenario;
use leasefence::fence::Condition;
use leasefence::model::JobState;
use leasefence_course::Timeline;
use leasefence_course::key;
use leasefence_course::playground::assertions::Assertion;
use leasefence_course::playground::explain::{describe, row_changes};
use leasefence_course::playground::{CHAPTERS, Lang};

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
            for (part, key) in [("title", chapter.title), ("text", chapter.text)] {
                let key_name = format!("chapter.{}.{part}", chapter.id);
                assert_ne!(lang.text(key), "⋯", "{} has no {key_name}", lang.tag());
            }
        }
        let scenario = Scenario::parse(chapter.scenario())
            .unwrap_or_else(|err| panic!("{}: {err}", chapter.id));
        Timeline::build(scenario).unwrap_or_else(|err| panic!("{}: {err}", chapter.id));
    }
}

/// R14 on the page: the canonical refusal states both tokens, in both
/// languages, and the row shows as unchanged.
#[test]
fn the_canonical_refusal_is_explained_with_both_tokens() {
    let timeline =
        Timeline::build(Scenario::parse(CHAPTERS[0].scenario()).expect("valid")).expect("replays");
    let late = &timeline.frames[2];
    let expected = vec![
        Assertion::Condition {
            event: 2,
            condition: Condition::Token,
            held: false,
            stamp: "1".to_owned(),
            row: "2".to_owned(),
            holder: None,
        },
        Assertion::Finish {
            event: 2,
            at: 1001,
            accepted: false,
        },
    ];
    for lang in [Lang::En, Lang::Ko] {
        let said = describe(lang, late);
        check!(
            said.asserts().into_iter().cloned().collect::<Vec<_>>(),
            expected.clone(),
            "{}",
            lang.tag()
        );
        for value in ["A", "1", "2"] {
            check!(
                said.text().contains(value),
                true,
                "{}: shows {value}",
                lang.tag()
            );
        }
    }
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
        describe(Lang::En, &canonical.frames[1])
            .asserts()
            .into_iter()
            .cloned()
            .collect::<Vec<_>>(),
        vec![Assertion::Claimed {
            event: 1,
            worker: "B".to_owned(),
            job: "snack-1".to_owned(),
            token: 2,
            attempt: 2,
            until: 2000,
        }],
        "B's reclaim"
    );
    let quarantine = CHAPTERS
        .iter()
        .find(|c| c.id == "quarantine")
        .expect("chapter");
    let timeline =
        Timeline::build(Scenario::parse(quarantine.scenario()).expect("valid")).expect("replays");
    check!(
        describe(Lang::En, &timeline.frames[2])
            .asserts()
            .into_iter()
            .cloned()
            .collect::<Vec<_>>(),
        vec![
            Assertion::Swept {
                event: 2,
                state: JobState::Quarantined,
                count: 1,
            },
            Assertion::FoundNothing { event: 2 },
        ],
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
        key!("step.rejected"),
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
    use leasefence_course::playground::chapters::fits_the_page;
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
    // The learner reads it in their language, with the same sizes.
    for lang in [Lang::En, Lang::Ko] {
        let said = refusal.text(lang);
        for number in ["2001", "20000", "2000000"] {
            check!(
                said.contains(number),
                true,
                "{} names {number}: {said}",
                lang.tag()
            );
        }
        check!(
            said.contains('{'),
            false,
            "{}: a placeholder left unfilled: {said}",
            lang.tag()
        );
    }
}

/// The JSON parser's complaints, said again from the message files: the
/// English templates give back the parser's exact words (so the shapes are
/// read right) but for its `u64`, which a learner writing JavaScript reads
/// as "a whole number", and the Korean ones leave no English keyword
/// behind.
#[test]
fn the_parsers_complaints_are_said_in_the_learners_language() {
    use leasefence::{Error, Problem};
    use leasefence_course::playground::parser_words::parser_words;
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
