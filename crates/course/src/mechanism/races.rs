//! The races the course tells, as statement-level runs ready to show: the
//! naive claim beside the real one, and a send held inside the claim's
//! transaction beside the real worker's send after `COMMIT`; and any
//! timeline taken apart the same way, at its own instants ([`timeline`]).

use super::Refusal;
use super::statements::{Actor, Machine, Op, Run, round_robin};
use leasefence::error::Error;
use leasefence::model::NewJob;
use leasefence::scenario::{Action, Scenario};

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
    let claim = || {
        vec![Op::NaiveClaim {
            lease_ms: LEASE_MS,
            owner: None,
        }]
    };
    let actors = [actor("A", 0, claim()), actor("B", 0, claim())];
    round_robin(&[job(1)], &actors, TICK_MS)
}

/// The same two workers with the real claim (R6) over `jobs` jobs (1 or
/// more): A takes the write lock with `BEGIN IMMEDIATE`, B's `BEGIN
/// IMMEDIATE` waits until A commits, then B takes the next job, or nothing
/// when there is one job.
pub fn real_claim_race(jobs: usize) -> Result<Run, Refusal> {
    let claim = || {
        vec![Op::Claim {
            lease_ms: LEASE_MS,
            owner: None,
        }]
    };
    let actors = [actor("A", 0, claim()), actor("B", 0, claim())];
    let jobs: Vec<NewJob> = (1..=jobs).map(job).collect();
    round_robin(&jobs, &actors, TICK_MS)
}

/// When the producer asks to enqueue: while the worker's send is in
/// flight, in both variants.
pub const PRODUCER_STARTS_MS: u64 = 10;

/// The other worker of the send race, who claims during the send.
pub const CLAIMER: &str = "B";

/// When the other worker ([`CLAIMER`]) asks for a job: after the
/// producer, still during the send, in both variants.
pub const CLAIMER_STARTS_MS: u64 = 20;

/// A worker, A, claims, sends for `send_ms` and finishes, while a producer
/// enqueues a job and then another worker, B, claims during the send (the
/// course: "이 일과 무관한 새 접수와 다른 작업자의 선점도 막힙니다"). With
/// `inside` the worker sends before `COMMIT` (breaking R7), and the
/// producer's `BEGIN IMMEDIATE` and B's wait out the whole send; without
/// it the claim has committed, the enqueue goes through at once and B
/// claims the job just enqueued. Compare `waited_ms["producer"]` and
/// `waited_ms[CLAIMER]`.
pub fn send_race(inside: bool, send_ms: u64) -> Result<Run, Refusal> {
    let lease_ms = LEASE_MS.max(send_ms.saturating_add(100));
    let worker = if inside {
        vec![Op::ClaimSendingInside { lease_ms, send_ms }, Op::Finish]
    } else {
        vec![
            Op::Claim {
                lease_ms,
                owner: None,
            },
            Op::Send { send_ms },
            Op::Finish,
        ]
    };
    let producer = vec![Op::Enqueue { job: job(2) }];
    let claimer = vec![Op::Claim {
        lease_ms,
        owner: None,
    }];
    let actors = [
        actor("A", 0, worker),
        actor("producer", PRODUCER_STARTS_MS, producer),
        actor(CLAIMER, CLAIMER_STARTS_MS, claimer),
    ];
    round_robin(&[job(1)], &actors, TICK_MS)
}

/// The most events of a timeline [`timeline`] takes apart: each becomes
/// up to five statements, and the lock lane draws one column per moment.
pub const TIMELINE_MAX_EVENTS: usize = 12;

/// A scenario's own timeline, one statement at a time, with its jobs and
/// its instants: every statement of an event runs at the event's `at`, so
/// the lease boundaries and verdicts are the replay's. Events at one
/// instant run side by side, a statement each in turn ([`run_instant`]
/// says how), and the write lock lines their transactions up in the
/// document's order, as the replay runs them. With `naive`, every claim
/// is the read-then-write, which two claims at one instant interleave. A
/// send runs no SQL and takes no time.
pub fn timeline(scenario: &Scenario, naive: bool) -> Result<Run, Refusal> {
    let got = scenario.events().len();
    if got > TIMELINE_MAX_EVENTS {
        let max = TIMELINE_MAX_EVENTS;
        return Err(Refusal::TimelineTooLong { got, max });
    }
    let mut names: Vec<&str> = Vec::new();
    let mut actors: Vec<Actor> = Vec::new();
    let mut event_ops: Vec<EventOp> = Vec::new();
    for event in scenario.events() {
        let actor = match names.iter().position(|name| *name == event.worker) {
            Some(index) => index,
            None => {
                names.push(&event.worker);
                actors.push(self::actor(&event.worker, 0, Vec::new()));
                names.len() - 1
            }
        };
        let owner = event.owner.clone();
        let op = match &event.action {
            Action::Claim { lease_ms } if naive => Op::NaiveClaim {
                lease_ms: *lease_ms,
                owner,
            },
            Action::Claim { lease_ms } => Op::Claim {
                lease_ms: *lease_ms,
                owner,
            },
            Action::Finish => Op::Finish,
            Action::Send => Op::Send { send_ms: 0 },
            Action::Enqueue(job) => Op::Enqueue { job: job.clone() },
        };
        event_ops.push(EventOp {
            actor,
            op: actors[actor].ops.len(),
        });
        actors[actor].ops.push(op);
    }
    let mut machine = Machine::new(scenario.jobs(), &actors)?;
    let mut start = 0;
    for group in scenario.events().chunk_by(|a, b| a.at == b.at) {
        let instant = &event_ops[start..start + group.len()];
        start += group.len();
        run_instant(&mut machine, instant, group[0].at)?;
    }
    machine.into_run()
}

/// An event of a timeline as the machine knows it: its actor, and which
/// of that actor's ops it is.
#[derive(Debug, Clone, Copy)]
struct EventOp {
    actor: usize,
    op: usize,
}

/// Runs one instant's events (in the document's order) to their end, one
/// step at a time:
/// * an event takes its first step only once every event before it has
///   taken one (an actor's later event also waits for its earlier one to
///   end), so events start in the document's order;
/// * when the lock is free, the first event (in that order) waiting for
///   it goes on, so transactions take the lock in the document's order;
/// * otherwise the next event after the last one that stepped goes,
///   skipping those asleep on the lock: statements interleave.
fn run_instant(machine: &mut Machine, events: &[EventOp], at: u64) -> Result<(), Refusal> {
    let count = events.len();
    let mut started = vec![false; count];
    let mut last = count - 1;
    let done = |machine: &Machine, event: &EventOp| machine.ops_done(event.actor) > event.op;
    while !events.iter().all(|event| done(machine, event)) {
        let may_step = |index: usize| {
            let event = &events[index];
            let its_turn = machine.ops_done(event.actor) == event.op;
            let in_order = started[..index].iter().all(|&s| s);
            its_turn && in_order && !machine.asleep(event.actor)
        };
        let woken = (0..count).find(|&index| may_step(index) && machine.waits(events[index].actor));
        let next = woken
            .or_else(|| {
                (1..=count)
                    .map(|offset| (last + offset) % count)
                    .find(|&index| may_step(index))
            })
            .ok_or_else(|| {
                Refusal::Queue(Error::Internal {
                    what: format!("at {at} ms no event left can take a step"),
                })
            })?;
        machine.turn(events[next].actor, at)?;
        started[next] = true;
        last = next;
    }
    Ok(())
}
