//! Grading a learner's statement: every scenario, every ordering, the
//! reference queue and the learner's side by side, event by event.

use serde::Serialize;

use super::{Interleaving, Level, Writes, races, scenarios};
use std::collections::BTreeMap;

use crate::mechanism::orderings::{as_document, lanes};
use leasefence::error::{Error, Problem, Result};
use leasefence::model::{Claim, JobRow};
use leasefence::replay::{Outcome, Player};
use leasefence::scenario::{Action, Event, Scenario};
use leasefence::store::{Outside, Replaces};

/// What a grading went through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Checked {
    /// Scenarios: every chapter's and the lab's own.
    pub scenarios: usize,
    /// Orderings of their actors, all scenarios together.
    pub orderings: usize,
}

/// What one side shows after one event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Observed {
    /// What the event came to.
    pub did: Did,
    /// The table after the event.
    pub rows: Vec<JobRow>,
}

/// What an event came to, on one side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Did {
    /// A finish: whether it took effect.
    Finish {
        /// Whether it took effect.
        accepted: bool,
    },
    /// A claim: what its worker got (`None`: nothing).
    Claim {
        /// The claim, as its worker holds it.
        claim: Option<Claim>,
    },
    /// Any other event (a send, an enqueue).
    Other,
}

/// The first place where the learner's queue and the reference differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Disagreement {
    /// The scenario the ordering came from (a chapter's id or the lab's).
    pub from: &'static str,
    /// The ordering, cut after the event where they differ: a timeline
    /// the learner can step.
    #[serde(serialize_with = "as_document")]
    pub scenario: Scenario,
    /// The index of that event (the last of `scenario`).
    pub event: usize,
    /// What the reference queue did there.
    pub expected: Observed,
    /// What the learner's statement did, or why SQLite stopped it.
    pub current: Current,
}

/// What the learner's side did at the event where the two differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Current {
    /// It ran, with this outcome.
    Observed(Observed),
    /// SQLite stopped the statement (a failed `CHECK`, too much work); in
    /// JSON, the problem's English sentence.
    Stopped(#[serde(serialize_with = "sentence")] Problem),
}

/// A problem as its English sentence (the command line's words).
pub(super) fn sentence<S: serde::Serializer>(
    problem: &Problem,
    out: S,
) -> std::result::Result<S::Ok, S::Error> {
    out.collect_str(problem)
}

/// A grading's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Graded {
    /// Every ordering agreed with the reference.
    Passed {
        /// What was checked.
        checked: Checked,
    },
    /// Some ordering did not; the shortest such.
    Failed {
        /// What was checked.
        checked: Checked,
        /// The shortest disagreement (fewest events or steps, then the
        /// first found); boxed, as a pass carries none.
        shortest: Box<Shortest>,
    },
}

/// The shortest way a learner's version parts from the reference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Shortest {
    /// A statement's: an ordering of a scenario's events.
    Events(Disagreement),
    /// A claim script's: an interleaving of two claims' statements.
    Statements(Interleaving),
}

impl Graded {
    /// Whether the statement passed.
    pub fn passed(&self) -> bool {
        matches!(self, Graded::Passed { .. })
    }
}

/// Grades `sql`, what the learner wrote for `level`: a statement on
/// `chapters` (each chapter's id and scenario JSON: the course's,
/// `playground::chapter_scenarios`) and the lab's own scenarios; a claim
/// script on the lab's races ([`races`]). Refused before any playing when
/// the seam refuses it (more than one statement, a parameter the queue
/// does not bind, a table other than `jobs`, SQLite's syntax error:
/// [`Outside::new`], [`leasefence::store::Script::new`]).
pub fn grade(
    level: &Level,
    sql: &str,
    chapters: &[(&'static str, &'static str)],
) -> Result<Graded> {
    match level.writes {
        Writes::Statement(replaces) => statement(replaces, sql, chapters),
        Writes::ClaimScript => races::grade(sql),
    }
}

/// Grades a statement in place of one of the queue's.
fn statement(
    replaces: Replaces,
    sql: &str,
    chapters: &[(&'static str, &'static str)],
) -> Result<Graded> {
    let outside = Outside::new(replaces, sql)?;
    let mut checked = Checked {
        scenarios: 0,
        orderings: 0,
    };
    let mut shortest: Option<Disagreement> = None;
    for (from, scenario) in scenarios::all(chapters) {
        checked.scenarios += 1;
        // Within the bound by construction (`scenarios::all`).
        let lanes: Vec<Vec<usize>> = lanes(&scenario)
            .map_err(|refusal| Error::Internal {
                what: format!("the lab's scenario {from}: {refusal}"),
            })?
            .into_iter()
            .map(|(_, events)| events)
            .collect();
        checked.orderings += orderings(&lanes);
        let start = scenario.first(0);
        let mut walk = Walk {
            from,
            scenario: &scenario,
            lanes: &lanes,
            outside: &outside,
            reference: Player::new(start.clone())?,
            learner: Player::new(start)?,
            played: Vec::new(),
            shortest: shortest.take(),
        };
        walk.below(&mut vec![0; lanes.len()])?;
        shortest = walk.shortest;
    }
    Ok(match shortest {
        None => Graded::Passed { checked },
        Some(shortest) => Graded::Failed {
            checked,
            shortest: Box::new(Shortest::Events(shortest)),
        },
    })
}

