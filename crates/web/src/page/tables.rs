//! The jobs table as it is now, and the receiver's ledger.

use web_sys::Document;

use super::dom::{El, header_row, replace_children};
use super::skeleton::Parts;
use leasefence_course::key;
use leasefence_course::playground::Lang;
use leasefence_course::playground::explain::COLUMNS;
use leasefence_course::playground::view::{ReceiverView, TableRow};

pub(super) fn draw_table(doc: &Document, parts: &Parts, rows: &[TableRow]) {
    let mut lines = vec![header_row(doc, COLUMNS.iter().copied())];
    for row in rows {
        let mut cells = Vec::with_capacity(row.cells.len());
        for text in &row.cells {
            cells.push(El::new(doc, "td").text(text));
        }
        lines.push(
            El::new(doc, "tr")
                .attr("data-state", row.state)
                .children(cells),
        );
    }
    let table = El::new(doc, "table").class("lf-rows").children(lines);
    replace_children(
        &parts.table,
        // Focusable, so the keyboard can scroll a wide table.
        [El::new(doc, "div")
            .class("lf-scroll")
            .attr("tabindex", "0")
            .child(table)],
    )
}

pub(super) fn draw_receiver(doc: &Document, parts: &Parts, lang: Lang, view: &ReceiverView) {
    let Some(total) = &view.total else {
        let empty = El::new(doc, "p")
            .class("lf-muted")
            .text(lang.text(key!("receiver.empty")));
        return replace_children(&parts.receiver, [empty]);
    };
    let mut items = Vec::with_capacity(view.items.len());
    for item in &view.items {
        items.push(El::new(doc, "li").text(item));
    }
    replace_children(
        &parts.receiver,
        [
            El::new(doc, "ul").class("lf-ledger").children(items),
            El::new(doc, "p").text(total),
        ],
    )
}
