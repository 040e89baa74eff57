//! The fenced finish (R4), stated once: its conditions as data, and the
//! verdict and outcome a finish gets ([`Finish`]).
//!
//! A finish changes its row only when every [`Condition`] holds. The
//! guarded `UPDATE` ([`crate::store::FINISH`]) is these conditions joined by
//! `AND`, in [`Condition::ALL`]'s order, and a test holds the statement to
//! the list. SQLite evaluates the whole `WHERE` clause at once: a finish is
//! not checked field by field in some order, it either matches the row or
//! changes nothing. So a refusal is explained by the *set* of conditions
//! that failed ([`Conditions`]), and every panel that marks, explains or
//! asks about a refusal reads that set.
//!
//! The replay document still names one [`Reason`] per refusal (the
//! contract's `reason` field); it is read off the set by a naming order
//! ([`Conditions::reason`]), which says which fact to put first in a
//! one-word summary, never which check ran first.

use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};

use crate::claimable::within_lease;
use crate::error::{Error, Result};
use crate::model::{JobRow, JobState, Reason, Stamp};

/// One condition of R4: what the row must agree with, or what time must
/// allow, for a finish to take effect. In JSON, its field's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// The row is the stamp's job: `id = :id`.
    Id,
    /// The row's owner is the stamp's: `owner = :owner`.
    Owner,
    /// The row's token is the stamp's: no claim came since (`token = :token`).
    Token,
    /// The row's attempts are the stamp's attempt: `attempts = :attempt`.
    Attempt,
    /// The row is `leased`: not pending, done, quarantined or expired.
    State,
    /// Time is left on the lease: `:now < lease_until` (R5).
    LeaseUntil,
    /// Time is left on the job: `:now < deadline` (R9).
    Deadline,
}

impl Condition {
    /// Every condition, in the order the guarded `UPDATE` writes them.
    pub const ALL: [Condition; 7] = [
        Condition::Id,
        Condition::Owner,
        Condition::Token,
        Condition::Attempt,
        Condition::State,
        Condition::LeaseUntil,
        Condition::Deadline,
    ];

    /// The condition as it stands in the guarded `UPDATE`'s `WHERE` clause.
    pub fn sql(self) -> &'static str {
        match self {
            Condition::Id => "id = :id",
            Condition::Owner => "owner = :owner",
            Condition::Token => "token = :token",
            Condition::Attempt => "attempts = :attempt",
            Condition::State => "state = 'leased'",
            Condition::LeaseUntil => ":now < lease_until",
            Condition::Deadline => ":now < deadline",
        }
    }

    /// The field it is about, as the stamp-beside-row table names it.
    pub fn field(self) -> &'static str {
        match self {
            Condition::Id => "id",
            Condition::Owner => "owner",
            Condition::Token => "token",
            Condition::Attempt => "attempt",
            Condition::State => "state",
            Condition::LeaseUntil => "lease_until",
            Condition::Deadline => "deadline",
        }
    }

    /// The condition about `field` (the inverse of [`Condition::field`]).
    pub fn parse(field: &str) -> Option<Condition> {
        Condition::ALL
            .into_iter()
            .find(|condition| condition.field() == field)
    }

    /// The reason a refusal names when this condition failed.
    pub fn reason(self) -> Reason {
        match self {
            Condition::Id => Reason::UnknownJob,
            Condition::Owner => Reason::OwnerMismatch,
            Condition::Token => Reason::TokenMismatch,
            Condition::Attempt => Reason::AttemptMismatch,
            Condition::State => Reason::NotLeased,
            Condition::LeaseUntil => Reason::LeaseExpired,
            Condition::Deadline => Reason::DeadlinePassed,
        }
    }

    /// Whether `row` meets this condition for `stamp` at `now`, exactly as
    /// [`Condition::sql`] decides it (a `NULL` `lease_until` meets nothing).
    pub fn holds(self, stamp: &Stamp, row: &JobRow, now: u64) -> bool {
        match self {
            Condition::Id => row.id == stamp.id,
            Condition::Owner => row.owner.as_deref() == Some(stamp.owner.as_str()),
            Condition::Token => row.token == stamp.token,
            Condition::Attempt => row.attempts == stamp.attempt,
            Condition::State => row.state == JobState::Leased,
            Condition::LeaseUntil => row
                .lease_until
                .is_some_and(|until| within_lease(now, until)),
            Condition::Deadline => now < row.deadline,
        }
    }
}

