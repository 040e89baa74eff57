//! The frame of the playground: header, narration, controls, the panels and
//! the extras, built on mount and again on a language switch. [`Parts`]
//! keeps the elements the panels redraw, so nothing is looked up by id
//! (several playgrounds may share one page).

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use super::Page;
use super::boundary::{self, Slider};
use super::dom::{El, mark_ends, replace_children};
use leasefence_course::key;
use leasefence_course::playground::Lang;
use leasefence_course::playground::messages::Key;
use leasefence_course::playground::session::Knob;
use leasefence_course::playground::show::Layout;
use leasefence_course::playground::status::{StatusKind, StatusLine};
use leasefence_course::playground::view::{ChapterOption, PositionView, ScenarioView};

/// The elements the page redraws.
pub(super) struct Parts {
    /// What went wrong with what the page was asked to show.
    pub notice: Element,
    pub narration: Element,
    pub chapter_select: HtmlSelectElement,
    /// The title of what is shown (an embed's heading, in place of the
    /// course's and the picker).
    pub shown: Element,
    /// The header's tagline and the footer, worded by the learner's place.
    pub tagline: Element,
    pub footer: Element,
    pub position: Element,
    pub play_button: Element,
    /// `⇤ ← → ⇥`, for [`mark_ends`].
    pub steps: [Element; 4],
    pub seek: HtmlInputElement,
    pub prompt: Element,
    /// A lesson's view switcher ([`super::panes`]).
    pub panes: Element,
    pub events: Element,
    pub lanes: Element,
    /// The lanes' tools (stall, crash, restart a worker).
    pub twists: Element,
    pub step: Element,
    pub table: Element,
    /// The receiver's panel and its body.
    pub receiver_panel: Element,
    pub receiver: Element,
    /// The boundary's panel, whose sliders are [`Parts::finish`] and
    /// [`Parts::lease`].
    pub boundary_panel: Element,
    pub compare_panel: Element,
    pub compare: Element,
    /// The invariants panel and its body ([`super::invariants`]).
    pub invariants_panel: Element,
    pub invariants: Element,
    /// The lab's panel and its body ([`super::lab`]).
    pub lab_panel: Element,
    pub lab: Element,
    /// The finish's time, in the boundary panel.
    pub finish: Slider,
    /// The length of the lease that finish presents, beside it.
    pub lease: Slider,
    pub editor_panel: Element,
    pub editor: HtmlTextAreaElement,
    pub editor_status: Element,
    pub share_status: Element,
    pub live: Element,
    /// The statement panel.
    pub statements: super::statements::Panel,
}

impl Parts {
    /// The boundary panel's slider that `knob` moves.
    pub(super) fn slider(&self, knob: Knob) -> &Slider {
        match knob {
            Knob::Finish => &self.finish,
            Knob::Lease => &self.lease,
        }
    }
}

