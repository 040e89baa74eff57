//! The fencing off vs on panel's body: the naive statement, each finish on
//! both queues with the harmful ones marked, and the conclusion so far.

use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlSelectElement};

use super::dom::{El, break_link, code, header_row, replace_children};
use leasefence_course::key;
use leasefence_course::playground::Lang;
use leasefence_course::playground::messages::Key;
use leasefence_course::playground::view::CompareView;
use leasefence_course::variants::Guard;

/// The panel, closed, and its body.
pub(super) fn build(doc: &Document, lang: Lang, guard: Guard) -> (El, Element) {
    let t = |key: Key| lang.text(key).to_owned();
    let guard_select = El::new(doc, "select")
        .attr("data-action", "guard")
        .children([
            El::new(doc, "option")
                .attr("value", "id_only")
                .text(&t(key!("variant.id_only"))),
            El::new(doc, "option")
                .attr("value", "id_and_owner")
                .text(&t(key!("variant.id_and_owner"))),
        ]);
    if guard == Guard::IdAndOwner {
        guard_select
            .0
            .unchecked_ref::<HtmlSelectElement>()
            .set_value("id_and_owner");
    }
    let body = El::new(doc, "div").class("lf-body");
    let body_ref = body.0.clone();
    let panel = El::new(doc, "details")
        .class("lf-panel lf-compare")
        .attr("data-pane", "compare")
        .child(El::new(doc, "summary").text(&t(key!("compare.title"))))
        .child(
            El::new(doc, "label")
                .class("lf-guard")
                .child(El::new(doc, "span").text(&t(key!("compare.intro"))))
                .child(guard_select),
        )
        .child(body);
    (panel, body_ref)
}

/// Draws the comparison; a closed one is left as it was.
pub(super) fn draw(doc: &Document, body: &Element, lang: Lang, view: Option<&CompareView>) {
    let Some(view) = view else { return };
    let titles = [
        lang.text(key!("compare.event")),
        lang.text(key!("compare.fenced")),
        &view.guard_name,
    ];
    let mut rows = vec![header_row(doc, titles)];
    for row in &view.rows {
        let line = El::new(doc, "tr").children([
            El::new(doc, "th").attr("scope", "row").text(&row.event),
            El::new(doc, "td").text(row.fenced.text()),
            El::new(doc, "td").text(row.naive.text()),
        ]);
        if row.harm {
            let _ = line.0.set_attribute("class", "lf-harm");
        }
        rows.push(line);
    }
    let note_class = if view.harm {
        "lf-harm-note"
    } else {
        "lf-muted"
    };
    let drawn = [
        code(doc, view.guard_sql).class("lf-naive-sql"),
        El::new(doc, "table")
            .class("lf-compare-table")
            .children(rows),
        El::new(doc, "p").class(note_class).text(view.note.text()),
    ];
    let breaks = view.breaks.iter().map(|link| break_link(doc, link));
    replace_children(body, drawn.into_iter().chain(breaks))
}
