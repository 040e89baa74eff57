//! A lesson, one idea per screen (`playground::scenes`): an embed walks
//! its chapter scene by scene (the start, each event, each course point
//! after its event, the panels the chapter is about at its end), each
//! scene in the one view that shows it, every other view one press away;
//! the workbench (every panel shown) steps event by event as before.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use leasefence::replay::Outcome;
use leasefence_course::playground::chapters::Panel;
use leasefence_course::playground::scenes::{self, Idea, Pane};
use leasefence_course::playground::session::{Session, Start};
use leasefence_course::playground::show::Show;
use leasefence_course::playground::stepper::Stepped;
use leasefence_course::playground::{CHAPTERS, view};

/// A playground on `chapter` showing `show`, just watching (no questions).
fn started(chapter: &str, show: Show, predict: bool) -> Session {
    let start = Start {
        chapter: Some(chapter.to_owned()),
        lang: Some("ko".to_owned()),
        predict: Some(predict),
        show,
        ..Start::default()
    };
    Session::start(&start).expect("starts")
}

/// Where the learner stands: the position, the scene's idea and the view
/// on screen.
fn here(session: &Session) -> (usize, Idea, Pane) {
    let (scene, pane) = session.scene().expect("a lesson is walked in scenes");
    (session.stepper.position(), scene.idea, pane)
}

/// Every screen of a lesson on `chapter`, walking forward from its start.
fn walk(session: &mut Session) -> Vec<(usize, Idea, Pane)> {
    let mut screens = vec![here(session)];
    while session.forward() == Stepped::Moved {
        screens.push(here(session));
        assert!(screens.len() < 500, "the walk ends");
    }
    screens
}

/// The view an event is seen in: a claim on the lanes, a delivery at the
/// receiver, a finish on its row.
fn pane_of(outcome: &Outcome) -> Pane {
    match outcome {
        Outcome::Claimed { .. } => Pane::Lanes,
        Outcome::Sent { .. } => Pane::Receiver,
        Outcome::Finished(_) | Outcome::Enqueued { .. } => Pane::Row,
    }
}

#[test]
fn a_lesson_walks_the_start_each_event_each_point_after_its_event_and_the_chapters_panels() {
    for chapter in CHAPTERS {
        let mut session = started(chapter.id, Show::default(), false);
        let frames = session.stepper.timeline().frames.clone();
        let mut expected = vec![(0, Idea::Start)];
        for (index, _) in frames.iter().enumerate() {
            expected.push((index + 1, Idea::Event(index)));
            for point in chapter
                .points
                .iter()
                .filter(|point| point.position == index + 1)
            {
                expected.push((index + 1, Idea::Point(point.key)));
            }
        }
        for panel in chapter.opens {
            let pane = match panel {
                Panel::Compare => Pane::Compare,
                Panel::Statements => Pane::Statements,
                Panel::Invariants => Pane::Orderings,
            };
            expected.push((frames.len(), Idea::Panel(pane)));
        }
        let screens = walk(&mut session);
        let walked: Vec<(usize, Idea)> = screens.iter().map(|&(at, idea, _)| (at, idea)).collect();
        assert_eq!(
            expected, walked,
            "{}: expected scenes (left) vs walked (right)",
            chapter.id
        );
        // And back, the same screens in reverse.
        let mut back = vec![here(&session)];
        while back.len() < screens.len() {
            session.backward();
            back.push(here(&session));
        }
        back.reverse();
        assert_eq!(
            screens, back,
            "{}: forward (left) vs backward (right)",
            chapter.id
        );
    }
}

#[test]
fn each_scene_shows_the_view_of_its_idea_and_the_sql_only_where_the_idea_is_the_sql() {
    for chapter in CHAPTERS {
        let mut session = started(chapter.id, Show::default(), false);
        let frames = session.stepper.timeline().frames.clone();
        for (position, idea, pane) in walk(&mut session) {
            let expected = match idea {
                Idea::Start => Pane::Events,
                Idea::Event(index) => pane_of(&frames[index].result.outcome),
                Idea::Point("rollback_journal") => Pane::Sql,
                Idea::Point(_) | Idea::Panel(_) => pane,
            };
            assert_eq!(expected, pane, "{} at {position}, {idea:?}", chapter.id);
            if pane == Pane::Sql {
                assert_eq!(
                    Idea::Point("rollback_journal"),
                    idea,
                    "{}: SQL shown for another idea",
                    chapter.id
                );
            }
        }
    }
}

