//! A scenario replayed once into frames, one per event: what the playground
//! shows at each step.
//!
//! Each frame holds the event's result, the SQL the queue ran for it (with
//! the bound values and rows changed), the whole table and the receiver
//! after it, and the claims the actors hold. Stepping back is exact because
//! nothing is undone: every frame comes from the real replay.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::error::Result;
use crate::model::{Claim, JobRow};
use crate::replay::{EventResult, Player};
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
    pub rows: Vec<JobRow>,
    /// The receiver's ledger after the event.
    pub receiver: BTreeMap<String, u64>,
    /// Worker -> the claim it holds in memory after the event.
    pub holding: BTreeMap<String, Claim>,
}

/// Every frame of a scenario, and the table before the first event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Timeline {
    /// The table holding the scenario's starting jobs.
    pub start: Vec<JobRow>,
    /// One frame per event.
    pub frames: Vec<Frame>,
}

impl Timeline {
    /// Replays `scenario`, keeping a frame per event.
    pub fn build(scenario: Scenario) -> Result<Timeline> {
        let workers: Vec<String> = scenario
            .events
            .iter()
            .map(|event| event.worker.clone())
            .collect();
        let mut player = Player::new(scenario)?;
        player.record_sql();
        let start = player.rows()?;
        let mut frames = Vec::with_capacity(workers.len());
        while let Some(result) = player.step()? {
            let holding = workers
                .iter()
                .filter_map(|worker| Some((worker.clone(), player.held_claim(worker)?.clone())))
                .collect();
            frames.push(Frame {
                result,
                sql: player.take_sql(),
                rows: player.rows()?,
                receiver: player.receiver()?,
                holding,
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
