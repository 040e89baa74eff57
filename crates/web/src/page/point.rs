//! A course point on the step card: its heading and text, and what the
//! point shows besides (the claim itself, the quiz, the lease's end read
//! every way, the designs the course turns down), each run by the core.

use web_sys::Document;

use super::dom::El;
use leasefence_course::playground::view::{DesignsView, PointView, QuizView, ReadingsView};
use leasefence_course::variants::boundary::Holders;
use leasefence_course::variants::designs::Fate;

/// A course point of the chapter: its heading, its text, and the claim it
/// is about when it shows one.
pub(super) fn point_box(doc: &Document, point: &PointView) -> El {
    let mut card = El::new(doc, "div")
        .class("lf-point")
        .attr("data-point", point.key)
        .child(El::new(doc, "h4").text(&point.title))
        .child(El::new(doc, "p").text(&point.text));
    if let Some(code) = &point.code {
        card = card.child(El::new(doc, "pre").text(code));
    }
    if let Some(quiz) = &point.quiz {
        card = card.child(quiz_box(doc, quiz));
    }
    if let Some(readings) = &point.readings {
        card = card.child(readings_box(doc, readings));
    }
    if let Some(designs) = &point.designs {
        card = card.child(designs_box(doc, designs));
    }
    card
}

/// The lease's end read every way: per reading, its two conditions, what
/// the finish and the claim did, and who may work on the job.
fn readings_box(doc: &Document, view: &ReadingsView) -> El {
    let readings = view.readings.iter().map(|reading| {
        let conditions = reading.conditions.iter().map(|condition| {
            let code = El::new(doc, "code").text(condition.sql);
            let code = match condition.changed {
                true => code.class("lf-changed"),
                false => code,
            };
            El::new(doc, "li")
                .text(&format!("{}: ", condition.label))
                .child(code)
        });
        let did = reading.did.iter().map(|line| El::new(doc, "li").text(line));
        El::new(doc, "li")
            .class("lf-run")
            .attr("data-count", count_name(reading.count))
            .attr("data-verdict", verdict(reading.count == Holders::One))
            .child(El::new(doc, "h5").text(&reading.name))
            .child(
                El::new(doc, "ul")
                    .class("lf-conditions")
                    .children(conditions),
            )
            .child(El::new(doc, "ul").children(did))
            .child(El::new(doc, "p").class("lf-said").text(&reading.holders))
    });
    El::new(doc, "ol").class("lf-runs").children(readings)
}

/// How many may work on the job, as the page's `data-count` says it.
fn count_name(count: Holders) -> &'static str {
    match count {
        Holders::One => "one",
        Holders::Two => "two",
        Holders::Gap => "gap",
    }
}

/// The designs the course turns down beside the queue's claim: per
/// design, the claims it ran, the job's row afterwards, and what became of
/// the job.
fn designs_box(doc: &Document, view: &DesignsView) -> El {
    let runs = view.runs.iter().map(|run| {
        let took = run.took.iter().map(|line| El::new(doc, "li").text(line));
        let row = match run.gone {
            false => El::new(doc, "p").child(El::new(doc, "code").text(&run.row)),
            true => El::new(doc, "p").text(&run.row),
        };
        El::new(doc, "li")
            .class("lf-run")
            .attr("data-fate", fate_name(run.fate))
            .attr("data-verdict", verdict(run.fate == Fate::Kept))
            .child(El::new(doc, "h5").text(&run.name))
            .child(El::new(doc, "ul").children(took))
            .child(row.class("lf-row-after"))
            .child(El::new(doc, "p").class("lf-said").text(&run.said))
    });
    El::new(doc, "ol").class("lf-runs").children(runs)
}

/// What became of the job, as the page's `data-fate` says it.
fn fate_name(fate: Fate) -> &'static str {
    match fate {
        Fate::Kept => "kept",
        Fate::Open => "open",
        Fate::Lost => "lost",
        Fate::Shared => "shared",
    }
}

/// `ok` for the outcome the queue's rules give, `bad` for another: the
/// run's colour.
fn verdict(ok: bool) -> &'static str {
    if ok { "ok" } else { "bad" }
}

/// The quiz: its question, a button per value, and once answered what
/// each value was.
fn quiz_box(doc: &Document, quiz: &QuizView) -> El {
    let choices = quiz.choices.iter().map(|(field, label)| {
        let pressed = if quiz.picked == Some(*field) {
            "true"
        } else {
            "false"
        };
        El::button(doc, "quiz", label)
            .attr("data-arg", field)
            .attr("aria-pressed", pressed)
    });
    let mut block = El::new(doc, "div")
        .class("lf-quiz")
        .child(El::new(doc, "p").text(&quiz.question))
        .child(El::new(doc, "div").class("lf-controls").children(choices));
    for line in &quiz.feedback {
        block = block.child(El::new(doc, "p").class("lf-said").text(line));
    }
    block
}
