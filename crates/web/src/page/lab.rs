//! The lab's panel: a level picker, the learner's statement in a text box,
//! the grade button and the answer. Drawn from [`LabView`] only; the
//! answer is in a live region, so a screen reader hears it when it comes.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use super::dom::{El, header_row, replace_children};
use super::{Page, Redraw, notify, progress, to_js_error};
use leasefence_course::key;
use leasefence_course::lab::LEVELS;
use leasefence_course::playground::Lang;
use leasefence_course::playground::view::{AnswerView, LabView};

/// What the learner does in the lab.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum LabAction {
    /// The panel was opened or closed.
    Toggled(bool),
    /// A level's button, and the text in the box as it was left (kept
    /// for the level being left, graded or not).
    Level(String, Option<String>),
    /// Grade the text in the box.
    Grade(String),
    /// Show the level's next hint, keeping the box's text.
    Hint(String),
    /// Put the level's starting statement back in the box.
    Reset,
    /// Open the last answer's counterexample in the timeline.
    Open,
}

impl Page {
    /// Applies a lab action and redraws the lab's panel; an opened
    /// counterexample is a new timeline, so everything else too.
    pub(super) fn lab(self: &Rc<Self>, action: LabAction) -> Result<Redraw, JsValue> {
        if let LabAction::Grade(sql) = action {
            self.grade_after_paint(sql)?;
            return Ok(Redraw::Nothing);
        }
        let mut state = self.state.borrow_mut();
        let session = &mut state.session;
        let open = session.lab().map(|bench| bench.level.id);
        let mut opened = None;
        let redraw = match action {
            LabAction::Toggled(true) if open.is_none() => {
                opened = Some(LEVELS[0].id);
                Redraw::Nothing
            }
            LabAction::Toggled(false) if open.is_some() => {
                session.close_lab();
                Redraw::Nothing
            }
            LabAction::Toggled(_) => return Ok(Redraw::Nothing),
            LabAction::Level(id, typed) => {
                if let (Some(left), Some(typed)) = (open, typed) {
                    progress::save_lab(&self.window, left, &typed);
                }
                opened = LEVELS
                    .iter()
                    .map(|level| level.id)
                    .find(|known| *known == id);
                Redraw::Nothing
            }
            LabAction::Grade(_) => return Ok(Redraw::Nothing),
            LabAction::Hint(sql) => {
                session.next_hint(&sql);
                Redraw::Nothing
            }
            LabAction::Reset => {
                if let Some(id) = open {
                    session.close_lab();
                    session.open_lab(id);
                }
                Redraw::Nothing
            }
            LabAction::Open => {
                session.open_counterexample().map_err(to_js_error)?;
                Redraw::All
            }
        };
        // A level opened afresh shows the statement kept from last time.
        if let Some(id) = opened.filter(|id| open != Some(*id)) {
            session.open_lab(id);
            if let Some(kept) = progress::load_lab(&self.window, id) {
                session.set_lab_text(&kept);
            }
        }
        let now_open = state.session.lab().map(|bench| bench.level.id);
        drop(state);
        if redraw == Redraw::Nothing {
            self.show_lab();
        }
        // Another level open, or none: the statement the learner writes is
        // kept back from the step and the statement panel, or shown again.
        if redraw == Redraw::Nothing && now_open != open {
            self.show_statements()?;
            return Ok(Redraw::Position);
        }
        Ok(redraw)
    }

    /// Grading walks every ordering (about 0.4 s on the page, BENCHMARKS.md):
    /// the answer says "grading" first, the button rests, and the grading
    /// runs two frames later, once the browser has painted that.
    fn grade_after_paint(self: &Rc<Self>, sql: String) -> Result<(), JsValue> {
        let lang = self.state.borrow().session.lang;
        if let Some(parts) = self.parts.borrow().as_ref() {
            if let Ok(Some(answer)) = parts.lab.query_selector(".lf-lab-answer") {
                answer.set_text_content(Some(lang.text(key!("lab.grading"))));
            }
            if let Ok(Some(button)) = parts.lab.query_selector("[data-action=lab-grade]") {
                button.set_attribute("aria-disabled", "true")?;
            }
        }
        let page = Rc::clone(self);
        let window = self.window.clone();
        let grade = Closure::once_into_js(move || {
            if let Err(err) = page.grade_now(&sql) {
                web_sys::console::error_1(&err);
            }
        });
        let painted = Closure::once_into_js(move || {
            let _ = window.request_animation_frame(grade.unchecked_ref());
        });
        self.window
            .request_animation_frame(painted.unchecked_ref())?;
        Ok(())
    }

