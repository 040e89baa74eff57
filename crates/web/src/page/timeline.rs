//! The event list: one row per event (`data-event`), with its result mark
//! (`data-result`) once the learner has stepped past it.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use super::dom::{El, replace_children};
use super::skeleton::Parts;
use leasefence_course::playground::view::{PositionView, ScenarioView};

/// A list longer than this scrolls inside its panel.
const SCROLLS_AFTER: usize = 8;

/// Every event's row, without marks.
pub(super) fn draw_lines(
    doc: &Document,
    parts: &Parts,
    view: &ScenarioView,
) -> Result<(), JsValue> {
    // One template row, cloned per event: far fewer calls into the DOM
    // than building each row (2,000-event scenarios load in time).
    let template = El::new(doc, "li").class("lf-event").children([
        El::new(doc, "span").class("lf-at"),
        El::new(doc, "span").class("lf-who"),
        El::new(doc, "span").class("lf-what"),
        El::new(doc, "span").class("lf-detail"),
        El::new(doc, "span").class("lf-result"),
    ]);
    let mut rows = Vec::with_capacity(view.events.len());
    for (index, line) in view.events.iter().enumerate() {
        let row: Element = template.0.clone_node_with_deep(true)?.unchecked_into();
        let _ = row.set_attribute("data-event", &index.to_string());
        let cells = row.children();
        for (slot, text) in [&line.at, &line.who, &line.what, line.detail.text()]
            .into_iter()
            .enumerate()
        {
            if let Some(cell) = cells.item(slot as u32) {
                cell.set_text_content(Some(text));
            }
        }
        rows.push(El(row));
    }
    replace_children(&parts.events, rows);
    let class = if view.events.len() > 60 {
        "lf-events lf-long"
    } else {
        "lf-events"
    };
    let _ = parts.events.set_attribute("class", class);
    Ok(())
}

/// The marks that changed, and the current event kept in view inside the
/// list (not the page).
pub(super) fn draw_marks(parts: &Parts, view: &PositionView) {
    let items = parts.events.children();
    for mark in &view.marks {
        let Some(item) = items.item(mark.event as u32) else {
            continue;
        };
        let _ = match mark.result {
            Some(result) => item.set_attribute("data-result", result),
            None => item.remove_attribute("data-result"),
        };
        if let Some(span) = item.last_element_child() {
            span.set_text_content(Some(mark.text.text()).filter(|text| !text.is_empty()));
        }
        if mark.current {
            let _ = item.set_attribute("aria-current", "step");
        } else {
            let _ = item.remove_attribute("aria-current");
        }
    }
    // Reading a position forces layout, so short lists that never scroll
    // skip it.
    let current = view
        .position
        .checked_sub(1)
        .and_then(|i| items.item(i as u32));
    if let Some(current) = current
        .filter(|_| view.total > SCROLLS_AFTER)
        .and_then(|item| item.dyn_into::<web_sys::HtmlElement>().ok())
    {
        parts
            .events
            .set_scroll_top((current.offset_top() - 40).max(0));
    }
}
