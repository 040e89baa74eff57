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
pub(super) fn draw(
    doc: &Document,
    root: &Element,
    switcher: &Element,
    lang: Lang,
    scene: Option<&SceneView>,
) {
    let _ = switcher.toggle_attribute_with_force("hidden", scene.is_none());
    name_controls(root, lang, scene);
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
    replace_children(switcher, buttons)
}

/// In a lesson → and ← move a scene, and the controls say so: their
/// names, the position (장면 n/m, not the event's 단계 n/m) and the keys;
/// on the workbench they step events, as [`super::skeleton`] drew them.
fn name_controls(root: &Element, lang: Lang, scene: Option<&SceneView>) {
    let find = |selector: &str| root.query_selector(selector).ok().flatten();
    let [next, previous] = match scene {
        Some(scene) => scene.moves,
        None => [key!("controls.step"), key!("controls.back")].map(|key| lang.text(key)),
    };
    let buttons = [
        (".lf-controls [data-action=step]", next),
        (".lf-controls [data-action=back]", previous),
    ];
    for (selector, name) in buttons {
        if let Some(button) = find(selector) {
            let _ = button.set_attribute("aria-label", name);
            let _ = button.set_attribute("title", name);
        }
    }
    if let (Some(scene), Some(position)) = (scene, find(".lf-controls .lf-position")) {
        position.set_text_content(Some(&scene.counter));
    }
    if let Some(keys) = find(".lf-controls .lf-keys") {
        let said = scene.map_or_else(|| lang.text(key!("controls.keys")), |scene| scene.keys);
        keys.set_text_content(Some(said));
    }
}

/// Shows the view at place `n` of the switcher (the keys 1 to 9, from 0);
/// whether there was one to show.
pub(super) fn look_nth(session: &mut Session, n: usize) -> bool {
    let pane = scenes::panes(session).get(n).copied();
    pane.is_some_and(|pane| session.look(pane))
}
