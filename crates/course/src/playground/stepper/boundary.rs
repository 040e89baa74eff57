//! The boundary panel's part of the stepper: which finish the sliders move,
//! how far they reach, and the learner's timeline each move makes.

use super::{Ranges, Stepper};
use crate::timeline::Timeline;
use leasefence::error::Result;
use leasefence::model::MAX_INT;
use leasefence::replay::Outcome;
use leasefence::scenario::{Action, Scenario};

/// The claim a boundary finish presents, as the lease slider shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lease {
    /// The claim's event index.
    pub event: usize,
    /// When it was made.
    pub at: u64,
    /// The lease it asked for.
    pub lease_ms: u64,
    /// Where the lease ends: `at + lease_ms`, or the job's deadline if
    /// that comes first (R9).
    pub lease_until: u64,
}

impl Stepper {
    /// Ranges with room on both sides of the lesson: the finish up to half
    /// a second past the last event or lease end; a lease up to twice the
    /// time from its claim to the last event (or twice itself).
    pub(super) fn measure_ranges(&self) -> Ranges {
        let last_at = self.scenario.events().last().map_or(0, |event| event.at);
        let lease_ends =
            self.timeline
                .frames
                .iter()
                .filter_map(|frame| match &frame.result.outcome {
                    Outcome::Claimed { claim: Some(claim) } => Some(claim.lease_until),
                    _ => None,
                });
        let lease_max = self.lease().map(|lease| {
            last_at
                .saturating_sub(lease.at)
                .max(lease.lease_ms)
                .saturating_mul(2)
        });
        Ranges {
            finish_max: lease_ends
                .max()
                .unwrap_or(0)
                .max(last_at)
                .saturating_add(500)
                .min(MAX_INT),
            lease_max: lease_max.unwrap_or(0).clamp(10, MAX_INT),
        }
    }

    /// Moves the boundary finish to `at`, re-sorting it among the events
    /// by time, and stands just after it: the learner sees its verdict. The
    /// timeline is now the learner's own ([`SANDBOX`]).
    pub fn move_finish(&mut self, at: u64) -> Result<()> {
        let Some(index) = self.boundary_event else {
            return Ok(());
        };
        let mut events = self.scenario.events().to_vec();
        let mut event = events.remove(index);
        event.at = at;
        let new_index = events.partition_point(|other| other.at <= at);
        events.insert(new_index, event);
        self.fork(
            Scenario::new(self.scenario.jobs().to_vec(), events)?,
            new_index,
        )
    }

    /// The claim whose stamp the boundary finish presents: the last claim
    /// its worker received before it. `None` when that worker got none.
    pub fn lease(&self) -> Option<Lease> {
        let finish = self.boundary_event?;
        let worker = &self.scenario.events().get(finish)?.worker;
        (0..finish).rev().find_map(|index| {
            let event = &self.scenario.events()[index];
            let outcome = &self.timeline.frames.get(index)?.result.outcome;
            match (&event.action, outcome) {
                (Action::Claim { lease_ms }, Outcome::Claimed { claim: Some(claim) })
                    if event.worker == *worker =>
                {
                    Some(Lease {
                        event: index,
                        at: event.at,
                        lease_ms: *lease_ms,
                        lease_until: claim.lease_until,
                    })
                }
                _ => None,
            }
        })
    }

    /// Gives the [`lease`](Self::lease) claim a lease of `lease_ms` and
    /// stands just after the boundary finish: the learner sees whether a
    /// longer lease would have saved it (and what else it changes: a
    /// reclaim that now finds nothing). The timeline is now the learner's
    /// own ([`SANDBOX`]).
    pub fn set_lease(&mut self, lease_ms: u64) -> Result<()> {
        let (Some(lease), Some(finish)) = (self.lease(), self.boundary_event) else {
            return Ok(());
        };
        leasefence::model::check_int("lease_ms", lease_ms, 1)?;
        let mut events = self.scenario.events().to_vec();
        if let Action::Claim { lease_ms: asked } = &mut events[lease.event].action {
            *asked = lease_ms;
        }
        self.fork(
            Scenario::new(self.scenario.jobs().to_vec(), events)?,
            finish,
        )
    }
}

/// The finish a timeline's lesson turns on (see [`Stepper::new`]).
pub(super) fn lesson_finish(timeline: &Timeline) -> Option<usize> {
    let finishes = || {
        timeline
            .frames
            .iter()
            .enumerate()
            .filter_map(|(index, frame)| match &frame.result.outcome {
                Outcome::Finished(finish) => Some((index, finish)),
                _ => None,
            })
    };
    let with_claim = |finish: &&leasefence::Finish| finish.verdict != leasefence::Verdict::NoClaim;
    finishes()
        .rfind(|(_, finish)| with_claim(finish) && !finish.accepted())
        .or_else(|| finishes().rfind(|(_, finish)| with_claim(finish)))
        .or_else(|| finishes().next_back())
        .map(|(index, _)| index)
}
