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
//! * [`error`]: the one error type.
//! * [`model`]: the vocabulary (jobs, rows, claims, stamps, verdicts).
//! * [`store`]: the schema, every SQL statement, and what runs them
//!   (opening files, the busy handler, the statement log).
//! * [`queue`]: the queue API; checks input, supplies nothing but `now`.
//! * [`receiver`]: the idempotent receiver's ledger (R12).
//! * [`scenario`] and [`replay`]: timelines as JSON, replayed on an
//!   in-memory queue; shared by the CLI, the tests and the browser.
//! * [`timeline`]: a replay kept as one frame per event, for stepping.
//! * [`unfenced`]: teaching only, the naive finishes the fence replaces.
//! * [`playground`]: chapters, Korean/English messages, step
//!   explanations and the stepper for the page, testable natively.
//! * `web` (wasm32 only): the thin JavaScript facade and the page.
//!
//! # Guarantees
//!
//! Rule numbers refer to the contract (`CONTRACT.md`, restated in the
//! README).
//!
//! * A claim takes a job iff it is `pending`, or `leased` with
//!   `lease_until <= now` (R5, R11); it adds 1 to `token` and `attempts`
//!   (R2) and sets `lease_until = min(now + lease_ms, deadline)` (R9).
//! * A finish is accepted iff `id`, `owner`, `token` and `attempt` equal the
//!   row, the row is `leased`, `now < lease_until` and `now < deadline`
//!   (R4). A rejected finish changes nothing.
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
//! use leasefence::{NewJob, Queue, Reason};
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
//! assert!(!late.accepted);
//! assert_eq!(late.reason, Some(Reason::TokenMismatch));
//! assert_eq!(late.current.unwrap().owner.as_deref(), Some("B"));
//! # Ok::<(), leasefence::Error>(())
//! ```

#![warn(missing_docs)]

pub mod error;
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

#[cfg(target_arch = "wasm32")]
pub mod web;

pub use error::{Error, Problem, Result};
pub use model::{Claim, Finish, JobRow, JobState, MAX_INT, NewJob, Reason, Stamp};
pub use queue::{ProcessError, Processed, Queue};
pub use receiver::{Receiver, Totals};
pub use replay::{EventResult, Outcome, Player, Replay, replay, replay_json};
pub use scenario::{Action, Event, Scenario};
pub use timeline::{Frame, Timeline};
