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

/// The panes the learner may switch to from the scene on screen: those
/// with something to show at their place. None off scenes.
pub fn panes(session: &Session) -> Vec<Pane> {
    let Some((scene, _)) = session.scene() else {
        return Vec::new();
    };
    let layout = session.layout();
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

    /// The scenes at the learner's place and which of them they stand at
    /// (the cursor's, if it was set here, else the first).
    fn place(&self) -> (Vec<Scene>, usize) {
        let position = self.stepper.position();
        let scenes = at(self, &self.layout(), position);
        let set = (self.scene.position == position).then_some(self.scene.index);
        let index = set.unwrap_or(0).min(scenes.len().saturating_sub(1));
        (scenes, index)
    }

    /// The scene the learner stands at, and the pane on screen (theirs if
    /// they switched, else the scene's own); `None` off scenes.
    pub fn scene(&self) -> Option<(Scene, Pane)> {
        if !self.in_scenes() {
            return None;
        }
        let (scenes, index) = self.place();
        let scene = *scenes.get(index)?;
        let mine = self.scene.position == self.stepper.position() && self.scene.index == index;
        let look = self.scene.look.filter(|_| mine);
        Some((scene, look.unwrap_or(scene.pane)))
    }

    /// One move forward: to the next scene of the learner's place, else
    /// (and off scenes) one event forward, its question first when
    /// predicting ([`crate::playground::stepper::Stepper::step`]).
    pub fn forward(&mut self) -> Stepped {
        if self.in_scenes() && self.stepper.question().is_none() {
            let (scenes, index) = self.place();
            if index + 1 < scenes.len() {
                self.scene = Cursor {
                    position: self.stepper.position(),
                    index: index + 1,
                    look: None,
                };
                return Stepped::Moved;
            }
        }
        self.stepper.step()
    }

    /// One move back: to the previous scene of the learner's place, else
    /// one event back, to the last scene of the place before.
    pub fn backward(&mut self) {
        let (_, index) = self.place();
        let at_index = match index {
            0 => {
                self.stepper.back();
                let position = self.stepper.position();
                at(self, &self.layout(), position).len().saturating_sub(1)
            }
            index => index - 1,
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
        let Some((scene, _)) = self.scene() else {
            return false;
        };
        if !panes(self).contains(&pane) {
            return false;
        }
        let (_, index) = self.place();
        self.scene = Cursor {
            position: self.stepper.position(),
            index,
            look: Some(pane).filter(|&pane| pane != scene.pane),
        };
        true
    }
}
