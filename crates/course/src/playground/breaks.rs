//! Where a naive side breaks, when the timeline on screen does not show
//! it: a broken design is never left looking safe.
//!
//! A comparison that ends agreeing, or a count of every ordering that
//! finds nothing wrong on a naive side, is true of that timeline and
//! false as a lesson: the id-and-owner finish holds on the first chapter
//! and fails on a worker restarted under its old name. So those panels
//! name the chapter where the side first breaks, found by playing every
//! chapter on it, never typed.

use leasefence::Scenario;

use super::CHAPTERS;
use crate::mechanism::invariants::{Side, along};

/// A chapter where a side breaks an invariant, and the first step that
/// breaks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Break {
    /// The chapter's id.
    pub chapter: &'static str,
    /// The event (0-based) whose step broke an invariant first.
    pub event: usize,
}

/// The chapter where `side` breaks an invariant in the fewest steps (the
/// course's order breaks ties); `None` when it breaks in none, or for the
/// real system. Asked only where a panel would otherwise look safe (the
/// end of an agreeing comparison, a count of zero): eleven short replays,
/// not kept, since keeping them cost the page more bytes than the replays
/// cost it time.
pub fn shortest(side: Side) -> Option<Break> {
    side.variant()?;
    CHAPTERS
        .iter()
        .filter_map(|chapter| {
            let scenario = Scenario::parse(chapter.scenario()).ok()?;
            Some(Break {
                chapter: chapter.id,
                event: first_break(&scenario, side)?,
            })
        })
        .min_by_key(|found| found.event)
}

/// The first event of `scenario` after which an invariant is broken on
/// `side`, if any.
fn first_break(scenario: &Scenario, side: Side) -> Option<usize> {
    along(scenario, side)
        .ok()?
        .into_iter()
        .find(|check| !check.broken.is_empty())
        .map(|check| check.event)
}
