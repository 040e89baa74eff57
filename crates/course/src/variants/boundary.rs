//! The lease's one boundary read three ways, at the instant a lease ends
//! (the course: "두 조건을 다르게 해석하면 같은 순간 두 사람이 유효하다고
//! 생각하거나, 아무도 맡지 못하는 빈틈이 생깁니다").
//!
//! R5 reads `lease_until` once: the holder's finish needs
//! `:now < lease_until`, and a claim may take the job once `lease_until
//! <= :now`. So at every instant exactly one of the two may act. Read
//! either side another way and the instant the lease ends changes: with
//! the finish's `<=` ([`Variant::FinishAtLeaseEnd`]) both may act, two
//! valid holders; with the claim's `<` ([`Variant::ClaimAfterLeaseEnd`])
//! neither may, a gap.
//!
//! Nothing here is told: each reading runs its finish for the holder and
//! its claim for the claimant, each on the table as it stood just before
//! that instant, and the verdict is counted from what they did.

use serde::Serialize;

use super::Variant;
use super::sql::{
    CLAIM_AFTER_LEASE_END_FREE, FINISH_AT_LEASE_END_BOUNDARY, NAIVE_CLAIM_AFTER_LEASE_END,
    NAIVE_FINISH_AT_LEASE_END,
};
use leasefence::error::Result;
use leasefence::model::Claim;
use leasefence::replay::{Outcome, Player};
use leasefence::scenario::{Action, Scenario};
use leasefence::store::{Outside, Replaces};
use leasefence::{ClaimCondition, Condition};

/// How the finish and the claim read the lease's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reading {
    /// The queue's: one boundary, read the same way by both (R5).
    Queue,
    /// The finish reads it with `<=`: still valid at `lease_until`.
    FinishAtLeaseEnd,
    /// The claim reads it with `<`: free only after `lease_until`.
    ClaimAfterLeaseEnd,
}

impl Reading {
    /// Every reading, the queue's first.
    pub const ALL: [Reading; 3] = [
        Reading::Queue,
        Reading::FinishAtLeaseEnd,
        Reading::ClaimAfterLeaseEnd,
    ];

    /// The teaching variant this reading runs; `None` for the queue's.
    pub fn variant(self) -> Option<Variant> {
        match self {
            Reading::Queue => None,
            Reading::FinishAtLeaseEnd => Some(Variant::FinishAtLeaseEnd),
            Reading::ClaimAfterLeaseEnd => Some(Variant::ClaimAfterLeaseEnd),
        }
    }

    /// How its finish reads the lease's end, as its statement says it.
    pub fn finish_condition(self) -> &'static str {
        match self {
            Reading::FinishAtLeaseEnd => FINISH_AT_LEASE_END_BOUNDARY,
            Reading::Queue | Reading::ClaimAfterLeaseEnd => Condition::LeaseUntil.sql(),
        }
    }

    /// Which leased rows its claim takes as free, as its statement says it.
    pub fn claim_condition(self) -> &'static str {
        match self {
            Reading::ClaimAfterLeaseEnd => CLAIM_AFTER_LEASE_END_FREE,
            Reading::Queue | Reading::FinishAtLeaseEnd => ClaimCondition::Free.sql(),
        }
    }

    /// Whether `holder`'s finish at `now` takes effect.
    fn finish(self, player: &Player, holder: &Claim, now: u64) -> Result<bool> {
        let queue = player.queue();
        Ok(match self {
            Reading::FinishAtLeaseEnd => {
                queue
                    .finish_with(NAIVE_FINISH_AT_LEASE_END, &holder.stamp(), now)?
                    .0
            }
            Reading::Queue | Reading::ClaimAfterLeaseEnd => {
                queue.finish(&holder.stamp(), now)?.accepted()
            }
        })
    }

    /// What a claim by `owner` at `now` takes.
    fn claim(self, player: &Player, owner: &str, now: u64, lease_ms: u64) -> Result<Option<Claim>> {
        let queue = player.queue();
        match self {
            Reading::ClaimAfterLeaseEnd => {
                let claim = Outside::new(Replaces::Claim, NAIVE_CLAIM_AFTER_LEASE_END)?;
                queue.claim_outside(&claim, owner, now, lease_ms)
            }
            Reading::Queue | Reading::FinishAtLeaseEnd => queue.claim(owner, now, lease_ms),
        }
    }
}

