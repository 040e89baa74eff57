//! What a learner can do to a worker on the lanes, from where they stand:
//! stall it, crash it, or restart it under the same name. Each is a
//! rewrite of the scenario's future (the events not yet applied), so the
//! result is an ordinary timeline: replayed by the same core, shared by the
//! same links, and the past stays exactly as it was.

use leasefence::error::Result;
use leasefence::scenario::{Action, Event, Scenario};

/// How long a stall lasts: as long as the canonical lease, so a stalled
/// worker usually comes back to find its lease over.
pub const STALL_MS: u64 = 1000;

/// A change to one worker's future.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Twist {
    /// Its remaining events happen [`STALL_MS`] later.
    Stall,
    /// It dies now: its remaining events never happen (its lease stays in
    /// the table until it ends, as a real crash leaves it).
    Crash,
    /// A new process starts now under the same owner name and claims; the
    /// old one still wakes up later with its old claim.
    Restart,
}

impl Twist {
    /// Every twist, in the order the lanes offer them.
    pub const ALL: [Twist; 3] = [Twist::Stall, Twist::Crash, Twist::Restart];

    /// Its name on the page and in messages (`twist.<name>`).
    pub fn name(self) -> &'static str {
        match self {
            Twist::Stall => "stall",
            Twist::Crash => "crash",
            Twist::Restart => "restart",
        }
    }

    /// The twist a page names (`stall`, `crash`, `restart`).
    pub fn from_name(name: &str) -> Option<Twist> {
        Twist::ALL.into_iter().find(|twist| twist.name() == name)
    }

    /// What the page's button for this twist of `worker` carries:
    /// `crash:B`.
    pub fn arg(self, worker: &str) -> String {
        format!("{}:{worker}", self.name())
    }
}

/// The workers a learner can twist: every actor that claims, in order of
/// first appearance.
pub fn actors(scenario: &Scenario) -> Vec<&str> {
    let mut actors: Vec<&str> = Vec::new();
    for event in scenario.events() {
        let claims = matches!(event.action, Action::Claim { .. });
        if claims && !actors.contains(&event.worker.as_str()) {
            actors.push(&event.worker);
        }
    }
    actors
}

/// The name a restarted `worker` runs under: `A-restarted`, then
/// `A-restarted-2`, ... (the first that is not an actor yet).
pub fn restarted_name(scenario: &Scenario, worker: &str) -> String {
    let taken = |name: &str| scenario.events().iter().any(|event| event.worker == name);
    let first = format!("{worker}-restarted");
    if !taken(&first) {
        return first;
    }
    (2..)
        .map(|n| format!("{first}-{n}"))
        .find(|name| !taken(name))
        .unwrap_or(first)
}

/// Whether `twist` would change anything for `worker` at `position`: a
/// stall or a crash needs events of the worker still to come, a restart
/// a run that has started (a claim already applied). A tool that would
/// change nothing is not offered, so it never turns a chapter into the
/// learner's own timeline for no change, and a worker that never ran is
/// not "restarted" into taking another's job.
pub fn changes(scenario: &Scenario, position: usize, worker: &str, twist: Twist) -> bool {
    let position = position.min(scenario.events().len());
    let (past, future) = scenario.events().split_at(position);
    match twist {
        Twist::Stall | Twist::Crash => future.iter().any(|event| event.worker == worker),
        Twist::Restart => past
            .iter()
            .any(|event| event.worker == worker && matches!(event.action, Action::Claim { .. })),
    }
}

