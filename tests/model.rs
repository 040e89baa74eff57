//! The queue against a small reference model, under random histories, on
//! each engine (SQLite in memory, PostgreSQL in a throwaway cluster).
//!
//! The model below restates the contract in plain Rust over a `Vec`, with
//! no SQL. proptest drives both with the same random steps (enqueue, claim,
//! finish, time passing) by several actors that share owner names, and
//! checks that every outcome and every row agree, and that the invariants
//! hold after every step:
//!
//! * never two valid holders of one job at one instant (R5);
//! * a rejected finish changes nothing (R4);
//! * tokens only grow (R2);
//! * `lease_until <= deadline` (R9).
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod engines;
mod support;

use engines::Engine;

use leasefence::{
    Claim, Condition, Conditions, Error, Finish, JobRow, JobState, NewJob, Stamp, Verdict,
};
use proptest::prelude::*;

/// The contract as a plain in-memory table.
#[derive(Debug, Default)]
struct Model {
    jobs: Vec<JobRow>,
}

impl Model {
    fn enqueue(&mut self, job: &NewJob) -> Result<JobRow, String> {
        if self.jobs.iter().any(|row| row.id == job.id) {
            return Err(format!("duplicate {}", job.id));
        }
        let row = JobRow {
            id: job.id.clone(),
            qty: job.qty,
            state: JobState::Pending,
            owner: None,
            token: 0,
            attempts: 0,
            max_attempts: job.max_attempts,
            lease_until: None,
            deadline: job.deadline,
        };
        self.jobs.push(row.clone());
        Ok(row)
    }

    fn lease_over(row: &JobRow, now: u64) -> bool {
        row.lease_until.is_some_and(|until| until <= now)
    }

    fn claim(&mut self, owner: &str, now: u64, lease_ms: u64) -> Option<Claim> {
        for row in &mut self.jobs {
            // R10 first, then the deadline.
            if row.state == JobState::Leased
                && Self::lease_over(row, now)
                && row.attempts >= row.max_attempts
            {
                row.state = JobState::Quarantined;
            }
            if matches!(row.state, JobState::Pending | JobState::Leased) && row.deadline <= now {
                row.state = JobState::Expired;
            }
        }
        let row = self.jobs.iter_mut().find(|row| {
            row.state == JobState::Pending
                || (row.state == JobState::Leased && Self::lease_over(row, now))
        })?;
        row.state = JobState::Leased;
        row.owner = Some(owner.to_owned());
        row.token += 1;
        row.attempts += 1;
        row.lease_until = Some((now + lease_ms).min(row.deadline));
        Some(Claim {
            id: row.id.clone(),
            qty: row.qty,
            owner: owner.to_owned(),
            token: row.token,
            attempt: row.attempts,
            lease_until: row.lease_until.unwrap_or_default(),
        })
    }

    /// Every condition of R4 the stamp fails against the row at `now`,
    /// restated here field by field; empty if the finish is accepted.
    fn failed(row: Option<&JobRow>, stamp: &Stamp, now: u64) -> Vec<Condition> {
        let Some(row) = row else {
            return vec![Condition::Id];
        };
        let checks = [
            (row.id != stamp.id, Condition::Id),
            (row.owner.as_deref() != Some(&stamp.owner), Condition::Owner),
            (row.token != stamp.token, Condition::Token),
            (row.attempts != stamp.attempt, Condition::Attempt),
            (row.state != JobState::Leased, Condition::State),
            (Self::lease_over(row, now), Condition::LeaseUntil),
            (now >= row.deadline, Condition::Deadline),
        ];
        checks
            .into_iter()
            .filter(|(failed, _)| *failed)
            .map(|(_, condition)| condition)
            .collect()
    }

    fn finish(&mut self, stamp: &Stamp, now: u64) -> Finish {
        let index = self.jobs.iter().position(|row| row.id == stamp.id);
        let failed = Self::failed(index.map(|i| &self.jobs[i]), stamp, now);
        let verdict = match (failed.is_empty(), index) {
            (true, Some(i)) => {
                self.jobs[i].state = JobState::Done;
                Verdict::Accepted
            }
            _ => Verdict::Refused(Conditions::of(&failed)),
        };
        Finish {
            verdict,
            expected: Some(stamp.clone()),
            current: index.map(|i| self.jobs[i].clone()),
        }
    }
}

#[derive(Debug, Clone)]
enum Step {
    Wait(u64),
    Enqueue {
        job: u8,
        qty: u64,
        deadline_in: u64,
        max_attempts: u64,
    },
    Claim {
        actor: usize,
        shared_name: bool,
        lease_ms: u64,
    },
    Finish {
        actor: usize,
    },
}

const ACTORS: usize = 3;

