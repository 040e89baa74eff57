//! The panels that follow the timeline on screen: the statement panel's
//! timeline race, the invariants' checks, the comparison's naive playing,
//! and the panels a chapter opens.

use super::chapters::{self, Panel};
use super::session::Session;
use super::statements::Move;
use super::stepper::Question;
use crate::variants::unfenced;
use leasefence::error::Result;

impl Session {
    /// A move in the statement panel, on the timeline on screen.
    pub fn statements(&mut self, change: Move) -> Result<()> {
        let shown = self.shown_events();
        self.statement_panel
            .apply(change, self.stepper.scenario(), shown)
    }

    /// After a move along the timeline (a step, an answer): the statement
    /// panel's timeline race follows the events the learner may see.
    /// Whether it changed, so the page redraws it.
    pub fn follow_statements(&mut self) -> Result<bool> {
        let before = self.statement_panel.taken();
        self.statements(Move::Follow)?;
        Ok(self.statement_panel.taken() != before)
    }

    /// How many of the timeline's events the learner may see taken apart
    /// (`None`: all): while predicting, only those applied whose questions
    /// are answered.
    fn shown_events(&self) -> Option<usize> {
        let stepper = &self.stepper;
        if !stepper.answers_ahead() {
            return None;
        }
        // The field question asks why the last event was refused: its
        // statements would tell.
        let asking = usize::from(stepper.question() == Some(Question::Field));
        Some(stepper.position().saturating_sub(asking))
    }

    /// Opens the panels the chapter on screen is about
    /// ([`chapters::Chapter::opens`]), and closes those the screen does
    /// not show ([`super::show`]), which would otherwise go on replaying
    /// out of sight.
    pub(super) fn open_panels_for_chapter(&mut self) -> Result<()> {
        let chapter = self.stepper.chapter();
        let opens = chapters::find(chapter).map_or(&[][..], |chapter| chapter.opens);
        let chapter = self.stepper.forked_from().unwrap_or(chapter);
        for panel in [Panel::Compare, Panel::Statements, Panel::Invariants] {
            let open = match opens.contains(&panel) {
                true => true,
                false if !self.show.panel(chapter, panel) => false,
                false => continue,
            };
            match panel {
                Panel::Compare => self.compare_open = open,
                Panel::Statements => {
                    let shown = self.shown_events();
                    self.statement_panel
                        .apply(Move::Open(open), self.stepper.scenario(), shown)?;
                }
                Panel::Invariants => self.invariants_panel.open = open,
            }
        }
        self.refresh_panels()
    }

    /// Brings what follows the timeline up to date: the invariants'
    /// checks, the statement panel's timeline race, and the unfenced playing
    /// when the comparison is open and has none.
    pub(crate) fn refresh_panels(&mut self) -> Result<()> {
        self.refresh_checks()?;
        let shown = self.shown_events();
        self.statement_panel
            .apply(Move::Follow, self.stepper.scenario(), shown)?;
        if self.compare_open && self.unfenced.is_none() {
            self.unfenced = Some(unfenced::play(self.stepper.scenario(), self.guard)?);
        }
        Ok(())
    }
}
