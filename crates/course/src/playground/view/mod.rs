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

mod cards;
mod compare;
mod designs;
mod events;
mod invariants;
mod lab;
mod lanes;
mod lock_lane;
pub(crate) mod names;
mod orderings;
mod prompt;
mod readings;
mod reasons;
mod scene;
mod sliders;
mod statements;
mod step;

pub use cards::Card;
pub use compare::{BreakLink, CompareRow, CompareView};
pub use designs::{DesignView, DesignsView};
pub use events::{EventLine, EventMark};
pub use invariants::{INVARIANTS, InvariantRow, InvariantsView, Light};
pub use lab::{AnswerView, FUNCTIONS, LabView, LevelButton, SideBySide, because, lab};
pub use lanes::{Anchor, LanesView, Shape};
pub use lock_lane::{LaneRow, LaneView};
pub use orderings::{CountRow, CountTable, OpenButton, OrderingsView};
pub use prompt::{Answer, Asked, PromptView};
pub use readings::{ConditionView, ReadingView, ReadingsView};
pub use scene::{PaneButton, SceneView};
pub use sliders::SliderView;
pub use statements::{
    ActorView, LineView, NowView, SideView, StatementsView, Verdict, view as statements,
};
pub use step::{ChangeView, PointView, QuizView, StatementView, StepView, Summary, VerdictView};

use crate::key;
use crate::playground::assertions::{Assertion, Said};
use crate::playground::explain::{COLUMNS, cell, describe};
use crate::playground::lesson::LESSON;
use crate::playground::session::Session;
use crate::playground::show::Layout;
use crate::playground::status::StatusLine;
use crate::playground::stepper::SANDBOX;
use crate::playground::{CHAPTERS, twist};
use leasefence::replay::Outcome;
use serde::Serialize;

/// What depends on the timeline alone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScenarioView {
    /// The chapter id (or `sandbox`) the chapter picker shows.
    pub chapter: String,
    /// The picker's choices, in course order, finished ones marked.
    pub chapters: Vec<ChapterOption>,
    /// The title of what is shown (a chapter's, the lesson's own, or the
    /// learner's timeline's): compact mode shows it in place of the picker.
    pub title: String,
    /// One line per event, in order.
    pub events: Vec<EventLine>,
    /// The scenario as pretty JSON, for the editor.
    pub editor_text: String,
    /// What the editor last said.
    pub editor_status: Option<StatusLine>,
    /// Whether the fencing off vs on comparison is open.
    pub compare_open: bool,
    /// The workers the lanes' tools can stall, crash or restart.
    pub actors: Vec<String>,
    /// Which parts of the playground are on screen.
    pub layout: Layout,
}

/// What depends on the learner's place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PositionView {
    /// How many events are applied.
    pub position: usize,
    /// How many events there are.
    pub total: usize,
    /// "Step n of total".
    pub position_text: Said,
    /// The chapter's narration (or why it is hidden).
    pub narration: Said,
    /// The event list's marks that changed since the last drawing.
    pub marks: Vec<EventMark>,
    /// The prediction question, its feedback and the score.
    pub prompt: PromptView,
    /// The lanes' tools that would change nothing from here
    /// ([`twist::changes`]), by their [`twist::Twist::arg`]: the page marks
    /// them unavailable (`aria-disabled`, so a focused one keeps the focus).
    pub idle_twists: Vec<String>,
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
    /// What the screen reader hears, when it should hear something: the
    /// sentences on screen it reads out, said again.
    pub announcement: Option<Said>,
    /// What went wrong with what the page was asked to show.
    pub notice: Option<String>,
    /// The header's tagline and the footer's rule: while questions are
    /// still to be answered, worded so that they give no verdict away
    /// (the course's title refuses the late worker's stamp).
    pub tagline: &'static str,
    /// See [`PositionView::tagline`].
    pub footer: &'static str,
    /// The finish-time slider (its verdict depends on the place: hidden
    /// while it is still to be predicted).
    pub finish: SliderView,
    /// The lease-length slider.
    pub lease: SliderView,
    /// The invariants and every ordering, when open.
    pub invariants: Option<InvariantsView>,
    /// The scene on screen, in a lesson: which view shows and which the
    /// learner may switch to. `None` on the workbench, which shows them all.
    pub scene: Option<SceneView>,
}

