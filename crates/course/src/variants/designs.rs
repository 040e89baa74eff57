//! The two designs the course turns down before it builds the queue
//! ("왜 이게 필요했나"): a claim that deletes the job and leaves it only in
//! its worker's memory ([`Variant::DeleteOnClaim`]), and a claim that
//! leaves the job visible in the queue ([`Variant::LeaveVisible`]). The
//! queue's claim does neither: it keeps the row and marks it `leased` to
//! its worker until `lease_until`.
//!
//! Nothing here is told: each design plays the timeline's first events on
//! its own fresh queue, its claims run by its own statement, and what
//! became of the first job claimed is read from the table and the
//! workers' claims afterwards.

use serde::Serialize;

use super::Variant;
use super::sql::{NAIVE_CLAIM_DELETE, NAIVE_CLAIM_VISIBLE};
use leasefence::error::Result;
use leasefence::model::{Claim, JobRow, JobState};
use leasefence::replay::{Outcome, Player};
use leasefence::scenario::{Action, Scenario};
use leasefence::store::{Outside, Replaces};

/// How a claim takes its job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Design {
    /// The queue's: the row stays, `leased` to its worker (R1, R5).
    Queue,
    /// The row is deleted; only the worker's memory holds the job.
    DeleteOnClaim,
    /// The row stays `pending`: every claim may take it.
    LeaveVisible,
}

impl Design {
    /// Every design, the queue's first.
    pub const ALL: [Design; 3] = [Design::Queue, Design::DeleteOnClaim, Design::LeaveVisible];

    /// The teaching variant this design runs; `None` for the queue's.
    pub fn variant(self) -> Option<Variant> {
        match self {
            Design::Queue => None,
            Design::DeleteOnClaim => Some(Variant::DeleteOnClaim),
            Design::LeaveVisible => Some(Variant::LeaveVisible),
        }
    }

    /// Its claim statement: `None` for the queue's own.
    fn claim(self) -> Option<&'static str> {
        match self {
            Design::Queue => None,
            Design::DeleteOnClaim => Some(NAIVE_CLAIM_DELETE),
            Design::LeaveVisible => Some(NAIVE_CLAIM_VISIBLE),
        }
    }

    /// Plays `events` of `scenario` with this design's claims; `None` when
    /// what became of `job` is none of [`Fate`].
    fn run(self, scenario: &Scenario, events: usize, job: &str) -> Result<Option<Run>> {
        let outside = (self.claim())
            .map(|sql| Outside::new(Replaces::Claim, sql))
            .transpose()?;
        let mut player = Player::new(scenario.first(events))?;
        let mut took = Vec::new();
        for event in scenario.events().iter().take(events) {
            match (&outside, &event.action) {
                (Some(outside), Action::Claim { lease_ms }) => {
                    let claim = (player.queue()).claim_outside(
                        outside,
                        event.claim_owner(),
                        event.at,
                        *lease_ms,
                    )?;
                    if let Some(claim) = &claim {
                        player.hold(&event.worker, claim.clone());
                    }
                    took.push(Took::new(&event.worker, event.at, claim));
                }
                _ => {
                    if let Outcome::Claimed { claim } = player.play(event)? {
                        took.push(Took::new(&event.worker, event.at, claim));
                    }
                }
            }
        }
        // Who believes they hold the job at the last event: a claim on it
        // in memory whose lease, as the claim says it, has not ended.
        let now = took.last().map_or(0, |last: &Took| last.at);
        let holders = (took.iter())
            .filter(|took| {
                player.held_claim(&took.worker).is_some_and(|held| {
                    Some(held) == took.claim.as_ref() && held.id == job && now < held.lease_until
                })
            })
            .map(|took| took.worker.clone())
            .collect::<Vec<_>>();
        let taker = (took.iter())
            .find(|took| took.claim.as_ref().is_some_and(|claim| claim.id == job))
            .map(|took| took.worker.clone());
        let row = player.row(job)?;
        Ok(
            Fate::of(row.as_ref(), holders.len(), taker.is_some()).map(|fate| Run {
                design: self,
                fate,
                took,
                row,
                holders,
                taker,
            }),
        )
    }
}

