//! The course's points that no event shows by itself: what a claim hands
//! its worker, that there is no heartbeat, SQS's visibility timeout, the
//! rollback journal, a receiver that checks no token, a token that is no
//! credential. Each is attached to the place in a chapter where the
//! learner sees what it is about (its folder's `chapter.json` places it,
//! its `en.json` and `ko.json` say it), and the step card shows it when
//! they stand there: a step of the story, not a footnote.
//! `tests/chapters.rs` states each point's facts against the chapter's
//! replay.

use super::Lang;
use super::chapters::{CHAPTERS, Chapter};

/// A course point, at a position of its chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// How many events are applied when it is shown.
    pub position: usize,
    /// Its message keys: `point.<key>.title` and `point.<key>.text`.
    pub key: &'static str,
}

/// The point that shows the claim itself, as the contract's JSON.
pub const CLAIM_RESULT: &str = "claim_result";

impl Point {
    /// The point's text in `lang`, said of `worker` (the one who acts at
    /// its place), its other numbers and names filled from `chapter`'s
    /// scenario and replay ([`Chapter::facts`]).
    pub fn text(&self, chapter: &Chapter, lang: Lang, worker: &str) -> String {
        chapter.fill(lang, &format!("point.{}.text", self.key), Some(worker))
    }
}

/// Every point with its chapter, in course order.
pub fn all() -> impl Iterator<Item = (&'static Chapter, &'static Point)> {
    CHAPTERS
        .iter()
        .flat_map(|chapter| chapter.points.iter().map(move |point| (chapter, point)))
}

/// The point shown at `position` of the chapter with id `chapter`, with
/// that chapter.
pub fn at(chapter: &str, position: usize) -> Option<(&'static Chapter, &'static Point)> {
    all().find(|(found, point)| found.id == chapter && point.position == position)
}
