//! A finish's condition as an assertion: the stamp's side beside the row's.

use leasefence::fence::Condition;
use leasefence::model::{JobRow, Stamp};

use super::Assertion;

impl Assertion {
    /// Whether `stamp` meets `condition` against `row` (the row as the
    /// finish at `event` found it, `None` when no row has the stamp's id)
    /// at `now`, with both sides' values; a lease met names whose lease
    /// the row holds.
    pub fn compared(
        event: usize,
        condition: Condition,
        stamp: &Stamp,
        row: Option<&JobRow>,
        now: u64,
    ) -> Assertion {
        let Some(row) = row else {
            return Assertion::Condition {
                event,
                condition: Condition::Id,
                held: false,
                stamp: stamp.id.clone(),
                row: String::new(),
                holder: None,
            };
        };
        let optional = |value: Option<String>| value.unwrap_or_else(|| "null".to_owned());
        let (stamp_side, row_side) = match condition {
            Condition::Id => (stamp.id.clone(), row.id.clone()),
            Condition::Owner => (stamp.owner.clone(), optional(row.owner.clone())),
            Condition::Token => (stamp.token.to_string(), row.token.to_string()),
            Condition::Attempt => (stamp.attempt.to_string(), row.attempts.to_string()),
            Condition::State => (String::new(), row.state.as_str().to_owned()),
            Condition::LeaseUntil => (
                now.to_string(),
                optional(row.lease_until.map(|until| until.to_string())),
            ),
            Condition::Deadline => (now.to_string(), row.deadline.to_string()),
        };
        let held = condition.holds(stamp, row, now);
        Assertion::Condition {
            event,
            condition,
            held,
            stamp: stamp_side,
            row: row_side,
            holder: (held && condition == Condition::LeaseUntil)
                .then(|| row.owner.clone())
                .flatten(),
        }
    }
}