/// Builds the frame in the page's language and returns its parts.
pub(super) fn build(page: &Rc<Page>) -> Result<Parts, JsValue> {
    let doc = &page.doc;
    let state = page.state.borrow();
    let lang = state.session.lang;
    let root = &page.root;
    dress_root(root, lang);
    let (header, chapter_select, [shown, tagline], share_status) = header(doc, lang, state.shares);
    let footer = El::new(doc, "p").class("lf-footer");
    let notice = El::new(doc, "p")
        .class("lf-notice")
        .attr("role", "alert")
        .attr("hidden", "");
    let narration = El::new(doc, "p").class("lf-narration");
    let (
        controls,
        Handles {
            seek,
            position,
            play_button,
            steps,
        },
    ) = controls(doc, lang, state.speed_ms);
    // Focusable by the page (a new question, an answer given), not by Tab.
    let prompt = (El::new(doc, "div").class("lf-prompt"))
        .attr("role", "group")
        .attr("tabindex", "-1");
    let panes = super::panes::build(doc, lang);
    let (grid, lanes_panel, bodies) = grid(doc, lang);
    let (boundary_panel, finish, lease) = boundary::build(doc, lang);
    let (compare_panel, compare) = super::compare::build(doc, lang, state.session.guard());
    let (statements_panel, statements) = super::statements::build(doc, lang, state.side);
    let (invariants_panel, invariants) = super::invariants::build(doc, lang);
    let (lab_panel, lab) = super::lab::build(doc, lang);
    let (editor_panel, editor, editor_status) = editor_panel(doc, lang);
    let predict = predict_toggle(doc, lang, state.session.stepper.predict());
    let parts = Parts {
        notice: notice.0.clone(),
        narration: narration.0.clone(),
        chapter_select,
        shown,
        tagline,
        footer: footer.0.clone(),
        position,
        play_button,
        steps,
        seek,
        prompt: prompt.0.clone(),
        panes: panes.0.clone(),
        events: bodies.events,
        lanes: bodies.lanes,
        twists: bodies.twists,
        step: bodies.step,
        table: bodies.table,
        receiver_panel: bodies.receiver_panel,
        receiver: bodies.receiver,
        boundary_panel: boundary_panel.0.clone(),
        compare_panel: compare_panel.0.clone(),
        compare,
        invariants_panel: invariants_panel.0.clone(),
        invariants,
        lab_panel: lab_panel.0.clone(),
        lab,
        finish,
        lease,
        editor_panel: editor_panel.0.clone(),
        editor,
        editor_status,
        share_status: share_status.0.clone(),
        live: live_region(doc).0,
        statements,
    };
    let extras = [compare_panel, lab_panel, editor_panel];
    let extras = El::new(doc, "div").class("lf-extras").children(extras);
    replace_children(
        root,
        [
            header,
            notice,
            narration,
            controls,
            // Beside the step controls, before anything steps: a chapter
            // opens predicting, and this is how a learner just watches.
            predict,
            prompt,
            panes,
            lanes_panel,
            // Right under the lanes it moves, on a phone as on a desktop.
            boundary_panel,
            grid,
            // After the step it takes apart: on a phone an open panel above
            // the step card would push what a step did a screen away.
            statements_panel,
            invariants_panel,
            extras,
            footer,
            El(parts.live.clone()),
        ],
    );
    Ok(parts)
}

/// The playground's own element: its language, a place in the tab order
/// (its keys work once it has the focus) and its name.
fn dress_root(root: &Element, lang: Lang) {
    let _ = root.set_attribute("lang", lang.tag());
    let _ = root.set_attribute("tabindex", "0");
    let _ = root.set_attribute("aria-label", lang.text(key!("app.title")));
}

/// Shows the parts `layout` has on screen and hides the others; without
/// the course's header the playground shows a single chapter or lesson
/// (`lf-single`), headed by its title.
fn show_layout(root: &Element, parts: &Parts, layout: &Layout) {
    let class = if layout.course { "lf" } else { "lf lf-single" };
    let _ = root.set_attribute("class", class);
    for (part, shown) in [
        (&parts.twists, layout.sandbox),
        (&parts.editor_panel, layout.sandbox),
        (&parts.boundary_panel, layout.boundary),
        (parts.statements.details(), layout.statements),
        (&parts.invariants_panel, layout.invariants),
        (&parts.compare_panel, layout.compare),
        (&parts.lab_panel, layout.lab),
        (&parts.receiver_panel, layout.receiver),
    ] {
        let _ = part.toggle_attribute_with_force("hidden", !shown);
    }
}

/// Where announcements are made for screen readers (politely: after what
/// the reader is saying).
fn live_region(doc: &Document) -> El {
    El::new(doc, "div")
        .class("lf-live")
        .attr("role", "status")
        .attr("aria-live", "polite")
}

