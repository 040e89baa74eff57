//! A scenario replayed once into frames, one per event: what the playground
//! shows at each step.
//!
//! Each frame holds the event's result, the SQL the queue ran for it (with
//! the bound values and rows changed), the whole table and the receiver
//! after it, and the claims the actors hold. Stepping back is exact because
//! nothing is undone: every frame comes from the real replay.
//!
//! Frames share what an event did not change (`Rc`), and after an event
//! that changed one row only that row is read again, so a 2,000-event
//! scenario builds quickly even in the browser.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::Serialize;

use crate::error::Result;
use crate::model::{Claim, JobRow};
use crate::replay::{EventResult, Outcome, Player};
use crate::scenario::Scenario;
use crate::store::Executed;

/// The state after one event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// The event's result, as in the replay document.
    pub result: EventResult,
    /// The statements the queue ran for it, in order (empty for `send`).
    pub sql: Vec<Executed>,
    /// The jobs table after the event.
    pub rows: Rc<Vec<JobRow>>,
    /// The receiver's ledger after the event.
    pub receiver: Rc<BTreeMap<String, u64>>,
    /// Worker -> the claim it holds in memory after the event.
    pub holding: Rc<BTreeMap<String, Claim>>,
}

/// Every frame of a scenario, and the table before the first event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Timeline {
    /// The table holding the scenario's starting jobs.
    pub start: Rc<Vec<JobRow>>,
    /// One frame per event.
    pub frames: Vec<Frame>,
}

impl Timeline {
    /// Replays `scenario`, keeping a frame per event.
    pub fn build(scenario: Scenario) -> Result<Timeline> {
        let mut player = Player::new(scenario)?;
        player.record_sql();
        let start = Rc::new(player.rows()?);
        let (mut rows, mut receiver, mut holding) =
            (Rc::clone(&start), Rc::default(), Rc::default());
        let mut frames = Vec::with_capacity(player.scenario().events.len());
        while let Some(result) = player.step()? {
            let sql = player.take_sql();
            rows = next_rows(&player, &rows, &result, &sql)?;
            match &result.outcome {
                Outcome::Sent { applied: true, .. } => receiver = Rc::new(player.receiver()?),
                Outcome::Claimed { claim: Some(claim) } => {
                    let mut held = BTreeMap::clone(&holding);
                    held.insert(result.worker.clone(), claim.clone());
                    holding = Rc::new(held);
                }
                _ => {}
            }
            frames.push(Frame {
                result,
                sql,
                rows: Rc::clone(&rows),
                receiver: Rc::clone(&receiver),
                holding: Rc::clone(&holding),
            });
        }
        Ok(Timeline { start, frames })
    }

    /// The table as it is after `applied` events (0 = before the first).
    pub fn rows_after(&self, applied: usize) -> &[JobRow] {
        match applied
            .checked_sub(1)
            .and_then(|last| self.frames.get(last))
        {
            Some(frame) => &frame.rows,
            None => &self.start,
        }
    }
}

/// The table after an event: shared when nothing was written, one row
/// re-read when only the event's own job changed, all rows otherwise (an
/// enqueue, or a claim that also set aside dead jobs).
fn next_rows(
    player: &Player,
    previous: &Rc<Vec<JobRow>>,
    result: &EventResult,
    sql: &[Executed],
) -> Result<Rc<Vec<JobRow>>> {
    let writes = sql
        .iter()
        .filter(|statement| statement.write && statement.rows > 0)
        .count();
    let enqueued = matches!(result.outcome, Outcome::Enqueued { .. });
    match result.outcome.job_id() {
        _ if writes == 0 => Ok(Rc::clone(previous)),
        Some(target) if writes == 1 && !enqueued => {
            let mut rows = Vec::clone(previous);
            if let (Some(slot), Some(row)) = (
                rows.iter_mut().find(|row| row.id == target),
                player.row(target)?,
            ) {
                *slot = row;
            }
            Ok(Rc::new(rows))
        }
        _ => Ok(Rc::new(player.rows()?)),
    }
}
