//! The statement panel: a race stepped moment by moment on one clock, the
//! real queue beside the naive one, each with its actors' statements and
//! the write lock's lane. Drawn from [`StatementsView`] alone.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlElement, HtmlSelectElement, Window};

use super::dom::{El, code, mark_ends, replace_children};
use leasefence_course::key;
use leasefence_course::playground::Lang;
use leasefence_course::playground::assertions::Said;
use leasefence_course::playground::messages::Key;
use leasefence_course::playground::statements::Race;
use leasefence_course::playground::view::{LaneView, SideView, StatementsView};

/// A side of the panel: the real queue's or the naive one's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    Real,
    Naive,
}

impl Side {
    const ALL: [Side; 2] = [Side::Real, Side::Naive];

    /// The side's name, as [`SideView::kind`] and the stylesheet say it.
    fn name(self) -> &'static str {
        match self {
            Side::Real => "real",
            Side::Naive => "naive",
        }
    }

    pub(super) fn from_name(name: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|side| side.name() == name)
    }
}

/// The panel's elements that change.
pub(super) struct Panel {
    details: Element,
    race: HtmlSelectElement,
    position: Element,
    cut: Element,
    /// The buttons that pick the side shown where only one fits, in the
    /// order of [`Side::ALL`].
    switch: [Element; 2],
    /// The step buttons `⇤ ← → ⇥`, for [`mark_ends`].
    steps: [Element; 4],
    body: Element,
}

impl Panel {
    /// The panel's own element.
    pub(super) fn details(&self) -> &Element {
        &self.details
    }
}

/// Builds the panel, closed and empty, `shown` the side shown where only
/// one fits: [`draw`] fills it.
pub(super) fn build(doc: &Document, lang: Lang, shown: Side) -> (El, Panel) {
    let t = |key: Key| lang.text(key).to_owned();
    let race = El::new(doc, "select").attr("data-action", "race");
    for choice in Race::ALL {
        let name = choice.name();
        let option = El::new(doc, "option").attr("value", name);
        let _ = race.0.append_child(&option.text(&t(race_name(choice))).0);
    }
    // The lab's counterexample is opened by the lab, never picked: its
    // option names it while it is shown.
    let lab = El::new(doc, "option")
        .attr("value", Race::Lab.name())
        .attr("hidden", "")
        .attr("disabled", "")
        .text(&t(key!("stmt.race.lab")));
    let _ = race.0.append_child(&lab.0);
    let button = |arg: &str, icon: &str, key: Key| -> El {
        El::button(doc, "stmt", icon)
            .attr("data-arg", arg)
            .attr("aria-label", &t(key))
            .attr("title", &t(key))
    };
    let position = El::new(doc, "span").class("lf-position");
    let switch = Side::ALL.map(|side| {
        El::button(doc, "stmt-side", "")
            .attr("data-arg", side.name())
            .attr("aria-pressed", if side == shown { "true" } else { "false" })
    });
    let steps = [
        button("reset", "⇤", key!("stmt.reset")),
        button("back", "←", key!("stmt.back")),
        button("step", "→", key!("stmt.step")),
        button("end", "⇥", key!("stmt.end")),
    ];
    let cut = El::new(doc, "p")
        .class("lf-muted lf-cut")
        .attr("hidden", "");
    let body = El::new(doc, "div")
        .class("lf-body lf-sides")
        .attr("data-show", shown.name());
    let panel = Panel {
        // Focusable, so that after a click anywhere in the panel the keys
        // step its statements, not the timeline.
        details: El::new(doc, "details")
            .class("lf-panel lf-statements")
            .attr("data-pane", "statements")
            .attr("tabindex", "-1")
            .0,
        race: race.0.clone().unchecked_into(),
        position: position.0.clone(),
        cut: cut.0.clone(),
        switch: [switch[0].0.clone(), switch[1].0.clone()],
        steps: steps.each_ref().map(|button| button.0.clone()),
        body: body.0.clone(),
    };
    let tools = El::new(doc, "div")
        .class("lf-controls")
        .child(
            El::new(doc, "label")
                .class("lf-guard")
                .child(El::new(doc, "span").text(&t(key!("stmt.race"))))
                .child(race),
        )
        .children(steps)
        .child(position);
    // Shown only where the panel is too narrow for the sides side by side
    // (the stylesheet's container query): one side at a time, a tap apart,
    // instead of one below the other's long statement lists.
    let switch = El::new(doc, "div")
        .class("lf-side-switch")
        .attr("role", "group")
        .attr("aria-label", &t(key!("stmt.show")))
        .children(switch);
    let details = El(panel.details.clone())
        .child(El::new(doc, "summary").text(&t(key!("stmt.title"))))
        .child(tools)
        .child(
            El::new(doc, "p")
                .class("lf-muted")
                .text(&t(key!("stmt.legend"))),
        )
        // Course point 22: what this panel is, and where the real race is.
        .child(
            El::new(doc, "p")
                .class("lf-muted")
                .text(&t(key!("stmt.modelled"))),
        )
        .child(cut)
        .child(switch)
        .child(body);
    (details, panel)
}

