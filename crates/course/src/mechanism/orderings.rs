//! Every ordering: the interleavings of a scenario's actors, each replayed
//! with the fence on and off, and counted by the invariants it breaks.
//!
//! One timeline is one way a run could go. The actors of a real system
//! do not agree on an order, so the question a queue must answer is
//! whether *any* order goes wrong. This module enumerates them all for a
//! small scenario and returns, for each side, how many orderings broke
//! each invariant ([`super::invariants`]) and the shortest failing one,
//! as a [`Scenario`] the page can open as a timeline.
//!
//! **What an ordering is.** The actors are the scenario's distinct
//! `worker`s (the producer is one). An ordering keeps each actor's own
//! events in their order and interleaves the actors in every possible way.
//!
//! **How times are assigned.** The scenario's instants stay where they
//! are; the actors move between them: the k-th event of an ordering takes
//! the k-th time of the scenario (its times sorted, as the scenario keeps
//! them). So every ordering runs on the same clock ticks, the boundary
//! instants the author wrote (a lease's end, the millisecond after) are
//! kept, and what varies is who acts at each tick. Events at equal times
//! are simply two ticks of the same instant, and swap like any others.
//! The scenario's own order is one of the orderings.
//!
//! **The bound.** At most [`MAX_EVENTS`] events and [`MAX_ACTORS`] actors:
//! at most 8!/(2!·2!·2!·2!) = 2,520 orderings, each replayed on every
//! side of [`sides`] (fenced, the two naive finishes, and the receiver
//! without its ledger when the scenario sends). Larger scenarios are refused
//! with [`Refusal::TooManyEvents`] or [`Refusal::TooManyActors`] before
//! anything runs; [`within_bound`] cuts one to the prefix the census can
//! count.
//!
//! **How it is counted.** Not one ordering at a time: the orderings are
//! walked as a tree, shared prefixes played once and equal states counted
//! once (`tree.rs`), with exactly the counts and the shortest failing
//! ordering of replaying each ordering on its own (`tests/orderings.rs`
//! holds both to the same result).
//!
//! **The shortest failing ordering** is the failing ordering cut right
//! after its first broken step, the shortest such cut over all orderings
//! (the first in enumeration order among equals).

use serde::{Serialize, Serializer};

use super::Refusal;
use super::invariants::{Broken, Invariant, Side};
use super::tree;
use crate::variants::Guard;
use leasefence::error::Result;
use leasefence::replay::Player;
use leasefence::scenario::{Event, Scenario};

/// The most events whose orderings are enumerated.
pub const MAX_EVENTS: usize = 8;
/// The most actors whose orderings are enumerated.
pub const MAX_ACTORS: usize = 4;

/// The sides every ordering of `scenario` is replayed on: the real
/// system, each naive finish, and, when the scenario sends anything, the
/// receiver without its ledger ([`Side::applies_to`]).
pub fn sides(scenario: &Scenario) -> Vec<Side> {
    [
        Side::Fenced,
        Side::Unfenced(Guard::IdOnly),
        Side::Unfenced(Guard::IdAndOwner),
        Side::ReceiverWithoutLedger,
    ]
    .into_iter()
    .filter(|side| side.applies_to(scenario))
    .collect()
}

/// A failing ordering, cut after the step where it first broke.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Failing {
    /// The ordering up to and including that step, as a scenario.
    #[serde(serialize_with = "as_document")]
    pub scenario: Scenario,
    /// What broke at its last step.
    pub broken: Vec<Broken>,
}

/// A scenario as its JSON document (the lab's counterexample is one too).
pub(crate) fn as_document<S: Serializer>(scenario: &Scenario, out: S) -> Result<S::Ok, S::Error> {
    let document: serde_json::Value =
        serde_json::from_str(&scenario.to_json()).map_err(serde::ser::Error::custom)?;
    document.serialize(out)
}

/// One side's counts over every ordering.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Which queue.
    pub side: Side,
    /// Orderings where any invariant broke.
    pub bad: usize,
    /// Orderings where a finish with a stale token was accepted.
    pub stale_finish: usize,
    /// Orderings where the receiver applied a job twice.
    pub applied_twice: usize,
    /// Orderings where two workers held a valid lease on one job at once.
    pub two_holders: usize,
    /// Orderings where a token went down or was handed out again.
    pub token_reused: usize,
    /// The shortest failing ordering, if any failed.
    pub shortest: Option<Failing>,
}

/// Every ordering of a scenario, counted on each side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Census {
    /// The actors, in order of their first event.
    pub actors: Vec<String>,
    /// How many orderings there are.
    pub orderings: usize,
    /// One tally per side of [`sides`], in that order.
    pub sides: Vec<Tally>,
}

