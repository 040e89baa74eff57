//! The leasefence course: what the playground teaches with the queue of
//! the `leasefence` crate, and everything it decides, testable natively.
//!
//! The queue knows nothing of this crate. The course plays the queue's
//! scenarios, shows its SQL, and runs the naive variants it warns about
//! through the queue's one seam for SQL written elsewhere
//! ([`leasefence::store::Statements`], [`leasefence::Queue::finish_with`]).
//!
//! # Layout
//!
//! Lower modules never import higher ones; the list goes from the bottom up.
//!
//! * [`timeline`]: a replay kept for stepping back and forth.
//! * [`variants`]: the naive systems the course warns about, each defined
//!   once, with their SQL ([`variants::sql`]), and a scenario played with
//!   a naive finish ([`variants::unfenced`]).
//! * [`mechanism`]: statements and the write lock, every ordering,
//!   invariants.
//! * [`lab`]: the learner's own statement, graded on every ordering of
//!   every chapter against the queue's.
//! * [`playground`]: everything the page shows and decides: chapters,
//!   Korean/English messages, the learner's session (the lab's bench
//!   too) and the view the page draws.
//!
//! # From a scenario to what the page draws
//!
//! ```text
//! Scenario ─▶ Player ─▶ Replay            (leasefence: the queue's contract)
//!               │
//!               └────▶ Timeline ─▶ Stepper ─▶ Session ─▶ View ─▶ the page
//!                      (a frame     (a learner's   (all they    (plain values;
//!                       per event)   place, moves)  chose)       crates/web draws)
//! ```
//!
//! * **Timeline**: a playing kept in memory so any position can be shown:
//!   one [`Frame`] per event (its result, its SQL, the claims held) and
//!   the histories of the table and the receiver. [`Timeline`].
//! * **Stepper**: a learner's place in a timeline, and the moves they make
//!   (step, back, predict, drag a finish).
//!   [`playground::stepper::Stepper`].
//! * **Session**: everything a learner chose (language, stepper, the naive
//!   variant to compare, the editor's last word).
//!   [`playground::session::Session`].
//! * **View**: what the page draws for a session, as plain values.
//!   [`playground::view`].

#![warn(missing_docs)]

pub mod lab;
pub mod mechanism;
pub mod playground;
pub mod timeline;
pub mod variants;

pub use timeline::{Frame, Timeline};
