//! The invariants panel: the four invariants on every side at the
//! learner's place, every ordering counted on demand, and a button per
//! naive side that opens its shortest failing ordering. Drawn from
//! [`InvariantsView`] only; a state is said in words and a mark (✓, ✗), not
//! by colour alone.

use web_sys::{Document, Element};

use super::dom::{El, break_link, header_row, replace_children};
use leasefence_course::key;
use leasefence_course::playground::Lang;
use leasefence_course::playground::assertions::Said;
use leasefence_course::playground::view::{InvariantsView, Light, OrderingsView};

/// The panel, closed (drawing opens it when the session has), and its
/// body.
pub(super) fn build(doc: &Document, lang: Lang) -> (El, Element) {
    let (panel, body) = El::panel(doc, "lf-invariants", lang.text(key!("invariants.title")));
    (panel.attr("data-pane", "orderings"), body)
}

/// Draws the panel, opening it if the session did (a chapter about it);
/// a closed one is left as it was.
pub(super) fn draw(
    doc: &Document,
    (panel, body): (&Element, &Element),
    lang: Lang,
    view: Option<&InvariantsView>,
) {
    let Some(view) = view else { return };
    let _ = panel.set_attribute("open", "");
    let titles = std::iter::once(lang.text(key!("invariants.invariant")))
        .chain(view.columns.iter().map(String::as_str));
    let mut rows = vec![header_row(doc, titles)];
    for row in &view.rows {
        let name = El::new(doc, "th").attr("scope", "row").text(&row.name);
        rows.push(
            El::new(doc, "tr")
                .child(name)
                .children(row.lights.iter().map(|lit| light(doc, lit))),
        );
    }
    let table = El::new(doc, "table").class("lf-invariants-table lf-invariants-rows");
    let mut children = vec![
        scroll(doc, table.children(rows)),
        El::new(doc, "p").class("lf-muted").text(&view.columns_note),
        El::new(doc, "p")
            .class("lf-invariants-note")
            .text(view.note.text()),
    ];
    orderings(doc, lang, &view.orderings, &mut children);
    replace_children(body, children)
}

/// A table that scrolls sideways on its own when its columns do not fit
/// (a phone, four sides), focusable so the keyboard can scroll it.
fn scroll(doc: &Document, table: El) -> El {
    El::new(doc, "div")
        .class("lf-scroll")
        .attr("tabindex", "0")
        .child(table)
}

/// One invariant on one side: its words, and `data-holds` for the colour.
fn light(doc: &Document, light: &Light) -> El {
    let holds = if light.holds { "true" } else { "false" };
    El::new(doc, "td")
        .attr("data-holds", holds)
        .text(light.text.text())
}

/// The orderings part: the summary, the count button or the counts (or
/// why they wait), and what was opened.
fn orderings(doc: &Document, lang: Lang, view: &OrderingsView, parts: &mut Vec<El>) {
    parts.push(
        El::new(doc, "p")
            .class("lf-muted")
            .text(view.summary.text()),
    );
    if let Some(label) = &view.count {
        parts.push(El::button(doc, "count-orderings", label).class("lf-primary"));
    }
    if let Some(waiting) = &view.waiting {
        parts.push(El::new(doc, "p").class("lf-muted").text(waiting));
    }
    if let Some(table) = &view.table {
        let titles = std::iter::once("").chain(table.columns.iter().map(Said::text));
        let mut rows = vec![header_row(doc, titles)];
        for row in &table.rows {
            let mut line =
                El::new(doc, "tr").child(El::new(doc, "th").attr("scope", "row").text(&row.label));
            for (cell, zero) in row.cells.iter().zip(&row.zero) {
                let holds = if *zero { "true" } else { "false" };
                line = line.child(El::new(doc, "td").attr("data-holds", holds).text(cell));
            }
            rows.push(line);
        }
        let mut open = El::new(doc, "tr").child(
            El::new(doc, "th")
                .attr("scope", "row")
                .text(lang.text(key!("invariants.shortest"))),
        );
        for button in &table.open {
            let cell = El::new(doc, "td");
            open = open.child(match button {
                Some(button) => cell.child(
                    El::button(doc, "open-shortest", &button.label).attr("data-arg", button.id),
                ),
                None => cell.text("—"),
            });
        }
        rows.push(open);
        let counts = El::new(doc, "table").class("lf-invariants-table lf-counts");
        parts.push(scroll(doc, counts.children(rows)));
        parts.push(
            El::new(doc, "p")
                .class("lf-invariants-note")
                .text(table.note.text()),
        );
        parts.extend(table.breaks.iter().map(|link| break_link(doc, link)));
    }
    if let Some(opened) = &view.opened {
        parts.push(
            El::new(doc, "p")
                .class("lf-invariants-note")
                .text(opened.text()),
        );
    }
}
