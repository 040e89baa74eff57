//! Every sentence a checked claim: every screen a learner can reach, and
//! every assertion its sentences make, checked against the world of that
//! screen, replayed afresh from the scenario on it (R14: a failure prints
//! the assertion, what the world holds instead, and the screen's words).
//!
//! The screens: every chapter at every step, in both languages, showing
//! and predicting (each prediction answered both ways, each refusal's
//! condition question answered with every condition, the quiz with every
//! choice), with the comparison closed and open on each naive finish; the
//! screens after the sliders move and after each twist; and the same
//! walk over generated scenarios.
//!
//! Native only: the walk replays thousands of screens; the browser runs
//! the same view code (`tests/view.rs`, `tests/learner.rs` there).

#![cfg(not(target_arch = "wasm32"))]

mod support;

use leasefence::Scenario;
use leasefence::fence::Condition;
use leasefence::store::Replaces;
use leasefence_course::lab::{LEVELS, Writes};
use leasefence_course::mechanism::races;
use leasefence_course::playground::assertions::{Assertion, Said};
use leasefence_course::playground::chapter_scenarios;
use leasefence_course::playground::lesson::{LESSON, Source};
use leasefence_course::playground::quiz::Field;
use leasefence_course::playground::session::{Knob, Session, Start};
use leasefence_course::playground::statements::{Move, Race};
use leasefence_course::playground::stepper::Question;
use leasefence_course::playground::twist::Twist;
use leasefence_course::playground::view::{self, PositionView, Shape, SliderView};
use leasefence_course::playground::{CHAPTERS, Lang};
use leasefence_course::variants::Guard;
use proptest::prelude::*;
use support::random::small_scenario;
use support::world::World;

/// Every sentence on the screen made from assertions.
fn said(view: &PositionView) -> Vec<&Said> {
    let mut all = vec![&view.position_text, &view.narration];
    all.extend(&view.announcement);
    if let Some(asked) = &view.prompt.question {
        all.push(&asked.text);
    }
    all.extend(&view.prompt.feedback);
    all.extend(view.marks.iter().map(|mark| &mark.text));
    all.push(&view.lanes.summary);
    all.extend(view.lanes.shapes.iter().filter_map(|shape| match shape {
        Shape::Text { text, .. } => Some(text),
        _ => None,
    }));
    all.extend(view.lanes.cards.iter().map(|card| &card.said));
    if let Some(compare) = &view.compare {
        all.push(&compare.note);
        all.extend(
            compare
                .rows
                .iter()
                .flat_map(|row| [&row.fenced, &row.naive]),
        );
        all.extend(compare.breaks.iter().map(|link| &link.said));
    }
    if let Some(panel) = &view.invariants {
        all.push(&panel.note);
        all.push(&panel.orderings.summary);
        let lights = panel.rows.iter().flat_map(|row| &row.lights);
        all.extend(lights.map(|light| &light.text));
    }
    let opened = view
        .invariants
        .as_ref()
        .map(|panel| &panel.orderings.opened);
    all.extend(opened.into_iter().flatten());
    let counted = view
        .invariants
        .as_ref()
        .and_then(|panel| panel.orderings.table.as_ref());
    if let Some(table) = counted {
        all.extend(&table.columns);
        all.push(&table.note);
        all.extend(table.breaks.iter().map(|link| &link.said));
    }
    for slider in [&view.finish, &view.lease] {
        if let SliderView::Enabled { readout, cost, .. } = slider {
            all.push(readout);
            all.extend(cost);
        }
    }
    if let Some(step) = &view.step {
        all.extend(step.summary.as_ref().map(|summary| &summary.text));
        all.extend(step.verdict.as_ref().map(|verdict| &verdict.words));
        all.extend(&step.fence_notes);
        all.extend(step.cards.iter().map(|card| &card.said));
    }
    let point = view.step.as_ref().and_then(|step| step.point.as_ref());
    if let Some(quiz) = point.and_then(|point| point.quiz.as_ref()) {
        all.push(&quiz.question);
        all.extend(&quiz.feedback);
    }
    if let Some(readings) = point.and_then(|point| point.readings.as_ref()) {
        for reading in &readings.readings {
            all.extend(&reading.did);
            all.push(&reading.said);
        }
    }
    if let Some(designs) = point.and_then(|point| point.designs.as_ref()) {
        for design in &designs.runs {
            all.extend(&design.took);
            all.extend([&design.row, &design.said]);
        }
    }
    all
}

