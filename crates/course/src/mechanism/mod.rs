//! The mechanism under the verdicts: how the database got to each one,
//! computed in the core so the page can draw it.
//!
//! Everywhere else a claim or a finish is one indivisible step, which is
//! right for the queue and hides what the course teaches: that choosing
//! and writing must happen under one write lock, that the lock must not be
//! held across a send, and that the fence must hold in *every* order the
//! actors could run in, not just the one on screen. Three parts:
//!
//! * [`statements`]: claims, finishes, enqueues and sends taken apart into
//!   their statements, interleaved, with the write lock modelled (who
//!   holds it, who waits); [`races`] holds the runs the course tells (the
//!   naive claim's double token 1, the send held inside the transaction)
//!   and takes any timeline apart the same way, at its own instants.
//! * [`orderings`]: every interleaving of a small scenario's actors,
//!   replayed with the fence on and off, counted, with the shortest
//!   failing ordering as a scenario; walked as a tree (`tree.rs`) so the
//!   largest chapter is counted in well under the browser's second.
//! * [`invariants`]: four facts checked after every step of a timeline.
//!
//! The page steps [`races`] in its statement panel
//! ([`crate::playground::statements`]), and its invariants panel
//! ([`crate::playground::invariants`]) calls [`orderings`] and [`invariants`].
//! The queue's SQL is in [`leasefence::store`], the naive variants' in
//! [`crate::variants::sql`].

pub mod invariants;
pub mod orderings;
pub mod races;
pub mod statements;
mod tree;

use leasefence::error::Error;

/// Why the mechanism refused to run something.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// More events than [`orderings::MAX_EVENTS`].
    #[error("{got} events: orderings are enumerated for at most {max}")]
    TooManyEvents {
        /// Events in the scenario.
        got: usize,
        /// The most allowed.
        max: usize,
    },
    /// A timeline longer than [`races::TIMELINE_MAX_EVENTS`], to be taken
    /// apart into statements.
    #[error("{got} events: a timeline is taken apart into statements for at most {max}")]
    TimelineTooLong {
        /// Events in the timeline.
        got: usize,
        /// The most allowed.
        max: usize,
    },
    /// More actors than [`orderings::MAX_ACTORS`].
    #[error("{got} actors: orderings are enumerated for at most {max}")]
    TooManyActors {
        /// Actors in the scenario.
        got: usize,
        /// The most allowed.
        max: usize,
    },
    /// A turn for an actor index the script does not have.
    #[error("there is no actor {actor}")]
    NoSuchActor {
        /// The index asked for.
        actor: usize,
    },
    /// A turn for an actor that has run its last statement.
    #[error("{actor} has no statement left to run")]
    NothingLeft {
        /// The actor.
        actor: String,
    },
    /// The queue refused or failed.
    #[error(transparent)]
    Queue(#[from] Error),
}
