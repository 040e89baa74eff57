//! The lanes panel: the core's [`LanesView`] as SVG, redrawn whenever the
//! panel changes width, and under it a card per worker with the stamp it
//! carries.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

use super::Page;
use super::dom::{El, replace_children};
use leasefence_course::playground::view::{Anchor, Card, LanesView, Shape};

/// A `ResizeObserver` and the callback it holds, kept together so that
/// `unmount` can disconnect one and drop the other.
pub(super) struct Observer {
    observer: web_sys::ResizeObserver,
    _callback: Closure<dyn Fn(js_sys::Array)>,
}

/// Draws `view` into the panel's body.
pub(super) fn draw(doc: &Document, container: &Element, view: &LanesView) {
    let mut shapes = vec![El::svg(doc, "title").text(view.summary.text())];
    for shape in &view.shapes {
        shapes.push(element(doc, shape));
    }
    let svg = El::svg(doc, "svg")
        .attr(
            "viewBox",
            &format!(
                "0 0 {} {}",
                view.width.round() as i64,
                view.height.round() as i64
            ),
        )
        .attr("role", "img")
        .attr("aria-label", view.summary.text())
        .class("lf-svg")
        .children(shapes);
    let cards = cards(doc, view.cards_title, &view.cards);
    replace_children(container, [svg, cards])
}

/// The workers' cards, a list named `title`: under the lanes, and in a
/// lesson beside a finish's row ([`super::step`]).
pub(super) fn cards(doc: &Document, title: &str, cards: &[Card]) -> El {
    let items = cards.iter().map(|card| {
        El::new(doc, "li")
            .attr("data-standing", card.standing)
            .text(card.said.text())
    });
    El::new(doc, "ul")
        .class("lf-cards")
        .attr("aria-label", title)
        .children(items)
}

fn element(doc: &Document, shape: &Shape) -> El {
    let n = tenths;
    match shape {
        Shape::Line { from, to, class } => El::svg(doc, "line")
            .attr("x1", &n(from.0))
            .attr("y1", &n(from.1))
            .attr("x2", &n(to.0))
            .attr("y2", &n(to.1))
            .class(class),
        Shape::Bar { x, y, width, class } => El::svg(doc, "rect")
            .attr("x", &n(*x))
            .attr("y", &n(*y))
            .attr("width", &n(*width))
            .attr("height", "20")
            .attr("rx", "4")
            .class(class),
        Shape::Text {
            at,
            text,
            anchor,
            class,
        } => {
            let anchor = match anchor {
                Anchor::Start => "start",
                Anchor::Middle => "middle",
                Anchor::End => "end",
            };
            El::svg(doc, "text")
                .attr("x", &n(at.0))
                .attr("y", &n(at.1))
                .attr("text-anchor", anchor)
                .class(class)
                .text(text.text())
        }
    }
}

/// A coordinate to a tenth of a pixel, in integers: the float formatter
/// `{:.1}` would be the page's only use of it, and it costs the module
/// kilobytes of code and tables.
fn tenths(value: f64) -> String {
    let tenths = (value * 10.0).round() as i64;
    let sign = if tenths < 0 { "-" } else { "" };
    let tenths = tenths.unsigned_abs();
    format!("{sign}{}.{}", tenths / 10, tenths % 10)
}

/// Redraws the lanes whenever their panel changes width: a window resize,
/// or a host page's column growing or shrinking. A `ResizeObserver`
/// reports after the browser's own layout, so the first width arrives
/// before the first paint without `clientWidth` forcing a layout in the
/// middle of building the page. A language switch builds a new panel: the
/// observer moves to it.
pub(super) fn watch(page: &Rc<Page>, lanes: &Element) -> Result<(), JsValue> {
    let mut slot = page.lanes_observer.borrow_mut();
    if slot.is_none() {
        let weak = Rc::downgrade(page);
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let Some(page) = weak.upgrade() else { return };
            let Ok(entry) = entries.pop().dyn_into::<web_sys::ResizeObserverEntry>() else {
                return;
            };
            let width = entry.content_rect().width().round();
            if width > 0.0 && width != page.lanes_width.get() {
                page.lanes_width.set(width);
                page.redraw_lanes();
            }
        });
        let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref())?;
        *slot = Some(Observer {
            observer,
            _callback: callback,
        });
    }
    if let Some(watch) = slot.as_ref() {
        watch.observer.disconnect();
        watch.observer.observe(lanes);
    }
    Ok(())
}

/// Stops watching (on unmount).
pub(super) fn unwatch(page: &Page) {
    if let Some(watch) = page.lanes_observer.take() {
        watch.observer.disconnect();
    }
}
