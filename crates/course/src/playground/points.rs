//! The course's points that no event shows by itself: what a claim hands
//! its worker, that there is no heartbeat, SQS's visibility timeout, the
//! rollback journal, a receiver that checks no token, a token that is no
//! credential. Each is attached to the place in a chapter where the
//! learner sees what it is about, and the step card shows it when they
//! stand there: a step of the story, not a footnote. `tests/chapters.rs`
//! states each point's facts against the chapter's replay.

use super::Lang;

/// A course point, at a position of a chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// The chapter id.
    pub chapter: &'static str,
    /// How many events are applied when it is shown.
    pub position: usize,
    /// Its message keys: `point.<key>.title` and `point.<key>.text`.
    pub key: &'static str,
}

/// The point that shows the claim itself, as the contract's JSON.
pub const CLAIM_RESULT: &str = "claim_result";

macro_rules! point {
    ($chapter:literal, $position:literal, $key:literal) => {
        Point {
            chapter: $chapter,
            position: $position,
            key: $key,
        }
    };
}

/// Every point, in course order.
pub const POINTS: &[Point] = &[
    // A's claim is the first thing returned to a worker.
    point!("canonical", 1, "claim_result"),
    // B reclaims the moment A's lease ends: A had no way to extend it.
    point!("canonical", 2, "no_heartbeat"),
    // B's claim finds A's job hidden, as a received SQS message would be.
    point!("polling-cannot-steal", 2, "visibility_timeout"),
    // C's claim quarantines and claims in one transaction.
    point!("quarantine", 3, "rollback_journal"),
    // Both runs' tokens have been shown: refused 1, accepted 2.
    point!("restart-same-name", 4, "not_a_credential"),
    // The repeat delivery was just ignored by the receiver, not the queue.
    point!("late-delivery", 4, "receiver_unfenced"),
];

/// The point's text in `lang`, said of `worker` (the one who acts at its
/// place), its other numbers and names filled from its chapter's scenario
/// and replay ([`Chapter::facts`](super::Chapter::facts)).
pub fn text(point: &Point, lang: Lang, worker: &str) -> String {
    let key = format!("point.{}.text", point.key);
    match super::chapters::find(point.chapter) {
        Some(chapter) => chapter.fill(lang, &key, Some(worker)),
        None => lang.fill(&key, &[("worker", worker.to_owned())]),
    }
}

/// The point shown at `position` of `chapter`, if any.
pub fn at(chapter: &str, position: usize) -> Option<&'static Point> {
    POINTS
        .iter()
        .find(|point| point.chapter == chapter && point.position == position)
}
