//! The lab in the learner's session: the level open, their statement
//! graded on every chapter, and the counterexample opened as a timeline
//! they can step.

use super::session::Session;
use super::status::{Status, StatusKind};
use super::stepper::SANDBOX;
use super::{CHAPTERS, Message, chapter_scenarios, chapters};
use crate::key;
use crate::lab::{Answer, Bench, Graded, LEVELS, Level, Shortest};
use crate::playground::messages::Key;
use leasefence::error::Result;

/// A level's words: its name, its goal, and its hints in the order they
/// are given.
pub(super) struct LevelTexts {
    /// The level's name (its button).
    pub name: Key,
    /// What the statement must do, not how.
    pub goal: Key,
    /// Each hint a question that points at what the level's starting
    /// statement misses without saying how to write it: the statement is
    /// the learner's to find.
    pub hints: &'static [Key],
}

/// Each level's words, by the level's id.
const TEXTS: [(&str, LevelTexts); 5] = [
    (
        "finish",
        LevelTexts {
            name: key!("lab.level.finish"),
            goal: key!("lab.goal.finish"),
            hints: &[
                key!("lab.hint.finish.1"),
                key!("lab.hint.finish.2"),
                key!("lab.hint.finish.3"),
                key!("lab.hint.finish.4"),
            ],
        },
    ),
    (
        "boundary",
        LevelTexts {
            name: key!("lab.level.boundary"),
            goal: key!("lab.goal.boundary"),
            hints: &[
                key!("lab.hint.boundary.1"),
                key!("lab.hint.boundary.2"),
                key!("lab.hint.boundary.3"),
            ],
        },
    ),
    (
        "reclaim",
        LevelTexts {
            name: key!("lab.level.reclaim"),
            goal: key!("lab.goal.reclaim"),
            hints: &[
                key!("lab.hint.reclaim.1"),
                key!("lab.hint.reclaim.2"),
                key!("lab.hint.reclaim.3"),
            ],
        },
    ),
    (
        "claim",
        LevelTexts {
            name: key!("lab.level.claim"),
            goal: key!("lab.goal.claim"),
            hints: &[
                key!("lab.hint.claim.1"),
                key!("lab.hint.claim.2"),
                key!("lab.hint.claim.3"),
            ],
        },
    ),
    (
        "transaction",
        LevelTexts {
            name: key!("lab.level.transaction"),
            goal: key!("lab.goal.transaction"),
            hints: &[
                key!("lab.hint.transaction.1"),
                key!("lab.hint.transaction.2"),
                key!("lab.hint.transaction.3"),
            ],
        },
    ),
];

/// The words of `level` ([`TEXTS`]; every level of [`LEVELS`] has them,
/// `tests/lab_hints.rs`).
pub(super) fn texts(level: Level) -> &'static LevelTexts {
    let found = TEXTS.iter().find(|(id, _)| *id == level.id);
    found.map_or(&TEXTS[0].1, |(_, texts)| texts)
}

/// The titles of the lab's own scenarios, by id (a chapter's is its own).
const SCENARIOS: [(&str, Key); 12] = [
    (
        "finish-at-lease-end",
        key!("lab.scenario.finish-at-lease-end"),
    ),
    ("finish-twice", key!("lab.scenario.finish-twice")),
    (
        "reclaim-at-lease-end",
        key!("lab.scenario.reclaim-at-lease-end"),
    ),
    (
        "restart-under-the-old-name",
        key!("lab.scenario.restart-under-the-old-name"),
    ),
    ("attempts-used-up", key!("lab.scenario.attempts-used-up")),
    (
        "generated-lease-end",
        key!("lab.scenario.generated-lease-end"),
    ),
    (
        "generated-deadline",
        key!("lab.scenario.generated-deadline"),
    ),
    (
        "generated-attempts",
        key!("lab.scenario.generated-attempts"),
    ),
    ("generated-restart", key!("lab.scenario.generated-restart")),
    ("race-one-job", key!("lab.scenario.race-one-job")),
    ("race-two-jobs", key!("lab.scenario.race-two-jobs")),
    ("race-reclaim", key!("lab.scenario.race-reclaim")),
];

