//! The lanes' tools: for each worker, stall it, crash it, or restart it
//! under the same name from where the learner stands. The core rewrites
//! the timeline ([`leasefence_course::playground::twist`]); here are only the buttons.

use web_sys::{Document, Element};

use super::dom::{El, replace_children};
use leasefence_course::playground::Lang;
use leasefence_course::playground::twist::Twist;
use leasefence_course::playground::view::PositionView;

/// One group of buttons per worker, under a short title; a tool that
/// would change nothing from the learner's place is disabled. Drawn at
/// every step, as the place decides which tools are offered.
pub(super) fn draw(doc: &Document, container: &Element, lang: Lang, view: &PositionView) {
    let mut groups = vec![El::new(doc, "span").text(lang.text("twist.title"))];
    for worker in &view.actors {
        let mut group = El::new(doc, "span")
            .class("lf-twist")
            .attr("role", "group")
            .attr("aria-label", worker)
            .child(El::new(doc, "strong").text(worker));
        for twist in Twist::ALL {
            let label = lang.text(&format!("twist.{}", twist.name())).to_owned();
            let arg = twist.arg(worker);
            let mut button = El::button(doc, "twist", &label);
            if view.idle_twists.contains(&arg) {
                button = button.attr("disabled", "");
            }
            let button = button.attr("data-arg", &arg);
            group = group.child(button.attr("aria-label", &format!("{worker}: {label}")));
        }
        groups.push(group);
    }
    replace_children(container, groups)
}