/// Draws the panel; a closed one is left as it was.
pub(super) fn draw(
    doc: &Document,
    panel: &Panel,
    lang: Lang,
    view: Option<&StatementsView>,
) -> Result<(), JsValue> {
    let Some(view) = view else { return Ok(()) };
    let _ = panel.details.set_attribute("open", "");
    panel.race.set_value(view.race.name());
    panel
        .position
        .set_text_content(Some(view.position_text.text()));
    mark_ends(&panel.steps, view.position, view.total);
    for (button, side) in panel.switch.iter().zip(Side::ALL) {
        let named = view.sides.iter().find(|drawn| drawn.kind == side.name());
        button.set_text_content(named.map(|drawn| drawn.name.as_str()));
    }
    panel
        .cut
        .set_text_content(view.cut.as_ref().map(Said::text));
    let _ = panel
        .cut
        .toggle_attribute_with_force("hidden", view.cut.is_none());
    let focused = focused_lane(&panel.body);
    let mut sides = Vec::with_capacity(view.sides.len());
    for side in &view.sides {
        sides.push(self::side(doc, lang, side));
    }
    replace_children(&panel.body, sides);
    refocus_lane(&panel.body, focused.as_deref())?;
    // Where the latest column is comes from layout: read it in the next
    // frame, with the layout the browser does then anyway, rather than
    // force one in the middle of the step.
    let body = panel.body.clone();
    let follow = Closure::once_into_js(move || follow_lanes(&body));
    if let Some(window) = doc.default_view() {
        window.request_animation_frame(follow.unchecked_ref())?;
    }
    Ok(())
}

/// Scrolls the page to the panel, if it is open: a link that names a place
/// in it (`&stmt=timeline.7`) opens there. Only this document scrolls
/// (`scrollIntoView` would also move a course page around an iframe). On
/// a page of its own the panel's summary also takes the keys (← → step
/// its statements); in an iframe the host page keeps its focus (README,
/// "Iframes").
pub(super) fn reveal(window: &Window, panel: &Panel) {
    if !panel.details.has_attribute("open") {
        return;
    }
    let top = panel.details.get_bounding_client_rect().top();
    let scrolled = window.scroll_y().unwrap_or(0.0);
    window.scroll_to_with_x_and_y(0.0, scrolled + top);
    let own_page = window
        .parent()
        .ok()
        .flatten()
        .is_some_and(|parent| js_sys::Object::is(&parent, window));
    let summary = panel.details.first_element_child();
    if let Some(summary) = summary.and_then(|s| s.dyn_into::<HtmlElement>().ok())
        && own_page
    {
        let options = web_sys::FocusOptions::new();
        options.set_prevent_scroll(true);
        let _ = summary.focus_with_options(&options);
    }
}

/// Shows `side` where only one fits, and presses its button.
pub(super) fn show_side(panel: &Panel, side: Side) {
    let _ = panel.body.set_attribute("data-show", side.name());
    for (button, each) in panel.switch.iter().zip(Side::ALL) {
        let pressed = if each == side { "true" } else { "false" };
        let _ = button.set_attribute("aria-pressed", pressed);
    }
}

/// A cell of the time between two moments, `span` ms, of class `class`
/// too: as wide as the time, up to a limit (the stylesheet reads
/// `--span`; set through the CSSOM, since a host's
/// Content-Security-Policy may refuse inline styles).
fn spanning(doc: &Document, tag: &str, span: u64, class: &str) -> El {
    let cell = El::new(doc, tag).class(format!("lf-gap {class}").trim_end());
    if let Some(html) = cell.0.dyn_ref::<HtmlElement>() {
        let _ = html
            .style()
            .set_property("--span", &span.min(400).to_string());
    }
    cell
}

/// The side (`real`, `naive`) whose lock lane has the focus, if one has:
/// a learner stepping with the keys there keeps it through the redraw.
fn focused_lane(body: &Element) -> Option<String> {
    let active = super::dom::focused_in(&body.owner_document()?, body)?;
    active.closest(".lf-lock-scroll").ok()??;
    active.closest(".lf-side").ok()??.get_attribute("data-side")
}

/// The lock lanes under `body`.
fn lanes(body: &Element) -> Vec<HtmlElement> {
    let Ok(found) = body.query_selector_all(".lf-lock-scroll") else {
        return Vec::new();
    };
    (0..found.length())
        .filter_map(|index| found.item(index)?.dyn_into::<HtmlElement>().ok())
        .collect()
}

/// Gives the focus back to the lane of the side that had it.
fn refocus_lane(body: &Element, focused: Option<&str>) -> Result<(), JsValue> {
    let Some(focused) = focused else {
        return Ok(());
    };
    for lane in lanes(body) {
        let side = lane.closest(".lf-side")?;
        if side
            .and_then(|side| side.get_attribute("data-side"))
            .as_deref()
            == Some(focused)
        {
            lane.focus()?;
        }
    }
    Ok(())
}

