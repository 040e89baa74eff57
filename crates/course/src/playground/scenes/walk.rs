//! The scenes of the learner's place, and the learner's moves through
//! them.

use super::{Cursor, Idea, Pane, Scene, event_pane, point_pane};
use crate::playground::chapters::{self, Panel};
use crate::playground::session::Session;
use crate::playground::show::{self, Layout};
use crate::playground::statements::Race;
use crate::playground::stepper::Stepped;

/// The scenes at `position` of the session's timeline, in order: the
/// start (at 0) or the event just applied, the course point placed there
/// (in a chapter's own timeline), and at the end the panels the chapter
/// is about that `layout` shows.
fn at(session: &Session, layout: &Layout, position: usize) -> Vec<Scene> {
    let stepper = &session.stepper;
    let mut scenes = Vec::new();
    match position.checked_sub(1) {
        None => scenes.push(Scene {
            idea: Idea::Start,
            pane: Pane::Events,
        }),
        Some(index) => {
            if let Some(frame) = stepper.timeline().frames.get(index) {
                scenes.push(Scene {
                    idea: Idea::Event(index),
                    pane: event_pane(&frame.result.outcome),
                });
            }
        }
    }
    let own = stepper.forked_from().is_none();
    if let Some((_, point)) = chapters::point_at(stepper.chapter(), position).filter(|_| own) {
        scenes.push(Scene {
            idea: Idea::Point(point.key),
            pane: point_pane(point.key),
        });
    }
    if position == stepper.total() {
        let about = chapters::find(stepper.forked_from().unwrap_or(stepper.chapter()))
            .map_or(&[][..], |chapter| chapter.opens);
        for panel in about {
            let (pane, shown) = match panel {
                Panel::Compare => (Pane::Compare, layout.compare),
                Panel::Statements => (Pane::Statements, layout.statements),
                Panel::Invariants => (Pane::Orderings, layout.invariants),
            };
            if shown {
                scenes.push(Scene {
                    idea: Idea::Panel(pane),
                    pane,
                });
            }
        }
    }
    scenes
}

/// The learner's place in a lesson: the scenes at their position, the
/// one they stand at, and the layout both were computed for (it does not
/// depend on the position, so a move back reuses it).
struct Place {
    scenes: Vec<Scene>,
    index: usize,
    layout: Layout,
}

impl Place {
    /// The scene the learner stands at.
    fn scene(&self) -> Option<Scene> {
        self.scenes.get(self.index).copied()
    }

    /// The panes the learner may switch to from `scene`: those with
    /// something to show at this place.
    fn offered(&self, session: &Session, scene: Scene) -> Vec<Pane> {
        let layout = &self.layout;
        let stepped = session.stepper.position() > 0;
        Pane::ALL
            .into_iter()
            .filter(|pane| match pane {
                Pane::Lanes | Pane::Events => true,
                Pane::Row | Pane::Sql => stepped,
                Pane::Receiver => layout.receiver,
                Pane::Point => scene.pane == Pane::Point,
                Pane::Compare => layout.compare,
                Pane::Statements => layout.statements,
                Pane::Orderings => layout.invariants,
            })
            .collect()
    }
}

/// The panes the learner may switch to from the scene on screen: those
/// with something to show at their place. None off scenes.
pub fn panes(session: &Session) -> Vec<Pane> {
    let Some(place) = session.place() else {
        return Vec::new();
    };
    place
        .scene()
        .map_or_else(Vec::new, |scene| place.offered(session, scene))
}

/// Where the learner's scene is among all the lesson's scenes: its
/// number (from 1) and how many there are. `None` off scenes.
pub fn counted(session: &Session) -> Option<(usize, usize)> {
    let place = session.place()?;
    let count = |position| at(session, &place.layout, position).len();
    let position = session.stepper.position();
    let before: usize = (0..position).map(count).sum();
    let after: usize = (position + 1..=session.stepper.total()).map(count).sum();
    Some((
        before + place.index + 1,
        before + place.scenes.len() + after,
    ))
}

impl Session {
    /// What this screen shows, part by part ([`show::layout`]).
    pub fn layout(&self) -> Layout {
        let stepper = &self.stepper;
        show::layout(
            self.show,
            stepper.forked_from().unwrap_or(stepper.chapter()),
            stepper.scenario(),
            self.statement_panel.race == Race::Lab,
        )
    }

    /// Whether the timeline is walked in scenes: in a lesson, not on the
    /// workbench that shows every panel at once ([`show::Show::tools`]).
    pub fn in_scenes(&self) -> bool {
        !self.show.tools
    }

    /// The learner's place: the scenes at their position and the one
    /// they stand at (the cursor's, if it was set here, else the first);
    /// `None` off scenes.
    fn place(&self) -> Option<Place> {
        if !self.in_scenes() {
            return None;
        }
        let position = self.stepper.position();
        let layout = self.layout();
        let scenes = at(self, &layout, position);
        let set = (self.scene.position == position).then_some(self.scene.index);
        let index = set.unwrap_or(0).min(scenes.len().saturating_sub(1));
        Some(Place {
            scenes,
            index,
            layout,
        })
    }

    /// The scene the learner stands at, and the pane on screen (theirs if
    /// they switched, else the scene's own); `None` off scenes.
    pub fn scene(&self) -> Option<(Scene, Pane)> {
        let place = self.place()?;
        let scene = place.scene()?;
        Some((scene, self.looking(&place).unwrap_or(scene.pane)))
    }

    /// The pane the learner switched to, if the cursor was set at the
    /// scene they stand at.
    fn looking(&self, place: &Place) -> Option<Pane> {
        let mine =
            self.scene.position == self.stepper.position() && self.scene.index == place.index;
        self.scene.look.filter(|_| mine)
    }

    /// One move forward: to the next scene of the learner's place, else
    /// (and off scenes) one event forward, its question first when
    /// predicting ([`crate::playground::stepper::Stepper::step`]).
    pub fn forward(&mut self) -> Stepped {
        let place = self.place().filter(|_| self.stepper.question().is_none());
        if let Some(place) = place.filter(|place| place.index + 1 < place.scenes.len()) {
            self.scene = Cursor {
                position: self.stepper.position(),
                index: place.index + 1,
                look: None,
            };
            return Stepped::Moved;
        }
        self.stepper.step()
    }

    /// One move back: to the previous scene of the learner's place, else
    /// one event back, to the last scene of the place before.
    pub fn backward(&mut self) {
        let place = self.place();
        let at_index = match place {
            Some(Place { index, .. }) if index > 0 => index - 1,
            _ => {
                self.stepper.back();
                place.map_or(0, |place| {
                    let position = self.stepper.position();
                    at(self, &place.layout, position).len().saturating_sub(1)
                })
            }
        };
        self.scene = Cursor {
            position: self.stepper.position(),
            index: at_index,
            look: None,
        };
    }

    /// Shows `pane` in place of the scene's own, until the scene changes.
    /// A pane not on offer there ([`panes`]) is refused: nothing changes.
    pub fn look(&mut self, pane: Pane) -> bool {
        let Some(place) = self.place() else {
            return false;
        };
        let Some(scene) = place.scene() else {
            return false;
        };
        if !place.offered(self, scene).contains(&pane) {
            return false;
        }
        self.scene = Cursor {
            position: self.stepper.position(),
            index: place.index,
            look: Some(pane).filter(|&pane| pane != scene.pane),
        };
        true
    }
}
