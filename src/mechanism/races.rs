//! The races the course tells, as statement-level runs ready to show: the
//! naive claim beside the real one, and a send held inside the claim's
//! transaction beside the real worker's send after `COMMIT`.

use super::Refusal;
use super::statements::{Actor, Op, Run, round_robin};
use crate::model::NewJob;

/// Each statement of the races takes this long.
pub const TICK_MS: u64 = 1;
/// The lease every claim of the races asks for.
pub const LEASE_MS: u64 = 1000;

fn job(n: usize) -> NewJob {
    NewJob::new(format!("snack-{n}"), 2, 5000)
}

fn actor(name: &str, start_ms: u64, ops: Vec<Op>) -> Actor {
    Actor {
        name: name.into(),
        start_ms,
        ops,
    }
}

/// Two workers, A and B, claim one job at the same instant: A reads, B
/// reads, A writes, B writes. Without a write transaction around the read
/// and the write, both hand out token 1.
pub fn naive_claim_race() -> Result<Run, Refusal> {
    let claim = || vec![Op::NaiveClaim { lease_ms: LEASE_MS }];
    let actors = [actor("A", 0, claim()), actor("B", 0, claim())];
    round_robin(&[job(1)], &actors, TICK_MS)
}

/// The same two workers with the real claim (R6) over `jobs` jobs (1 or
/// more): A takes the write lock with `BEGIN IMMEDIATE`, B's `BEGIN
/// IMMEDIATE` waits until A commits, then B takes the next job, or nothing
/// when there is one job.
pub fn real_claim_race(jobs: usize) -> Result<Run, Refusal> {
    let claim = || vec![Op::Claim { lease_ms: LEASE_MS }];
    let actors = [actor("A", 0, claim()), actor("B", 0, claim())];
    let jobs: Vec<NewJob> = (1..=jobs).map(job).collect();
    round_robin(&jobs, &actors, TICK_MS)
}

/// When the producer asks to enqueue: while the worker's send is in
/// flight, in both variants.
pub const PRODUCER_STARTS_MS: u64 = 10;

/// A worker, A, claims, sends for `send_ms` and finishes, while a producer
/// enqueues a job during the send. With `inside` the worker sends before
/// `COMMIT` (breaking R7) and the producer's `BEGIN IMMEDIATE` waits out
/// the whole send; without it the claim has committed and the enqueue
/// goes through at once. Compare `waited_ms["producer"]`.
pub fn send_race(inside: bool, send_ms: u64) -> Result<Run, Refusal> {
    let lease_ms = LEASE_MS.max(send_ms.saturating_add(100));
    let worker = if inside {
        vec![Op::ClaimSendingInside { lease_ms, send_ms }, Op::Finish]
    } else {
        vec![Op::Claim { lease_ms }, Op::Send { send_ms }, Op::Finish]
    };
    let producer = vec![Op::Enqueue { job: job(2) }];
    let actors = [
        actor("A", 0, worker),
        actor("producer", PRODUCER_STARTS_MS, producer),
    ];
    round_robin(&[job(1)], &actors, TICK_MS)
}
