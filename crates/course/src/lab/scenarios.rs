//! What the lab grades on: every chapter's scenario, a few of its own
//! that stand on the instants where a statement is most easily wrong (a
//! finish exactly at the lease's end, a finish sent twice, a reclaim at
//! that instant, a worker restarted under its old name, a job whose
//! attempts are used up), and families generated around those instants
//! ([`generated`]): one millisecond before, at and after a lease's end or
//! a deadline, for short and long leases, jobs of 1, 2 and 3 attempts, and
//! restarts under the old name. Each scenario's name has a title in both
//! languages (`lab.scenario.<name>`), which a counterexample is told by.

use leasefence::NewJob;
use leasefence::scenario::{Action, Event, Scenario};

use crate::mechanism::orderings::within_bound;

/// The lab's own scenarios, by name.
const OWN: [(&str, &str); 5] = [
    (
        "finish-at-lease-end",
        r#"{"jobs": [{"id": "j", "qty": 1, "deadline": 5000}],
            "events": [{"at": 0, "worker": "A", "do": "claim", "lease_ms": 1000},
                       {"at": 999, "worker": "A", "do": "finish"},
                       {"at": 1000, "worker": "A", "do": "finish"}]}"#,
    ),
    (
        "finish-twice",
        r#"{"jobs": [{"id": "j", "qty": 1, "deadline": 5000}],
            "events": [{"at": 0, "worker": "A", "do": "claim", "lease_ms": 1000},
                       {"at": 10, "worker": "A", "do": "finish"},
                       {"at": 20, "worker": "A", "do": "finish"}]}"#,
    ),
    (
        "reclaim-at-lease-end",
        r#"{"jobs": [{"id": "j", "qty": 1, "deadline": 5000}],
            "events": [{"at": 0, "worker": "A", "do": "claim", "lease_ms": 1000},
                       {"at": 1000, "worker": "B", "do": "claim", "lease_ms": 1000},
                       {"at": 1000, "worker": "A", "do": "finish"},
                       {"at": 1001, "worker": "B", "do": "finish"}]}"#,
    ),
    (
        "restart-under-the-old-name",
        r#"{"jobs": [{"id": "j", "qty": 1, "deadline": 5000}],
            "events": [{"at": 0, "worker": "A", "do": "claim", "lease_ms": 1000},
                       {"at": 1000, "worker": "A-restarted", "owner": "A", "do": "claim", "lease_ms": 1000},
                       {"at": 1001, "worker": "A", "do": "finish"},
                       {"at": 1002, "worker": "A-restarted", "do": "finish"}]}"#,
    ),
    (
        "attempts-used-up",
        r#"{"jobs": [{"id": "j", "qty": 1, "deadline": 5000, "max_attempts": 1}],
            "events": [{"at": 0, "worker": "A", "do": "claim", "lease_ms": 1000},
                       {"at": 1000, "worker": "B", "do": "claim", "lease_ms": 1000},
                       {"at": 1001, "worker": "A", "do": "finish"},
                       {"at": 1002, "worker": "B", "do": "finish"}]}"#,
    ),
];

/// Every scenario the lab grades on, by name: `chapters` (id and scenario
/// JSON), the lab's own and the generated ones, each cut to the bound of
/// every ordering ([`within_bound`]).
pub(super) fn all(chapters: &[(&'static str, &'static str)]) -> Vec<(&'static str, Scenario)> {
    (chapters.iter().copied())
        .chain(OWN)
        .map(|(name, json)| {
            let scenario = Scenario::parse(json)
                .unwrap_or_else(|err| panic!("the lab's scenario {name} is invalid: {err}"));
            (name, scenario)
        })
        .chain(generated())
        .map(|(name, scenario)| (name, within_bound(&scenario)))
        .collect()
}

/// One millisecond before, at and after an instant.
const AROUND: [i64; 3] = [-1, 0, 1];

