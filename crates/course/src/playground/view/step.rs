//! The step card: what the last event did, the verdict of a finish with
//! the stamp beside the row (R14), the SQL the queue ran with its bound
//! values and which statement was the refusal, and the rows before and
//! after with the changed cells marked.

use super::cards::{self, Card};
use super::designs::DesignsView;
use super::readings::ReadingsView;
use super::reasons;
use crate::key;
use crate::playground::assertions::{Assertion, Said};
use crate::playground::explain::{
    COLUMNS, Compared, RowChange, cell, describe, reason_name, row_changes, side_by_side,
};
use crate::playground::scenes::Idea;
use crate::playground::session::Session;
use crate::playground::stepper::{Prompt, Question};
use crate::playground::{Lang, chapters, quiz};
use crate::variants::boundary::Boundary;
use crate::variants::designs::Designs;
use leasefence::replay::Outcome;
use leasefence::store::{self, Executed};
use serde::Serialize;

/// What the last event did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepView {
    /// A sentence for anything but a finish (a finish gets its verdict).
    pub summary: Option<Summary>,
    /// A finish's verdict.
    pub verdict: Option<VerdictView>,
    /// A finish's conditions, stamp beside row, failed ones marked.
    pub conditions: Vec<Compared>,
    /// What the failed conditions together teach
    /// ([`crate::playground::explain::fence_notes`]).
    pub fence_notes: Vec<Said>,
    /// The statements, in order; empty when the event ran none.
    pub statements: Vec<StatementView>,
    /// The line the folded statements sit behind
    /// ([`StatementView::folded`]), when any are.
    pub folded_note: Option<String>,
    /// Why no statement ran, when none did: a delivery goes to the
    /// receiver, and an actor that holds no claim asks nothing of anyone.
    pub no_sql: Option<String>,
    /// The rows the event changed, and its own row even if unchanged.
    pub changes: Vec<ChangeView>,
    /// In a lesson, at a finish: each worker's card (as under the lanes),
    /// beside the row its stamp is read against, since the finish's scene
    /// shows the row and not the lanes. Empty on the workbench, where the
    /// lanes are on screen with it.
    pub cards: Vec<Card>,
    /// The course point this place of the chapter shows, if any.
    pub point: Option<PointView>,
}

/// A course point (([`crate::playground::chapters::Point`])) in the learner's words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PointView {
    /// Which point (its message key).
    pub key: &'static str,
    /// Its heading.
    pub title: String,
    /// What it says.
    pub text: String,
    /// The claim a worker just received, as the contract's JSON, for the
    /// point about what a claim hands its worker.
    pub code: Option<String>,
    /// The quiz, for the point that asks it ([`quiz::TELL_APART`]).
    pub quiz: Option<QuizView>,
    /// The lease's end read every way, for the point about the boundary
    /// ([`chapters::ONE_BOUNDARY`]).
    pub readings: Option<ReadingsView>,
    /// The designs the course turns down, run beside the queue's claim,
    /// for the point about why a claim keeps a leased row
    /// ([`chapters::WHY_LEASED`]).
    pub designs: Option<DesignsView>,
}

/// The quiz: which value tells two claims on one job apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuizView {
    /// The question, naming the two workers and the job.
    pub question: Said,
    /// Each choice: its field (the page's argument) and its label.
    pub choices: Vec<(&'static str, String)>,
    /// The field the learner picked, once answered.
    pub picked: Option<&'static str>,
    /// Once answered: whether it was right and which values tell the two
    /// claims apart, then every value side by side and what each tells
    /// apart.
    pub feedback: Vec<Said>,
}

/// A sentence and the result it tells of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// The result label, for styling.
    pub result: &'static str,
    /// The sentence.
    pub text: Said,
}

/// A finish's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerdictView {
    /// Whether the queue accepted it.
    pub accepted: bool,
    /// Why, in words (who finished what, or the refusal's numbers).
    pub words: Said,
    /// The reason's code (`token_mismatch`, ...) when refused, in
    /// English: the replay's own word, shown after its name. A Korean
    /// learner reads the name alone (no English code in Korean text).
    pub reason: Option<&'static str>,
    /// The reason's name in the learner's words.
    pub reason_name: Option<String>,
}

