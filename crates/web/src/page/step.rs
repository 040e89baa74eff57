//! The step card: the summary or the verdict, the stamp beside the row,
//! the SQL with its bound values (the refusal marked), and the rows before
//! and after with the changed cells marked.

use web_sys::Document;

use super::dom::{El, code, header_row, replace_children};
use super::point::point_box;
use super::skeleton::Parts;
use leasefence_course::key;
use leasefence_course::playground::Lang;
use leasefence_course::playground::explain::{COLUMNS, Compared};
use leasefence_course::playground::messages::Key;
use leasefence_course::playground::view::{ChangeView, StatementView, StepView};

pub(super) fn draw(doc: &Document, parts: &Parts, lang: Lang, view: Option<&StepView>) {
    let t = |key: Key| lang.text(key).to_owned();
    let Some(view) = view else {
        let none = El::new(doc, "p")
            .class("lf-summary")
            .text(&t(key!("step.none")));
        return replace_children(&parts.step, [none]);
    };
    let mut blocks = Vec::new();
    if let Some(summary) = &view.summary {
        blocks.push(
            El::new(doc, "p")
                .class("lf-summary")
                .attr("data-result", summary.result)
                .text(summary.text.text()),
        );
    }
    if let Some(verdict) = &view.verdict {
        let (class, key) = if verdict.accepted {
            ("lf-verdict lf-accepted", key!("verdict.accepted"))
        } else {
            ("lf-verdict lf-rejected", key!("verdict.rejected"))
        };
        let mut card = El::new(doc, "div")
            .class(class)
            .child(El::new(doc, "strong").text(&t(key)))
            .child(
                El::new(doc, "span")
                    .class("lf-reason")
                    .text(verdict.words.text()),
            );
        if let Some(name) = &verdict.reason_name {
            let mut chip = El::new(doc, "span")
                .class("lf-reason-chip")
                .child(El::new(doc, "span").text(name));
            if let Some(code) = verdict.reason {
                chip = chip.child(El::new(doc, "code").text(code));
            }
            card = card.child(chip);
        }
        blocks.push(card);
    }
    if let Some(point) = &view.point {
        blocks.push(point_box(doc, point));
    }
    // In a lesson, the stamp beside the row and the rows before and after
    // are the row's view, the SQL its own ([`super::panes`]).
    let mut row = Vec::new();
    if !view.conditions.is_empty() {
        row.push(El::new(doc, "h4").text(&t(key!("verdict.side_by_side"))));
        row.push(conditions(doc, lang, &view.conditions));
        for note in &view.fence_notes {
            row.push(El::new(doc, "p").class("lf-fence-note").text(note.text()));
        }
    }
    if !view.cards.is_empty() {
        let title = t(key!("cards.title"));
        row.push(El::new(doc, "h4").text(&title));
        row.push(super::lanes::cards(doc, &title, &view.cards));
    }
    let mut sql = vec![El::new(doc, "h4").text(&t(key!("sql.title")))];
    if let Some(said) = &view.no_sql {
        sql.push(El::new(doc, "p").class("lf-muted").text(said));
    } else {
        // The folded statements (sweeps that changed nothing) sit behind
        // one line, in the place of the first of them.
        let mut items = Vec::with_capacity(view.statements.len());
        let mut folded = Vec::new();
        for statement in &view.statements {
            if statement.folded {
                folded.push(statement_item(doc, statement));
                continue;
            }
            if let Some(note) = view.folded_note.as_deref().filter(|_| !folded.is_empty()) {
                items.push(folded_item(doc, note, std::mem::take(&mut folded)));
            }
            items.push(statement_item(doc, statement));
        }
        if let Some(note) = view.folded_note.as_deref().filter(|_| !folded.is_empty()) {
            items.push(folded_item(doc, note, folded));
        }
        sql.push(El::new(doc, "ol").class("lf-sql").children(items));
    }
    if !view.changes.is_empty() {
        row.push(El::new(doc, "h4").text(&t(key!("row.title"))));
        row.extend(changes(doc, lang, &view.changes));
    }
    blocks.push(El::new(doc, "div").attr("data-pane", "row").children(row));
    blocks.push(El::new(doc, "div").attr("data-pane", "sql").children(sql));
    replace_children(&parts.step, blocks)
}

/// The stamp and the row side by side, the failed conditions marked.
fn conditions(doc: &Document, lang: Lang, lines: &[Compared]) -> El {
    let titles = [
        key!("verdict.field"),
        key!("verdict.expected"),
        key!("verdict.current"),
    ]
    .map(|key| lang.text(key));
    let mut rows = vec![header_row(doc, titles)];
    for line in lines {
        let row = El::new(doc, "tr").children([
            El::new(doc, "th").attr("scope", "row").text(line.field),
            El::new(doc, "td").text(&line.expected),
            El::new(doc, "td").text(&line.current),
        ]);
        if line.differs {
            let _ = row.0.set_attribute("class", "lf-differs");
        }
        rows.push(row);
    }
    El::new(doc, "table")
        .class("lf-compare-table")
        .children(rows)
}

fn statement_item(doc: &Document, statement: &StatementView) -> El {
    let sql = match statement.kept_back {
        true => El::new(doc, "p").class("lf-muted").text(&statement.sql),
        false => code(doc, &statement.sql),
    };
    let mut item = El::new(doc, "li").child(sql);
    if !statement.params.is_empty() {
        item = item.child(El::new(doc, "p").class("lf-params").text(&statement.params));
    }
    if let Some(effect) = &statement.effect {
        let class = if statement.refusal {
            "lf-effect lf-zero"
        } else {
            "lf-effect"
        };
        item = item.child(El::new(doc, "p").class(class).text(effect));
    }
    item
}

/// Statements folded behind one line, in the list.
fn folded_item(doc: &Document, note: &str, statements: Vec<El>) -> El {
    let details = El::new(doc, "details")
        .child(El::new(doc, "summary").text(note))
        .child(El::new(doc, "ol").children(statements));
    El::new(doc, "li").class("lf-folded").child(details)
}

/// The rows before and after, changed cells marked; a row that did not
/// change says so.
fn changes(doc: &Document, lang: Lang, changes: &[ChangeView]) -> Vec<El> {
    let mut blocks = Vec::new();
    let mut rows = vec![header_row(
        doc,
        std::iter::once("").chain(COLUMNS.iter().copied()),
    )];
    for change in changes {
        for (label, cells, after) in [
            (key!("row.before"), &change.before, false),
            (key!("row.after"), &change.after, true),
        ] {
            let mut line = vec![
                El::new(doc, "th")
                    .attr("scope", "row")
                    .text(lang.text(label)),
            ];
            for (text, changed) in cells.iter().zip(&change.changed) {
                let td = El::new(doc, "td").text(text);
                if after && *changed {
                    let _ = td.0.set_attribute("class", "lf-changed");
                    let _ = td.0.set_attribute("title", lang.text(key!("row.changed")));
                }
                line.push(td);
            }
            rows.push(El::new(doc, "tr").children(line));
        }
        if change.unchanged() {
            let said = format!("{}: {}", change.id, lang.text(key!("row.unchanged")));
            blocks.push(El::new(doc, "p").class("lf-unchanged").text(&said));
        }
    }
    let table = El::new(doc, "table").class("lf-rows").children(rows);
    // Focusable, so the keyboard can scroll a wide table.
    let scroll = El::new(doc, "div").class("lf-scroll").attr("tabindex", "0");
    blocks.push(scroll.child(table));
    blocks
}