/// Times move in steps of 100 ms (and sometimes 1 ms), so random histories
/// land exactly on lease ends and deadlines, where off-by-one bugs live.
fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        2 => prop_oneof![Just(1u64), (0u64..8).prop_map(|n| n * 100)].prop_map(Step::Wait),
        2 => (0u8..5, 1u64..5, (0u64..30).prop_map(|n| n * 100), 1u64..4).prop_map(|(job, qty, deadline_in, max_attempts)| Step::Enqueue {
            job, qty, deadline_in, max_attempts
        }),
        3 => (0..ACTORS, any::<bool>(), (1u64..15).prop_map(|n| n * 100)).prop_map(|(actor, shared_name, lease_ms)| Step::Claim {
            actor, shared_name, lease_ms
        }),
        3 => (0..ACTORS).prop_map(|actor| Step::Finish { actor }),
    ]
}

/// How many actors hold a claim the queue's row (`rows`, read from the
/// queue) would accept at `now`, judged by the model's rule.
fn valid_holders(rows: &[JobRow], held: &[Option<Claim>], id: &str, now: u64) -> usize {
    held.iter()
        .flatten()
        .filter(|claim| claim.id == id)
        .filter(|claim| {
            let row = rows.iter().find(|row| row.id == claim.id);
            Model::failed(row, &claim.stamp(), now).is_empty()
        })
        .count()
}

fn run(engine: Engine, steps: &[Step]) -> Result<(), TestCaseError> {
    let queue = engine
        .open()
        .map_err(|err| TestCaseError::fail(format!("on {engine:?}: {err}")))?;
    let mut model = Model::default();
    let mut held: Vec<Option<Claim>> = vec![None; ACTORS];
    let mut now = 0u64;
    let fail = |err: Error| TestCaseError::fail(err.to_string());
    for (index, step) in steps.iter().enumerate() {
        let before = queue.rows().map_err(fail)?;
        match step {
            Step::Wait(ms) => now += ms,
            Step::Enqueue {
                job,
                qty,
                deadline_in,
                max_attempts,
            } => {
                let job = NewJob {
                    id: format!("job-{job}"),
                    qty: *qty,
                    deadline: now + deadline_in,
                    max_attempts: *max_attempts,
                };
                let current = queue.enqueue(&job).map_err(|err| err.to_string());
                let expected = model.enqueue(&job);
                prop_assert_eq!(
                    current.is_ok(),
                    expected.is_ok(),
                    "step {}: enqueue {:?}",
                    index,
                    job
                );
                if let (Ok(current), Ok(expected)) = (current, expected) {
                    prop_assert_eq!(current, expected, "step {}: stored row", index);
                }
            }
            Step::Claim {
                actor,
                shared_name,
                lease_ms,
            } => {
                // Sharing one owner name models restarts under one name (R8).
                let owner = if *shared_name {
                    "worker".to_owned()
                } else {
                    format!("actor-{actor}")
                };
                let current = queue.claim(&owner, now, *lease_ms).map_err(fail)?;
                let expected = model.claim(&owner, now, *lease_ms);
                prop_assert_eq!(
                    &current,
                    &expected,
                    "step {}: claim by {} at {}",
                    index,
                    owner,
                    now
                );
                if let Some(claim) = current {
                    held[*actor] = Some(claim);
                }
            }
            Step::Finish { actor } => {
                if let Some(claim) = &held[*actor] {
                    let current = queue.finish(&claim.stamp(), now).map_err(fail)?;
                    let expected = model.finish(&claim.stamp(), now);
                    prop_assert_eq!(
                        &current,
                        &expected,
                        "step {}: finish {:?} at {}",
                        index,
                        claim,
                        now
                    );
                    if !current.accepted() {
                        prop_assert_eq!(
                            &queue.rows().map_err(fail)?,
                            &before,
                            "step {}: rejected finish changed rows",
                            index
                        );
                    }
                }
            }
        }
        let rows = queue.rows().map_err(fail)?;
        prop_assert_eq!(
            &rows,
            &model.jobs,
            "step {}: rows differ from the model",
            index
        );
        for row in &rows {
            if let Some(old) = before.iter().find(|old| old.id == row.id) {
                prop_assert!(
                    row.token >= old.token,
                    "step {}: token of {} went back",
                    index,
                    row.id
                );
            }
            if let Some(until) = row.lease_until {
                prop_assert!(
                    until <= row.deadline,
                    "step {}: {} leased past its deadline",
                    index,
                    row.id
                );
            }
            let holders = valid_holders(&rows, &held, &row.id, now);
            prop_assert!(
                holders <= 1,
                "step {}: {} has {} valid holders at {}",
                index,
                row.id,
                holders,
                now
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_sqlite_queue_agrees_with_the_reference_model(steps in proptest::collection::vec(step(), 1..60)) {
        run(Engine::Sqlite, &steps)?;
    }

    #[test]
    fn the_postgresql_queue_agrees_with_the_reference_model(steps in proptest::collection::vec(step(), 1..60)) {
        run(Engine::Postgres, &steps)?;
    }
}
