//! The lab's hint ladder: a level states a goal, and a learner who is
//! stuck asks for hints one at a time, each a question that points at
//! what the starting statement misses. None is shown before it is asked
//! for; asking keeps the statement the learner has typed.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::lab::LEVELS;
use leasefence_course::playground::view::lab;
use leasefence_course::playground::{CHAPTERS, Lang};

/// Every level has at least three hints, none shown until asked for, then
/// one more per ask, in a fixed order, until the button is gone; asking
/// again then changes nothing.
#[test]
fn each_level_gives_three_or_more_hints_one_ask_at_a_time() {
    for lang in [Lang::En, Lang::Ko] {
        for level in LEVELS {
            let mut session = support::session(CHAPTERS[0].id, lang);
            session.open_lab(level.id);
            let mut shown = lab(&session).expect("open").hints;
            check!(
                shown.len(),
                0,
                "{lang:?} {}: no hint before one is asked for",
                level.id
            );
            let mut asks = 0;
            while lab(&session).expect("open").more_hints.is_some() {
                session.next_hint(level.start.trim());
                asks += 1;
                let now = lab(&session).expect("open").hints;
                check!(
                    (now.len(), now.starts_with(&shown)),
                    (asks, true),
                    "{lang:?} {}: one more hint per ask, the earlier ones kept",
                    level.id
                );
                shown = now;
            }
            check!(asks >= 3, true, "{lang:?} {}: {asks} hints", level.id);
            session.next_hint(level.start.trim());
            check!(
                lab(&session).expect("open").hints,
                shown,
                "{lang:?} {}: asking past the last hint changes nothing",
                level.id
            );
        }
    }
}

/// A hint asks; it does not tell: each ends with a question mark (`?` in
/// both languages), and no two of a level's are the same.
#[test]
fn every_hint_is_a_question() {
    for lang in [Lang::En, Lang::Ko] {
        for level in LEVELS {
            let mut session = support::session(CHAPTERS[0].id, lang);
            session.open_lab(level.id);
            while lab(&session).expect("open").more_hints.is_some() {
                session.next_hint(level.start.trim());
            }
            let hints = lab(&session).expect("open").hints;
            for hint in &hints {
                check!(
                    hint.trim_end().ends_with('?'),
                    true,
                    "{lang:?} {}: {hint}",
                    level.id
                );
            }
            let mut distinct = hints.clone();
            distinct.dedup();
            check!(
                distinct.len(),
                hints.len(),
                "{lang:?} {}: hints repeat",
                level.id
            );
        }
    }
}

/// Asking for a hint keeps what the learner has typed, graded or not: the
/// box is drawn again with the hint, and must not fall back to its start.
#[test]
fn asking_for_a_hint_keeps_the_typed_statement() {
    let mut session = support::session(CHAPTERS[0].id, Lang::En);
    session.open_lab("finish");
    let typed = "UPDATE jobs SET state = 'done' WHERE id = :id AND owner = :owner";
    session.next_hint(typed);
    let shown = lab(&session).expect("open");
    check!(
        (
            shown.sql.as_str(),
            shown.hints.len(),
            shown.answer.is_none()
        ),
        (typed, 1, true),
        "the typed statement, one hint, nothing graded"
    );
}
