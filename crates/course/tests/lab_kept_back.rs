//! While a level of the lab is open, the statement its learner writes is
//! on no panel: not in the step card's statements, not in the boundary's
//! readings, not in the statement panel. The answer would otherwise sit
//! beside the task. Each level's answer is named here by the part of it
//! that is the lesson (written by hand, not by the code that hides it),
//! and every SQL text a screen shows is searched for it.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::lab::LEVELS;
use leasefence_course::playground::session::Session;
use leasefence_course::playground::statements::{Move, Race};
use leasefence_course::playground::{CHAPTERS, Lang, view};

/// What gives each level's answer away, as the page would show it.
const ANSWERS: [(&str, &[&str]); 5] = [
    ("finish", &["token = :token", ":now < lease_until"]),
    ("boundary", &[":now < lease_until"]),
    // The claim's own reading of the lease's end; the quarantine sweep,
    // shown on every claim, reads it the same way (`lease_until <= :now`)
    // and stays: it is not the statement the learner writes.
    ("reclaim", &["(state = 'pending' OR lease_until <= :now)"]),
    ("claim", &["MIN(:now_plus_lease, deadline)"]),
    (
        "transaction",
        &["BEGIN IMMEDIATE", "MIN(:now_plus_lease, deadline)"],
    ),
];

/// Every SQL text on the screen: the step's statements, the boundary's
/// conditions, the statement panel's lines and the one it just ran.
fn shown_sql(session: &Session) -> Vec<String> {
    let mut shown = Vec::new();
    let drawn = view::position(session, None, 640.0);
    if let Some(step) = &drawn.step {
        shown.extend(
            step.statements
                .iter()
                .map(|statement| statement.sql.clone()),
        );
        let readings = step
            .point
            .as_ref()
            .and_then(|point| point.readings.as_ref());
        for reading in readings.into_iter().flat_map(|readings| &readings.readings) {
            shown.extend(
                reading
                    .conditions
                    .iter()
                    .map(|condition| condition.sql.clone()),
            );
        }
    }
    for side in view::statements(session)
        .iter()
        .flat_map(|panel| &panel.sides)
    {
        let lines = side.actors.iter().flat_map(|actor| &actor.lines);
        shown.extend(lines.map(|line| line.sql.clone()));
        shown.extend(side.now.as_ref().map(|now| now.sql.clone()));
    }
    shown
}

/// `sql` with its runs of white space made one space.
fn words(sql: &str) -> String {
    sql.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn while_a_level_is_open_its_answer_is_on_no_panel() {
    let mut seen = 0;
    for (level, answer) in ANSWERS {
        for chapter in CHAPTERS {
            let mut session = support::session(chapter.id, Lang::En);
            session.set_predict(false).expect("shows");
            assert!(session.open_lab(level), "{level} is a level");
            session.statements(Move::Open(true)).expect("opens");
            for race in Race::ALL {
                session.statements(Move::Race(race)).expect("runs");
                for place in 0..=session.stepper.total() {
                    session.stepper.seek(place);
                    session.follow_statements().expect("follows");
                    session.statements(Move::End).expect("ends");
                    for sql in shown_sql(&session) {
                        seen += 1;
                        let given = answer.iter().find(|part| words(&sql).contains(*part));
                        assert_eq!(
                            given, None,
                            "{level} open, {} at step {place}, race {race:?}: {sql:?} is on screen",
                            chapter.id
                        );
                    }
                }
            }
        }
    }
    assert!(seen > 1000, "only {seen} statements looked at");
}

#[test]
fn with_the_lab_closed_every_statement_is_shown() {
    let mut session = support::session(CHAPTERS[0].id, Lang::En);
    session.set_predict(false).expect("shows");
    session.stepper.seek(3);
    let before = shown_sql(&session);
    assert!(
        before
            .iter()
            .any(|sql| words(sql).contains("token = :token")),
        "the fenced finish is shown: {before:?}"
    );
    for level in LEVELS {
        session.open_lab(level.id);
        session.close_lab();
    }
    assert_eq!(
        shown_sql(&session),
        before,
        "closing the lab shows it again"
    );
}

/// The lab's own words give no answer away either: a level's goal and
/// every hint of its ladder say what the statement must do, never a
/// condition of the queue's own (read without `:` and in any case, as a
/// learner would copy it).
#[test]
fn a_levels_goal_and_hints_name_no_part_of_its_answer() {
    let plain = |text: &str| words(text).replace(':', "").to_lowercase();
    for lang in [Lang::En, Lang::Ko] {
        for (level, answer) in ANSWERS {
            let mut session = support::session(CHAPTERS[0].id, lang);
            assert!(session.open_lab(level), "{level} is a level");
            let lab = loop {
                let lab = view::lab(&session).expect("open");
                if lab.more_hints.is_none() {
                    break lab;
                }
                session.next_hint(&lab.sql);
            };
            for text in std::iter::once(&lab.goal).chain(&lab.hints) {
                let given = answer
                    .iter()
                    .find(|part| plain(text).contains(&plain(part)));
                assert_eq!(given, None, "{lang:?} {level}: {text:?} gives it away");
            }
        }
    }
}
