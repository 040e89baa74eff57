//! The lanes' tools: for each worker, stall it, crash it, or restart it
//! under the same name from where the learner stands. The core rewrites
//! the timeline ([`leasefence_course::playground::twist`]); here are only the buttons.

use web_sys::{Document, Element};

use super::dom::{El, replace_children};
use leasefence_course::playground::Lang;

/// One group of buttons per worker, under a short title.
pub(super) fn draw(doc: &Document, container: &Element, lang: Lang, actors: &[String]) {
    let mut groups = vec![El::new(doc, "span").text(lang.text("twist.title"))];
    for worker in actors {
        let mut group = El::new(doc, "span")
            .class("lf-twist")
            .attr("role", "group")
            .attr("aria-label", worker)
            .child(El::new(doc, "strong").text(worker));
        for twist in ["stall", "crash", "restart"] {
            let label = lang.text(&format!("twist.{twist}")).to_owned();
            let button =
                El::button(doc, "twist", &label).attr("data-arg", &format!("{twist}:{worker}"));
            group = group.child(button.attr("aria-label", &format!("{worker}: {label}")));
        }
        groups.push(group);
    }
    replace_children(container, groups)
}