/// An instant where one worker's lease ends and another claims its job,
/// read every way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Boundary {
    /// The instant: the holder's `lease_until`, the claim's `at`.
    pub at: u64,
    /// The job.
    pub job: String,
    /// The worker whose lease ends then.
    pub holder: String,
    /// The worker who claims then.
    pub claimant: String,
    /// What each reading does there, the queue's first.
    pub readings: Vec<Read>,
}

/// What one reading does at the instant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Read {
    /// The reading.
    pub reading: Reading,
    /// Whether the holder's finish takes effect.
    pub finished: bool,
    /// What the claimant's claim takes.
    pub claimed: Option<Claim>,
    /// The workers that may work on the job by this reading: the holder
    /// if its finish takes effect, the claimant if its claim takes the
    /// job.
    pub holders: Vec<String>,
    /// How many: one, two or none.
    pub count: Holders,
}

/// Who may work on the job at the instant, by one reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Holders {
    /// Exactly one worker: the boundary as R5 reads it.
    One,
    /// Both: two workers hold valid leases at once.
    Two,
    /// Neither: nobody may take the job, a gap.
    Gap,
}

impl Holders {
    /// Its name, as serialised: `one`, `two` or `gap`.
    pub fn name(self) -> &'static str {
        match self {
            Holders::One => "one",
            Holders::Two => "two",
            Holders::Gap => "gap",
        }
    }

    /// How many of `holders` there are.
    fn of(holders: &[String]) -> Holders {
        match holders.len() {
            0 => Holders::Gap,
            1 => Holders::One,
            _ => Holders::Two,
        }
    }

    /// Whether this is what R5's one boundary gives: exactly one worker.
    pub fn as_the_rules_give(self) -> bool {
        self == Holders::One
    }
}

impl Read {
    /// What `reading` did, for `holder`'s and `claimant`'s sake on `job`.
    fn new(
        reading: Reading,
        finished: bool,
        claimed: Option<Claim>,
        (holder, claimant, job): (&str, &str, &str),
    ) -> Read {
        let took = (claimed.as_ref()).is_some_and(|claim| claim.id == job);
        let holders: Vec<String> = [(finished, holder), (took, claimant)]
            .into_iter()
            .filter(|(may, _)| *may)
            .map(|(_, worker)| worker.to_owned())
            .collect();
        Read {
            reading,
            finished,
            claimed,
            count: Holders::of(&holders),
            holders,
        }
    }
}

impl Boundary {
    /// The boundary at the claim just before `position` of `scenario`,
    /// when that claim comes exactly as another worker's lease on the job
    /// it takes ends; `None` anywhere else.
    pub fn at(scenario: &Scenario, position: usize) -> Result<Option<Boundary>> {
        let Some(event) = position
            .checked_sub(1)
            .and_then(|last| scenario.events().get(last))
        else {
            return Ok(None);
        };
        let Action::Claim { lease_ms } = event.action else {
            return Ok(None);
        };
        let mut played = Player::new(scenario.first(position - 1))?;
        while played.step()?.is_some() {}
        let Outcome::Claimed { claim: Some(taken) } = played.play(event)? else {
            return Ok(None);
        };
        // The table and the claims just before the instant: every earlier
        // event, none of the instant's own.
        let before = (scenario.events().iter())
            .take_while(|earlier| earlier.at < event.at)
            .count();
        let start = || -> Result<Player> {
            let mut player = Player::new(scenario.first(before))?;
            while player.step()?.is_some() {}
            Ok(player)
        };
        let holding = start()?;
        let Some((holder, held)) = (holding.held_claims().iter()).find(|(worker, claim)| {
            **worker != event.worker && claim.id == taken.id && claim.lease_until == event.at
        }) else {
            return Ok(None);
        };
        let workers = (holder.as_str(), event.worker.as_str(), taken.id.as_str());
        let readings: Vec<Read> = (Reading::ALL.into_iter())
            .map(|reading| {
                let finished = reading.finish(&start()?, held, event.at)?;
                let claimed = reading.claim(&start()?, event.claim_owner(), event.at, lease_ms)?;
                Ok(Read::new(reading, finished, claimed, workers))
            })
            .collect::<Result<_>>()?;
        // The table just before the instant is the one the claim saw only
        // if nothing at the same instant came first and changed what it
        // takes (another claim, say): the queue's own reading must take
        // what the replay's claim took, or this is not the boundary it
        // seems.
        if readings[0].claimed.as_ref() != Some(&taken) {
            return Ok(None);
        }
        Ok(Some(Boundary {
            at: event.at,
            job: taken.id,
            holder: holder.clone(),
            claimant: event.worker.clone(),
            readings,
        }))
    }
}
