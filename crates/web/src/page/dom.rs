//! A few chainable helpers over web-sys, so the page reads as a tree.
//!
//! Text always goes in through `set_text_content` (never `innerHTML`), so a
//! worker named `<img onerror=...>` is shown as those characters.
//!
//! The page's tag and attribute names are constants and its children fresh
//! elements, which the DOM never refuses (it throws only for names that are
//! not XML names, cycles and documents). So drawing cannot fail: elements
//! come without a `Result`, and the page drops the `Result` web-sys gives
//! back for an attribute (`let _ =`) instead of carrying an error path at
//! every call, which the module learners download would pay for (5.7 KB
//! gzip, BENCHMARKS.md).

use leasefence_course::playground::view::BreakLink;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, HtmlElement, ShadowRoot};

// The few calls the page makes on an element it did not make, the host's
// root (and its ancestors), as the browser defines them: `final` calls
// the prototype's method, not one an element's own property replaced,
// and `catch` turns whatever it throws into an `Err`, so that no host's
// exception unwinds through Rust in the middle of drawing. The
// root's other calls (`setAttribute`, `addEventListener`, ...) are
// web-sys's, all with `catch`.
#[wasm_bindgen]
extern "C" {
    /// An element as the browser's `Element.prototype` sees it.
    #[wasm_bindgen(js_name = Element)]
    type HostElement;
    #[wasm_bindgen(final, catch, method, js_class = "Element", js_name = replaceChildren)]
    fn empty(this: &HostElement) -> Result<(), JsValue>;
    #[wasm_bindgen(final, catch, method, js_class = "Element", js_name = closest)]
    fn closest(this: &HostElement, selector: &str) -> Result<Option<Element>, JsValue>;
    #[wasm_bindgen(final, catch, method, js_class = "Element", js_name = getAttribute)]
    fn get_attribute(this: &HostElement, name: &str) -> Result<Option<String>, JsValue>;
    #[wasm_bindgen(final, catch, method, getter, js_class = "Element", js_name = tagName)]
    fn tag_name(this: &HostElement) -> Result<String, JsValue>;
    #[wasm_bindgen(final, catch, method, js_class = "Node", js_name = getRootNode)]
    fn root_node(this: &HostElement) -> Result<web_sys::Node, JsValue>;
    #[wasm_bindgen(final, catch, method, js_class = "Node", js_name = contains)]
    fn contains(this: &HostElement, other: &web_sys::Node) -> Result<bool, JsValue>;
}

/// `element`, for the calls above.
fn host(element: &Element) -> &HostElement {
    element.unchecked_ref()
}

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// An element under construction.
pub struct El(pub Element);

impl El {
    /// A new HTML element. Tag names here are constants, which
    /// `createElement` never refuses (it throws only for a name that is
    /// not an XML name), so the builder does not make each of its ~180
    /// call sites handle an error that cannot happen.
    #[inline(never)]
    pub fn new(doc: &Document, tag: &str) -> El {
        El(doc
            .create_element(tag)
            .expect("createElement takes every constant tag name"))
    }

    /// A new SVG element (a constant tag name, as [`El::new`]).
    pub fn svg(doc: &Document, tag: &str) -> El {
        El(doc
            .create_element_ns(Some(SVG_NS), tag)
            .expect("createElementNS takes every constant tag name"))
    }

    /// Sets an attribute. Names here are constants, which the DOM never
    /// refuses (it throws only for names that are not XML names), so the
    /// builder does not make every call site handle an error that cannot
    /// happen: each `?` costs code in the module learners download.
    #[inline(never)]
    pub fn attr(self, name: &str, value: &str) -> El {
        let _ = self.0.set_attribute(name, value);
        self
    }

    /// Sets the class attribute.
    pub fn class(self, classes: &str) -> El {
        self.attr("class", classes)
    }

    /// Sets the text content (as text, never markup).
    #[inline(never)]
    pub fn text(self, text: &str) -> El {
        self.0.set_text_content(Some(text));
        self
    }

    /// Appends a child. The child is always a fresh element, which the DOM
    /// never refuses (it throws only for cycles and documents).
    #[inline(never)]
    pub fn child(self, child: El) -> El {
        let _ = self.0.append_child(&child.0);
        self
    }

    /// Appends children, as [`El::child`].
    pub fn children(self, children: impl IntoIterator<Item = El>) -> El {
        for child in children {
            let _ = self.0.append_child(&child.0);
        }
        self
    }

    /// A closed `<details>` panel of class `lf-panel` and `class`, titled
    /// `title`, with an empty body, returned beside it for drawing into.
    pub fn panel(doc: &Document, class: &str, title: &str) -> (El, Element) {
        let body = El::new(doc, "div").class("lf-body");
        let body_ref = body.0.clone();
        let panel = El::new(doc, "details")
            .class(&format!("lf-panel {class}"))
            .child(El::new(doc, "summary").text(title))
            .child(body);
        (panel, body_ref)
    }