/// One statement the queue ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatementView {
    /// The SQL, as in the store; or, while the lab asks the learner to
    /// write it, why it is kept back ([`StatementView::kept_back`]).
    pub sql: String,
    /// Whether the SQL is kept back: the open lab level's answer.
    pub kept_back: bool,
    /// `:name = value, ...`; empty when nothing was bound.
    pub params: String,
    /// Rows changed or read; `None` for `BEGIN IMMEDIATE` and `COMMIT`.
    pub effect: Option<String>,
    /// Whether this statement is the refusal: the fenced finish that
    /// changed 0 rows.
    pub refusal: bool,
    /// A sweep that changed nothing (no job out of attempts, none past its
    /// deadline): shown folded, behind one line with the others, so a
    /// claim's step shows the claim. A sweep that changed a row is shown.
    pub folded: bool,
}

/// A row before and after, cell by cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangeView {
    /// The job id.
    pub id: String,
    /// One text per column; `—` for a row that did not exist.
    pub before: Vec<String>,
    /// One text per column.
    pub after: Vec<String>,
    /// Per column, whether it changed.
    pub changed: Vec<bool>,
}

impl ChangeView {
    /// Whether nothing changed (a refused finish's row).
    pub fn unchanged(&self) -> bool {
        !self.changed.contains(&true)
    }
}

/// The card for the last applied event; `None` before the first.
pub fn card(session: &Session) -> Option<StepView> {
    let lang = session.lang;
    let stepper = &session.stepper;
    let frame = stepper.frame()?;
    let mut fence_notes = Vec::new();
    let (summary, verdict, conditions, refused) = match &frame.result.outcome {
        Outcome::Finished(finish) => {
            let event = frame.result.event;
            let said = Assertion::Finish {
                event,
                at: frame.result.at,
                accepted: finish.accepted(),
            };
            let words = if finish.accepted() {
                describe(lang, frame).stating(said)
            } else {
                Said::fill(
                    lang,
                    key!("verdict.refused_words"),
                    &[("worker", frame.result.worker.clone())],
                    vec![("reason", reasons::why(session, event))],
                )
                .stating(said)
            };
            // The field question's feedback says the note on the condition
            // the learner picked; one screen says it once.
            let picked = match stepper.prompt() {
                Prompt::AnsweredField(answer) => Some(answer.picked),
                _ => None,
            };
            fence_notes = reasons::fence_notes(session, event, picked);
            let mut verdict = VerdictView {
                accepted: finish.accepted(),
                words,
                reason: (finish.reason().filter(|_| lang == Lang::En))
                    .map(|reason| reason.as_str()),
                reason_name: finish.reason().map(|reason| reason_name(lang, reason)),
            };
            let mut conditions = side_by_side(finish, frame.result.at);
            // "Which condition did it fail?" is open: the stamp and the row stay
            // side by side, but nothing names or marks the answer.
            if stepper.question() == Some(Question::Field) {
                verdict.words = Said::plain(frame.result.worker.clone());
                (verdict.reason, verdict.reason_name) = (None, None);
                conditions.iter_mut().for_each(|line| line.differs = false);
                fence_notes.clear();
            }
            (None, Some(verdict), conditions, !finish.accepted())
        }
        outcome => {
            let summary = Summary {
                result: outcome.label(),
                text: describe(lang, frame),
            };
            (Some(summary), None, Vec::new(), false)
        }
    };
    let statements: Vec<StatementView> = frame
        .sql
        .iter()
        .map(|executed| statement(session, executed, refused))
        .collect();
    let folded = statements.iter().filter(|line| line.folded).count();
    let folded_note =
        (folded > 0).then(|| lang.fill(key!("sql.folded"), &[("n", folded.to_string())]));
    // Only a send, or an event by an actor holding no claim, runs no SQL.
    let no_sql = statements.is_empty().then(|| {
        let key = match &frame.result.outcome {
            Outcome::Sent { reason: None, .. } => key!("sql.none_send"),
            _ => key!("sql.none_no_claim"),
        };
        lang.text(key).to_owned()
    });
    let changes = row_changes(stepper.timeline(), stepper.position() - 1)
        .iter()
        .map(change)
        .collect();
    Some(StepView {
        summary,
        verdict,
        conditions,
        fence_notes,
        statements,
        folded_note,
        no_sql,
        changes,
        cards: match (&frame.result.outcome, session.scene()) {
            (Outcome::Finished(_), Some(_)) => {
                cards::cards(stepper, lang, &cards::workers(stepper))
            }
            _ => Vec::new(),
        },
        // In a lesson a course point is a scene of its own, after its event's.
        point: point(session, frame).filter(|_| {
            session
                .scene()
                .is_none_or(|(scene, _)| matches!(scene.idea, Idea::Point(_)))
        }),
    })
}

