//! What each worker carries (`view::Card`, beside the lanes): the stamp
//! of its last claim, which it keeps in memory and would present, and how
//! the job's row stands against it at the learner's place. The card turns
//! stale the moment a later claim raises the row's token (R2), and a lease
//! that ends at now has ended (R5), whatever the worker believes.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::playground::Lang;
use leasefence_course::playground::assertions::{Assertion, Carried, Standing};
use leasefence_course::playground::view;
use support::session;

/// Each worker's (name, standing, what it carries) at `position` of
/// `chapter`'s timeline.
fn cards(chapter: &str, position: usize) -> Vec<(String, &'static str, Option<Carried>)> {
    let mut session = session(chapter, Lang::En);
    while session.stepper.position() < position {
        session.stepper.step();
    }
    view::lanes(&session, 800.0)
        .cards
        .into_iter()
        .map(|card| {
            let Some(Assertion::Carries { stamp, .. }) =
                card.said.asserts().first().copied().cloned()
            else {
                panic!("a card says what its worker carries");
            };
            (card.worker, card.standing, stamp)
        })
        .collect()
}

fn stamp(job: &str, token: u64, standing: Standing) -> Option<Carried> {
    Some(Carried {
        job: job.to_owned(),
        token,
        attempt: token,
        standing: Some(standing),
    })
}

#[test]
fn r2_a_workers_card_turns_stale_when_a_later_claim_raises_the_rows_token() {
    check!(
        cards("canonical", 1),
        vec![
            (
                "A".to_owned(),
                "current",
                stamp("snack-1", 1, Standing::Current { until: 1000 })
            ),
            ("B".to_owned(), "none", None),
        ],
        "R2: after A's claim at 0 ms, A carries token 1 and B nothing"
    );
    check!(
        cards("canonical", 2),
        vec![
            (
                "A".to_owned(),
                "stale",
                stamp("snack-1", 1, Standing::Stale { token: 2 })
            ),
            (
                "B".to_owned(),
                "current",
                stamp("snack-1", 2, Standing::Current { until: 2000 })
            ),
        ],
        "R2: after B's reclaim A still carries token 1, and the row has token 2"
    );
}

#[test]
fn r5_a_lease_that_ends_at_now_has_ended_on_the_card() {
    // expiry-boundary: A's and C's leases end at 1000 ms; the fourth
    // event happens at 1000 ms.
    let at_the_end = cards("expiry-boundary", 4);
    check!(
        at_the_end
            .iter()
            .map(|(worker, standing, _)| (worker.as_str(), *standing))
            .collect::<Vec<_>>(),
        vec![("A", "ended"), ("C", "ended"), ("B", "none")],
        "R5: a lease is over when lease_until <= now"
    );
}

#[test]
fn a_card_says_its_finish_was_accepted_once_the_row_is_done_with_its_token() {
    let last = cards("polling-cannot-steal", 5);
    check!(
        last[0].2,
        stamp("snack-1", 1, Standing::Done),
        "A's finish was accepted: the row is done with A's token"
    );
}

#[test]
fn while_the_learner_predicts_a_card_shows_the_stamp_and_not_how_the_row_stands() {
    let mut session = session("canonical", Lang::En);
    session.set_predict(true).expect("predicts");
    session.stepper.step();
    session
        .stepper
        .guess(true)
        .expect("the first claim was asked");
    session.stepper.step();
    session.stepper.guess(true).expect("B's reclaim was asked");
    let cards = view::lanes(&session, 800.0).cards;
    check!(
        cards.iter().map(|card| card.standing).collect::<Vec<_>>(),
        vec!["held", "held"],
        "A's finish is still to be predicted: neither card says stale or current"
    );
}

/// A lesson shows a finish in its row's view, not the lanes: the cards
/// come with it, so the stale stamp is on screen beside the refused
/// finish (a learner found it one press away). The workbench, whose lanes
/// are on screen with the step, does not repeat them.
#[test]
fn a_lessons_finish_shows_the_workers_cards_beside_its_row() {
    use leasefence_course::playground::session::{Session, Start};
    use leasefence_course::playground::show::Show;
    let at_the_late_finish = |show: Show| {
        let start = Start {
            chapter: Some("canonical".to_owned()),
            lang: Some("en".to_owned()),
            predict: Some(false),
            show,
            ..Start::default()
        };
        let mut session = Session::start(&start).expect("starts");
        while session.stepper.position() < 3 {
            session.forward();
        }
        let step = view::position(&session, None, 800.0)
            .step
            .expect("A's finish");
        (step.cards.iter())
            .map(|card| (card.worker.clone(), card.standing))
            .collect::<Vec<_>>()
    };
    check!(
        at_the_late_finish(Show::default()),
        vec![("A".to_owned(), "stale"), ("B".to_owned(), "current")],
        "a lesson: the cards beside A's refused finish"
    );
    check!(
        at_the_late_finish(Show::EVERYTHING),
        Vec::<(String, &str)>::new(),
        "the workbench: the lanes show them"
    );
}
