//! What the lab grades on: every chapter's scenario, and a few of its own
//! that stand on the instants where a statement is most easily wrong (a
//! finish exactly at the lease's end, a finish sent twice, a reclaim at
//! that instant, a worker restarted under its old name, a job whose
//! attempts are used up).

use leasefence::scenario::Scenario;

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
/// JSON) and the lab's own, each cut to the bound of every ordering
/// ([`within_bound`]).
pub(super) fn all(chapters: &[(&'static str, &'static str)]) -> Vec<(&'static str, Scenario)> {
    (chapters.iter().copied())
        .chain(OWN)
        .map(|(name, json)| {
            let scenario = Scenario::parse(json)
                .unwrap_or_else(|err| panic!("the lab's scenario {name} is invalid: {err}"));
            (name, within_bound(&scenario))
        })
        .collect()
}