impl Session {
    /// Opens the level `id` (a bench already on it keeps the learner's
    /// text); `false` when there is no such level.
    pub fn open_lab(&mut self, id: &str) -> bool {
        let Some(level) = Level::find(id) else {
            return false;
        };
        if self.lab.as_ref().is_none_or(|bench| bench.level != level) {
            self.lab = Some(Bench::new(level));
        }
        true
    }

    /// Puts `sql` in the open level's box, ungraded (the learner's text
    /// kept from an earlier visit, or carried by a link).
    pub fn set_lab_text(&mut self, sql: &str) {
        if let Some(bench) = &mut self.lab {
            sql.clone_into(&mut bench.sql);
        }
    }

    /// Shows the open level's next hint, if one is left, keeping `sql`
    /// (the box's text, maybe not graded yet) in the box.
    pub fn next_hint(&mut self, sql: &str) {
        if let Some(bench) = &mut self.lab {
            sql.clone_into(&mut bench.sql);
            bench.hints = (bench.hints + 1).min(texts(bench.level).hints.len());
        }
    }

    /// Closes the lab.
    pub fn close_lab(&mut self) {
        self.lab = None;
    }

    /// The lab's bench, when it is open.
    pub fn lab(&self) -> Option<&Bench> {
        self.lab.as_ref()
    }

    /// Whether `sql`, about to be shown, is kept back because the open
    /// lab level asks the learner to write it ([`crate::lab::Level::keeps_back`]).
    pub fn keeps_back(&self, sql: &str) -> bool {
        (self.lab.as_ref()).is_some_and(|bench| bench.level.keeps_back(sql))
    }

    /// The levels passed so far, in the lab's order.
    pub fn labs_passed(&self) -> &[&'static str] {
        &self.labs_passed
    }

    /// Grades `sql` on the open level; a pass marks the level passed.
    /// Nothing happens when the lab is closed.
    pub fn grade_lab(&mut self, sql: &str) -> Result<()> {
        let Some(bench) = &mut self.lab else {
            return Ok(());
        };
        bench.grade(sql, &chapter_scenarios())?;
        if bench.passed() && !self.labs_passed.contains(&bench.level.id) {
            let passed = bench.level.id;
            self.labs_passed.push(passed);
            self.labs_passed
                .sort_by_key(|id| LEVELS.iter().position(|level| level.id == *id));
        }
        Ok(())
    }

    /// Opens the last answer's counterexample: an ordering of events in
    /// the timeline, standing just before the event where the learner's
    /// queue and the reference part (the next step shows what the
    /// reference does there); an interleaving of claim scripts in the
    /// statement panel, the queue's own claims beside the learner's.
    pub fn open_counterexample(&mut self) -> Result<()> {
        let Some(Answer::Graded(Graded::Failed { shortest, .. })) =
            self.lab.as_ref().and_then(|bench| bench.answer.as_ref())
        else {
            return Ok(());
        };
        let key = match shortest.as_ref() {
            Shortest::Events(shortest) => {
                let (scenario, event, from) =
                    (shortest.scenario.clone(), shortest.event, shortest.from);
                self.load(SANDBOX, scenario, event)?;
                self.stepper.forked_from =
                    chapters::find(from).map(|chapter| chapter.id.to_owned());
                key!("lab.opened_status")
            }
            Shortest::Statements(race) => {
                let (expected, current) = (race.expected.clone(), race.current.clone());
                self.statement_panel.show_lab(expected, current);
                key!("lab.opened_race_status")
            }
        };
        self.editor_status = Some(Status {
            kind: StatusKind::Done,
            message: Message::key(key),
        });
        Ok(())
    }

    /// The title of a scenario the lab grades on: a chapter's, or one of
    /// the lab's own.
    pub fn lab_scenario_title(&self, from: &str) -> String {
        match CHAPTERS.iter().find(|chapter| chapter.id == from) {
            Some(chapter) => self.title_of(chapter.id),
            None => self.lang.text(Key::among(from, &SCENARIOS)).to_owned(),
        }
    }
}
