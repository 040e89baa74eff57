//! Teaching only: the naive systems the course warns about, each defined
//! once.
//!
//! A variant swaps exactly one part of the real system for its naive
//! version and keeps the rest real, so whatever goes wrong is that part's
//! fault. Every panel that runs one names it by [`Variant`] (one message
//! key, `variant.<id>`, in both languages) and never runs two at once:
//!
//! * [`Variant::ReadThenWriteClaim`]: the claim read with a plain `SELECT`
//!   and written later ([`sql::NAIVE_CLAIM_READ`], then
//!   [`sql::NAIVE_CLAIM_WRITE`]); the statement panel's naive side
//!   in its claim race and in the timeline taken apart.
//! * [`Variant::SendInsideTransaction`]: the send made before `COMMIT`;
//!   the statement panel's naive side in its send race (R7).
//! * [`Variant::IdOnlyFinish`] and [`Variant::IdAndOwnerFinish`]: the
//!   finish guarded by fewer conditions than R4's
//!   ([`Guard`]); the comparison's naive side ([`unfenced::play`]) and the
//!   invariants panel's, with the receiver keeping its ledger.
//! * [`Variant::ReceiverWithoutLedger`]: a receiver that applies every
//!   delivery, beside the real queue; the invariants panel shows it only
//!   for a timeline that sends, the one place it can differ.
//! * [`Variant::FinishAtLeaseEnd`] and [`Variant::ClaimAfterLeaseEnd`]:
//!   the lease's one boundary (R5) read another way by the finish
//!   ([`sql::NAIVE_FINISH_AT_LEASE_END`]) or by the claim
//!   ([`sql::NAIVE_CLAIM_AFTER_LEASE_END`]); the boundary point beside
//!   the queue's own reading ([`boundary`]), and the lab's boundary and
//!   reclaim levels start from them.
//! * [`Variant::DeleteOnClaim`] and [`Variant::LeaveVisible`]: the claim
//!   that deletes its job ([`sql::NAIVE_CLAIM_DELETE`]) or leaves it
//!   `pending` ([`sql::NAIVE_CLAIM_VISIBLE`]), the two designs the course
//!   turns down; the point that shows why a claim keeps a `leased` row
//!   ([`designs`]).

use serde::Serialize;

pub mod boundary;
pub mod designs;
pub mod sql;
pub mod unfenced;

pub use sql::Guard;

/// One naive system; see the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// The claim as a read, then a write in its own transaction.
    ReadThenWriteClaim,
    /// The send made inside the claim's transaction, before `COMMIT`.
    SendInsideTransaction,
    /// The finish guarded by the job id alone.
    IdOnlyFinish,
    /// The finish guarded by the job id and the owner's name.
    IdAndOwnerFinish,
    /// The receiver without its ledger: every delivery is applied.
    ReceiverWithoutLedger,
    /// The finish that still accepts at `lease_until`.
    FinishAtLeaseEnd,
    /// The claim that frees a lease only after `lease_until`.
    ClaimAfterLeaseEnd,
    /// The claim that deletes its job from the table.
    DeleteOnClaim,
    /// The claim that leaves its job `pending`, visible to every claim.
    LeaveVisible,
}

impl Variant {
    /// The finish variant of `guard`.
    pub fn finish(guard: Guard) -> Variant {
        match guard {
            Guard::IdOnly => Variant::IdOnlyFinish,
            Guard::IdAndOwner => Variant::IdAndOwnerFinish,
        }
    }

    /// The stable id the page's controls and links carry, and the message
    /// key of its name (`variant.<id>`).
    pub fn id(self) -> &'static str {
        match self {
            Variant::ReadThenWriteClaim => "read_then_write",
            Variant::SendInsideTransaction => "send_inside",
            Variant::IdOnlyFinish => "id_only",
            Variant::IdAndOwnerFinish => "id_and_owner",
            Variant::ReceiverWithoutLedger => "without_ledger",
            Variant::FinishAtLeaseEnd => "finish_at_lease_end",
            Variant::ClaimAfterLeaseEnd => "claim_after_lease_end",
            Variant::DeleteOnClaim => "delete_on_claim",
            Variant::LeaveVisible => "leave_visible",
        }
    }

    /// The variant with this [`Variant::id`].
    pub fn parse(id: &str) -> Option<Variant> {
        [
            Variant::ReadThenWriteClaim,
            Variant::SendInsideTransaction,
            Variant::IdOnlyFinish,
            Variant::IdAndOwnerFinish,
            Variant::ReceiverWithoutLedger,
            Variant::FinishAtLeaseEnd,
            Variant::ClaimAfterLeaseEnd,
            Variant::DeleteOnClaim,
            Variant::LeaveVisible,
        ]
        .into_iter()
        .find(|variant| variant.id() == id)
    }
}
