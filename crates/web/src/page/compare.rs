//! The fencing off vs on panel's body: the naive statement, each finish on
//! both queues with the harmful ones marked, and the conclusion so far.

use web_sys::Document;

use super::dom::{El, break_link, code, header_row, replace_children};
use super::skeleton::Parts;
use leasefence_course::key;
use leasefence_course::playground::Lang;
use leasefence_course::playground::view::CompareView;

/// Draws the comparison; a closed one is left as it was.
pub(super) fn draw(doc: &Document, parts: &Parts, lang: Lang, view: Option<&CompareView>) {
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
    replace_children(&parts.compare, drawn.into_iter().chain(breaks))
}