/// Scrolls each lock lane to its latest column, so a long timeline's step
/// stays in sight at 360 px.
fn follow_lanes(body: &Element) {
    for lane in lanes(body) {
        let latest = lane.query_selector("td.lf-latest").ok().flatten();
        let left = latest
            .and_then(|cell| cell.dyn_into::<HtmlElement>().ok())
            .map_or(0, |cell| cell.offset_left() - lane.client_width() / 2);
        lane.set_scroll_left(left.max(0));
    }
}

/// The lock lane: a column per moment of the panel's clock, a row per
/// actor. Its header has one cell per instant, over the run of columns at
/// that time (a timeline's statements at one instant share it). Between
/// two moments more than 1 ms apart, a column for the time between, as
/// wide as that time (up to a limit) and headed by it (`+292`), holds
/// what the lock did then. The current column is marked, for the lane to
/// scroll to. It keeps one column per moment however many: it scrolls
/// sideways on its own rather than squeezing its times.
fn lane_table(doc: &Document, lang: Lang, lane: &LaneView) -> El {
    let gap = |column: usize| lane.spans.get(column).copied().filter(|&span| span > 1);
    let mut header = vec![El::new(doc, "th").attr("scope", "col").text("ms")];
    let mut column = 0;
    for instant in lane.times.chunk_by(|a, b| a == b) {
        let cell = El::new(doc, "th")
            .attr("scope", "colgroup")
            .attr("colspan", &instant.len().to_string());
        header.push(cell.text(&instant[0]));
        column += instant.len();
        if let Some(span) = gap(column - 1) {
            header.push(spanning(doc, "th", span, "").text(&format!("+{span}")));
        }
    }
    let mut rows = vec![El::new(doc, "tr").children(header)];
    let mark = |cell: &str| match cell {
        "hold" => ("lf-hold", "■"),
        "wait" => ("lf-wait", "░"),
        "read" => ("lf-read", "□"),
        _ => ("", ""),
    };
    for row in &lane.rows {
        let mut cells = vec![El::new(doc, "th").attr("scope", "row").text(&row.actor)];
        for (column, &cell) in row.cells.iter().enumerate() {
            let (class, text) = mark(cell);
            let latest = if column + 1 == lane.applied {
                " lf-latest"
            } else {
                ""
            };
            cells.push(
                El::new(doc, "td")
                    .class(&format!("{class}{latest}"))
                    .text(text),
            );
            if let Some(span) = gap(column) {
                let (class, text) = mark(row.between.get(column).copied().unwrap_or_default());
                cells.push(spanning(doc, "td", span, class).text(text));
            }
        }
        rows.push(El::new(doc, "tr").children(cells));
    }
    let table = El::new(doc, "table")
        .class("lf-lock")
        .attr("aria-label", lang.text(key!("stmt.lane")))
        .children(rows);
    El::new(doc, "div")
        .class("lf-lock-scroll")
        .attr("tabindex", "0")
        .child(table)
}

fn side(doc: &Document, lang: Lang, side: &SideView) -> El {
    let p = |class: &str, text: &str| -> El { El::new(doc, "p").class(class).text(text) };
    let mut actors = Vec::with_capacity(side.actors.len());
    for actor in &side.actors {
        let mut lines = Vec::with_capacity(actor.lines.len());
        for line in &actor.lines {
            lines.push(
                El::new(doc, "li")
                    .attr("data-state", line.state)
                    .child(El::new(doc, "code").text(&line.sql))
                    .child(El::new(doc, "span").text(&line.tag)),
            );
        }
        actors.push(
            El::new(doc, "div")
                .child(El::new(doc, "h5").text(&actor.name))
                .child(El::new(doc, "ol").children(lines)),
        );
    }
    let mut parts = vec![El::new(doc, "h4").text(&side.title)];
    if let Some(done) = &side.done {
        parts.push(p("lf-muted", done.text()));
    }
    parts.extend([
        lane_table(doc, lang, &side.lane),
        p("lf-lock-text", side.lane.text.text()),
        El::new(doc, "div").class("lf-actors").children(actors),
    ]);
    if let Some(now) = &side.now {
        parts.push(p("lf-said", now.said.text()));
        if !now.sql.is_empty() {
            parts.push(code(doc, &now.sql).class("lf-naive-sql"));
        }
        if !now.params.is_empty() {
            parts.push(p("lf-muted", &now.params));
        }
    }
    parts.push(p("lf-holding", side.holding.text()));
    if let Some(verdict) = &side.verdict {
        let class = if verdict.harm {
            "lf-harm-note"
        } else {
            "lf-ok"
        };
        parts.push(p(class, verdict.text.text()));
    }
    El::new(doc, "section")
        .class("lf-side")
        .attr("data-side", side.kind)
        .children(parts)
}

/// The name of `race` in the race picker.
fn race_name(race: Race) -> Key {
    match race {
        Race::Claim => key!("stmt.race.claim"),
        Race::Send => key!("stmt.race.send"),
        Race::Timeline => key!("stmt.race.timeline"),
        Race::Lab => key!("stmt.race.lab"),
    }
}
