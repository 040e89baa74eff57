//! The field question (predict mode): after a refused finish the learner
//! picks a condition it failed. R4's conditions are checked together in
//! one `WHERE` clause, so every failed one is a right answer, and the
//! question, the step card's marks and the named reason read one set
//! (`fence::Conditions`). Each answer's feedback lasts until the next move.
//! Rule numbers refer to `CONTRACT.md`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::Scenario;
use leasefence::fence::Condition;
use leasefence_course::key;
use leasefence_course::playground::assertions::Assertion;
use leasefence_course::playground::messages::Key;
use leasefence_course::playground::session::Session;
use leasefence_course::playground::{CHAPTERS, Lang, view};

/// A predicting session of `chapter` in English that has just guessed
/// "refused" for its third event, A's finish in both chapters used here.
fn guessed_refused_at_the_third_event(chapter: &str) -> Session {
    guessed_at_the_third_event(chapter, false)
}

/// A predicting session of `chapter` in English that has just guessed
/// its third event's verdict: accepted if `yes`.
fn guessed_at_the_third_event(chapter: &str, yes: bool) -> Session {
    let scenario = CHAPTERS
        .iter()
        .find(|known| known.id == chapter)
        .map(|known| Scenario::parse(known.scenario()).expect("valid"))
        .expect("a chapter");
    let mut session = Session::new(Lang::En, chapter, scenario).expect("replays");
    // Jumped to A's finish first, then predicting: a jump while predicting
    // would stop at the first unanswered question (tests/predict_first.rs).
    session.stepper.seek(2);
    session.set_predict(true).expect("sets predicting");
    session.stepper.step();
    session.stepper.guess(yes);
    session
}

/// A wrong verdict guess opens the field question too. Its feedback says
/// the verdict and not yet why: the reason names the failed condition the
/// question right under it asks for. Answered, the field's feedback tells
/// every failed condition.
#[test]
fn a_wrong_verdict_guess_names_no_failed_condition_before_the_field_question_is_answered() {
    let mut session = guessed_at_the_third_event("canonical", true);
    let asked = view::position(&session, None, 640.0);
    check!(
        asked.prompt.question.as_ref().map(|q| q.answers.len()),
        Some(7),
        "the field question is open"
    );
    let feedback = asked.prompt.feedback.expect("the verdict's feedback");
    let told: Vec<String> = feedback
        .asserts()
        .iter()
        .map(|assertion| format!("{assertion:?}"))
        .filter(|assertion| !assertion.starts_with("Guess"))
        .collect();
    check!(
        told,
        Vec::<String>::new(),
        "the feedback beside the field question asserts the verdict alone: {feedback}"
    );
    session
        .stepper
        .answer_field("token")
        .expect("the question was open");
    let answered = view::position(&session, None, 640.0).prompt.feedback;
    check!(
        answered.is_some_and(|said| said.asserts().len() > 1),
        true,
        "answered: the failed conditions are told"
    );
}