/// How many orderings `lanes` have: the multinomial coefficient of their
/// lengths (each actor's events keep their order).
fn orderings(lanes: &[Vec<usize>]) -> usize {
    let mut count = 1;
    let mut placed = 0;
    for lane in lanes {
        for k in 1..=lane.len() {
            placed += 1;
            count = count * placed / k;
        }
    }
    count
}

/// The orderings of one scenario, walked depth first on both queues at
/// once: a shared prefix is played once, and the walk goes back (the
/// changed rows put back, the deliveries taken back) to try the next
/// branch, as the census does. A branch stops at its first disagreement,
/// and no branch goes as deep as the shortest one known.
struct Walk<'a> {
    from: &'static str,
    scenario: &'a Scenario,
    lanes: &'a [Vec<usize>],
    outside: &'a Outside,
    reference: Player,
    learner: Player,
    /// The events of the current branch, each at its slot's time.
    played: Vec<Event>,
    shortest: Option<Disagreement>,
}

/// What a player goes back to: the claims held, the table, the ids
/// delivered.
type Point = (BTreeMap<String, Claim>, Vec<JobRow>, Vec<String>);

impl Walk<'_> {
    /// Every branch below the events played, `taken` of each lane.
    fn below(&mut self, taken: &mut [usize]) -> Result<()> {
        let depth = self.played.len();
        let here = (point(&self.reference)?, point(&self.learner)?);
        for lane in 0..self.lanes.len() {
            let Some(&index) = self.lanes[lane].get(taken[lane]) else {
                continue;
            };
            if (self.shortest.as_ref()).is_some_and(|known| depth >= known.event) {
                return Ok(()); // nothing shorter below here
            }
            let event = Event {
                at: self.scenario.events()[depth].at,
                ..self.scenario.events()[index].clone()
            };
            self.played.push(event.clone());
            let expected = on_reference(&mut self.reference, &event)?;
            let current = on_learner(&mut self.learner, self.outside, &event)?;
            if current == Current::Observed(expected.clone()) {
                taken[lane] += 1;
                self.below(taken)?;
                taken[lane] -= 1;
            } else {
                self.shortest = Some(Disagreement {
                    from: self.from,
                    scenario: Scenario::new(self.scenario.jobs().to_vec(), self.played.clone())?,
                    event: depth,
                    expected,
                    current,
                });
                self.played.pop();
                go_back(&mut self.reference, &here.0)?;
                // The learner's statement may have changed what going back
                // does not put back (a row deleted or renamed, its deadline
                // moved): their queue is played again up to here instead.
                self.learner = self.learner_at_start()?;
                for event in self.played.clone() {
                    on_learner(&mut self.learner, self.outside, &event)?;
                }
                continue;
            }
            self.played.pop();
            go_back(&mut self.reference, &here.0)?;
            go_back(&mut self.learner, &here.1)?;
        }
        Ok(())
    }

    /// A fresh player for the learner's side, at the scenario's start.
    fn learner_at_start(&self) -> Result<Player> {
        Player::new(self.scenario.first(0))
    }
}

fn point(player: &Player) -> Result<Point> {
    let delivered = player.receiver()?.into_keys().collect();
    Ok((player.held_claims().clone(), player.rows()?, delivered))
}

fn go_back(player: &mut Player, (claims, rows, delivered): &Point) -> Result<()> {
    let since: Vec<String> = (player.receiver()?.into_keys())
        .filter(|id| !delivered.contains(id))
        .collect();
    let now = player.rows()?;
    player.go_back(claims, (&now, rows), &since)
}

/// `event` on the reference queue.
fn on_reference(player: &mut Player, event: &Event) -> Result<Observed> {
    let did = match player.play(event)? {
        Outcome::Finished(finish) => Did::Finish {
            accepted: finish.accepted(),
        },
        Outcome::Claimed { claim } => Did::Claim { claim },
        _ => Did::Other,
    };
    Ok(Observed {
        did,
        rows: player.rows()?,
    })
}

/// `event` with the learner's statement in place of the queue's: the
/// event it stands in for runs it (a finish by a worker holding no claim
/// presents nothing, as on the reference); every other event is the
/// queue's own.
fn on_learner(player: &mut Player, outside: &Outside, event: &Event) -> Result<Current> {
    let ran = match (&event.action, outside.replaces()) {
        (Action::Finish, Replaces::Finish) => match player.held_claim(&event.worker).cloned() {
            Some(claim) => player
                .queue()
                .finish_outside(outside, &claim.stamp(), event.at)
                .map(|(accepted, _row)| Did::Finish { accepted }),
            None => Ok(Did::Finish { accepted: false }),
        },
        (Action::Claim { lease_ms }, Replaces::Claim) => {
            let owner = event.claim_owner();
            match (player.queue()).claim_outside(outside, owner, event.at, *lease_ms) {
                Ok(claim) => {
                    if let Some(claim) = &claim {
                        player.hold(&event.worker, claim.clone());
                    }
                    Ok(Did::Claim { claim })
                }
                Err(err) => Err(err),
            }
        }
        _ => return Ok(Current::Observed(on_reference(player, event)?)),
    };
    match ran {
        Ok(did) => Ok(Current::Observed(Observed {
            did,
            rows: player.rows()?,
        })),
        Err(Error::InvalidInput { problem, .. }) => Ok(Current::Stopped(problem)),
        Err(other) => Err(other),
    }
}