/// The header: title, tagline, chapter picker, language switch, Copy link
/// (only for a page that owns its URL) and its status. Also returns the
/// picker, the title of what is shown and the tagline (both drawn with
/// the position), and the status.
fn header(doc: &Document, lang: Lang, shares: bool) -> (El, HtmlSelectElement, [Element; 2], El) {
    let t = |key: Key| lang.text(key).to_owned();
    let chapter_select = chapter_select(doc);
    // What is shown: an embed's heading, where the course's is hidden.
    let shown = El::new(doc, "h2").class("lf-shown").0;
    let tagline = El::new(doc, "p").class("lf-tagline").0;
    let share_status = El::new(doc, "span")
        .class("lf-share-status")
        .attr("aria-live", "polite");
    let tools = El::new(doc, "div").class("lf-tools").children([
        El::new(doc, "label")
            .class("lf-chapter")
            .child(El::new(doc, "span").text(&t(key!("chapter.label"))))
            .child(El(chapter_select.clone().into())),
        // The name is the visible text (axe: label-content-name-mismatch);
        // what the button does is its title.
        El::button(doc, "lang", &t(key!("lang.switch")))
            .attr("title", &t(key!("lang.switch_label")))
            .attr("lang", lang.other().tag()),
        El::button(doc, "copy-link", &t(key!("share.copy")))
            .attr("data-hidden", if shares { "false" } else { "true" }),
        El(share_status.0.clone()),
    ]);
    // A div, not a <header>: a page with three playgrounds would have three
    // banner landmarks.
    let header = El::new(doc, "div").class("lf-head").children([
        El::new(doc, "div").class("lf-brand").children([
            El::new(doc, "h2")
                .class("lf-title")
                .text(&t(key!("app.title"))),
            El(tagline.clone()),
            El(shown.clone()),
        ]),
        tools,
    ]);
    (header, chapter_select, [shown, tagline], share_status)
}

/// The bodies of the panels the position redraws.
struct Bodies {
    events: Element,
    lanes: Element,
    twists: Element,
    step: Element,
    table: Element,
    receiver_panel: Element,
    receiver: Element,
}

/// The lanes panel, and the grid of the timeline beside the step, the
/// table and the receiver.
fn grid(doc: &Document, lang: Lang) -> (El, El, Bodies) {
    let t = |key: Key| lang.text(key).to_owned();
    // Each marked with the view of a lesson's scene it belongs to (the
    // step card with none: it is every scene's).
    let panel = |class: &str, title_key: Key, pane: &str| -> (El, Element) {
        let body = El::new(doc, "div").class("lf-body");
        let body_ref = body.0.clone();
        let mut section = El::new(doc, "section").class(&format!("lf-panel {class}"));
        if !pane.is_empty() {
            section = section.attr("data-pane", pane);
        }
        let section = (section.child(El::new(doc, "h3").text(&t(title_key)))).child(body);
        (section, body_ref)
    };
    let events = El::new(doc, "ol").class("lf-events");
    let events_ref = events.0.clone();
    let timeline = El::new(doc, "section")
        .class("lf-panel lf-timeline")
        .attr("data-pane", "events")
        .child(El::new(doc, "h3").text(&t(key!("timeline.title"))))
        .child(events);
    let (lanes_panel, lanes) = panel("lf-lanes", key!("lanes.title"), "lanes");
    let twists = El::new(doc, "div").class("lf-twists");
    let twists_ref = twists.0.clone();
    let lanes_panel = lanes_panel.child(twists);
    let (step_panel, step) = panel("lf-step", key!("step.title"), "");
    let (table_panel, table) = panel("lf-table", key!("table.title"), "events");
    let (receiver_panel, receiver) = panel("lf-receiver", key!("receiver.title"), "receiver");
    let receiver_section = receiver_panel.0.clone();
    let grid = El::new(doc, "div").class("lf-grid").children([
        El::new(doc, "div").class("lf-col").children([timeline]),
        El::new(doc, "div")
            .class("lf-col")
            .children([step_panel, table_panel, receiver_panel]),
    ]);
    let bodies = Bodies {
        events: events_ref,
        lanes,
        twists: twists_ref,
        step,
        table,
        receiver_panel: receiver_section,
        receiver,
    };
    (grid, lanes_panel, bodies)
}

/// The checkbox that turns prediction on.
fn predict_toggle(doc: &Document, lang: Lang, on: bool) -> El {
    let checkbox = El::new(doc, "input")
        .attr("type", "checkbox")
        .attr("data-action", "predict");
    if on {
        let _ = checkbox.0.set_attribute("checked", "");
    }
    El::new(doc, "label")
        .class("lf-predict-toggle")
        .child(checkbox)
        .child(El::new(doc, "span").text(lang.text(key!("predict.toggle"))))
}

