//! The receiver's ledger (R12) in a PostgreSQL database, as
//! [`crate::Receiver`] keeps it in a SQLite file.

use super::sql::{COUNT_REPEAT, DELIVER, DELIVERIES, LEDGER_KEY, LOCK_SCHEMA};
use super::{LEDGER, Session, failed, int, read_u64};
use crate::error::{Error, Result};
use crate::model::MAX_INT;
use crate::store::Create;

/// One connection to a database holding a receiver's ledger.
pub(crate) struct Ledger {
    session: Session,
}

impl Ledger {
    /// Connects to the ledger at `url`, creating it if the database has
    /// none.
    pub(crate) fn connect(url: &str) -> Result<Ledger> {
        Ok(Ledger {
            session: Session::open(url, &LEDGER, Create::IfEmpty)?,
        })
    }

    /// Records a delivery once (R12): `true` when applied, `false` for a
    /// repeat of the same id and qty; a repeat with another qty is refused
    /// and changes nothing. Deliveries take their turn on the ledger's
    /// lock, so each row's running total counts every row before it.
    pub(crate) fn deliver(&self, id: &str, qty: u64) -> Result<bool> {
        let mut connected = self.session.client()?;
        let [lock, deliver, repeat] =
            [LOCK_SCHEMA, DELIVER, COUNT_REPEAT].map(|sql| connected.statement(sql));
        let (lock, deliver, repeat) = (lock?, deliver?, repeat?);
        let mut tx = connected.client.transaction().map_err(failed)?;
        tx.execute(&lock, &[&LEDGER_KEY]).map_err(failed)?;
        let applied = (tx.query_opt(&deliver, &[&id, &int(qty), &int(MAX_INT)])).map_err(failed)?;
        if applied.is_some() {
            tx.commit().map_err(failed)?;
            return Ok(true);
        }
        let stored = tx.query_one(&repeat, &[&id]).map_err(failed)?;
        let stored = read_u64(&stored, 0)?;
        if stored != qty {
            // Dropping the transaction rolls the repeat count back.
            return Err(Error::DeliveryConflict {
                id: id.to_owned(),
                stored,
                offered: qty,
            });
        }
        tx.commit().map_err(failed)?;
        Ok(false)
    }

    /// The ledger in arrival order: (job id, qty applied, repeats ignored).
    pub(crate) fn deliveries(&self) -> Result<Vec<(String, u64, u64)>> {
        let rows = self.session.client()?.query(DELIVERIES, &[])?;
        rows.iter()
            .map(|row| {
                Ok((
                    row.try_get(0).map_err(failed)?,
                    read_u64(row, 1)?,
                    read_u64(row, 2)?,
                ))
            })
            .collect()
    }
}