std::thread_local! {
    /// The kinds of assertion the walk met, by name: a kind no screen
    /// shows is a kind nothing checks.
    static KINDS: std::cell::RefCell<std::collections::BTreeSet<String>> =
        std::cell::RefCell::default();
}

/// An assertion's kind, its variant's name (a reason's with its own:
/// `Because/Held`).
fn kind(assertion: &Assertion) -> String {
    if let Assertion::Because { reason, .. } = assertion {
        return format!("Because/{}", kind(reason));
    }
    let debug = format!("{assertion:?}");
    let end = debug.find([' ', '{', '(']).unwrap_or(debug.len());
    debug[..end].to_owned()
}

/// Checks the screen `session` shows; `how` says how the learner got
/// there. Returns how many assertions were checked.
fn check_screen(session: &Session, how: &str) -> usize {
    let view = view::position(session, None, 640.0);
    let lines = view::scenario(session).events;
    let mut said = said(&view);
    said.extend(lines.iter().map(|line| &line.detail));
    let guards: Vec<Guard> = view
        .compare
        .is_some()
        .then(|| session.guard())
        .into_iter()
        .collect();
    let statements = view::statements(session);
    if let Some(panel) = &statements {
        said.push(&panel.position_text);
        said.extend(&panel.cut);
        for side in &panel.sides {
            said.push(&side.holding);
            said.extend(side.now.as_ref().map(|now| &now.said));
            said.push(&side.lane.text);
            said.extend(side.verdict.as_ref().map(|verdict| &verdict.text));
            said.extend(&side.done);
        }
    }
    let lab = view::lab(session);
    if let Some(answer) = lab.as_ref().and_then(|lab| lab.answer.as_ref()) {
        said.extend([&answer.headline, &answer.played]);
        said.extend(&answer.lines);
        said.extend(answer.rows.as_ref().map(|rows| &rows.said));
    }
    let stepper = &session.stepper;
    let mut world = World::of(stepper.scenario(), stepper.position(), &guards).expect("replays");
    if let (Some(bench), Some(lab)) = (session.lab(), &lab) {
        world = world.with_lab(bench.level.id, &lab.sql);
    }

    if let Some(panel) = &statements {
        // The learner sees a timeline taken apart up to the bound, and
        // while predicting only the events whose questions are answered.
        let events = stepper.scenario().events().len();
        let mut taken = events.min(races::TIMELINE_MAX_EVENTS);
        if stepper.answers_ahead() {
            let asking = usize::from(stepper.question() == Some(Question::Field));
            taken = taken.min(stepper.position() - asking);
        }
        world = world.with_statements(panel.race, taken).expect("runs");
    }
    let asserted: Vec<_> = said.iter().flat_map(|said| said.asserts()).collect();
    KINDS.with(|kinds| {
        let mut kinds = kinds.borrow_mut();
        kinds.extend(asserted.iter().map(|assertion| kind(assertion)));
    });
    let violations = world.check(asserted.iter().copied());
    assert!(
        violations.is_empty(),
        "{how} ({}, step {} of {}): the screen says what its world does not hold\n\
         violations (assertion, then the world): {violations:#?}\n\
         the screen's sentences: {:#?}\n\
         the scenario: {}",
        session.lang.tag(),
        stepper.position(),
        stepper.total(),
        said.iter().map(|said| said.text()).collect::<Vec<_>>(),
        stepper.scenario().to_json(),
    );
    asserted.len()
}

fn chapter(id: &str, lang: Lang) -> Session {
    support::session(id, lang)
}