/// The chapter picker, empty: [`show_scenario`] fills it from the view.
fn chapter_select(doc: &Document) -> HtmlSelectElement {
    let select = El::new(doc, "select").attr("data-action", "chapter");
    select.0.unchecked_into()
}

/// The playback controls' elements that change with every step.
struct Handles {
    seek: HtmlInputElement,
    position: Element,
    play_button: Element,
    steps: [Element; 4],
}

/// Milliseconds between steps while playing, and each speed's name.
pub(super) const SPEEDS: [(i32, Key); 3] = [
    (1600, key!("controls.speed.slow")),
    (900, key!("controls.speed.normal")),
    (400, key!("controls.speed.fast")),
];

/// The playback controls, and their [`Handles`].
fn controls(doc: &Document, lang: Lang, speed_ms: i32) -> (El, Handles) {
    let t = |key: Key| lang.text(key).to_owned();
    let speed = El::new(doc, "select").attr("data-action", "speed");
    for (ms, name) in SPEEDS {
        let option = El::new(doc, "option")
            .attr("value", &ms.to_string())
            .text(lang.text(name));
        if ms == speed_ms {
            let _ = option.0.set_attribute("selected", "");
        }
        let _ = speed.0.append_child(&option.0);
    }
    let seek = El::new(doc, "input")
        .attr("type", "range")
        .attr("min", "0")
        .attr("data-action", "seek")
        .attr("aria-label", &t(key!("controls.scrub")))
        .class("lf-seek");
    let icon_button = |action: &str, icon: &str, key: Key| -> El {
        El::button(doc, action, icon)
            .attr("aria-label", &t(key))
            .attr("title", &t(key))
    };
    let play = icon_button("play", "▶", key!("controls.play"));
    let position = El::new(doc, "span").class("lf-position");
    let [reset, back, step, end] = [
        icon_button("reset", "⇤", key!("controls.reset")),
        icon_button("back", "←", key!("controls.back")),
        icon_button("step", "→", key!("controls.step")),
        icon_button("end", "⇥", key!("controls.end")),
    ];
    let handles = Handles {
        seek: seek.0.clone().unchecked_into(),
        position: position.0.clone(),
        play_button: play.0.clone(),
        steps: [&reset, &back, &step, &end].map(|button| button.0.clone()),
    };
    let controls = El::new(doc, "div")
        .class("lf-controls")
        .attr("role", "group")
        .attr("aria-label", &t(key!("controls.label")))
        .children([
            reset,
            back,
            play,
            step,
            end,
            El::new(doc, "label")
                .class("lf-speed")
                .child(El::new(doc, "span").text(&t(key!("controls.speed"))))
                .child(speed),
            seek,
            position,
            El::new(doc, "span")
                .class("lf-keys")
                .text(&t(key!("controls.keys"))),
        ]);
    (controls, handles)
}

/// The JSON editor, closed: its text area, the add buttons, Apply, and the
/// status line.
fn editor_panel(doc: &Document, lang: Lang) -> (El, HtmlTextAreaElement, Element) {
    let t = |key: Key| lang.text(key).to_owned();
    let editor = El::new(doc, "textarea")
        .attr("rows", "14")
        .attr("spellcheck", "false")
        .attr("aria-label", &t(key!("editor.title")));
    let status = El::new(doc, "p")
        .class("lf-editor-status")
        .attr("role", "status");
    let handles = (editor.0.clone().unchecked_into(), status.0.clone());
    let mut tools = Vec::new();
    let adds = [
        ("job", key!("editor.add_job")),
        ("claim", key!("editor.add_claim")),
        ("finish", key!("editor.add_finish")),
        ("send", key!("editor.add_send")),
    ];
    for (what, label) in adds {
        tools.push(El::button(doc, "add", &t(label)).attr("data-arg", what));
    }
    tools.push(El::button(doc, "apply-editor", &t(key!("editor.apply"))).class("lf-primary"));
    let panel = El::new(doc, "details")
        .class("lf-panel lf-editor")
        .child(El::new(doc, "summary").text(&t(key!("editor.title"))))
        .child(editor)
        .child(El::new(doc, "div").class("lf-editor-tools").children(tools))
        .child(status);
    (panel, handles.0, handles.1)
}