/// A set of [`Condition`]s, listed in [`Condition::ALL`]'s order: the ones
/// a refused finish failed.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct Conditions(u8);

impl Conditions {
    /// Every condition `stamp` fails against `row` at `now`. With no row
    /// the stamp names no job, and nothing else can be compared.
    pub fn failed(stamp: &Stamp, row: Option<&JobRow>, now: u64) -> Conditions {
        let Some(row) = row else {
            return Conditions::of(&[Condition::Id]);
        };
        Condition::ALL
            .into_iter()
            .filter(|condition| !condition.holds(stamp, row, now))
            .fold(Conditions::default(), Conditions::with)
    }

    /// The set of exactly these conditions.
    pub fn of(conditions: &[Condition]) -> Conditions {
        conditions
            .iter()
            .copied()
            .fold(Conditions::default(), Conditions::with)
    }

    fn with(self, condition: Condition) -> Conditions {
        Conditions(self.0 | 1 << condition as u8)
    }

    /// Whether `condition` is in the set.
    pub fn contains(self, condition: Condition) -> bool {
        self.0 & 1 << condition as u8 != 0
    }

    /// Whether the set is empty: every condition held.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many conditions are in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The conditions in the set, in [`Condition::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Condition> {
        Condition::ALL
            .into_iter()
            .filter(move |condition| self.contains(*condition))
    }

    /// The condition the replay document names for this set (its
    /// `reason`): the first failed one in this order. Whether the row can
    /// be finished at all comes first (no such job, not `leased`); then
    /// whether the stamp is the row's current claim, token first, because
    /// after a reclaim the token is the fact and a different owner or
    /// attempt follow from it; then time. `None` for an empty set.
    pub fn named(self) -> Option<Condition> {
        [
            Condition::Id,
            Condition::State,
            Condition::Token,
            Condition::Owner,
            Condition::Attempt,
            Condition::LeaseUntil,
            Condition::Deadline,
        ]
        .into_iter()
        .find(|condition| self.contains(*condition))
    }

    /// The reason the replay document names: [`Conditions::named`]'s.
    pub fn reason(self) -> Option<Reason> {
        self.named().map(Condition::reason)
    }
}

impl std::fmt::Debug for Conditions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// A list of field names (`["owner", "token"]`).
impl Serialize for Conditions {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for condition in self.iter() {
            seq.serialize_element(condition.field())?;
        }
        seq.end()
    }
}

/// What became of a finish. In JSON `"accepted"`, `"no_claim"`, or
/// `{"refused": ["owner", "token", ...]}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every condition held: the row is now `done`.
    Accepted,
    /// The actor held no claim, so it presented no stamp (replay only: the
    /// command line and the API always present one).
    NoClaim,
    /// The guarded `UPDATE` changed nothing; these conditions failed
    /// (never none).
    Refused(Conditions),
}

impl Verdict {
    /// Whether the finish took effect.
    pub fn accepted(self) -> bool {
        self == Verdict::Accepted
    }

    /// The reason the replay document names, `None` when accepted.
    pub fn reason(self) -> Option<Reason> {
        match self {
            Verdict::Accepted => None,
            Verdict::NoClaim => Some(Reason::NoClaim),
            Verdict::Refused(failed) => failed.reason(),
        }
    }

