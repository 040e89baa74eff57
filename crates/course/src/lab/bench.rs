//! A learner at the lab: the level they are on, their statement, how often
//! they have graded it, and the last answer.

use super::{Graded, Level, grade};
use leasefence::error::{Error, Problem, Result};

/// The last answer the lab gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The statement ran on every ordering.
    Graded(Graded),
    /// The seam refused it before any playing ([`leasefence::store::Outside::new`]).
    Refused(Problem),
}

/// One learner's place in the lab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bench {
    /// The level.
    pub level: Level,
    /// Their statement, as last graded or opened (the level's start).
    pub sql: String,
    /// How many times they have graded on this level.
    pub attempts: u32,
    /// How many of the level's hints they have asked for: the first that
    /// many are shown, in order.
    pub hints: usize,
    /// The last answer, if they have graded.
    pub answer: Option<Answer>,
}

impl Bench {
    /// A fresh start on `level`, its wrong version in the box.
    pub fn new(level: Level) -> Bench {
        Bench {
            level,
            sql: level.start.trim().to_owned(),
            attempts: 0,
            hints: 0,
            answer: None,
        }
    }

    /// Grades `sql` on `chapters` and keeps the answer. A refusal is an
    /// answer (the learner's mistake), not an error; an error is the
    /// queue's own failure.
    pub fn grade(&mut self, sql: &str, chapters: &[(&'static str, &'static str)]) -> Result<()> {
        self.sql = sql.to_owned();
        self.attempts += 1;
        self.answer = Some(match grade(&self.level, sql, chapters) {
            Ok(graded) => Answer::Graded(graded),
            Err(Error::InvalidInput { problem, .. }) => Answer::Refused(problem),
            Err(other) => return Err(other),
        });
        Ok(())
    }

    /// Whether the last answer was a pass.
    pub fn passed(&self) -> bool {
        matches!(&self.answer, Some(Answer::Graded(graded)) if graded.passed())
    }
}
