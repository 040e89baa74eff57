//! The prediction strip: the question before a claim or a finish with its
//! two answers (after a refusal: a condition it failed, one button per
//! field), then the feedback and the score.

use web_sys::Document;

use super::dom::{El, replace_children};
use super::skeleton::Parts;
use leasefence_course::playground::view::PromptView;

pub(super) fn draw(doc: &Document, parts: &Parts, view: &PromptView) {
    let mut children = Vec::new();
    if let Some(question) = &view.question {
        children.push(El::new(doc, "span").text(question.text.text()));
        for answer in &question.answers {
            children
                .push(El::button(doc, answer.action, &answer.label).attr("data-arg", answer.arg));
        }
    }
    if let Some(feedback) = &view.feedback {
        children.push(
            El::new(doc, "span")
                .class("lf-feedback")
                .text(feedback.text()),
        );
    }
    if let Some(score) = &view.score {
        children.push(El::new(doc, "span").class("lf-score").text(score));
    }
    if let Some(next) = &view.next {
        let button = El::button(doc, "next-chapter", &next.label).attr("data-arg", next.id);
        children.push(button.class("lf-primary"));
    }
    let open = if children.is_empty() { "false" } else { "true" };
    let _ = parts.prompt.set_attribute("data-open", open);
    replace_children(&parts.prompt, children)
}

/// Whether the strip shows anything (a question, feedback, the score).
pub(super) fn is_open(parts: &Parts) -> bool {
    parts.prompt.get_attribute("data-open").as_deref() == Some("true")
}
