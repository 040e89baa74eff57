//! leasefence: a SQLite job queue that shows why a queue needs leases *and*
//! fencing tokens.
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
//!   failed, the verdict.
//! * [`store`]: the schema, every SQL statement (the naive finishes the
//!   fence replaces too), and what runs them.
//! * [`queue`]: the queue API; checks input, supplies nothing but `now`.
//! * [`receiver`]: the idempotent receiver's ledger (R12).
//! * [`scenario`]: timelines as JSON, parsed and checked;
//!   [`scenarios`]: the ones the product ships (`scenarios/`).
//! * [`replay`]: a scenario played on an in-memory queue and receiver.
//! * [`timeline`]: a replay kept for stepping back and forth.
//! * [`variants`]: teaching only, the naive systems the course warns about,
//!   each defined once; [`unfenced`]: a timeline with a naive finish.
//! * [`mechanism`]: statements and the write lock, every ordering, invariants.
//! * [`playground`]: everything the page shows and decides, testable
//!   natively: chapters, Korean/English messages, the learner's session
//!   and the view the page draws.
//!
//! Beside this crate, in the same workspace: `crates/web` (the JavaScript
//! facade and the page, which only converts types and draws) and
//! `crates/cli` (the `leasefence` command line and its HTTP servers).
//!
//! # Glossary
//!
//! One word per concept; these are easy to confuse:
//!
//! * **Scenario**: a timeline written down: jobs, and events (who does
//!   what at which millisecond). [`Scenario`].
//! * **Player**: plays a scenario one event at a time on a fresh in-memory
//!   queue; each actor remembers its last claim. [`Player`].
//! * **Replay**: the document a whole playing produces (one result per
//!   event, final rows, receiver); equal on every target. [`Replay`].
//! * **Timeline**: a playing kept in memory so any position can be shown:
//!   one [`Frame`] per event (its result, its SQL, the claims held) and
//!   the histories of the table and the receiver. [`Timeline`].
//! * **Stepper**: a learner's place in a timeline, and the moves they make
//!   (step, back, predict, drag a finish).
//!   [`playground::stepper::Stepper`].
//! * **Session**: everything a learner chose (language, stepper, the naive
//!   guard to compare, the editor's last word).
//!   [`playground::session::Session`].
//! * **View**: what the page draws for a session, as plain values.
//!   [`playground::view`].
//!
//! # Guarantees
//!
//! Rule numbers refer to the contract, `CONTRACT.md` at the repository's
//! root.
//!
//! * A claim takes a job iff it is `pending`, or `leased` with
//!   `lease_until <= now` (R5, R11); it adds 1 to `token` and `attempts`
//!   (R2) and sets `lease_until = min(now + lease_ms, deadline)` (R9).
//! * A finish is accepted iff `id`, `owner`, `token` and `attempt` equal the
//!   row, the row is `leased`, `now < lease_until` and `now < deadline`
//!   (R4, [`Condition::ALL`]). A rejected finish changes nothing, and its
//!   verdict lists every condition that failed.
//! * Choosing and writing happen in one `BEGIN IMMEDIATE` transaction (R6);
//!   nothing waits on the network inside it (R7).
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

pub mod error;
pub mod fence;
pub mod mechanism;
pub mod model;
pub mod playground;
pub mod queue;
pub mod receiver;
pub mod replay;
pub mod scenario;
pub mod scenarios;
pub mod store;
pub mod timeline;
pub mod unfenced;
pub mod variants;

pub use error::{Error, Problem, Result};
pub use fence::{Condition, Conditions, Verdict};
pub use model::{Claim, Finish, JobRow, JobState, MAX_INT, NewJob, Reason, Stamp};
pub use queue::{ProcessError, Processed, Queue};
pub use receiver::{Receiver, Totals};
pub use replay::{EventResult, Outcome, Player, Replay, replay, replay_json};
pub use scenario::{Action, Event, Scenario};
pub use timeline::{Frame, Timeline};
