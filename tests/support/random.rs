//! Random small scenarios shaped like the chapters, for the property
//! tests that hold the mechanism to the replay (`tests/orderings.rs`,
//! `tests/timeline_statements.rs`).

use leasefence::{Action, Event, NewJob, Scenario};
use proptest::prelude::*;

/// A small scenario by two to four actors (the fourth a restart of the
/// first under its name, R8), each with one to three events, mostly a
/// claim followed by sends and finishes, at instants around lease ends
/// and deadlines: the shape of the chapters, where stale finishes and
/// repeated deliveries happen in some orderings and not in others.
pub fn small_scenario() -> impl Strategy<Value = Scenario> {
    let job = (
        1u64..=3,
        prop::sample::select(vec![150u64, 1000, 5000]),
        1u64..=3,
    );
    let script = prop::collection::vec((0u8..10, prop::sample::select(vec![100u64, 1000])), 1..=3);
    let instant = prop::sample::select(vec![0u64, 0, 1, 99, 100, 101, 999, 1000, 1001, 1100]);
    (
        prop::collection::vec(job, 1..=2),
        prop::collection::vec(script, 2..=4),
        prop::collection::vec(instant, 12),
    )
        .prop_map(|(jobs, scripts, mut instants)| {
            let new_job = |id: String, (qty, deadline, max_attempts)| NewJob {
                max_attempts,
                ..NewJob::new(id, qty, deadline)
            };
            let jobs = (jobs.into_iter().enumerate())
                .map(|(n, job)| new_job(format!("snack-{n}"), job))
                .collect();
            // The actors take turns in the scenario's own order; the census
            // tries every other order anyway.
            let mut turns: Vec<(usize, usize)> = Vec::new();
            for step in 0..3 {
                turns.extend(
                    (0..scripts.len())
                        .filter(|&a| step < scripts[a].len())
                        .map(|a| (a, step)),
                );
            }
            turns.truncate(6); // at most 180 orderings: quick in a debug build
            instants.truncate(turns.len());
            instants.sort_unstable();
            let events =
                turns
                    .into_iter()
                    .zip(instants)
                    .enumerate()
                    .map(|(n, ((actor, step), at))| {
                        let (what, lease_ms) = scripts[actor][step];
                        let action = match (step, what) {
                            (0, 0..=7) | (_, 0..=2) => Action::Claim { lease_ms },
                            (_, 3..=6) => Action::Finish,
                            (_, 7 | 8) => Action::Send,
                            _ => Action::Enqueue(new_job(format!("late-{n}"), (1, 2000, 2))),
                        };
                        Event {
                            at,
                            worker: ["A", "B", "C", "A-restarted"][actor].into(),
                            owner: (actor == 3).then(|| "A".into()),
                            action,
                        }
                    });
            Scenario::new(jobs, events.collect())
                .expect("the generator writes only valid timelines")
        })
}