/// A choice of the chapter picker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChapterOption {
    /// The chapter id.
    pub id: &'static str,
    /// Its title, marked when the learner has finished it.
    pub label: String,
}

/// The way on at the end of a chapter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextChapter {
    /// The next chapter's id.
    pub id: &'static str,
    /// What the button says.
    pub label: String,
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
        chapter: stepper.chapter().to_owned(),
        chapters: chapter_options(session),
        title: session.title_of(stepper.chapter()),
        events: events::lines(session),
        editor_text: pretty(&stepper.scenario().to_json()),
        editor_status: (session.editor_status.as_ref()).map(|status| status.line(session.lang)),
        compare_open: session.compare_open(),
        actors: twist::actors(stepper.scenario())
            .into_iter()
            .map(str::to_owned)
            .collect(),
        layout: session.layout(),
    }
}

/// What depends on the learner's place. `drawn` is the position the event
/// list was last drawn at (`None` for a fresh list); `lanes_width` the
/// lanes panel's width in CSS pixels (0 when not yet measured).
pub fn position(session: &Session, drawn: Option<usize>, lanes_width: f64) -> PositionView {
    let stepper = &session.stepper;
    let lang = session.lang;
    let (position, total) = (stepper.position(), stepper.total());
    let prompt = prompt::prompt(session);
    let step = step::card(session);
    let announcement = match (&prompt.question, stepper.frame()) {
        // Feedback beside a question is the verdict the field question
        // follows: heard first, as it is read first.
        (Some(question), _) => Some(match &prompt.feedback {
            Some(feedback) => feedback.clone().then(question.text.clone()),
            None => question.text.clone(),
        }),
        _ if drawn == Some(position) => None,
        (None, Some(frame)) => {
            let mut said = describe(lang, frame);
            if let Some(feedback) = &prompt.feedback {
                said = feedback.clone().then(said);
            }
            // A course point appeared in the step card: say its heading.
            if let Some(point) = step.as_ref().and_then(|step| step.point.as_ref()) {
                said = said.then(Said::plain(point.title.clone()));
            }
            Some(said)
        }
        (None, None) => Some(Said::plain(lang.text(key!("step.none")))),
    };
    PositionView {
        position,
        total,
        position_text: Said::of(lang, Assertion::At { position, total }),
        narration: narration(session),
        marks: events::marks(session, drawn),
        prompt,
        idle_twists: idle_twists(stepper),
        lanes: lanes::draw(stepper, lang, lanes_width),
        step,
        table: stepper
            .timeline()
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
        notice: session.notice.clone(),
        tagline: lang.text(match stepper.answers_ahead() {
            true => key!("app.tagline"),
            false => key!("app.tagline.told"),
        }),
        footer: lang.text(match stepper.answers_ahead() {
            true => key!("footer.rules"),
            false => key!("footer.rules.told"),
        }),
        finish: sliders::finish(session),
        lease: sliders::lease(session),
        invariants: invariants::view(session),
        scene: scene::view(session),
    }
}

/// The lanes' tools that would change nothing at the learner's place.
fn idle_twists(stepper: &crate::playground::stepper::Stepper) -> Vec<String> {
    let scenario = &stepper.scenario();
    twist::actors(scenario)
        .into_iter()
        .flat_map(|worker| {
            twist::Twist::ALL
                .into_iter()
                .filter(move |twist| !twist::changes(scenario, stepper.position(), worker, *twist))
                .map(move |twist| twist.arg(worker))
        })
        .collect()
}

/// The lanes alone, `width` pixels wide (for a resize).
pub fn lanes(session: &Session, width: f64) -> LanesView {
    lanes::draw(&session.stepper, session.lang, width)
}