/// The generated families, by name.
fn generated() -> Vec<(&'static str, Scenario)> {
    let mut made = Vec::new();
    // A reclaim and the old holder's finish, each around the lease's end,
    // for a lease of 1 ms and of 1000 ms.
    for lease in [1, 1000] {
        for reclaim in AROUND {
            for finish in AROUND {
                made.push((
                    "generated-lease-end",
                    timeline(
                        5000,
                        3,
                        &[
                            (0, "A", None, Some(lease)),
                            (at(lease, reclaim), "B", None, Some(1000)),
                            (at(lease, finish), "A", None, None),
                            (at(lease, 2), "B", None, None),
                        ],
                    ),
                ));
            }
        }
    }
    // A deadline around the lease's end: the lease capped (R9), the
    // finishes around the deadline.
    for deadline in AROUND {
        let deadline = at(1000, deadline);
        for finish in AROUND {
            made.push((
                "generated-deadline",
                timeline(
                    deadline,
                    3,
                    &[
                        (0, "A", None, Some(1000)),
                        (at(deadline, finish), "A", None, None),
                    ],
                ),
            ));
        }
    }
    // Three workers in turn on one job of 1, 2 or 3 attempts (R10).
    for attempts in 1..=3 {
        made.push((
            "generated-attempts",
            timeline(
                5000,
                attempts,
                &[
                    (0, "A", None, Some(100)),
                    (100, "B", None, Some(100)),
                    (200, "C", None, Some(100)),
                    (201, "A", None, None),
                    (202, "B", None, None),
                    (300, "C", None, None),
                ],
            ),
        ));
    }
    // A restart under the old name, around the old lease's end (R8).
    for restart in AROUND {
        made.push((
            "generated-restart",
            timeline(
                5000,
                3,
                &[
                    (0, "A", None, Some(1000)),
                    (at(1000, restart), "A-restarted", Some("A"), Some(1000)),
                    (1001, "A", None, None),
                    (1002, "A-restarted", None, None),
                ],
            ),
        ));
    }
    made
}

/// `base + offset`, never before 0.
fn at(base: u64, offset: i64) -> u64 {
    base.saturating_add_signed(offset)
}

/// One job (`deadline`, `max_attempts`) and events `(at, worker, owner,
/// lease_ms)`: a claim when `lease_ms` is given, else a finish; in time
/// order (events at one instant as listed).
fn timeline(
    deadline: u64,
    max_attempts: u64,
    events: &[(u64, &str, Option<&str>, Option<u64>)],
) -> Scenario {
    let mut job = NewJob::new("j", 1, deadline);
    job.max_attempts = max_attempts;
    let mut events: Vec<Event> = (events.iter())
        .map(|&(at, worker, owner, lease_ms)| Event {
            at,
            worker: worker.to_owned(),
            owner: owner.map(str::to_owned),
            action: match lease_ms {
                Some(lease_ms) => Action::Claim { lease_ms },
                None => Action::Finish,
            },
        })
        .collect();
    events.sort_by_key(|event| event.at);
    Scenario::new(vec![job], events).expect("a generated scenario is valid")
}

#[cfg(test)]
mod tests {
    use crate::playground::session::Session;
    use crate::playground::{Lang, chapter_scenarios};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// A counterexample is told by its scenario's title: every scenario
    /// the lab grades on has one in both languages, not a message key.
    #[test]
    fn every_scenario_the_lab_grades_on_has_a_title_in_both_languages() {
        for lang in [Lang::En, Lang::Ko] {
            let session = Session::start(&crate::playground::session::Start {
                lang: Some(lang.tag().to_owned()),
                ..Default::default()
            })
            .expect("starts");
            for (name, _) in super::all(&chapter_scenarios()) {
                let title = session.lab_scenario_title(name);
                assert!(!title.starts_with("lab."), "{name} in {lang:?}: {title}");
            }
        }
    }
}