/// `scenario` with `twist` applied to `worker` at `position` (the events
/// before it are kept as they are); `now` is the time of the last applied
/// event. `None` when the twist [`changes`] nothing.
pub fn apply(
    scenario: &Scenario,
    position: usize,
    now: u64,
    worker: &str,
    twist: Twist,
) -> Result<Option<Scenario>> {
    if !changes(scenario, position, worker, twist) {
        return Ok(None);
    }
    let mut events = scenario.events().to_vec();
    let position = position.min(events.len());
    let future = events.split_off(position);
    let mine = |event: &Event| event.worker == worker;
    match twist {
        Twist::Crash => events.extend(future.into_iter().filter(|e| !mine(e))),
        Twist::Stall => {
            let (moved, kept): (Vec<Event>, Vec<Event>) = future.into_iter().partition(mine);
            events.extend(kept);
            // Each moved event goes after every event of its new time, so
            // time keeps its order (as a dragged finish does).
            for mut event in moved {
                event.at = event.at.saturating_add(STALL_MS);
                let at = event.at;
                let index = position + events[position..].partition_point(|e| e.at <= at);
                events.insert(index, event);
            }
        }
        Twist::Restart => {
            // From the worker's last claim so far: the name it claims under
            // (a restarted run's is its original's) and the lease it asks.
            let Some((owner, lease_ms)) =
                events.iter().rev().find_map(|event| match event.action {
                    Action::Claim { lease_ms } if mine(event) => {
                        Some((event.claim_owner().to_owned(), lease_ms))
                    }
                    _ => None,
                })
            else {
                return Ok(None);
            };
            events.push(Event {
                at: now,
                worker: restarted_name(scenario, worker),
                owner: Some(owner),
                action: Action::Claim { lease_ms },
            });
            events.extend(future);
        }
    }
    Scenario::new(scenario.jobs().to_vec(), events).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playground::CHAPTERS;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn canonical() -> Scenario {
        Scenario::parse(CHAPTERS[0].scenario()).expect("parses")
    }

    fn shape(scenario: &Scenario) -> Vec<(u64, &str, &str)> {
        let events = scenario.events().iter();
        events
            .map(|e| (e.at, e.worker.as_str(), e.action.name()))
            .collect()
    }

    #[test]
    fn a_crash_removes_only_the_workers_future() {
        let crashed = apply(&canonical(), 1, 0, "A", Twist::Crash)
            .expect("a valid timeline")
            .expect("changes");
        check(
            shape(&crashed),
            vec![(0, "A", "claim"), (1000, "B", "claim")],
        );
    }

    #[test]
    fn a_stall_moves_the_workers_future_later_and_keeps_time_in_order() {
        let stalled = apply(&canonical(), 1, 0, "A", Twist::Stall)
            .expect("a valid timeline")
            .expect("changes");
        let expected = vec![
            (0, "A", "claim"),
            (1000, "B", "claim"),
            (2001, "A", "finish"),
        ];
        check(shape(&stalled), expected);
        assert!(
            Scenario::parse(&stalled.to_json()).is_ok(),
            "still a valid scenario"
        );
    }

    #[test]
    fn a_restart_claims_now_under_the_same_owner_name() {
        let restarted = apply(&canonical(), 1, 0, "A", Twist::Restart)
            .expect("a valid timeline")
            .expect("changes");
        let claim = &restarted.events()[1];
        assert_eq!(
            (claim.at, claim.worker.as_str(), claim.claim_owner()),
            (0, "A-restarted", "A")
        );
        let again = apply(&restarted, 2, 0, "A", Twist::Restart)
            .expect("a valid timeline")
            .expect("changes");
        assert_eq!(
            again.events()[2].worker,
            "A-restarted-2",
            "a fresh name each time"
        );
    }

    /// Crashing or stalling B after its last event, or
    /// restarting B before B ever claimed, changes nothing and is not
    /// offered (a restart of B at 0 ms once took A's job).
    #[test]
    fn a_twist_that_would_change_nothing_is_none() {
        let canonical = canonical();
        // Canonical: 0 A claims, 1000 B claims, 1001 A finishes.
        for (position, worker, twist, changed) in [
            (2, "B", Twist::Crash, false),
            (2, "B", Twist::Stall, false),
            (1, "B", Twist::Crash, true),
            (1, "B", Twist::Restart, false),
            (0, "A", Twist::Restart, false),
            (1, "A", Twist::Restart, true),
            (3, "A", Twist::Crash, false),
        ] {
            check(
                (
                    position,
                    worker,
                    twist,
                    apply(&canonical, position, 0, worker, twist)
                        .expect("a valid timeline")
                        .is_some(),
                ),
                (position, worker, twist, changed),
            );
        }
    }

    fn check<T: PartialEq + std::fmt::Debug>(current: T, expected: T) {
        assert_eq!(current, expected, "expected (right) vs current (left)");
    }
}