/// The scenario's actors and each one's events (indices), in order of
/// first appearance; refused when over the bound.
pub fn lanes(scenario: &Scenario) -> Result<Vec<(String, Vec<usize>)>, Refusal> {
    let events = scenario.events().len();
    if events > MAX_EVENTS {
        return Err(Refusal::TooManyEvents {
            got: events,
            max: MAX_EVENTS,
        });
    }
    let mut lanes: Vec<(String, Vec<usize>)> = Vec::new();
    for (index, event) in scenario.events().iter().enumerate() {
        match lanes.iter_mut().find(|(worker, _)| *worker == event.worker) {
            Some((_, mine)) => mine.push(index),
            None => lanes.push((event.worker.clone(), vec![index])),
        }
    }
    if lanes.len() > MAX_ACTORS {
        return Err(Refusal::TooManyActors {
            got: lanes.len(),
            max: MAX_ACTORS,
        });
    }
    Ok(lanes)
}

/// What the census of a scenario over the bound covers: its longest
/// prefix (its first events, in its own order) of at most [`MAX_EVENTS`]
/// events by at most [`MAX_ACTORS`] actors, with all its jobs. A scenario
/// within the bound is returned whole. So every chapter gets counts: a
/// longer one is counted on the start of its story, and the caller says
/// how many of its events that is (COURSE.md).
pub fn within_bound(scenario: &Scenario) -> Scenario {
    let mut actors: Vec<&str> = Vec::new();
    let mut taken = 0;
    for event in scenario.events().iter().take(MAX_EVENTS) {
        if !actors.contains(&event.worker.as_str()) {
            if actors.len() == MAX_ACTORS {
                break;
            }
            actors.push(&event.worker);
        }
        taken += 1;
    }
    scenario.first(taken)
}

/// Every interleaving of `lanes` keeping each lane's order: event indices,
/// in enumeration order (the first lane's event first where possible).
pub fn interleavings(lanes: &[Vec<usize>]) -> Vec<Vec<usize>> {
    fn extend(
        lanes: &[Vec<usize>],
        taken: &mut [usize],
        prefix: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if lanes
            .iter()
            .zip(taken.iter())
            .all(|(lane, &t)| t == lane.len())
        {
            out.push(prefix.clone());
            return;
        }
        for lane in 0..lanes.len() {
            if let Some(&event) = lanes[lane].get(taken[lane]) {
                taken[lane] += 1;
                prefix.push(event);
                extend(lanes, taken, prefix, out);
                prefix.pop();
                taken[lane] -= 1;
            }
        }
    }
    let mut out = Vec::new();
    extend(lanes, &mut vec![0; lanes.len()], &mut Vec::new(), &mut out);
    out
}

/// The scenario of one ordering: its events in that order, the k-th at
/// the scenario's k-th time.
pub fn ordered(scenario: &Scenario, order: &[usize]) -> Result<Scenario> {
    let events = order
        .iter()
        .zip(scenario.events())
        .map(|(&index, slot)| Event {
            at: slot.at,
            ..scenario.events()[index].clone()
        })
        .collect();
    Scenario::new(scenario.jobs().to_vec(), events)
}

/// Enumerates every ordering of `scenario` and replays each on every side
/// of [`sides`]. The orderings are walked as a tree (see `tree.rs`):
/// shared prefixes are played once and equal states counted once, with
/// the counts and the shortest failing ordering of replaying each
/// ordering on its own.
pub fn census(scenario: &Scenario) -> Result<Census, Refusal> {
    let lanes = lanes(scenario)?;
    let (actors, events): (Vec<String>, Vec<Vec<usize>>) = lanes.into_iter().unzip();
    let mut player = Player::new(scenario.first(0))?;
    let mut tallies = Vec::new();
    let mut orderings = 0;
    for side in sides(scenario) {
        let subtree = tree::count(scenario, &events, side, &mut player)?;
        orderings = subtree.by_kinds.iter().sum();
        tallies.push(tally(scenario, side, subtree)?);
    }
    Ok(Census {
        actors,
        orderings,
        sides: tallies,
    })
}

/// One side's counts from the summary of the whole tree.
fn tally(scenario: &Scenario, side: Side, tree: tree::Subtree) -> Result<Tally> {
    let with = |invariant| {
        let bit = tree::bit(invariant);
        (tree.by_kinds.iter().enumerate())
            .filter(|(kinds, _)| kinds & bit != 0)
            .map(|(_, count)| count)
            .sum()
    };
    Ok(Tally {
        side,
        bad: tree.by_kinds[1..].iter().sum(),
        stale_finish: with(Invariant::FinishPresentedCurrentToken),
        applied_twice: with(Invariant::AppliedOnce),
        two_holders: with(Invariant::OneValidHolder),
        token_reused: with(Invariant::TokensOnlyGrow),
        shortest: match tree.shortest {
            Some((cut, broken)) => Some(Failing {
                scenario: ordered(scenario, &cut)?,
                broken,
            }),
            None => None,
        },
    })
}
