//! Throughput and fairness of the queue on real files and real processes.
//!
//! `cargo bench --bench throughput` prints these tables (copied into
//! BENCHMARKS.md):
//!
//! 1. claim+finish cycles per second in one process on a file database
//!    (rollback journal, `synchronous=FULL`), beside the raw rate of
//!    `BEGIN IMMEDIATE; UPDATE one row; COMMIT` on the same disk in the same
//!    run. A cycle is two commits, so half the raw rate is the ceiling.
//! 2. 2, 4 and 8 worker processes on one file, each spending about 1 ms in
//!    `send`: total rate, each worker's share, p50/p99 claim wait, errors.
//! 3. Claim cost with 1,000 and with 100,000 finished rows in the table.
//! 4. Replay of a generated 10,000-event scenario (the native half of
//!    `make replay-speed`).
//! 5. 1, 2, 4, 8 and 16 worker processes on a SQLite file and on
//!    PostgreSQL (a throwaway cluster with its durable defaults), ~1 ms in
//!    `send`: jobs/s and p50/p99 wait on each.
//! 6. On PostgreSQL, the fence's cost: claim + finish with leasefence's
//!    finish, with an id-only and with an id-and-state completion.
//!
//! The course's timings (the page's frames, every ordering of each
//! chapter) are its own bench: `cargo bench -p leasefence-course`.
//!
//! The process that runs the benchmark also plays the workers: it starts
//! copies of itself with `worker` as the first argument.

#[cfg(not(target_arch = "wasm32"))]
mod engines;
#[cfg(not(target_arch = "wasm32"))]
mod native;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main();
}

/// Files and processes exist only natively; the browser's replay speed is
/// measured by `e2e/replay-speed.mjs`.
#[cfg(target_arch = "wasm32")]
fn main() {}