    /// The conditions that failed: none when accepted or when no stamp was
    /// presented.
    pub fn failed(self) -> Conditions {
        match self {
            Verdict::Refused(failed) => failed,
            Verdict::Accepted | Verdict::NoClaim => Conditions::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp() -> Stamp {
        Stamp {
            id: "snack-1".into(),
            owner: "A".into(),
            token: 1,
            attempt: 1,
        }
    }

    fn row_reclaimed_by_b() -> JobRow {
        JobRow {
            id: "snack-1".into(),
            qty: 2,
            state: JobState::Leased,
            owner: Some("B".into()),
            token: 2,
            attempts: 2,
            max_attempts: 3,
            lease_until: Some(2000),
            deadline: 5000,
        }
    }

    /// R4: after B's reclaim, A's stamp fails owner, token and attempt
    /// together; the document names the token.
    #[test]
    fn a_reclaimed_row_fails_owner_token_and_attempt_together() {
        let failed = Conditions::failed(&stamp(), Some(&row_reclaimed_by_b()), 1001);
        assert_eq!(
            failed.iter().collect::<Vec<_>>(),
            [Condition::Owner, Condition::Token, Condition::Attempt],
            "R4: expected owner, token, attempt; current {failed:?}"
        );
        assert_eq!(failed.reason(), Some(Reason::TokenMismatch));
    }

    /// R4: a stamp that names no job fails only its id.
    #[test]
    fn a_missing_row_fails_the_id_alone() {
        let failed = Conditions::failed(&stamp(), None, 0);
        assert_eq!(failed, Conditions::of(&[Condition::Id]));
        assert_eq!(failed.reason(), Some(Reason::UnknownJob));
    }

    /// Every field of the stamp-beside-row table names one condition.
    #[test]
    fn every_condition_is_found_by_its_field() {
        for condition in Condition::ALL {
            assert_eq!(Condition::parse(condition.field()), Some(condition));
        }
    }
}

/// The outcome of a finish: its verdict, what was presented and what the
/// row holds, side by side (R14).
///
/// In JSON it is the contract's shape: `accepted`, `reason` (the one the
/// verdict names, `null` when accepted), `expected` and `current`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finish {
    /// Accepted, or refused and why.
    pub verdict: Verdict,
    /// The stamp that was presented (`None` when the actor held none).
    pub expected: Option<Stamp>,
    /// The row as it is after the attempt (`None` for an unknown id).
    pub current: Option<JobRow>,
}

impl Finish {
    /// Whether the row was marked done.
    pub fn accepted(&self) -> bool {
        self.verdict.accepted()
    }

    /// The reason the document names, `None` when accepted.
    pub fn reason(&self) -> Option<Reason> {
        self.verdict.reason()
    }

    /// The finish of `stamp` at `now` that changed nothing, explained by
    /// the row `current` (what it failed, R4, R14). Every engine's finish
    /// ends here when its guarded `UPDATE` changed no row; a row that fails
    /// nothing would mean the guard and [`Condition::ALL`] disagree, a bug
    /// ([`Error::Internal`]), never a refusal without a reason.
    pub(crate) fn refused(stamp: &Stamp, current: Option<JobRow>, now: u64) -> Result<Finish> {
        let failed = Conditions::failed(stamp, current.as_ref(), now);
        if failed.is_empty() {
            return Err(Error::Internal {
                what: format!(
                    "finish of {:?} changed nothing, yet every condition holds",
                    stamp.id
                ),
            });
        }
        Ok(Finish {
            verdict: Verdict::Refused(failed),
            expected: Some(stamp.clone()),
            current,
        })
    }
}

impl Serialize for Finish {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Document<'a> {
            accepted: bool,
            reason: Option<Reason>,
            expected: &'a Option<Stamp>,
            current: &'a Option<JobRow>,
        }
        Document {
            accepted: self.accepted(),
            reason: self.reason(),
            expected: &self.expected,
            current: &self.current,
        }
        .serialize(serializer)
    }
}