/// Every step, showing, with the comparison closed and open on each naive
/// finish.
fn walk_showing(session: &Session, how: &str) -> usize {
    let mut checked = 0;
    for guard in [None, Some(Guard::IdOnly), Some(Guard::IdAndOwner)] {
        let mut session = session.clone();
        session.set_predict(false).expect("shows");
        if let Some(guard) = guard {
            // Both panels that run a naive finish, on it.
            session.set_compare_open(true).expect("opens");
            session.set_invariants_open(true).expect("opens");
            session.set_guard(guard).expect("guards");
        }
        for position in 0..=session.stepper.total() {
            session.stepper.seek(position);
            checked += check_screen(&session, &format!("{how}, showing, {guard:?}"));
            // The quiz, where it is asked: every choice.
            let asks = (view::position(&session, None, 640.0).step)
                .and_then(|step| step.point?.quiz)
                .is_some();
            for field in Field::ALL.into_iter().filter(|_| asks) {
                let mut answered = session.clone();
                answered.quiz.answer(&answered.stepper, field.name());
                checked += check_screen(&answered, &format!("{how}, quiz {}", field.name()));
            }
        }
    }
    checked
}

/// Every level of the lab graded with its wrong start and with its
/// reference, and each failing one's counterexample opened.
fn walk_lab(session: &Session, how: &str) -> usize {
    let mut checked = 0;
    for level in LEVELS {
        let mut session = session.clone();
        assert!(session.open_lab(level.id), "{} exists", level.id);
        let mut submissions = vec![level.start.to_owned(), level.reference.to_owned()];
        // A statement that refuses every finish, or takes no job: the
        // queue's verdict is the one the learner's is not.
        match level.writes {
            Writes::Statement(Replaces::Finish) => {
                submissions.push(level.reference.replacen("WHERE", "WHERE 0 AND", 1));
            }
            Writes::Statement(_) => {
                submissions.push(level.reference.replace("LIMIT 1", "LIMIT 0"));
                // A claim that takes a job under a valid lease.
                let free = "\n                 AND (state = 'pending' OR lease_until <= :now)";
                assert!(level.reference.contains(free), "the claim's condition");
                submissions.push(level.reference.replace(free, ""));
                // A claim whose lease is one millisecond short.
                let lease = "MIN(:now_plus_lease, deadline)";
                assert!(level.reference.contains(lease), "the claim's lease");
                submissions.push(
                    level
                        .reference
                        .replace(lease, "MIN(:now_plus_lease, deadline) - 1"),
                );
            }
            Writes::ClaimScript => {}
        }
        if level.writes == Writes::ClaimScript {
            // A deferred `BEGIN`, whose write SQLite refuses, and a write
            // that breaks the table's `CHECK`, which SQLite stops.
            submissions.push(level.reference.replace("BEGIN IMMEDIATE", "BEGIN"));
            submissions.push(level.reference.replace("'leased'", "'running'"));
        }
        for sql in &submissions {
            session.grade_lab(sql).expect("grades");
            checked += check_screen(&session, &format!("{how}, lab {} graded", level.id));
            let mut opened = session.clone();
            opened.open_counterexample().expect("opens");
            let how = format!("{how}, lab {} counterexample opened", level.id);
            checked += check_screen(&opened, &how);
        }
    }
    checked
}

/// The statement panel's `races`, showing, at every moment of each's
/// clock.
fn walk_statements(session: &Session, how: &str, races: &[Race]) -> usize {
    let mut checked = 0;
    for &race in races {
        let mut session = session.clone();
        session.set_predict(false).expect("shows");
        session.statements(Move::Open(true)).expect("opens");
        session.statements(Move::Race(race)).expect("picks");
        for moment in 0..=session.statement_panel.total() {
            session.statements(Move::Seek(moment)).expect("seeks");
            checked += check_screen(&session, &format!("{how}, {race:?} race at {moment}"));
        }
    }
    checked
}

