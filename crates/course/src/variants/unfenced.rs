//! A scenario played on a queue whose finish is unfenced: what goes wrong
//! without the fencing token.
//!
//! The comparison shows a scenario twice, side by side: its replay on the
//! real queue, and its playing here, on a queue whose finish is
//! deliberately naive ([`Guard`]). With the
//! id-only finish, A's late "done" lands on B's claim; with id + owner, a
//! worker restarted under the same name passes with its stale claim. These
//! finishes exist to be looked at; they are not part of [`leasefence::Queue`].

use serde::Serialize;

use super::Guard;
use leasefence::error::Result;
use leasefence::model::JobRow;
use leasefence::replay::Player;
use leasefence::scenario::{Action, Event, Scenario};

/// One finish, as the unfenced queue took it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnfencedFinish {
    /// Index of the finish event.
    pub event: usize,
    /// Whether the naive guard let it through.
    pub accepted: bool,
    /// The row after it.
    pub current: Option<JobRow>,
}

/// A scenario played with an unfenced finish: its finishes and its final
/// table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unfenced {
    /// The guard used.
    pub guard: Guard,
    /// One entry per finish event.
    pub finishes: Vec<UnfencedFinish>,
    /// The table at the end.
    pub rows: Vec<JobRow>,
}

/// Plays `scenario` with claims as usual but every finish run through the
/// naive `guard`.
pub fn play(scenario: &Scenario, guard: Guard) -> Result<Unfenced> {
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
    Ok(Unfenced {
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
) -> Result<Option<UnfencedFinish>> {
    if event.action != Action::Finish {
        player.play(event)?;
        return Ok(None);
    }
    let Some(claim) = player.held_claim(&event.worker).cloned() else {
        return Ok(Some(UnfencedFinish {
            event: index,
            accepted: false,
            current: None,
        }));
    };
    let (accepted, current) = guard.finish(player.queue(), &claim.stamp(), event.at)?;
    Ok(Some(UnfencedFinish {
        event: index,
        accepted,
        current,
    }))
}