/// R4 asked: after a refused finish the learner picks a condition it
/// failed. One `WHERE` clause checks every condition at once, so any failed
/// one is right: after B's reclaim, A's stamp fails owner as much as token.
/// The feedback says whether the pick failed (its values side by side),
/// then lists every failed condition. Until then nothing on the step card
/// names or marks the answer.
#[test]
fn a_refusal_asks_for_a_failed_condition_and_any_failed_one_is_right() {
    let answered = |field: &str| {
        let mut session = guessed_refused_at_the_third_event("canonical");
        let asked = view::position(&session, None, 640.0);
        let step = asked.step.expect("A's finish is shown");
        let verdict = step.verdict.expect("a verdict");
        check!(
            (
                verdict.reason,
                step.conditions.iter().any(|line| line.differs),
                asked.prompt.question.as_ref().map(|q| q.answers.len()),
            ),
            (None, false, Some(7)),
            "asked: no reason named, no condition marked, seven fields offered"
        );
        let heard = asked.announcement.unwrap_or_default().to_string();
        let verdict = Lang::En.fill(key!("predict.right"), &values(&[("verdict", "rejected")]));
        check!(
            heard.starts_with(&verdict)
                && heard.ends_with(asked.prompt.question.expect("asked").text.text()),
            true,
            "the verdict's feedback, then the question, are heard: {heard}"
        );
        let guess = session
            .stepper
            .answer_field(field)
            .expect("the question was open");
        let told = view::position(&session, None, 640.0);
        let marked: Vec<&str> = told
            .step
            .expect("still shown")
            .conditions
            .iter()
            .filter(|line| line.differs)
            .map(|line| line.field)
            .collect::<Vec<_>>();
        (
            guess.right(),
            session.stepper.score(),
            marked.join(", "),
            told.prompt.feedback.unwrap_or_default().to_string(),
        )
    };
    fn values<'a>(pairs: &[(&'a str, &str)]) -> Vec<(&'a str, String)> {
        pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect()
    }
    let all = Lang::En.fill(
        key!("predict.field_all"),
        &values(&[("n", "3"), ("fields", "owner, token, attempt")]),
    );
    // The owner and the attempt, right here, come with why the token is
    // the fence (tests `the_owner_picked_is_right_but_told_it_is_no_fence`).
    let right = |picked: &str, key: Key, expected: &str, current: &str, note: Option<Key>| {
        let reason = Lang::En.fill(
            key,
            &values(&[("expected", expected), ("current", current)]),
        );
        let verdict = Lang::En.fill(
            key!("predict.field_right"),
            &values(&[("picked", picked), ("reason", &reason)]),
        );
        match note {
            Some(note) => format!("{verdict} {} {all}", Lang::En.text(note)),
            None => format!("{verdict} {all}"),
        }
    };
    for (picked, feedback) in [
        (
            "token",
            right("token", key!("reason.token_mismatch"), "1", "2", None),
        ),
        (
            "owner",
            right(
                "owner",
                key!("reason.owner_mismatch"),
                "A",
                "B",
                Some(key!("fence.owner_too")),
            ),
        ),
        (
            "attempt",
            right(
                "attempt",
                key!("reason.attempt_mismatch"),
                "1",
                "2",
                Some(key!("fence.attempt_with_token")),
            ),
        ),
    ] {
        check!(
            answered(picked),
            (true, (2, 2), "owner, token, attempt".to_owned(), feedback),
            "{picked}: failed, so right; the card marks the same three"
        );
    }
    let wrong = Lang::En.fill(
        key!("predict.field_wrong"),
        &values(&[("picked", "deadline")]),
    );
    let met = Lang::En.fill(
        key!("reason.met.deadline"),
        &values(&[("deadline", "5000"), ("at", "1001")]),
    );
    check!(
        answered("deadline"),
        (
            false,
            (1, 2),
            "owner, token, attempt".to_owned(),
            format!("{wrong} {met} {all}")
        ),
        "deadline: held (5000 ms is ahead), so wrong, and why it held"
    );
}

/// R2, R8: the owner is a right answer where it failed, but it is not the
/// fence: a worker restarted under its old name passes it. So picking it
/// says why the token is, and where the owner held (a restart under the
/// same name) the wrong pick says the name cannot tell the runs apart.
/// The step card beside the feedback leaves that note out: a screen says
/// it once.
#[test]
fn the_owner_picked_is_right_but_told_it_is_no_fence() {
    for (chapter, right, note) in [
        ("canonical", true, key!("fence.owner_too")),
        ("restart-same-name", false, key!("fence.owner_same")),
    ] {
        let mut session = guessed_refused_at_the_third_event(chapter);
        let guess = session
            .stepper
            .answer_field("owner")
            .expect("the question was open");
        let shown = view::position(&session, None, 640.0);
        let feedback = shown.prompt.feedback.unwrap_or_default().to_string();
        let note = Lang::En.text(note);
        let on_card = (shown.step.expect("the finish is shown").fence_notes.iter())
            .filter(|said| said.text() == note)
            .count();
        check!(
            (guess.right(), feedback.contains(note), on_card),
            (right, true, 0),
            "{chapter}: owner picked; right?, the note in the feedback, \
             the note on the card: {feedback}"
        );
    }
}

/// After the field question, the next prediction's feedback is its own:
/// no answer's words outlive the next move.
#[test]
fn a_later_prediction_gets_its_own_feedback_after_the_field_question() {
    let mut session = guessed_refused_at_the_third_event("restart-same-name");
    session.stepper.answer_field("token").expect("asked");
    // A-restarted's finish at 1500 ms: accepted.
    session.stepper.step();
    session.stepper.guess(false);
    let told = view::position(&session, None, 640.0);
    let feedback = told.prompt.feedback.expect("feedback");
    let wrong = Lang::En.fill(key!("predict.wrong"), &[("verdict", "accepted".to_owned())]);
    check!(
        feedback.to_string().starts_with(&wrong),
        true,
        "guessed refused, it was accepted: that finish's feedback, {feedback}"
    );
    let reasons: Vec<(Condition, bool)> = (feedback.asserts().iter())
        .filter_map(|assertion| match assertion {
            Assertion::Condition {
                condition, held, ..
            } => Some((*condition, *held)),
            _ => None,
        })
        .collect();
    check!(
        reasons,
        vec![(Condition::Token, true), (Condition::LeaseUntil, true)],
        "a wrong prediction is told why: the stamp's token is the row's and the lease holds"
    );
}