/// Predicting from the start: every question answered both ways (and
/// every condition for a refusal), going on with the first answer; the
/// statement panel's timeline race open, as it follows the answers.
fn walk_predicting(session: &Session, how: &str) -> usize {
    let mut session = session.clone();
    session.set_predict(true).expect("predicts");
    session.stepper.seek(0);
    let mut checked = 0;
    for _ in 0..4 * session.stepper.total() + 4 {
        checked += check_screen(&session, &format!("{how}, predicting"));
        let mut taken_apart = session.clone();
        taken_apart.statements(Move::Open(true)).expect("opens");
        taken_apart
            .statements(Move::Race(Race::Timeline))
            .expect("picks");
        taken_apart.statements(Move::End).expect("ends");
        checked += check_screen(&taken_apart, &format!("{how}, predicting, taken apart"));
        match session.stepper.question() {
            Some(Question::Finish | Question::Claim) => {
                for yes in [true, false] {
                    let mut answered = session.clone();
                    answered.stepper.guess(yes);
                    checked += check_screen(&answered, &format!("{how}, guessed {yes}"));
                    if answered.stepper.question() == Some(Question::Field) {
                        for condition in Condition::ALL {
                            let mut picked = answered.clone();
                            picked.stepper.answer_field(condition.field());
                            let how = format!("{how}, guessed {yes}, picked {condition:?}");
                            checked += check_screen(&picked, &how);
                        }
                    }
                }
                session.stepper.guess(true);
            }
            Some(Question::Field) => {
                session.stepper.answer_field("token");
            }
            None if session.stepper.position() == session.stepper.total() => break,
            None => {
                session.stepper.step();
            }
        }
    }
    checked
}

/// The sliders moved across the lease's end and the twists applied at
/// every step: each new timeline walked showing.
fn walk_changes(session: &Session, how: &str) -> usize {
    let mut checked = 0;
    let mut base = session.clone();
    base.set_predict(false).expect("shows");
    if let SliderView::Enabled { max, value, .. } = view::position(&base, None, 640.0).finish {
        for at in [0, value.saturating_sub(1), value + 1, max / 2, max] {
            let mut moved = base.clone();
            moved.drag(Knob::Finish, at).expect("drags");
            checked += check_screen(&moved, &format!("{how}, finish moved to {at}"));
            // A second drag on the moved timeline, as a real drag goes on.
            moved.drag(Knob::Finish, at / 2).expect("drags");
            checked += check_screen(
                &moved,
                &format!("{how}, finish moved to {at}, then {}", at / 2),
            );
        }
    }
    if let SliderView::Enabled { max, value, .. } = view::position(&base, None, 640.0).lease {
        for lease in [1, value.saturating_sub(1).max(1), value + 1, max] {
            let mut moved = base.clone();
            moved.drag(Knob::Lease, lease).expect("drags");
            checked += check_screen(&moved, &format!("{how}, lease set to {lease}"));
        }
    }
    let actors: Vec<String> = view::scenario(&base).actors;
    for position in 0..base.stepper.total() {
        for worker in &actors {
            for twist in Twist::ALL {
                let mut twisted = base.clone();
                twisted.stepper.seek(position);
                twisted.twist(worker, twist).expect("twists");
                let how = format!("{how}, {twist:?} {worker} at step {position}");
                checked += check_screen(&twisted, &how);
            }
        }
    }
    checked
}

/// The invariants panel open and every ordering counted, at the end.
fn walk_orderings(session: &Session, how: &str) -> usize {
    let mut session = session.clone();
    session.set_predict(false).expect("shows");
    session.stepper.seek(session.stepper.total());
    session.set_invariants_open(true).expect("opens");
    session.count_orderings().expect("counts");
    let mut checked = check_screen(&session, &format!("{how}, every ordering counted"));
    let census = session.census().cloned();
    let shortest = census.iter().flat_map(|census| &census.sides);
    for variant in shortest.filter_map(|tally| tally.side.variant()) {
        let mut opened = session.clone();
        opened.open_shortest(variant).expect("opens");
        for position in 0..=opened.stepper.total() {
            opened.stepper.seek(position);
            let how = format!(
                "{how}, the shortest ordering failing {} opened",
                variant.id()
            );
            checked += check_screen(&opened, &how);
        }
    }
    checked
}

