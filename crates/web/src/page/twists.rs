//! The lanes' tools: for each worker, stall it, crash it, or restart it
//! under the same name from where the learner stands. The core rewrites
//! the timeline ([`leasefence_course::playground::twist`]); here are only the buttons.

use web_sys::{Document, Element};

use super::dom::{El, replace_children};
use leasefence_course::key;
use leasefence_course::playground::Lang;
use leasefence_course::playground::twist::Twist;

/// One group of buttons per worker, under a short title, drawn for each
/// timeline; [`enable`] marks at each step which would change nothing.
pub(super) fn draw(doc: &Document, container: &Element, lang: Lang, actors: &[String]) {
    let mut groups = vec![El::new(doc, "span").text(lang.text(key!("twist.title")))];
    for worker in actors {
        let mut group = El::new(doc, "span")
            .class("lf-twist")
            .attr("role", "group")
            .attr("aria-label", worker)
            .child(El::new(doc, "strong").text(worker));
        for twist in Twist::ALL {
            let label = lang
                .text(match twist {
                    Twist::Stall => key!("twist.stall"),
                    Twist::Crash => key!("twist.crash"),
                    Twist::Restart => key!("twist.restart"),
                })
                .to_owned();
            let button = El::button(doc, "twist", &label).attr("data-arg", &twist.arg(worker));
            group = group.child(button.attr("aria-label", &format!("{worker}: {label}")));
        }
        groups.push(group);
    }
    replace_children(container, groups)
}

/// Marks the tools that would change nothing from the learner's place
/// (`idle`, by their `data-arg`) unavailable, and the rest available: with
/// `aria-disabled`, as the step buttons at an end, so a focused one keeps
/// the focus and the keys go on working.
pub(super) fn enable(container: &Element, idle: &[String]) {
    let Ok(buttons) = container.query_selector_all("button") else {
        return;
    };
    for index in 0..buttons.length() {
        let Some(button) = buttons.item(index) else {
            continue;
        };
        let button: &Element = wasm_bindgen::JsCast::unchecked_ref(&button);
        let off = idle.contains(&button.get_attribute("data-arg").unwrap_or_default());
        let _ = button.set_attribute("aria-disabled", if off { "true" } else { "false" });
    }
}
