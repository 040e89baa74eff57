//! What the page draws, as plain values computed from a [`Session`].
//!
//! The page (`web::page`) turns these into elements and nothing else: it
//! never looks at SQL text, decides a verdict or a harm, or reads the DOM
//! to decide what to compute. Everything a learner can see is therefore
//! testable natively: `tests/view.rs` computes the view of every chapter
//! at every position.
//!
//! Two views, because they change at different rates:
//!
//! * [`ScenarioView`]: what depends on the timeline alone (the event list,
//!   the editor's text, the sliders), drawn when a timeline is loaded;
//! * [`PositionView`]: what depends on where the learner stands (the
//!   narration, the lanes, the step card, the table, the receiver, the
//!   comparison, the announcement), drawn after every move.

mod compare;
mod events;
mod lanes;
mod sliders;
mod step;

pub use compare::{CompareRow, CompareView};
pub use events::{EventLine, EventMark};
pub use lanes::{Anchor, LanesView, Shape};
pub use sliders::SliderView;
pub use step::{ChangeView, StatementView, StepView, Summary, VerdictView};

use crate::playground::Lang;
use crate::playground::explain::{COLUMNS, cell, describe};
use crate::playground::session::{Session, Status};
use crate::playground::stepper::Guessed;
use serde::Serialize;

/// What depends on the timeline alone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScenarioView {
    /// The chapter id (or `sandbox`) the chapter picker shows.
    pub chapter: String,
    /// One line per event, in order.
    pub events: Vec<EventLine>,
    /// The scenario as pretty JSON, for the editor.
    pub editor_text: String,
    /// What the editor last said.
    pub editor_status: Option<Status>,
    /// Whether the fencing off vs on comparison is open.
    pub compare_open: bool,
    /// The finish-time slider.
    pub finish: SliderView,
    /// The lease-length slider.
    pub lease: SliderView,
}

/// What depends on the learner's place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PositionView {
    /// How many events are applied.
    pub position: usize,
    /// How many events there are.
    pub total: usize,
    /// "Step n of total".
    pub position_text: String,
    /// The chapter's narration (or why it is hidden).
    pub narration: String,
    /// The event list's marks that changed since the last drawing.
    pub marks: Vec<EventMark>,
    /// The prediction question, its feedback and the score.
    pub prompt: PromptView,
    /// The lanes, at the width asked for.
    pub lanes: LanesView,
    /// What the last event did; `None` before the first.
    pub step: Option<StepView>,
    /// The jobs table after the last event.
    pub table: Vec<TableRow>,
    /// The receiver's ledger.
    pub receiver: ReceiverView,
    /// The comparison, when open.
    pub compare: Option<CompareView>,
    /// What the screen reader hears, when it should hear something.
    pub announcement: Option<String>,
}

/// The prediction strip above the lanes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct PromptView {
    /// The question awaiting an answer (the page adds the two buttons).
    pub question: Option<String>,
    /// What the last answer was worth.
    pub feedback: Option<String>,
    /// Answers right so far, once any was given.
    pub score: Option<String>,
}

/// One row of the jobs table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableRow {
    /// The row's state (`pending`, `leased`, ...), for styling.
    pub state: &'static str,
    /// One text per [`COLUMNS`] entry.
    pub cells: Vec<String>,
}

/// The receiver's ledger.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ReceiverView {
    /// `id → qty` per applied job; empty before the first delivery.
    pub items: Vec<String>,
    /// Jobs and total qty, when anything was applied.
    pub total: Option<String>,
}

/// What depends on the timeline alone; see [`ScenarioView`].
pub fn scenario(session: &Session) -> ScenarioView {
    let stepper = &session.stepper;
    ScenarioView {
        chapter: stepper.chapter.clone(),
        events: events::lines(session),
        editor_text: pretty(&stepper.scenario.to_json()),
        editor_status: session.editor_status.clone(),
        compare_open: session.compare_open(),
        finish: sliders::finish(session),
        lease: sliders::lease(session),
    }
}