    /// A `<button>` that the page's click handler maps to `action`.
    pub fn button(doc: &Document, action: &str, label: &str) -> El {
        El::new(doc, "button")
            .attr("type", "button")
            .attr("data-action", action)
            .text(label)
    }
}

/// Where a naive side breaks, said, with the button that opens that
/// chapter.
pub(super) fn break_link(doc: &Document, link: &BreakLink) -> El {
    let said = El::new(doc, "p").class("lf-breaks").text(link.said.text());
    match link.opens {
        Some(chapter) => {
            said.child(El::button(doc, "open-chapter", &link.label).attr("data-arg", chapter))
        }
        None => said,
    }
}

/// Code (SQL) in a `<pre>`, one block per line, so that a line too long
/// for a narrow screen goes on under its own start, further in (the
/// stylesheet's hanging indent for `.lf-line`, from the line's own leading
/// spaces in `--i`), not at the left edge, where the rest would read as
/// the statement's next line. The blocks are the line breaks: copied or
/// read (`innerText`), the text is the statement as written.
pub fn code(doc: &Document, text: &str) -> El {
    El::new(doc, "pre").children(text.split('\n').map(|line| {
        let span = El::new(doc, "span").class("lf-line").text(line);
        let indent = line.len() - line.trim_start_matches(' ').len();
        if let Some(html) = span.0.dyn_ref::<HtmlElement>().filter(|_| indent > 0) {
            // Through the CSSOM, not a `style` attribute: a host page's
            // Content-Security-Policy may refuse inline styles.
            let _ = html.style().set_property("--i", &indent.to_string());
        }
        span
    }))
}

/// A table's header row: one `<th scope="col">` per label; an empty label
/// (a corner above row labels) is a plain cell, since it heads nothing.
pub fn header_row<'a>(doc: &Document, labels: impl IntoIterator<Item = &'a str>) -> El {
    let mut cells = Vec::new();
    for label in labels {
        cells.push(match label {
            "" => El::new(doc, "td"),
            _ => El::new(doc, "th").attr("scope", "col").text(label),
        });
    }
    El::new(doc, "tr").children(cells)
}

/// Empties `element` (the host's root, too: see [`empty`]).
pub fn clear(element: &Element) {
    let _ = host(element).empty();
}

/// The language the host gave `root`: the `lang` of the nearest element
/// at or above it that has one.
pub fn inherited_lang(root: &Element) -> Option<String> {
    let mut from = root.clone();
    loop {
        if let Some(holder) = host(&from).closest("[lang]").ok().flatten() {
            return attribute(&holder, "lang");
        }
        // An embed draws inside its element's shadow root: the language
        // goes on from the element that holds it.
        from = shadow_root(&from)?.host();
    }
}

/// The element that has the focus in `root`'s tree: its shadow root's
/// (an embed's), else `doc`'s.
pub fn focused_in(doc: &Document, root: &Element) -> Option<Element> {
    match shadow_root(root) {
        Some(shadow) => shadow.active_element(),
        None => doc.active_element(),
    }
}

/// Whether the focus is on `root` or inside it.
pub fn holds_focus(doc: &Document, root: &Element) -> bool {
    let focused = focused_in(doc, root);
    focused.is_some_and(|focused| host(root).contains(&focused).unwrap_or(false))
}

/// The shadow root `element` is in, if it is in one.
fn shadow_root(element: &Element) -> Option<ShadowRoot> {
    host(element)
        .root_node()
        .ok()?
        .dyn_into::<ShadowRoot>()
        .ok()
}

/// An attribute of an element an event came from, which may be the root.
pub fn attribute(element: &Element, name: &str) -> Option<String> {
    host(element).get_attribute(name).ok().flatten()
}

/// The tag name of an element an event came from, which may be the root
/// (empty if it cannot be read).
pub fn tag(element: &Element) -> String {
    host(element).tag_name().unwrap_or_default()
}

/// Replaces every child of `parent` with `children` (fresh elements).
pub fn replace_children(parent: &Element, children: impl IntoIterator<Item = El>) {
    clear(parent);
    for child in children {
        let _ = parent.append_child(&child.0);
    }
}

/// Marks the step buttons `⇤ ← → ⇥` (in that order) that have nothing to
/// do at `position` of `total` with `aria-disabled`: the first two at the
/// start, the last two at the end. Unlike `disabled`, it keeps the focus on
/// a button a learner pressed to the end, so the keys go on working.
pub fn mark_ends(steps: &[Element; 4], position: usize, total: usize) {
    let idle = [
        position == 0,
        position == 0,
        position >= total,
        position >= total,
    ];
    for (button, idle) in steps.iter().zip(idle) {
        let _ = button.set_attribute("aria-disabled", if idle { "true" } else { "false" });
    }
}
