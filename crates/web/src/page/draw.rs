//! The page's drawing: each view the core computes, handed to the panel
//! that draws it. Nothing here decides; the views come from
//! `playground::view`, and the panels' own files draw them.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::{
    Page, boundary, compare, dom, invariants, lab, lanes, panes, prompt, skeleton, statements,
    step, tables, timeline, twists,
};
use leasefence_course::playground::view;

impl Page {
    /// Draws the whole frame in the current language.
    pub(super) fn build(self: &Rc<Self>) -> Result<(), JsValue> {
        let parts = skeleton::build(self)?;
        lanes::watch(self, &parts.lanes)?;
        *self.parts.borrow_mut() = Some(parts);
        self.state.borrow_mut().drawn = None;
        self.show_lab();
        self.show_scenario(true)
    }

    /// Draws the whole frame again in the other language, keeping the
    /// drafts only the page holds: the editor's text and the lab's
    /// statement as the learner left them, not yet applied or graded.
    pub(super) fn rebuild(self: &Rc<Self>) -> Result<(), JsValue> {
        let drafts = self.parts.borrow().as_ref().map(drafts);
        self.build()?;
        if let (Some([editor, lab]), Some(parts)) = (drafts, self.parts.borrow().as_ref()) {
            parts.editor.set_value(&editor);
            if let Some(area) = lab_box(parts) {
                area.set_value(&lab);
            }
        }
        Ok(())
    }

    /// Draws the lab's panel (closed when the lab is).
    pub(super) fn show_lab(&self) {
        let state = self.state.borrow();
        let parts = self.parts.borrow();
        let Some(parts) = parts.as_ref() else {
            return;
        };
        let view = view::lab(&state.session);
        let lab = (&parts.lab_panel, &parts.lab);
        lab::draw(&self.doc, lab, state.session.lang, view.as_ref());
    }

    /// Draws what depends on the timeline; `refill_editor` puts the
    /// scenario's JSON in the editor (not after a refused edit, which
    /// keeps the learner's text).
    pub(super) fn show_scenario(&self, refill_editor: bool) -> Result<(), JsValue> {
        let mut state = self.state.borrow_mut();
        state.drawn = None;
        let view = view::scenario(&state.session);
        let borrowed = self.parts.borrow();
        let Some(parts) = borrowed.as_ref() else {
            return Ok(());
        };
        timeline::draw_lines(&self.doc, parts, &view)?;
        twists::draw(&self.doc, &parts.twists, state.session.lang, &view.actors);
        skeleton::show_scenario(
            &self.doc,
            (&self.root, parts),
            &view,
            refill_editor,
            state.share_status.map(|key| state.session.lang.text(key)),
        )?;
        drop((state, borrowed));
        self.show_statements()
    }

    /// Draws the statement panel, when it is open.
    pub(super) fn show_statements(&self) -> Result<(), JsValue> {
        let state = self.state.borrow();
        let parts = self.parts.borrow();
        let Some(parts) = parts.as_ref() else {
            return Ok(());
        };
        let lang = state.session.lang;
        let view = view::statements(&state.session);
        statements::draw(&self.doc, &parts.statements, lang, view.as_ref())
    }

    /// Draws what depends on the learner's place, and announces it.
    pub(super) fn show_position(&self) -> Result<(), JsValue> {
        let focus_was_here = dom::holds_focus(&self.doc, &self.root);
        let mut state = self.state.borrow_mut();
        let view = view::position(&state.session, state.drawn, self.lanes_width.get());
        state.drawn = Some(view.position);
        let borrowed = self.parts.borrow();
        let Some(parts) = borrowed.as_ref() else {
            return Ok(());
        };
        let lang = state.session.lang;
        parts
            .narration
            .set_text_content(Some(view.narration.text()));
        skeleton::show_notice(parts, view.notice.as_deref());
        parts.tagline.set_text_content(Some(view.tagline));
        parts.footer.set_text_content(Some(view.footer));
        skeleton::show_controls(parts, lang, &view, state.playing);
        timeline::draw_marks(parts, &view);
        prompt::draw(&self.doc, parts, &view.prompt);
        panes::draw(
            &self.doc,
            &self.root,
            &parts.panes,
            lang,
            view.scene.as_ref(),
        );
        lanes::draw(&self.doc, &parts.lanes, &view.lanes);
        twists::enable(&parts.twists, &view.idle_twists);
        step::draw(&self.doc, parts, lang, view.step.as_ref());
        tables::draw_table(&self.doc, parts, &view.table);
        tables::draw_receiver(&self.doc, parts, lang, &view.receiver);
        compare::draw(&self.doc, &parts.compare, lang, view.compare.as_ref());
        let invariants = (&parts.invariants_panel, &parts.invariants);
        invariants::draw(&self.doc, invariants, lang, view.invariants.as_ref());
        boundary::draw((&parts.finish, &parts.lease), &view);
        if let Some(said) = &view.announcement {
            parts.live.set_text_content(Some(said.text()));
        }
        let asked = view.prompt.question.as_ref().map(|q| q.text.to_string());
        let new_question = asked.is_some() && asked != state.asked;
        state.asked = asked;
        // A new question needs an answer before the step: the keyboard goes
        // to the question, not to an answer (Space there plays, as
        // everywhere else; an answer is a choice, Tab and Enter). A
        // drawing that removed the focused element (an answer's button,
        // once answered) leaves the keyboard on the question strip or the
        // playground, not on the host page's body, so the arrows go on
        // stepping. Focus events reach the host page, whose listeners may
        // drive the playground again: nothing may be borrowed when they
        // run.
        let lost = focus_was_here && !dom::holds_focus(&self.doc, &self.root);
        let target = match (new_question || lost, prompt::is_open(parts)) {
            (false, _) => None,
            (true, true) => Some(parts.prompt.clone()),
            (true, false) => Some(self.root.clone()),
        };
        drop((state, borrowed));
        // A host's root may refuse the focus (its own `focus` throws):
        // the keyboard then stays where it was, and drawing goes on.
        if let Some(target) = target {
            let _ = target.unchecked_into::<web_sys::HtmlElement>().focus();
        }
        Ok(())
    }

    /// The lanes alone, for a new width.
    pub(super) fn redraw_lanes(&self) {
        let state = self.state.borrow();
        let parts = self.parts.borrow();
        let Some(parts) = parts.as_ref() else {
            return;
        };
        let drawn = view::lanes(&state.session, self.lanes_width.get());
        lanes::draw(&self.doc, &parts.lanes, &drawn)
    }
}

/// The editor's text and the lab's statement, as they stand.
fn drafts(parts: &skeleton::Parts) -> [String; 2] {
    let lab = lab_box(parts).map(|area| area.value()).unwrap_or_default();
    [parts.editor.value(), lab]
}

/// The lab's statement box, while the lab is open.
fn lab_box(parts: &skeleton::Parts) -> Option<web_sys::HtmlTextAreaElement> {
    let found = parts.lab.query_selector("textarea").ok()??;
    Some(wasm_bindgen::JsCast::unchecked_into(found))
}
