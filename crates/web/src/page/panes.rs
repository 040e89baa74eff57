//! A lesson's one view at a time ([`leasefence_course::playground::scenes`]):
//! the root names the scene's view (`data-scene`), the stylesheet hides
//! every other part marked with a view (`data-pane`), and the switcher
//! offers the others, one press (or key, 1 to 9) away. The core decides
//! which; here are only the attributes and the buttons.

use web_sys::{Document, Element};

use super::dom::{El, replace_children};
use leasefence_course::key;
use leasefence_course::playground::Lang;
use leasefence_course::playground::scenes;
use leasefence_course::playground::session::Session;
use leasefence_course::playground::view::SceneView;

/// The switcher, empty until a scene is drawn.
pub(super) fn build(doc: &Document, lang: Lang) -> El {
    El::new(doc, "div")
        .class("lf-panes")
        .attr("role", "toolbar")
        .attr("aria-label", lang.text(key!("pane.views")))
        .attr("hidden", "")
}

/// Shows the scene's view alone, and the switcher's buttons; off scenes
/// (the workbench), every part and no switcher.
pub(super) fn draw(doc: &Document, root: &Element, switcher: &Element, scene: Option<&SceneView>) {
    let _ = switcher.toggle_attribute_with_force("hidden", scene.is_none());
    let Some(scene) = scene else {
        let _ = root.remove_attribute("data-scene");
        return replace_children(switcher, []);
    };
    let _ = root.set_attribute("data-scene", scene.pane.arg());
    let buttons = scene.panes.iter().enumerate().map(|(at, button)| {
        let pressed = if button.pane == scene.pane {
            "true"
        } else {
            "false"
        };
        El::button(doc, "pane", button.label)
            .attr("data-arg", button.pane.arg())
            .attr("aria-pressed", pressed)
            .attr("aria-keyshortcuts", &(at + 1).to_string())
    });
    let counter = El::new(doc, "span")
        .class("lf-scene-count")
        .text(&scene.counter);
    replace_children(switcher, buttons.chain([counter]))
}

/// Shows the view at place `n` of the switcher (the keys 1 to 9, from 0);
/// whether there was one to show.
pub(super) fn look_nth(session: &mut Session, n: usize) -> bool {
    let pane = scenes::panes(session).get(n).copied();
    pane.is_some_and(|pane| session.look(pane))
}
