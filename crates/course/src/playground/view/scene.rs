//! The scene on screen in a lesson ([`crate::playground::scenes`]): the
//! view it shows and the views the learner may switch to.

use serde::Serialize;

use crate::key;
use crate::playground::Lang;
use crate::playground::scenes::{self, Pane};
use crate::playground::session::Session;

/// The scene on screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SceneView {
    /// The view on screen: the scene's own, or the one the learner picked.
    pub pane: Pane,
    /// The views on offer, in the switcher's order (keys 1 to 9).
    pub panes: Vec<PaneButton>,
    /// Which scene of the lesson this is, of how many.
    pub counter: String,
    /// The names of the → and ← buttons, which move a scene, not an
    /// event, in a lesson: "step" would name two units on one screen.
    pub moves: [&'static str; 2],
    /// The keys a lesson answers to.
    pub keys: &'static str,
}

/// A view the learner may switch to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PaneButton {
    /// The view.
    pub pane: Pane,
    /// Its name in the learner's language.
    pub label: &'static str,
}

/// The scene on screen; `None` off scenes (on the workbench).
pub fn view(session: &Session) -> Option<SceneView> {
    let (_, pane) = session.scene()?;
    let panes = scenes::panes(session);
    let (number, count) = scenes::counted(session)?;
    let counter = session.lang.fill(
        key!("scene.counter"),
        &[("n", number.to_string()), ("total", count.to_string())],
    );
    let lang = session.lang;
    Some(SceneView {
        counter,
        moves: [
            lang.text(key!("controls.next_scene")),
            lang.text(key!("controls.previous_scene")),
        ],
        keys: lang.text(key!("controls.scene_keys")),
        pane,
        panes: panes
            .into_iter()
            .map(|pane| PaneButton {
                pane,
                label: label(session.lang, pane),
            })
            .collect(),
    })
}

/// The name of `pane` in `lang`.
fn label(lang: Lang, pane: Pane) -> &'static str {
    let key = match pane {
        Pane::Lanes => key!("pane.lanes"),
        Pane::Row => key!("pane.row"),
        Pane::Sql => key!("pane.sql"),
        Pane::Events => key!("pane.events"),
        Pane::Receiver => key!("pane.receiver"),
        Pane::Point => key!("pane.point"),
        Pane::Compare => key!("pane.compare"),
        Pane::Statements => key!("pane.statements"),
        Pane::Orderings => key!("pane.orderings"),
    };
    lang.text(key)
}
