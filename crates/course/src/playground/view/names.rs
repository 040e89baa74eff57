//! The one name of each teaching variant, of each side of the invariants
//! panel and of each actor of the statement panel, the same on every
//! panel that shows it (the message key `variant.<id>`;
//! [`crate::variants`]).

use crate::key;
use crate::mechanism::invariants::Side;
use crate::playground::Lang;
use crate::variants::Variant;

/// A side's column header: the real system, or its variant's name.
pub(crate) fn side_name(lang: Lang, side: Side) -> String {
    match side.variant() {
        Some(variant) => variant_name(lang, variant),
        None => lang.text(key!("invariants.fenced")).to_owned(),
    }
}

/// A teaching variant's one name, the same on every panel.
pub(crate) fn variant_name(lang: Lang, variant: Variant) -> String {
    let key = match variant {
        Variant::ReadThenWriteClaim => key!("variant.read_then_write"),
        Variant::SendInsideTransaction => key!("variant.send_inside"),
        Variant::IdOnlyFinish => key!("variant.id_only"),
        Variant::IdAndOwnerFinish => key!("variant.id_and_owner"),
        Variant::ReceiverWithoutLedger => key!("variant.without_ledger"),
        Variant::FinishAtLeaseEnd => key!("variant.finish_at_lease_end"),
        Variant::ClaimAfterLeaseEnd => key!("variant.claim_after_lease_end"),
        Variant::DeleteOnClaim => key!("variant.delete_on_claim"),
        Variant::LeaveVisible => key!("variant.leave_visible"),
    };
    lang.text(key).to_owned()
}

/// An actor's name as the learner reads it: the producer by its role.
pub(crate) fn who(lang: Lang, actor: &str) -> String {
    match actor {
        "producer" => lang.text(key!("stmt.producer")).to_owned(),
        name => name.to_owned(),
    }
}
