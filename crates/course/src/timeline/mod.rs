//! A scenario replayed once into frames, one per event: what the playground
//! shows at each step.
//!
//! Each frame holds the event's result, the SQL the queue ran for it (with
//! the bound values and rows changed) and the claims the actors hold. The
//! table and the receiver are kept as histories instead of copies: each job
//! has the list of its versions, each tagged with the first position it
//! holds at, and the receiver the list of its deliveries. Building costs
//! about the replay (one row read per job the store says it changed, not a
//! table per event), and
//! any position's table is one binary search per job. Stepping back is
//! exact because nothing is undone: every version comes from the real
//! replay.

use std::collections::BTreeMap;
use std::rc::Rc;

use leasefence::error::Result;
use leasefence::model::{Claim, JobRow};
use leasefence::replay::{EventResult, Outcome, Player};
use leasefence::scenario::Scenario;
use leasefence::store::Executed;

mod written;

/// What one event did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// The event's result, as in the replay document.
    pub result: EventResult,
    /// The statements the queue ran for it, in order (empty for `send`).
    pub sql: Vec<Executed>,
    /// Worker -> the claim it holds in memory after the event (shared with
    /// the frames before while no claim changes hands).
    pub holding: Rc<BTreeMap<String, Claim>>,
}

/// A position: how many events are applied (0 = before the first).
type Position = usize;

/// Every frame of a scenario, and the histories of its table and receiver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timeline {
    /// One frame per event.
    pub frames: Vec<Frame>,
    /// Per job, in enqueue order: its versions and the position each holds
    /// from (ascending). A job is found by its id in its first version.
    jobs: Vec<Vec<(Position, Rc<JobRow>)>>,
    /// What the receiver applied: the position it holds from, id, qty.
    deliveries: Vec<(Position, String, u64)>,
}

impl Timeline {
    /// Replays `scenario`, keeping a frame per event.
    pub fn build(scenario: Scenario) -> Result<Timeline> {
        let mut player = Player::new(scenario)?;
        player.record_sql();
        let mut timeline = Timeline {
            frames: Vec::with_capacity(player.scenario().events().len()),
            jobs: Vec::new(),
            deliveries: Vec::new(),
        };
        for row in player.rows()? {
            timeline.record(0, row);
        }
        while let Some(result) = player.step()? {
            let sql = player.take_sql();
            let after = timeline.frames.len() + 1;
            timeline.read_changes(&player, after)?;
            timeline.push(result, sql);
        }
        Ok(timeline)
    }

    /// The table as it is after `applied` events, in enqueue order.
    pub fn rows_after(&self, applied: Position) -> Vec<&JobRow> {
        self.jobs
            .iter()
            .filter_map(|versions| version_at(versions, applied))
            .collect()
    }

    /// Each job that event `index` changed, or that it was about (a refused
    /// finish shows its row "before = after"): the row before (`None` for
    /// a new job) and after, in enqueue order.
    pub fn changes(&self, index: usize) -> Vec<(Option<&JobRow>, &JobRow)> {
        let target = self
            .frames
            .get(index)
            .and_then(|f| f.result.outcome.job_id());
        self.jobs
            .iter()
            .filter_map(|versions| {
                let after = version_at(versions, index + 1)?;
                let before = version_at(versions, index);
                let changed = before != Some(after);
                (changed || target == Some(after.id.as_str())).then_some((before, after))
            })
            .collect()
    }

    /// The receiver's ledger after `applied` events: job id -> qty.
    pub fn receiver_after(&self, applied: Position) -> BTreeMap<String, u64> {
        let mut ledger = BTreeMap::new();
        let delivered = self.deliveries.iter();
        for (_, id, qty) in delivered.take_while(|(from, _, _)| *from <= applied) {
            ledger.insert(id.clone(), *qty);
        }
        ledger
    }

    /// Adds the next event's frame. The claims held and the receiver's
    /// deliveries follow from its result, so a timeline read back from where
    /// it was written down ([`written`]) gets them as a replay does.
    fn push(&mut self, result: EventResult, sql: Vec<Executed>) {
        let after = self.frames.len() + 1;
        let mut holding = self
            .frames
            .last()
            .map_or_else(Rc::default, |frame| Rc::clone(&frame.holding));
        match &result.outcome {
            Outcome::Sent { applied: true, .. } => {
                if let Some(claim) = holding.get(&result.worker) {
                    self.deliveries.push((after, claim.id.clone(), claim.qty));
                }
            }
            Outcome::Claimed { claim: Some(claim) } => {
                let mut held = BTreeMap::clone(&holding);
                held.insert(result.worker.clone(), claim.clone());
                holding = Rc::new(held);
            }
            _ => {}
        }
        self.frames.push(Frame {
            result,
            sql,
            holding,
        });
    }

    /// Notes the rows an event changed (the store names them), holding
    /// from position `after`.
    fn read_changes(&mut self, player: &Player, after: Position) -> Result<()> {
        for id in player.take_touched() {
            if let Some(row) = player.row(&id)? {
                self.record(after, row);
            }
        }
        Ok(())
    }

    /// Adds `row` as its job's version from `after` on, unless it equals
    /// the version it would replace.
    fn record(&mut self, after: Position, row: JobRow) {
        // From the newest job back: the store names few jobs per event,
        // most often recent ones. (A list, not a map: one hash map type
        // less in the module learners download.)
        let found = self
            .jobs
            .iter()
            .rposition(|versions| versions[0].1.id == row.id);
        let job = found.unwrap_or_else(|| {
            self.jobs.push(Vec::new());
            self.jobs.len() - 1
        });
        let versions = &mut self.jobs[job];
        if versions.last().is_none_or(|(_, last)| **last != row) {
            versions.push((after, Rc::new(row)));
        }
    }
}

/// The version in force at `applied`: the last one holding from at or
/// before it.
fn version_at(versions: &[(Position, Rc<JobRow>)], applied: Position) -> Option<&JobRow> {
    let count = versions.partition_point(|(from, _)| *from <= applied);
    count.checked_sub(1).map(|last| &*versions[last].1)
}
