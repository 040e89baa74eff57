//! A course point on the step card: its heading and text, and what the
//! point shows besides (the claim itself, the quiz, the lease's end read
//! every way, the designs the course turns down), each run by the core.

use web_sys::Document;

use super::dom::El;
use leasefence_course::playground::view::{DesignsView, PointView, QuizView, ReadingsView};

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
            let code = El::new(doc, "code").text(&condition.sql);
            let code = match condition.changed {
                true => code.class("lf-changed"),
                false => code,
            };
            El::new(doc, "li")
                .text(&format!("{}: ", condition.label))
                .child(code)
        });
        let did = (reading.did.iter()).map(|line| El::new(doc, "li").text(line.text()));
        run(
            doc,
            &reading.name,
            [
                El::new(doc, "ul")
                    .class("lf-conditions")
                    .children(conditions),
                El::new(doc, "ul").children(did),
            ],
            reading.said.text(),
            reading.count.as_the_rules_give(),
        )
        .attr("data-count", reading.count.name())
    });
    El::new(doc, "ol").class("lf-runs").children(readings)
}

/// The designs the course turns down beside the queue's claim: per
/// design, the claims it ran, the job's row afterwards, and what became of
/// the job.
fn designs_box(doc: &Document, view: &DesignsView) -> El {
    let runs = view.runs.iter().map(|design| {
        let took = (design.took.iter()).map(|line| El::new(doc, "li").text(line.text()));
        let row = match design.gone {
            false => El::new(doc, "p").child(El::new(doc, "code").text(design.row.text())),
            true => El::new(doc, "p").text(design.row.text()),
        };
        run(
            doc,
            &design.name,
            [El::new(doc, "ul").children(took), row.class("lf-row-after")],
            design.said.text(),
            design.fate.as_the_rules_give(),
        )
        .attr("data-fate", design.fate.name())
    });
    El::new(doc, "ol").class("lf-runs").children(runs)
}

/// One way of running the point's events: its name, what it ran, and
/// what that came to, coloured by whether it is what the queue's rules
/// give.
fn run(doc: &Document, name: &str, ran: [El; 2], said: &str, as_the_rules_give: bool) -> El {
    El::new(doc, "li")
        .class("lf-run")
        .attr("data-verdict", if as_the_rules_give { "ok" } else { "bad" })
        .child(El::new(doc, "h5").text(name))
        .children(ran)
        .child(El::new(doc, "p").class("lf-said").text(said))
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
        .child(El::new(doc, "p").text(quiz.question.text()))
        .child(El::new(doc, "div").class("lf-controls").children(choices));
    for line in &quiz.feedback {
        block = block.child(El::new(doc, "p").class("lf-said").text(line.text()));
    }
    block
}