/// Turning prediction off while the field question is open drops the
/// question, not the verdict's feedback the learner already earned.
#[test]
fn turning_prediction_off_keeps_the_answered_predictions_feedback() {
    let mut session = guessed_refused_at_the_third_event("canonical");
    session.set_predict(false).expect("sets predicting");
    let told = view::position(&session, None, 640.0);
    check!(
        (
            told.prompt.question.is_none(),
            told.prompt.feedback.map(|feedback| feedback.to_string())
        ),
        (
            true,
            Some(Lang::En.fill(key!("predict.right"), &[("verdict", "rejected".to_owned())]))
        ),
        "no question, and A's refusal still said to be predicted right"
    );
}

/// Every refusal the chapters show with a stamp asks for a failed
/// condition, and the question, the step card's marks and the named reason
/// all read one set: the right answers are exactly the marked lines, and
/// the reason the document names is one of them.
#[test]
fn each_chapters_refusal_is_asked_about_the_conditions_its_card_marks() {
    use leasefence::Outcome;
    use leasefence_course::playground::stepper::Stepped;
    let mut asked = Vec::new();
    for chapter in CHAPTERS {
        let scenario = Scenario::parse(chapter.scenario()).expect("valid");
        let mut session = Session::new(Lang::En, chapter.id, scenario).expect("replays");
        session.set_predict(true).expect("sets predicting");
        while session.stepper.position() < session.stepper.total() {
            if session.stepper.step() == Stepped::AskFirst {
                session.stepper.guess(true);
            }
            let Some(Outcome::Finished(finish)) =
                session.stepper.frame().map(|f| f.result.outcome.clone())
            else {
                continue;
            };
            let failed = session.stepper.failed_conditions();
            let fields = [
                "id",
                "owner",
                "token",
                "attempt",
                "state",
                "lease_until",
                "deadline",
            ];
            let right: Vec<&str> = fields
                .into_iter()
                .filter(|field| {
                    let mut trial = session.stepper.clone();
                    trial.answer_field(field).is_some_and(|guess| guess.right())
                })
                .collect();
            if !failed.is_empty() {
                session.stepper.answer_field("id");
            }
            let card = view::position(&session, None, 640.0).step.expect("a card");
            let marked: Vec<&str> = card
                .conditions
                .iter()
                .filter(|line| line.differs)
                .map(|line| line.field)
                .collect();
            let named = finish.reason().map(|reason| reason.as_str());
            check!(
                right,
                marked,
                "{}: the right answers are the lines the card marks",
                chapter.id
            );
            if let Some(named) = named {
                asked.push((chapter.id, named, right.join(" ")));
            }
        }
    }
    let row = |chapter, named, failed: &str| (chapter, named, failed.to_owned());
    check!(
        asked,
        vec![
            // A's stamp against B's claim: three fields differ at once.
            row("canonical", "token_mismatch", "owner token attempt"),
            // Same owner name: only the claim's generation differs.
            row("restart-same-name", "token_mismatch", "token attempt"),
            row("fencing-off-vs-on", "token_mismatch", "owner token attempt"),
            row("fencing-off-vs-on", "token_mismatch", "token attempt"),
            row("expiry-boundary", "lease_expired", "lease_until"),
            row("expiry-boundary", "lease_expired", "lease_until"),
            row("every-ordering", "no_claim", ""),
            row("late-delivery", "not_leased", "owner token attempt state"),
            // The lease was cut to the deadline: both end at 100 ms.
            row(
                "deadline-caps-lease",
                "lease_expired",
                "lease_until deadline"
            ),
            row("deadline-expired", "no_claim", ""),
            row("quarantine", "not_leased", "state lease_until"),
        ],
        "the chapters' refusals: the named reason, and every condition failed"
    );
}

/// A refusal's reason is named in the learner's words; the replay's code
/// for it (`token_mismatch`) stands beside the name in English only, since
/// Korean text carries no English codes.
#[test]
fn a_refusals_reason_is_named_in_the_learners_words_and_coded_only_in_english() {
    for (lang, expected) in [
        (Lang::En, (Some("token mismatch"), Some("token_mismatch"))),
        (Lang::Ko, (Some("선점 토큰 불일치"), None)),
    ] {
        let scenario = Scenario::parse(CHAPTERS[0].scenario()).expect("valid");
        let mut session = Session::new(lang, CHAPTERS[0].id, scenario).expect("replays");
        session.stepper.seek(3);
        let shown = view::position(&session, None, 640.0);
        let verdict = shown
            .step
            .and_then(|step| step.verdict)
            .expect("A's refusal");
        check!(
            (verdict.reason_name.as_deref(), verdict.reason),
            expected,
            "{lang:?}: the reason's (name, code)"
        );
    }
}
