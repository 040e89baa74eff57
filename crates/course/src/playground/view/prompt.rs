//! The prediction strip: the question a step waits on, its answers, and
//! what an answer was worth and why it came out so.

use serde::Serialize;

use super::{NextChapter, reasons};
use crate::key;
use crate::playground::assertions::{Assertion, Said};
use crate::playground::session::Session;
use crate::playground::stepper::{FieldGuess, Guessed, Prompt, Question};
use crate::playground::{CHAPTERS, Lang};
use leasefence::fence::Condition;
use leasefence::replay::Outcome;

/// The prediction strip above the lanes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct PromptView {
    /// The question awaiting an answer, and its two answers.
    pub question: Option<Asked>,
    /// What the last answer was worth, and why it came out so.
    pub feedback: Option<Said>,
    /// Answers right so far, once any was given.
    pub score: Option<String>,
    /// At the end of a chapter, the next one.
    pub next: Option<NextChapter>,
}

/// A question and its answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Asked {
    /// The question.
    pub text: Said,
    /// The answers, as buttons, in order.
    pub answers: Vec<Answer>,
}

/// One answer's button.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// The page's action for it: `guess` (yes or no) or `field`.
    pub action: &'static str,
    /// What it answers: `accept`, `reject`, or a field's name.
    pub arg: &'static str,
    /// What the button says.
    pub label: String,
}

/// The strip for the learner's place.
pub(super) fn prompt(session: &Session) -> PromptView {
    let lang = session.lang;
    let stepper = &session.stepper;
    let question = stepper.question().map(|question| {
        let answers = match question {
            Question::Field => Condition::ALL
                .iter()
                .map(|condition| Answer {
                    action: "field",
                    arg: condition.field(),
                    label: condition.field().to_owned(),
                })
                .collect(),
            _ => [(true, "accept"), (false, "reject")]
                .map(|(yes, arg)| Answer {
                    action: "guess",
                    arg,
                    label: answer(lang, question == Question::Finish, yes),
                })
                .to_vec(),
        };
        Asked {
            text: question_text(session, question),
            answers,
        }
    });
    // The verdict's feedback stays beside the field question it leads to,
    // without its reason until that question is answered: the reason names
    // the failed condition the question asks for.
    let feedback = match stepper.prompt() {
        Prompt::Idle | Prompt::Predicting(_) => None,
        Prompt::Guessed(guessed) => feedback(session, guessed, true),
        Prompt::AskingField(guessed) => feedback(session, guessed, false),
        Prompt::AnsweredField(answer) => field_feedback(session, answer),
    };
    let (right, made) = stepper.score();
    let score = (stepper.predict() && made > 0).then(|| {
        lang.fill(
            key!("predict.score"),
            &[("right", right.to_string()), ("total", made.to_string())],
        )
    });
    PromptView {
        question,
        feedback,
        score,
        next: next_chapter(session),
    }
}

/// A question in words. A finish is asked as a request the worker sends
/// only when it holds a claim: one that holds none sends nothing (the
/// step then says no SQL ran), and the question says so.
fn question_text(session: &Session, question: Question) -> Said {
    let lang = session.lang;
    let stepper = &session.stepper;
    let event = match question {
        Question::Field => stepper.position() - 1,
        Question::Finish | Question::Claim => stepper.position(),
    };
    let worker = stepper.scenario().events()[event].worker.clone();
    let at = stepper.scenario().events()[event].at;
    let values = [("worker", worker.clone()), ("at", at.to_string())];
    match question {
        Question::Claim => Said::plain(lang.fill(key!("predict.claim_question"), &values)),
        Question::Field => Said::plain(lang.fill(key!("predict.field_question"), &values)),
        Question::Finish => {
            let holds = event
                .checked_sub(1)
                .and_then(|before| stepper.timeline().frames.get(before))
                .is_some_and(|frame| frame.holding.contains_key(&worker));
            if holds {
                Said::of(lang, Assertion::Sends { event, worker })
            } else {
                let asked = lang.fill(key!("predict.question_no_claim"), &values);
                Said::worded(asked, Assertion::NoStamp { event, worker })
            }
        }
    }
}

/// What the page says after "which condition did it fail?": whether the
/// picked condition failed or held, with the stamp's value beside the
/// row's either way (a condition met is read off the current row, which a
/// learner may not expect), for an owner or attempt picked why the token
/// is the fence, then every condition that failed, since one `WHERE`
/// clause checks them all at once (R4).
fn field_feedback(session: &Session, answer: FieldGuess) -> Option<Said> {
    let lang = session.lang;
    let frame = session.stepper.frame()?;
    let Outcome::Finished(_) = &frame.result.outcome else {
        return None;
    };
    let picked = ("picked", answer.picked.field().to_owned());
    let event = frame.result.event;
    let reason = reasons::condition(session, event, answer.picked)?;
    let verdict = if answer.right() {
        Said::fill(
            lang,
            key!("predict.field_right"),
            &[picked],
            vec![("reason", reason)],
        )
    } else {
        Said::plain(lang.fill(key!("predict.field_wrong"), &[picked])).then(reason)
    };
    // An owner or attempt picked is right where it failed, but it is not
    // the fence: the note on why the token is (which the step card then
    // leaves out) stands beside the "right".
    let verdict = match reasons::fence_note(session, event, answer.picked) {
        Some(note) => verdict.then(note),
        None => verdict,
    };
    let failed = Assertion::Failed {
        event,
        conditions: answer.failed.iter().collect(),
    };
    Some(verdict.then(Said::of(lang, failed)))
}

/// The yes and no answers to a question, as the buttons say them.
fn answer(lang: Lang, finish: bool, yes: bool) -> String {
    let key = match (finish, yes) {
        (true, true) => key!("predict.accept"),
        (true, false) => key!("predict.reject"),
        (false, true) => key!("predict.gets_job"),
        (false, false) => key!("predict.finds_nothing"),
    };
    lang.text(key).to_owned()
}

/// What the page says after a prediction: right or not, what happened,
/// and, when the learner was wrong, why it happened.
fn feedback(session: &Session, guessed: Guessed, why: bool) -> Option<Said> {
    let lang = session.lang;
    let frame = session.stepper.frame()?;
    let said = Said::of(
        lang,
        Assertion::Guess {
            event: frame.result.event,
            finish: guessed.question == Question::Finish,
            yes: guessed.happened == guessed.right,
            right: guessed.right,
        },
    );
    if guessed.right || !why {
        return Some(said);
    }
    Some(said.then(reasons::why(session, frame.result.event)))
}

/// At the end of a chapter (not while a question waits), the next one;
/// while predicting, only once every question is answered; never in an
/// embed without the chapter picker.
fn next_chapter(session: &Session) -> Option<NextChapter> {
    let stepper = &session.stepper;
    // A lesson embed (no chapter picker) stays on its lesson.
    if !session.show.chapters {
        return None;
    }
    let answered = !stepper.predict() || stepper.complete();
    if stepper.position() < stepper.total() || stepper.question().is_some() || !answered {
        return None;
    }
    let index = CHAPTERS.iter().position(|c| c.id == stepper.chapter())?;
    let next = CHAPTERS.get(index + 1)?;
    let title = session.lang.text(next.title).to_owned();
    Some(NextChapter {
        id: next.id,
        label: session.lang.fill(key!("chapter.next"), &[("title", title)]),
    })
}