/// One claim a design ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Took {
    /// Who claimed.
    pub worker: String,
    /// When.
    pub at: u64,
    /// What it got.
    pub claim: Option<Claim>,
}

impl Took {
    fn new(worker: &str, at: u64, claim: Option<Claim>) -> Took {
        Took {
            worker: worker.to_owned(),
            at,
            claim,
        }
    }
}

/// What one design did with the timeline's first events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Run {
    /// The design.
    pub design: Design,
    /// What became of the job.
    pub fate: Fate,
    /// Each claim and what it got, in the timeline's order.
    pub took: Vec<Took>,
    /// The job's row afterwards; `None` when the table no longer has it.
    pub row: Option<JobRow>,
    /// The workers who believe they hold the job after the last claim
    /// (their claim on it in memory, its lease not ended), in the order
    /// they claimed.
    pub holders: Vec<String>,
    /// The first worker whose claim took the job, whatever its lease: the
    /// one whose memory holds a deleted job.
    pub taker: Option<String>,
}

/// What became of the job, by one design.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// The table keeps it, `leased` to the one worker who holds it: if
    /// that worker stops, the row is still there to be claimed again
    /// once its lease ends.
    Kept,
    /// The table keeps it `pending`: nothing in it says a worker has it.
    Open,
    /// The table no longer has it: only a worker's memory does.
    Lost,
    /// More than one worker holds it at once.
    Shared,
}

impl Fate {
    /// Its name, as serialised: `kept`, `open`, `lost` or `shared`.
    pub fn name(self) -> &'static str {
        match self {
            Fate::Kept => "kept",
            Fate::Open => "open",
            Fate::Lost => "lost",
            Fate::Shared => "shared",
        }
    }

    /// What became of a job whose row is `row`, held by `holders`
    /// workers, `taken` by a claim; `None` for a state none of these
    /// describes (a job nobody took, a leased or pending row nobody
    /// holds).
    fn of(row: Option<&JobRow>, holders: usize, taken: bool) -> Option<Fate> {
        match (row.map(|row| row.state), holders) {
            (None, _) if taken => Some(Fate::Lost),
            (Some(_), 2..) => Some(Fate::Shared),
            (Some(JobState::Pending), 1) => Some(Fate::Open),
            (Some(JobState::Leased), 1) => Some(Fate::Kept),
            _ => None,
        }
    }

    /// Whether this is what the queue's claim gives: the job kept in the
    /// table, leased to one worker.
    pub fn as_the_rules_give(self) -> bool {
        self == Fate::Kept
    }
}

/// The timeline's first events played by every design.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Designs {
    /// The job the first claim took (by the queue's own claim).
    pub job: String,
    /// What each design did, the queue's first.
    pub runs: Vec<Run>,
}

impl Designs {
    /// The first `events` events of `scenario` played by each design;
    /// `None` unless they are all claims (the designs differ in the claim
    /// only), one of them takes a job, and a [`Fate`] says what became of
    /// it by every design.
    pub fn at(scenario: &Scenario, events: usize) -> Result<Option<Designs>> {
        let prefix = scenario.events().iter().take(events);
        if !prefix
            .clone()
            .all(|event| matches!(event.action, Action::Claim { .. }))
        {
            return Ok(None);
        }
        let mut player = Player::new(scenario.first(events))?;
        let mut job = None;
        while let Some(result) = player.step()? {
            if let Outcome::Claimed { claim: Some(claim) } = result.outcome {
                job = Some(claim.id);
                break;
            }
        }
        let Some(job) = job else {
            return Ok(None);
        };
        let runs: Option<Vec<Run>> = (Design::ALL.into_iter())
            .map(|design| design.run(scenario, events, &job))
            .collect::<Result<_>>()?;
        Ok(runs.map(|runs| Designs { job, runs }))
    }
}
