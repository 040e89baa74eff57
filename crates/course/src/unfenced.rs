//! Teaching only: what goes wrong without the fencing token.
//!
//! The playground replays a scenario twice, side by side: once on the real
//! queue, once on a queue whose finish is deliberately naive. With the
//! id-only finish, A's late "done" lands on B's claim; with id + owner, a
//! worker restarted under the same name passes with its stale claim. These
//! finishes exist to be looked at; they are not part of [`leasefence::Queue`].

use serde::Serialize;

pub use crate::variants::Guard;
use leasefence::error::Result;
use leasefence::model::JobRow;
use leasefence::replay::Player;
use leasefence::scenario::{Action, Event, Scenario};

/// One finish, as the naive queue took it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NaiveFinish {
    /// Index of the finish event.
    pub event: usize,
    /// Whether the naive guard let it through.
    pub accepted: bool,
    /// The row after it.
    pub current: Option<JobRow>,
}

/// The naive replay: its finishes and its final table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NaiveReplay {
    /// The guard used.
    pub guard: Guard,
    /// One entry per finish event.
    pub finishes: Vec<NaiveFinish>,
    /// The table at the end.
    pub rows: Vec<JobRow>,
}

/// Replays `scenario` with claims as usual but every finish run through the
/// naive `guard`.
pub fn replay(scenario: &Scenario, guard: Guard) -> Result<NaiveReplay> {
    // Claims, sends and enqueues behave exactly as on the real queue; only
    // finishes differ, so the player runs everything except finish events,
    // which are applied here through the naive statement.
    let mut player = Player::new(scenario.first(0))?;
    let mut finishes = Vec::new();
    for (index, event) in scenario.events().iter().enumerate() {
        if let Some(finish) = apply(&mut player, guard, index, event)? {
            finishes.push(finish);
        }
    }
    Ok(NaiveReplay {
        guard,
        finishes,
        rows: player.rows()?,
    })
}

/// Applies event `index` to `player` the naive way: a finish through
/// `guard` (its verdict returned), anything else as the real queue does.
pub(crate) fn apply(
    player: &mut Player,
    guard: Guard,
    index: usize,
    event: &Event,
) -> Result<Option<NaiveFinish>> {
    if event.action != Action::Finish {
        player.play(event)?;
        return Ok(None);
    }
    let Some(claim) = player.held_claim(&event.worker).cloned() else {
        return Ok(Some(NaiveFinish {
            event: index,
            accepted: false,
            current: None,
        }));
    };
    let (accepted, current) = guard.finish(player.queue(), &claim.stamp(), event.at)?;
    Ok(Some(NaiveFinish {
        event: index,
        accepted,
        current,
    }))
}