/// The chapter's narration. While the learner predicts, it waits until
/// the last question is answered (it tells how the events end); an
/// author's own narration does not wait, as it sets the questions up. A
/// timeline the learner changed is told from its own verdicts, never from
/// the chapter's old text.
fn narration(session: &Session) -> Said {
    let lang = session.lang;
    let stepper = &session.stepper;
    let authors = (stepper.chapter() == LESSON && stepper.forked_from().is_none())
        .then(|| session.lesson()?.narration(lang))
        .flatten();
    if stepper.answers_ahead() {
        return Said::plain(authors.unwrap_or(lang.text(key!("predict.narration_hidden"))));
    }
    // An ordering opened from the invariants panel is not the learner's
    // change of its chapter: say where it came from and why it was opened.
    if let Some(opened) = session.opened() {
        let values = [
            ("title", session.title_of(&opened.from)),
            ("variant", names::side_name(lang, opened.side)),
        ];
        return Said::fill(
            lang,
            key!("chapter.opened"),
            &values,
            vec![("story", story(session))],
        );
    }
    // A chapter's own narration is a template filled from its replay and
    // checked against it by the chapters' tests.
    match (stepper.forked_from(), stepper.chapter()) {
        (Some(chapter), _) => Said::fill(
            lang,
            key!("chapter.forked"),
            &[("title", session.title_of(chapter))],
            vec![("story", story(session))],
        ),
        (None, SANDBOX) => Said::fill(
            lang,
            key!("chapter.sandbox.story"),
            &[],
            vec![("story", story(session))],
        ),
        (None, LESSON) => match authors {
            Some(told) => Said::plain(told),
            None => story(session),
        },
        (None, chapter) => match super::chapters::find(chapter) {
            Some(chapter) => Said::plain(chapter.narration(lang)),
            None => story(session),
        },
    }
}

/// The timeline's verdicts in sentences: each finish, accepted or refused
/// and why, in order.
fn story(session: &Session) -> Said {
    let lang = session.lang;
    let told = (session.stepper.timeline().frames.iter())
        .filter_map(|frame| {
            let Outcome::Finished(finish) = &frame.result.outcome else {
                return None;
            };
            let event = frame.result.event;
            let values = [
                ("worker", frame.result.worker.clone()),
                ("at", frame.result.at.to_string()),
            ];
            let verdict = Assertion::Finish {
                event,
                at: frame.result.at,
                accepted: finish.accepted(),
            };
            let said = if finish.accepted() {
                Said::plain(lang.fill(key!("story.accepted"), &values))
            } else {
                let why = reasons::why(session, event);
                Said::fill(lang, key!("story.refused"), &values, vec![("reason", why)])
            };
            Some(said.stating(verdict))
        })
        .reduce(Said::then);
    told.unwrap_or_else(|| Said::plain(lang.text(key!("story.no_finish"))))
}

/// The picker's choices: the author's lesson (if any), every chapter in
/// course order, then the sandbox where it is offered (or where the
/// learner's timeline already is one: a dragged finish).
pub fn chapter_options(session: &Session) -> Vec<ChapterOption> {
    let lang = session.lang;
    let lesson = session.lesson().map(|_| LESSON);
    let ids = lesson
        .into_iter()
        .chain(CHAPTERS.iter().map(|chapter| chapter.id));
    let sandbox = session.show.sandbox || session.stepper.chapter() == SANDBOX;
    ids.chain(sandbox.then_some(SANDBOX))
        .map(|id| {
            let title = session.title_of(id);
            let label = if session.progress().contains(&id) {
                lang.fill(key!("chapter.done"), &[("title", title)])
            } else {
                title
            };
            ChapterOption { id, label }
        })
        .collect()
}

fn receiver(session: &Session) -> ReceiverView {
    let ledger = session
        .stepper
        .timeline()
        .receiver_after(session.stepper.position());
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
            key!("receiver.total"),
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