#[test]
fn every_sentence_on_every_chapter_screen_holds_in_its_world() {
    let mut checked = 0;
    for found in CHAPTERS {
        for lang in [Lang::Ko, Lang::En] {
            let session = chapter(found.id, lang);
            checked += walk_showing(&session, found.id);
            checked += walk_predicting(&session, found.id);
            checked += walk_changes(&session, found.id);
            checked += walk_statements(&session, found.id, &Race::ALL);
            checked += walk_orderings(&session, found.id);
        }
    }
    // The walk reaches the sentences it is meant to check: many of them,
    // and every kind the playground says.
    assert!(checked > 1000, "only {checked} assertions checked");
    let met = KINDS.with(|kinds| kinds.borrow().clone());
    let every = [
        "Agree",
        "At",
        "Blocks",
        "BothHold",
        "Breaks",
        "Broke",
        "BreaksAtEnd",
        "Came",
        "Claimed",
        "Completed",
        "Condition",
        "Counted",
        "Delivered",
        "Designed",
        "Differ",
        "Due",
        "EndsFirst",
        "Failed",
        "Enqueued",
        "Finish",
        "FoundNothing",
        "Guess",
        "Holds",
        "Judged",
        "Kept",
        "Leased",
        "Moment",
        "NoStamp",
        "Orderings",
        "Picked",
        "Read",
        "Reclaimed",
        "Run",
        "Sends",
        "Spans",
        "Swept",
        "TakenApart",
        "Tells",
        "TookPending",
        "Values",
    ];
    let missing: Vec<&str> = every
        .into_iter()
        .filter(|name| !met.contains(*name))
        .collect();
    check!(
        missing,
        Vec::<&str>::new(),
        "kinds of assertion no chapter screen showed"
    );
}

#[test]
fn every_sentence_on_every_lab_screen_holds_in_its_world() {
    let mut checked = 0;
    for lang in [Lang::Ko, Lang::En] {
        checked += walk_lab(&chapter(CHAPTERS[0].id, lang), "the lab");
    }
    let met = KINDS.with(|kinds| kinds.borrow().clone());
    let every = [
        "LabEvents",
        "LabParted",
        "LabPassed",
        "LabRaced",
        "LabTables",
        "Because/Condition",
        "Because/Held",
        "Because/Leased",
        "Because/Reclaimed",
    ];
    let missing: Vec<&str> = every
        .into_iter()
        .filter(|name| !met.contains(*name))
        .collect();
    check!(
        (checked > 0, missing),
        (true, Vec::<&str>::new()),
        "(assertions checked, kinds of assertion no lab screen showed)"
    );
}

/// An author's lesson, as a page starts it from a lesson document with
/// its own title and narration: each chapter's timeline, walked as the
/// chapters are, in both languages. A lesson has no course points and
/// tells its own story, so it reaches other sentences than its chapter.
#[test]
fn every_sentence_on_an_authors_lesson_screen_holds_in_its_world() {
    let mut checked = 0;
    for (id, scenario) in chapter_scenarios() {
        let document = serde_json::json!({
            "title": {"ko": "작가의 수업", "en": "An author's lesson"},
            "narration": {"ko": "이 타임라인에서 무엇이 일어날까요?", "en": "What happens on this timeline?"},
            "jobs": serde_json::from_str::<serde_json::Value>(scenario).expect("JSON")["jobs"],
            "events": serde_json::from_str::<serde_json::Value>(scenario).expect("JSON")["events"],
        });
        for lang in [Lang::Ko, Lang::En] {
            let session = Session::start(&Start {
                lang: Some(lang.tag().into()),
                lesson: Some(Source {
                    scenario: Ok(document.to_string()),
                    ..Source::default()
                }),
                ..Start::default()
            })
            .expect("starts");
            assert_eq!(
                session.stepper.chapter(),
                LESSON,
                "{id}: the lesson is shown"
            );
            let how = format!("the lesson of {id}");
            checked += walk_showing(&session, &how);
            checked += walk_predicting(&session, &how);
            checked += walk_changes(&session, &how);
            checked += walk_statements(&session, &how, &[Race::Timeline]);
        }
    }
    assert!(checked > 1000, "only {checked} assertions checked");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// The same walk over generated timelines shaped like the chapters.
    #[test]
    fn every_sentence_on_a_generated_timeline_holds_in_its_world(scenario in small_scenario()) {
        let scenario = Scenario::parse(&scenario.to_json()).expect("parses");
        let lang = if scenario.events().len().is_multiple_of(2) { Lang::Ko } else { Lang::En };
        let session = Session::new(lang, "sandbox", scenario).expect("replays");
        walk_showing(&session, "generated");
        walk_predicting(&session, "generated");
        walk_statements(&session, "generated", &[Race::Timeline]);
    }
}