/// What depends on the learner's place. `drawn` is the position the event
/// list was last drawn at (`None` for a fresh list); `lanes_width` the
/// lanes panel's width in CSS pixels (0 when not yet measured).
pub fn position(session: &Session, drawn: Option<usize>, lanes_width: f64) -> PositionView {
    let stepper = &session.stepper;
    let lang = session.lang;
    let (position, total) = (stepper.position, stepper.total());
    let counted = [("n", position.to_string()), ("total", total.to_string())];
    let prompt = prompt(session);
    let announcement = match (&prompt.question, stepper.frame()) {
        (Some(question), _) => Some(question.clone()),
        _ if drawn == Some(position) => None,
        (None, Some(frame)) => {
            let said = describe(lang, frame);
            Some(match &prompt.feedback {
                Some(feedback) => format!("{feedback} {said}"),
                None => said,
            })
        }
        (None, None) => Some(lang.text("step.none").to_owned()),
    };
    PositionView {
        position,
        total,
        position_text: lang.fill("controls.position", &counted),
        narration: narration(session),
        marks: events::marks(session, drawn),
        prompt,
        lanes: lanes::draw(stepper, lang, lanes_width),
        step: step::card(session),
        table: stepper
            .timeline
            .rows_after(position)
            .iter()
            .map(|row| TableRow {
                state: row.state.as_str(),
                cells: COLUMNS.iter().map(|column| cell(row, column)).collect(),
            })
            .collect(),
        receiver: receiver(session),
        compare: compare::view(session),
        announcement,
    }
}

/// The lanes alone, `width` pixels wide (for a resize).
pub fn lanes(session: &Session, width: f64) -> LanesView {
    lanes::draw(&session.stepper, session.lang, width)
}

/// The chapter's narration; while predicting, a note instead (the
/// narration tells how each finish ends); for a slider-changed chapter,
/// what it was about.
fn narration(session: &Session) -> String {
    let lang = session.lang;
    let stepper = &session.stepper;
    match (&stepper.forked_from, stepper.predict) {
        (_, true) => lang.text("predict.narration_hidden").to_owned(),
        (Some(chapter), false) => lang.fill(
            "chapter.forked",
            &[
                (
                    "title",
                    lang.text(&format!("chapter.{chapter}.title")).to_owned(),
                ),
                (
                    "text",
                    lang.text(&format!("chapter.{chapter}.text")).to_owned(),
                ),
            ],
        ),
        (None, false) => lang
            .text(&format!("chapter.{}.text", stepper.chapter))
            .to_owned(),
    }
}

fn prompt(session: &Session) -> PromptView {
    let lang = session.lang;
    let stepper = &session.stepper;
    let question = stepper.awaiting_guess.then(|| {
        let worker = stepper
            .scenario
            .events
            .get(stepper.position)
            .map(|event| event.worker.clone())
            .unwrap_or_default();
        lang.fill("predict.question", &[("worker", worker)])
    });
    let feedback = stepper
        .guessed
        .filter(|_| question.is_none())
        .map(|guessed| feedback(lang, guessed));
    let (right, made) = stepper.score;
    let score = (stepper.predict && made > 0).then(|| {
        lang.fill(
            "predict.score",
            &[("right", right.to_string()), ("total", made.to_string())],
        )
    });
    PromptView {
        question,
        feedback,
        score,
    }
}

/// What the page says after a prediction.
fn feedback(lang: Lang, guessed: Guessed) -> String {
    let verdict = lang.text(if guessed.accepted {
        "result.accepted"
    } else {
        "result.rejected"
    });
    let key = if guessed.right {
        "predict.right"
    } else {
        "predict.wrong"
    };
    lang.fill(key, &[("verdict", verdict.to_owned())])
}

fn receiver(session: &Session) -> ReceiverView {
    let ledger = session
        .stepper
        .timeline
        .receiver_after(session.stepper.position);
    if ledger.is_empty() {
        return ReceiverView::default();
    }
    let qty = ledger
        .values()
        .fold(0u64, |sum, qty| sum.saturating_add(*qty));
    ReceiverView {
        items: ledger
            .iter()
            .map(|(id, qty)| format!("{id} → {qty}"))
            .collect(),
        total: Some(session.lang.fill(
            "receiver.total",
            &[("jobs", ledger.len().to_string()), ("qty", qty.to_string())],
        )),
    }
}

/// Contract JSON re-indented for reading.
fn pretty(json: &str) -> String {
    serde_json::from_str::<serde_json::Value>(json)
        .ok()
        .and_then(|value| serde_json::to_string_pretty(&value).ok())
        .unwrap_or_default()
}