/// The course point of the chapter at the learner's place, its numbers
/// filled from the chapter's own replay as its narration's are
/// ([`Chapter::narration`](crate::playground::Chapter::narration)); none in
/// a timeline the learner changed, whose facts may differ. A point whose
/// text shows something below it (the quiz, the readings, the designs) is
/// left out if that cannot be computed there, rather than shown promising
/// what is not on screen (`tests/chapters.rs` holds every chapter's
/// points to being shown).
fn point(session: &Session, frame: &crate::Frame) -> Option<PointView> {
    let stepper = &session.stepper;
    let (chapter, point) = chapters::point_at(stepper.chapter(), stepper.position())?;
    let lang = session.lang;
    let text = point.text(chapter, lang, &frame.result.worker);
    let code = match &frame.result.outcome {
        Outcome::Claimed { claim: Some(claim) } if point.key == chapters::CLAIM_RESULT => {
            serde_json::to_string_pretty(claim).ok()
        }
        _ => None,
    };
    let quiz = match point.key == quiz::TELL_APART {
        true => Some(quiz_view(session)?),
        false => None,
    };
    let readings = match point.key == chapters::ONE_BOUNDARY {
        true => Some(readings_view(session)?),
        false => None,
    };
    let designs = match point.key == chapters::WHY_LEASED {
        true => Some(designs_view(session)?),
        false => None,
    };
    Some(PointView {
        key: point.key,
        title: lang.text(point.title).to_owned(),
        text,
        code,
        quiz,
        readings,
        designs,
    })
}

/// The designs the course turns down, each run on the timeline up to the
/// learner's place (a point's: the chapter's own, unchanged).
fn designs_view(session: &Session) -> Option<DesignsView> {
    let stepper = &session.stepper;
    let designs = Designs::at(stepper.scenario(), stepper.position()).ok()??;
    Some(super::designs::view(
        session.lang,
        stepper.position(),
        &designs,
    ))
}

/// The lease's end read every way at the learner's place, each reading run
/// on the chapter's own scenario.
fn readings_view(session: &Session) -> Option<ReadingsView> {
    let stepper = &session.stepper;
    let boundary = Boundary::at(stepper.scenario(), stepper.position()).ok()??;
    let mut view = super::readings::view(session.lang, stepper.position(), &boundary);
    let conditions = (view.readings.iter_mut()).flat_map(|reading| &mut reading.conditions);
    for condition in conditions {
        condition.sql = shown_sql(session, &condition.sql);
    }
    Some(view)
}

/// `sql` as the page may show it: itself, or the words saying it is kept
/// back while the open lab level asks the learner to write it.
pub(super) fn shown_sql(session: &Session, sql: &str) -> String {
    match session.keeps_back(sql) {
        true => session.lang.text(key!("lab.kept_back")).to_owned(),
        false => sql.to_owned(),
    }
}

