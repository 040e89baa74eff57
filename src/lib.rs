//! leasefence: a job queue, on SQLite or PostgreSQL, that shows why a
//! queue needs leases *and* fencing tokens.
//!
//! A worker claims a job and gets a lease (the right to hold it for a while)
//! and a token (which claim that right belongs to). If the worker stalls past
//! its lease, another may reclaim the job with a new token; when the late
//! worker wakes up and tries to finish, its old token no longer matches and
//! the finish is refused, leaving the row as it was.
//!
//! # Layout
//!
//! Lower modules never import higher ones; the list goes from the bottom up.
//!
//! * [`error`]: the one error type, and [`Problem`], what was wrong.
//! * [`model`]: the vocabulary (jobs, rows, claims, stamps, finishes).
//! * [`fence`]: R4 stated once: the finish's conditions, the set a refusal
//!   failed, the verdict; [`claimable`]: the claim's conditions likewise
//!   (which rows a claim may take, and which it sets aside first).
//! * [`store`]: the schema and every SQL statement of the queue, what runs
//!   them, and [`store::Statements`], the one seam through which SQL
//!   written elsewhere (a teaching variant's, a learner's) runs on the
//!   queue's schema in place of the queue's own.
//! * `postgres` (native only, private): the queue and the ledger on a
//!   PostgreSQL server, its statements in its own `sql.rs`, behind
//!   [`Queue::connect`] and [`Receiver::connect`].
//! * [`queue`]: the queue API over either engine; checks input, supplies
//!   nothing but `now`.
//! * [`receiver`]: the idempotent receiver's ledger (R12).
//! * [`scenario`]: timelines as JSON, parsed and checked.
//! * [`replay`](mod@replay): a scenario played on an in-memory queue and receiver.
//!
//! The course that teaches with this queue (its chapters, the naive
//! variants it warns about, every ordering, the learner's session and the
//! view the page draws) is the crate beside it, `crates/course`; the
//! browser's package and page are `crates/web`, the command line
//! `crates/cli`. Dependencies point one way: cli, web -> course -> queue.
//!
//! # From a scenario to a replay
//!
//! ```text
//! text, a JSON value or code ─▶ Scenario ─▶ Player ─▶ Replay
//!   (Scenario::parse,            (checked)   (a fresh     (one result per event,
//!    from_value, new)                         in-memory    the final rows, the
//!                                             queue)       receiver)
//! ```
//!
//! The course crate keeps a playing as a `Timeline` for stepping back and
//! forth, and builds the learner's `Stepper`, `Session` and `View` on it.
//!
//! # Glossary
//!
//! * **Scenario**: a timeline written down: jobs, and events (who does
//!   what at which millisecond). [`Scenario`].
//! * **Player**: plays a scenario one event at a time on a fresh in-memory
//!   queue; each actor remembers its last claim. [`Player`].
//! * **Replay**: the document a whole playing produces (one result per
//!   event, final rows, receiver); equal on every target. [`Replay`].
//!
//! # Guarantees
//!
//! Rule numbers refer to the contract, `CONTRACT.md` at the repository's
//! root.
//!
//! * A claim takes the first job, in enqueue order, that is `pending`, or
//!   `leased` with `lease_until <= now` (R5, R11), with attempts and time
//!   left (R10, R9; [`ClaimCondition::ALL`]); it adds 1 to `token` and
//!   `attempts` (R2) and sets `lease_until = min(now + lease_ms, deadline)`
//!   (R9).
//! * A finish is accepted iff `id`, `owner`, `token` and `attempt` equal the
//!   row, the row is `leased`, `now < lease_until` and `now < deadline`
//!   (R4, [`Condition::ALL`]). A rejected finish changes nothing, and its
//!   verdict lists every condition that failed.
//! * Choosing and writing happen in one `BEGIN IMMEDIATE` transaction (R6);
//!   on PostgreSQL the choosing `SELECT` locks the row it takes (`FOR
//!   UPDATE SKIP LOCKED`). Nothing waits on the network inside it (R7).
//! * The core never reads a clock: every operation takes `now` in
//!   milliseconds.
//!
//! # Example
//!
//! The canonical timeline: A claims at 0 ms, B reclaims at 1000 ms, and A's
//! finish at 1001 ms is refused.
//!
//! ```
//! use leasefence::{Condition, Conditions, NewJob, Queue, Reason, Verdict};
//!
//! let queue = Queue::open_in_memory()?;
//! queue.enqueue(&NewJob::new("snack-1", 2, 5000))?;
//!
//! let a = queue.claim("A", 0, 1000)?.expect("a pending job");
//! assert_eq!((a.token, a.lease_until), (1, 1000));
//!
//! let b = queue.claim("B", 1000, 1000)?.expect("A's lease ended at 1000");
//! assert_eq!(b.token, 2);
//!
//! let late = queue.finish(&a.stamp(), 1001)?;
//! // The row disagrees with A's stamp on three conditions at once.
//! let failed = Conditions::of(&[Condition::Owner, Condition::Token, Condition::Attempt]);
//! assert_eq!(late.verdict, Verdict::Refused(failed));
//! assert_eq!(late.reason(), Some(Reason::TokenMismatch));
//! assert_eq!(late.current.unwrap().owner.as_deref(), Some("B"));
//! # Ok::<(), leasefence::Error>(())
//! ```

#![warn(missing_docs)]

pub mod claimable;
pub mod error;
pub mod fence;
pub mod model;
#[cfg(not(target_arch = "wasm32"))]
mod postgres;
pub mod queue;
pub mod receiver;
pub mod replay;
pub mod scenario;
pub mod store;

pub use claimable::ClaimCondition;
pub use error::{Error, Forbidden, Problem, Result, ScriptMistake};
pub use fence::{Condition, Conditions, Finish, Verdict};
pub use model::{Claim, JobRow, JobState, MAX_INT, NewJob, Reason, Stamp};
pub use queue::{ProcessError, Processed, Queue};
pub use receiver::{Receiver, Totals};
pub use replay::{EventResult, Outcome, Player, Replay, replay, replay_json, replay_on};
pub use scenario::{Action, Event, Scenario};
