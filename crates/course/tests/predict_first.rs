//! Predict first: while the learner predicts, no move skips a
//! question, an answered question is shown again rather than asked and
//! scored twice, a chapter counts as finished when its questions are
//! answered, not when its end is reached, and the header gives no verdict
//! away before then.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::key;
use leasefence_course::playground::session::Session;
use leasefence_course::playground::stepper::{Prompt, Question, Stepped};
use leasefence_course::playground::{Lang, view};
use support::session;

/// Answers every question of the session's timeline, predicting what
/// happened and naming a failed condition, until its end.
fn answer_everything(session: &mut Session) {
    let stepper = &mut session.stepper;
    while stepper.position() < stepper.total() || stepper.question().is_some() {
        match stepper.question() {
            Some(Question::Field) => {
                let failed = stepper.failed_conditions();
                let field = failed.iter().next().expect("a failed condition").field();
                stepper.answer_field(field);
            }
            Some(_) => {
                let index = stepper.position();
                let happened = !matches!(
                    &stepper.timeline().frames[index].result.outcome,
                    leasefence::Outcome::Finished(finish) if !finish.accepted()
                ) && !matches!(
                    &stepper.timeline().frames[index].result.outcome,
                    leasefence::Outcome::Claimed { claim: None }
                );
                stepper.guess(happened);
            }
            None => {
                stepper.step();
            }
        }
    }
}

#[test]
fn jumping_to_the_end_while_predicting_stops_at_the_first_unanswered_question() {
    let mut session = session("canonical", Lang::En);
    session.set_predict(true).expect("sets predicting");
    let end = session.stepper.total();
    session.stepper.seek(end);
    check!(
        format!(
            "{:?}",
            (session.stepper.position(), session.stepper.prompt())
        ),
        format!("{:?}", (0, Prompt::Predicting(Question::Claim))),
        "⇥ at the start: A's claim (event 0) is asked, nothing is shown"
    );
    session.stepper.guess(true);
    session.stepper.seek(end);
    check!(
        format!(
            "{:?}",
            (session.stepper.position(), session.stepper.question())
        ),
        format!("{:?}", (1, Some(Question::Claim))),
        "⇥ after the first answer: B's reclaim is asked next"
    );
}

#[test]
fn stepping_back_and_forth_shows_an_answer_again_without_scoring_it_twice() {
    let mut session = session("canonical", Lang::En);
    session.set_predict(true).expect("sets predicting");
    session.stepper.step();
    let guessed = session.stepper.guess(false).expect("a prediction was open");
    check!(
        session.stepper.score(),
        (0, 1),
        "A's claim did get a job: wrong"
    );
    session.stepper.back();
    check!(
        format!("{:?}", session.stepper.step()),
        format!("{:?}", Stepped::Moved),
        "the answered claim is shown again, not asked"
    );
    check!(
        format!("{:?}", (session.stepper.prompt(), session.stepper.score())),
        format!("{:?}", (Prompt::Guessed(guessed), (0, 1))),
        "its feedback again, the score unchanged"
    );
}

#[test]
fn a_chapter_is_finished_when_its_questions_are_answered_not_when_its_end_is_reached() {
    let mut watched = session("canonical", Lang::En);
    let end = watched.stepper.total();
    watched.stepper.seek(end);
    check!(
        (watched.stepper.position() == end, watched.note_progress()),
        (true, false),
        "at the end without predicting: watched, not finished"
    );

    let mut learner = session("canonical", Lang::En);
    learner.set_predict(true).expect("sets predicting");
    answer_everything(&mut learner);
    check!(learner.stepper.complete(), true, "every question answered");
    check!(learner.note_progress(), true, "finished");
    check!(learner.note_progress(), false, "only once");
}

#[test]
fn every_chapter_can_be_finished_by_answering_its_questions() {
    for chapter in leasefence_course::playground::CHAPTERS {
        let mut learner = session(chapter.id, Lang::Ko);
        learner.set_predict(true).expect("sets predicting");
        answer_everything(&mut learner);
        check!(
            (
                learner.stepper.complete(),
                learner.stepper.score().0 == learner.stepper.score().1
            ),
            (true, true),
            "{}: every question answered, each rightly",
            chapter.id
        );
    }
}

/// While the learner predicts, every ordering's counts
/// and the buttons that open a failing one wait for the last answer (they
/// tell how the events end), and a move that would show them does
/// nothing; once every question is answered they are there again.
#[test]
fn every_orderings_counts_wait_for_the_last_answer_while_predicting() {
    use leasefence_course::playground::view;
    use leasefence_course::variants::Variant;
    let orderings = |session: &Session| {
        view::position(session, None, 640.0)
            .invariants
            .expect("the chapter opens the panel")
            .orderings
    };
    let mut learner = session("every-ordering", Lang::Ko);
    learner.count_orderings().expect("counts");
    check!(
        orderings(&learner).table.is_some(),
        true,
        "watching: the counts are shown"
    );

    learner.set_predict(true).expect("sets predicting");
    let waiting = orderings(&learner);
    check!(
        (
            waiting.count.is_some(),
            waiting.table.is_some(),
            waiting.waiting.as_deref()
        ),
        (
            false,
            false,
            Some(Lang::Ko.text(key!("predict.orderings_hidden")))
        ),
        "predicting: no button, no counts, and why"
    );
    let scenario = learner.stepper.scenario().to_json();
    learner
        .open_shortest(Variant::IdOnlyFinish)
        .expect("a no-op");
    check!(
        learner.stepper.scenario().to_json(),
        scenario,
        "no failing ordering opens while the questions wait"
    );

    answer_everything(&mut learner);
    let answered = orderings(&learner);
    check!(
        (answered.table.is_some(), answered.waiting),
        (true, None),
        "every question answered: the counts again"
    );
    learner.stepper.seek(0);
    check!(
        (
            learner.stepper.answers_ahead(),
            orderings(&learner).table.is_some()
        ),
        (false, true),
        "stepping back over answered questions hides nothing again"
    );
}

/// The header's tagline and the footer say what the course is about
/// without its verdict while the learner still predicts (the course's
/// title, "refuse the late worker's stamp", is the answer to the first
/// chapter's last question); once every question is answered, or for a
/// learner who watches, they say it.
#[test]
fn the_tagline_and_footer_give_no_verdict_away_while_predicting() {
    for lang in [Lang::En, Lang::Ko] {
        let refuse = match lang {
            Lang::En => "efuse",
            Lang::Ko => "거절",
        };
        let mut session = session("canonical", lang);
        session.set_predict(true).expect("sets predicting");
        let said = |session: &Session| {
            let view = view::position(session, None, 640.0);
            format!("{} / {}", view.tagline, view.footer)
        };
        while session.stepper.answers_ahead() {
            check!(
                said(&session).contains(refuse),
                false,
                "{lang:?} at {}: {}",
                session.stepper.position(),
                said(&session)
            );
            support::answer_or_step(&mut session);
        }
        check!(
            said(&session).contains(refuse),
            true,
            "{lang:?} answered: {}",
            said(&session)
        );
        session.set_predict(false).expect("shows");
        check!(
            said(&session).contains(refuse),
            true,
            "{lang:?} watching: {}",
            said(&session)
        );
    }
}
