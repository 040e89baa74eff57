//! The course's quiz (its point #23): what a worker's name, a job's id and
//! a token each tell apart. It is asked where two claims on one job stand
//! side by side in a chapter's replay (the point [`TELL_APART`]), and its
//! right answers are read from those two claims, never typed: the values
//! that differ between them.

use super::stepper::{SANDBOX, Stepper};
use leasefence::model::Claim;

pub mod field;

pub use field::Field;

/// The course point that asks the quiz.
pub const TELL_APART: &str = "tell_apart";

/// The two claims the quiz compares: the first two workers, in name order,
/// whose claims after the event at the learner's place are on one job.
pub fn pair(stepper: &Stepper) -> Option<[(&str, &Claim); 2]> {
    let frame = stepper.frame()?;
    let held: Vec<(&str, &Claim)> = (frame.holding.iter())
        .map(|(worker, claim)| (worker.as_str(), claim))
        .collect();
    held.iter().enumerate().find_map(|(index, first)| {
        let second = held[index + 1..]
            .iter()
            .find(|other| other.1.id == first.1.id)?;
        Some([*first, *second])
    })
}

/// The values that tell the two claims apart: those that differ.
pub fn telling(pair: &[(&str, &Claim); 2]) -> Vec<Field> {
    let [(_, first), (_, second)] = pair;
    (Field::ALL.into_iter())
        .filter(|field| field.of(first) != field.of(second))
        .collect()
}

/// The learner's answer to the quiz, and the chapter it was given in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quiz {
    answered: Option<(String, Field)>,
}

impl Quiz {
    /// The learner's answer where `stepper` stands: which value they
    /// think tells the two claims apart. Kept for this chapter; nothing
    /// happens where the quiz is not asked.
    pub fn answer(&mut self, stepper: &Stepper, name: &str) {
        let here = stepper.chapter();
        let asked = super::chapters::point_at(here, stepper.position())
            .is_some_and(|(_, point)| point.key == TELL_APART);
        if let (true, false, Some(field)) = (asked, here == SANDBOX, Field::parse(name)) {
            self.answered = Some((here.to_owned(), field));
        }
    }

    /// The answer given in the chapter `stepper` is on, if any.
    pub fn answer_in(&self, stepper: &Stepper) -> Option<Field> {
        let (chapter, field) = self.answered.as_ref()?;
        (chapter == stepper.chapter()).then_some(*field)
    }
}