/// What depends on the timeline outside the panels: the chapter picker,
/// the comparison's and the editor's state, the share status.
pub(super) fn show_scenario(
    doc: &Document,
    (root, parts): (&Element, &Parts),
    view: &ScenarioView,
    refill_editor: bool,
    share_status: Option<&str>,
) -> Result<(), JsValue> {
    show_layout(root, parts, &view.layout);
    show_chapters(doc, parts, &view.chapters, &view.chapter);
    parts.shown.set_text_content(Some(&view.title));
    if view.compare_open {
        let _ = parts.compare_panel.set_attribute("open", "");
    }
    if refill_editor {
        parts.editor.set_value(&view.editor_text);
    }
    show_status(parts, view.editor_status.as_ref());
    parts.share_status.set_text_content(share_status);
    Ok(())
}

/// The chapter picker's choices, with `chosen` selected.
pub(super) fn show_chapters(
    doc: &Document,
    parts: &Parts,
    chapters: &[ChapterOption],
    chosen: &str,
) {
    let mut options = Vec::with_capacity(chapters.len());
    for option in chapters {
        options.push(
            El::new(doc, "option")
                .attr("value", option.id)
                .text(&option.label),
        );
    }
    replace_children(&parts.chapter_select, options);
    parts.chapter_select.set_value(chosen);
}

/// The editor's status line; a refusal opens the editor so it is seen.
fn show_status(parts: &Parts, status: Option<&StatusLine>) {
    let Some(status) = status else {
        parts.editor_status.set_text_content(None);
        return;
    };
    let refused = status.kind == StatusKind::Refused;
    parts.editor_status.set_text_content(Some(&status.text));
    let _ = parts
        .editor_status
        .set_attribute("data-said", status.kind.name());
    let _ = parts
        .editor_status
        .set_attribute("role", if refused { "alert" } else { "status" });
    if refused {
        let _ = parts.editor_panel.set_attribute("open", "");
    }
}

/// After a template was added: the new text (if any) and the status.
pub(super) fn show_editor(page: &Page, text: Option<&str>) {
    let parts = page.parts.borrow();
    let Some(parts) = parts.as_ref() else {
        return;
    };
    if let Some(text) = text {
        parts.editor.set_value(text);
    }
    let state = page.state.borrow();
    let session = &state.session;
    let line = (session.editor_status.as_ref()).map(|status| status.line(session.lang));
    show_status(parts, line.as_ref())
}

/// The controls' position label, scrub bar and play button.
pub(super) fn show_controls(parts: &Parts, lang: Lang, view: &PositionView, playing: bool) {
    parts.seek.set_max(&view.total.to_string());
    parts.seek.set_value(&view.position.to_string());
    let _ = parts
        .seek
        .set_attribute("aria-valuetext", view.position_text.text());
    parts
        .position
        .set_text_content(Some(view.position_text.text()));
    mark_ends(&parts.steps, view.position, view.total);
    // Playing from the end starts over: the button says so there.
    let (icon, key) = if playing {
        ("❚❚", key!("controls.pause"))
    } else if view.position >= view.total {
        ("▶", key!("controls.replay"))
    } else {
        ("▶", key!("controls.play"))
    };
    let button = &parts.play_button;
    button.set_text_content(Some(icon));
    let _ = button.set_attribute("aria-label", lang.text(key));
    let _ = button.set_attribute("title", lang.text(key));
    let _ = button.set_attribute("aria-pressed", if playing { "true" } else { "false" });
}

/// The notice above the narration, shown only when there is one.
pub(super) fn show_notice(parts: &Parts, notice: Option<&str>) {
    parts.notice.set_text_content(notice);
    let _ = match notice {
        Some(_) => parts.notice.remove_attribute("hidden"),
        None => parts.notice.set_attribute("hidden", ""),
    };
}

/// After a language switch the button was redrawn: keep the keyboard on it.
pub(super) fn focus_lang_button(page: &Page) -> Result<(), JsValue> {
    if let Some(button) = page.root.query_selector("[data-action=lang]")? {
        button.unchecked_into::<web_sys::HtmlElement>().focus()?;
    }
    Ok(())
}
