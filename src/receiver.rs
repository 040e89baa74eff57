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
    ledger: Ledger,
}

/// Where the ledger's rows live, as [`crate::Queue`]'s engines.
enum Ledger {
    Sqlite(Connection),
    /// Boxed: a client is large beside a SQLite connection.
    #[cfg(not(target_arch = "wasm32"))]
    Postgres(Box<crate::postgres::Ledger>),
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
        let conn = store::open_file(path.as_ref(), Kind::Receiver, store::Create::IfEmpty)?;
        Ok(Receiver {
            ledger: Ledger::Sqlite(conn),
        })
    }

    /// Connects to a receiver's ledger in a PostgreSQL database
    /// (`postgres://…` or `postgresql://…`), creating its `deliveries`
    /// table there if the database has none; one another program made is
    /// [`crate::Error::NotOurDatabase`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn connect(url: &str) -> Result<Receiver> {
        Ok(Receiver {
            ledger: Ledger::Postgres(Box::new(crate::postgres::Ledger::connect(url)?)),
        })
    }

    /// Takes the deliveries of `ids` back out (the census's rewind, on
    /// the replay's in-memory ledger).
    pub(crate) fn take_back(&self, ids: &[String]) -> Result<()> {
        match &self.ledger {
            Ledger::Sqlite(conn) => store::take_back_deliveries(conn, ids),
            #[cfg(not(target_arch = "wasm32"))]
            Ledger::Postgres(_) => Err(crate::Error::Internal {
                what: "only the replay's in-memory ledger goes back".into(),
            }),
        }
    }

    /// Opens a fresh in-memory ledger.
    pub fn open_in_memory() -> Result<Receiver> {
        Ok(Receiver {
            ledger: Ledger::Sqlite(store::open_memory(Kind::Receiver)?),
        })
    }

    /// The ledger in arrival order: (job id, qty applied, repeats ignored).
    fn deliveries(&self) -> Result<Vec<(String, u64, u64)>> {
        match &self.ledger {
            Ledger::Sqlite(conn) => store::deliveries(conn),
            #[cfg(not(target_arch = "wasm32"))]
            Ledger::Postgres(ledger) => ledger.deliveries(),
        }
    }

    /// Records one delivery. Returns `true` when it was applied, `false` for
    /// a repeat of the same id and qty; a different qty for a known id is
    /// [`crate::Error::DeliveryConflict`] and changes nothing.
    pub fn deliver(&self, id: &str, qty: u64) -> Result<bool> {
        check_name("id", id)?;
        check_int("qty", qty, 1)?;
        match &self.ledger {
            Ledger::Sqlite(conn) => Ok(store::deliver(conn, id, qty)? == Recorded::Applied),
            #[cfg(not(target_arch = "wasm32"))]
            Ledger::Postgres(ledger) => ledger.deliver(id, qty),
        }
    }

    /// Job id -> applied qty, sorted by id.
    pub fn applied(&self) -> Result<BTreeMap<String, u64>> {
        let mut applied = BTreeMap::new();
        for (id, qty, _repeats) in self.deliveries()? {
            applied.insert(id, qty);
        }
        Ok(applied)
    }

    /// What the receiver holds, summed up, the sum held at [`MAX_INT`]
    /// (see [`Totals::qty`]).
    pub fn totals(&self) -> Result<Totals> {
        let mut totals = Totals::default();
        for (id, qty, repeats) in self.deliveries()? {
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