/// The quiz at the learner's place, its right answers read from the two
/// claims it compares.
fn quiz_view(session: &Session) -> Option<QuizView> {
    let lang = session.lang;
    let pair = quiz::pair(&session.stepper)?;
    let [(first, claim), (second, _)] = pair;
    let question = Said::of(
        lang,
        Assertion::BothHold {
            position: session.stepper.position(),
            first: first.to_owned(),
            second: second.to_owned(),
            job: claim.id.clone(),
        },
    );
    let choices = (quiz::Field::ALL.into_iter())
        .map(|field| {
            (
                field.name(),
                lang.text(match field {
                    quiz::Field::Owner => key!("quiz.choice.owner"),
                    quiz::Field::Id => key!("quiz.choice.id"),
                    quiz::Field::Token => key!("quiz.choice.token"),
                    quiz::Field::Attempt => key!("quiz.choice.attempt"),
                })
                .to_owned(),
            )
        })
        .collect();
    let picked = session.quiz.answer_in(&session.stepper);
    let feedback = picked.map_or_else(Vec::new, |picked| {
        let telling = quiz::telling(&pair);
        let position = session.stepper.position();
        let verdict = Said::of(
            lang,
            Assertion::Picked {
                position,
                picked,
                right: telling.contains(&picked),
            },
        )
        .then(Said::of(
            lang,
            Assertion::Tells {
                position,
                first: first.to_owned(),
                second: second.to_owned(),
                fields: telling.clone(),
            },
        ));
        let values = (quiz::Field::ALL.into_iter()).map(|field| {
            let values = Assertion::Values {
                position,
                first: first.to_owned(),
                second: second.to_owned(),
                field,
                values: [field.of(pair[0].1), field.of(pair[1].1)],
            };
            Said::of(lang, values)
        });
        [verdict]
            .into_iter()
            .chain(values)
            .chain([Said::plain(lang.text(key!("quiz.why")))])
            .collect()
    });
    Some(QuizView {
        question,
        choices,
        picked: picked.map(quiz::Field::name),
        feedback,
    })
}

/// A statement's bound values as `:name = value, ...`.
pub(super) fn params(executed: &Executed) -> String {
    executed
        .params
        .iter()
        .map(|(name, value)| {
            format!(
                "{name} = {}",
                serde_json::to_string(value).unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn statement(session: &Session, executed: &Executed, refused: bool) -> StatementView {
    let lang = session.lang;
    let params = params(executed);
    // The guarded UPDATE that changed nothing is where the refusal
    // happened: "0 rows changed" is the rejection.
    let refusal = refused && executed.sql == store::FINISH.trim() && executed.rows == 0;
    let bracket = matches!(&*executed.sql, "BEGIN IMMEDIATE" | "COMMIT");
    let effect = (!bracket).then(|| {
        if refusal {
            lang.text(key!("sql.rejected_note")).to_owned()
        } else {
            let key = if executed.write {
                key!("sql.changed")
            } else {
                key!("sql.read")
            };
            lang.fill(key, &[("n", executed.rows.to_string())])
        }
    });
    let sweep = [store::QUARANTINE.trim(), store::EXPIRE.trim()].contains(&&*executed.sql);
    StatementView {
        sql: shown_sql(session, &executed.sql),
        kept_back: session.keeps_back(&executed.sql),
        params,
        effect,
        refusal,
        folded: sweep && executed.rows == 0,
    }
}

fn change(change: &RowChange) -> ChangeView {
    let cells = |row: &Option<leasefence::JobRow>| -> Vec<String> {
        COLUMNS
            .iter()
            .map(|column| {
                row.as_ref()
                    .map_or_else(|| "—".to_owned(), |row| cell(row, column))
            })
            .collect()
    };
    let (before, after) = (cells(&change.before), cells(&change.after));
    let changed_columns = change.changed_columns();
    let changed = COLUMNS
        .iter()
        .map(|c| changed_columns.contains(c))
        .collect();
    ChangeView {
        id: change.id.clone(),
        before,
        after,
        changed,
    }
}
