//! The one name of each teaching variant and of each side of the
//! invariants panel, the same on every panel that shows it (the message
//! key `variant.<id>`; [`crate::variants`]).

use crate::mechanism::invariants::Side;
use crate::playground::Lang;
use crate::variants::Variant;

/// A side's column header: the real system, or its variant's name.
pub(super) fn side_name(lang: Lang, side: Side) -> String {
    match side.variant() {
        Some(variant) => variant_name(lang, variant),
        None => lang.text("invariants.fenced").to_owned(),
    }
}

/// A teaching variant's one name, the same on every panel.
pub(super) fn variant_name(lang: Lang, variant: Variant) -> String {
    lang.text(&format!("variant.{}", variant.id())).to_owned()
}
