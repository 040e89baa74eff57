//! The receiving side of a delivery, made idempotent (R12).
//!
//! The queue's fence refuses a late worker's *finish*, but it cannot take
//! back a delivery that already reached the receiver. So the receiver keeps
//! its own ledger, `job id -> qty`: the first delivery of an id counts, a
//! repeat adds nothing, and a different qty for a known id is refused rather
//! than overwriting what was applied.
//!
//! The same ledger backs the replay's receiver model, the HTTP receiver of
//! the command line, and the browser.

use std::collections::BTreeMap;

use rusqlite::Connection;
use serde::Serialize;

use crate::error::Result;
use crate::model::{MAX_INT, check_int, check_name};
use crate::store::{self, Kind, Recorded};

/// An idempotent ledger of deliveries, in its own database.
pub struct Receiver {
    conn: Connection,
}

impl std::fmt::Debug for Receiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Receiver").finish_non_exhaustive()
    }
}

/// What the receiver holds: what counted, and how many repeats it ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Distinct jobs delivered.
    pub jobs: u64,
    /// Sum of the applied quantities, held at [`MAX_INT`] once it passes
    /// it (then `capped`): every delivery still lands, and the sum stays a
    /// number JavaScript reads exactly.
    pub qty: u64,
    /// Whether the sum passed [`MAX_INT`], so `qty` is a floor. Written
    /// only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub capped: bool,
    /// Deliveries ignored because the id was already applied.
    pub repeats: u64,
    /// Job id -> the qty that was applied.
    pub applied: BTreeMap<String, u64>,
}

impl Receiver {
    /// Opens a receiver ledger file, creating it if needed.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<Receiver> {
        Ok(Receiver {
            conn: store::open_file(path.as_ref(), Kind::Receiver, store::Create::IfEmpty)?,
        })
    }

    /// Takes the deliveries of `ids` back out (the census's rewind).
    pub(crate) fn take_back(&self, ids: &[String]) -> Result<()> {
        store::take_back_deliveries(&self.conn, ids)
    }

    /// Opens a fresh in-memory ledger.
    pub fn open_in_memory() -> Result<Receiver> {
        Ok(Receiver {
            conn: store::open_memory(Kind::Receiver)?,
        })
    }

    /// Records one delivery. Returns `true` when it was applied, `false` for
    /// a repeat of the same id and qty; a different qty for a known id is
    /// [`crate::Error::DeliveryConflict`] and changes nothing.
    pub fn deliver(&self, id: &str, qty: u64) -> Result<bool> {
        check_name("id", id)?;
        check_int("qty", qty, 1)?;
        Ok(store::deliver(&self.conn, id, qty)? == Recorded::Applied)
    }

    /// Job id -> applied qty, sorted by id.
    pub fn applied(&self) -> Result<BTreeMap<String, u64>> {
        let mut applied = BTreeMap::new();
        for (id, qty, _repeats) in store::deliveries(&self.conn)? {
            applied.insert(id, qty);
        }
        Ok(applied)
    }

    /// What the receiver holds, summed up, the sum held at [`MAX_INT`]
    /// (see [`Totals::qty`]).
    pub fn totals(&self) -> Result<Totals> {
        let mut totals = Totals::default();
        for (id, qty, repeats) in store::deliveries(&self.conn)? {
            totals.jobs += 1;
            let sum = totals.qty.saturating_add(qty);
            totals.capped |= sum > MAX_INT;
            totals.qty = sum.min(MAX_INT);
            totals.repeats += repeats;
            totals.applied.insert(id, qty);
        }
        Ok(totals)
    }
}