#[test]
fn a_course_point_is_a_screen_of_its_own_in_a_lesson_and_on_the_step_card_of_the_workbench() {
    for chapter in CHAPTERS {
        let mut lesson = started(chapter.id, Show::default(), false);
        loop {
            let (position, idea, _) = here(&lesson);
            let step = view::position(&lesson, None, 800.0).step;
            let shown = step.and_then(|step| step.point).map(|point| point.key);
            let expected = match idea {
                Idea::Point(key) => Some(key),
                _ => None,
            };
            assert_eq!(
                expected, shown,
                "{} at {position}, {idea:?}: the step card's point",
                chapter.id
            );
            if lesson.forward() != Stepped::Moved {
                break;
            }
        }
        let mut workbench = started(chapter.id, Show::EVERYTHING, false);
        assert!(
            workbench.scene().is_none(),
            "{}: the workbench is walked in steps",
            chapter.id
        );
        for position in 1..=workbench.stepper.total() {
            assert_eq!(
                Stepped::Moved,
                workbench.forward(),
                "{}: one event a move",
                chapter.id
            );
            assert_eq!(position, workbench.stepper.position());
            let step = view::position(&workbench, None, 800.0).step;
            let shown = step.and_then(|step| step.point).map(|point| point.key);
            let placed = chapter
                .points
                .iter()
                .find(|point| point.position == position);
            assert_eq!(
                placed.map(|point| point.key),
                shown,
                "{} at {position}",
                chapter.id
            );
        }
        for position in (0..workbench.stepper.total()).rev() {
            workbench.backward();
            assert_eq!(
                position,
                workbench.stepper.position(),
                "{}: back, one event a move, past the course points",
                chapter.id
            );
        }
    }
}

#[test]
fn a_view_picked_holds_until_the_scene_changes_and_one_not_on_offer_changes_nothing() {
    let mut session = started("canonical", Show::default(), false);
    session.forward();
    assert_eq!((1, Idea::Event(0), Pane::Lanes), here(&session));
    assert!(session.look(Pane::Row), "the row is on offer after a claim");
    assert_eq!((1, Idea::Event(0), Pane::Row), here(&session));
    let offered = view::position(&session, None, 800.0)
        .scene
        .expect("a scene");
    assert_eq!(Pane::Row, offered.pane);
    assert!(
        offered
            .panes
            .iter()
            .any(|button| button.pane == Pane::Lanes)
    );
    // No delivery in this chapter: the receiver is not on offer.
    assert!(
        !session.look(Pane::Receiver),
        "expected the receiver refused"
    );
    assert_eq!(
        (1, Idea::Event(0), Pane::Row),
        here(&session),
        "a refused view changes nothing"
    );
    // The next scene is seen in its own view; back again, the pick is gone.
    session.forward();
    assert_eq!(
        Pane::Point,
        here(&session).2,
        "the claim's point, in its own view"
    );
    session.backward();
    assert_eq!((1, Idea::Event(0), Pane::Lanes), here(&session));
}

#[test]
fn predicting_asks_before_an_events_scene_and_no_move_skips_the_question() {
    let mut session = started("canonical", Show::default(), true);
    assert_eq!(
        Stepped::AskFirst,
        session.forward(),
        "the first claim is asked first"
    );
    assert_eq!(
        Stepped::Waiting,
        session.forward(),
        "no move past an open question"
    );
    assert_eq!((0, Idea::Start, Pane::Events), here(&session));
    session.stepper.guess(true);
    assert_eq!(
        (1, Idea::Event(0), Pane::Lanes),
        here(&session),
        "the answer shows the event's scene"
    );
    // The point placed after it is the next screen, not another question.
    assert_eq!(Stepped::Moved, session.forward());
    assert_eq!(
        (1, Idea::Point("claim_result"), Pane::Point),
        here(&session)
    );
    assert_eq!(
        Stepped::AskFirst,
        session.forward(),
        "then B's claim is asked"
    );
}

#[test]
fn the_scene_counter_goes_up_by_one_a_move_and_ends_at_the_lessons_number_of_scenes() {
    for chapter in CHAPTERS {
        let mut session = started(chapter.id, Show::default(), false);
        let screens = walk(&mut session).len();
        let mut session = started(chapter.id, Show::default(), false);
        for number in 1..=screens {
            check_counter(&session, chapter.id, (number, screens));
            session.forward();
        }
        for number in (1..screens).rev() {
            session.backward();
            check_counter(&session, chapter.id, (number, screens));
        }
    }
}

/// The counter at the learner's place: scene `number` of `count`.
fn check_counter(session: &Session, chapter: &str, (number, count): (usize, usize)) {
    assert_eq!(
        Some((number, count)),
        scenes::counted(session),
        "{chapter}: expected scene {number} of {count}"
    );
}