    /// Grades `sql`, keeps it, draws the answer and tells the host.
    fn grade_now(self: &Rc<Self>, sql: &str) -> Result<(), JsValue> {
        let mut state = self.state.borrow_mut();
        let session = &mut state.session;
        let level = session.lab().map(|bench| bench.level.id);
        session.grade_lab(sql).map_err(to_js_error)?;
        if let Some(level) = level {
            progress::save_lab(&self.window, level, sql);
        }
        drop(state);
        self.show_lab();
        // The statement now travels in the address, as after any lab action.
        self.keep_progress();
        super::address::write(self)?;
        notify::complete(self)
    }
}

/// The panel, closed, and its body.
pub(super) fn build(doc: &Document, lang: Lang) -> (El, Element) {
    El::panel(doc, "lf-lab", lang.text(key!("lab.title")))
}

/// Draws the panel: open with its view when the lab is, else closed.
pub(super) fn draw(
    doc: &Document,
    (panel, body): (&Element, &Element),
    lang: Lang,
    view: Option<&LabView>,
) {
    let Some(view) = view else {
        let _ = panel.remove_attribute("open");
        replace_children(body, []);
        return;
    };
    let _ = panel.set_attribute("open", "");
    let levels = El::new(doc, "div")
        .class("lf-lab-levels")
        .attr("role", "group")
        .attr("aria-label", lang.text(key!("lab.title")))
        .children(view.levels.iter().map(|level| {
            El::button(doc, "lab-level", &level.label)
                .attr("data-arg", level.id)
                .attr("aria-pressed", if level.current { "true" } else { "false" })
        }));
    let label = lang.text(key!("lab.sql_label"));
    let editor = El::new(doc, "textarea")
        .class("lf-lab-sql")
        .attr("aria-label", label)
        .attr("spellcheck", "false")
        .attr("rows", "5")
        .text(&view.sql);
    let hint = (view.more_hints.as_ref()).map(|more| El::button(doc, "lab-hint", more));
    let buttons = El::new(doc, "div").class("lf-row").children(
        [
            El::button(doc, "lab-grade", lang.text(key!("lab.grade"))).class("lf-primary"),
            El::button(doc, "lab-reset", lang.text(key!("lab.reset"))),
        ]
        .into_iter()
        .chain(hint),
    );
    let answer = El::new(doc, "div")
        .class("lf-lab-answer")
        .attr("role", "status")
        .children(view.answer.as_ref().map(|answer| answer_block(doc, answer)));
    let mut children = vec![
        El::new(doc, "p")
            .class("lf-muted")
            .text(lang.text(key!("lab.intro"))),
        levels,
        El::new(doc, "p").text(&view.goal),
        El::new(doc, "label").class("lf-lab-label").text(label),
        editor,
    ];
    children.extend(
        view.given
            .iter()
            .map(|given| El::new(doc, "p").class("lf-muted").text(given)),
    );
    if !view.hints.is_empty() {
        children.push(
            El::new(doc, "ol")
                .class("lf-lab-hints")
                .children(view.hints.iter().map(|hint| El::new(doc, "li").text(hint))),
        );
    }
    children.extend([buttons, answer]);
    replace_children(body, children);
}

/// The answer: its headline, its lines, the two tables, the open button.
fn answer_block(doc: &Document, answer: &AnswerView) -> El {
    let mut block = El::new(doc, "div")
        .attr("data-passed", if answer.passed { "true" } else { "false" })
        .child(
            El::new(doc, "p")
                .class("lf-lab-headline")
                .text(answer.headline.text()),
        );
    if !answer.events.is_empty() {
        block = block.child(
            El::new(doc, "ol").class("lf-lab-events").children(
                answer
                    .events
                    .iter()
                    .map(|line| El::new(doc, "li").text(line)),
            ),
        );
    }
    block = block.children(
        answer
            .lines
            .iter()
            .map(|line| El::new(doc, "p").text(line.text())),
    );
    if let Some(rows) = &answer.rows {
        let titles = std::iter::once("").chain(rows.columns.iter().copied());
        let mut lines = vec![header_row(doc, titles)];
        for (side, cells) in &rows.rows {
            lines.push(
                El::new(doc, "tr")
                    .child(El::new(doc, "th").attr("scope", "row").text(side))
                    .children(cells.iter().map(|cell| El::new(doc, "td").text(cell))),
            );
        }
        let table = El::new(doc, "table")
            .class("lf-invariants-table")
            .children(lines);
        block = block.child(
            El::new(doc, "div")
                .class("lf-scroll")
                .attr("tabindex", "0")
                .child(table),
        );
    }
    if let Some(open) = &answer.open {
        block = block.child(El::button(doc, "lab-open", open));
    }
    block
}
