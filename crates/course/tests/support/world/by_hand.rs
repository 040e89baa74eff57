//! The teaching variants worked out by hand from the rules, not by the
//! variants' own code: a checker that asked the variant what it does would
//! agree with a wrong variant. Each works on the world's replay (the
//! table and the claims before an event) and on what the course says the
//! variant changes: one comparison of the lease's end, or what a claim
//! does to its row.

use super::*;

use leasefence_course::variants::boundary::{Holders, Reading};
use leasefence_course::variants::designs::{Design, Fate};

/// An instant where one worker's lease on a job ends as another claims
/// it, as the rules and the world's replay give it.
#[derive(Debug)]
pub(super) struct Instant {
    /// The claim's time: the holder's `lease_until`.
    pub at: u64,
    /// The job.
    pub job: String,
    /// The worker whose lease ends.
    pub holder: String,
    /// The worker who claims.
    pub claimant: String,
    /// The holder's claim.
    held: Claim,
    /// The table just before the instant (before every event at it).
    rows: Vec<JobRow>,
}

/// What one reading of the lease's end lets each worker do at the
/// instant.
#[derive(Debug)]
pub(super) struct ReadByHand {
    /// Whether the holder's finish is accepted.
    pub finished: bool,
    /// The job the claimant's claim takes.
    pub claimed: Option<String>,
    /// Who may work on the job: the holder if it finished, the claimant
    /// if it took the job.
    pub holders: Vec<String>,
    /// How many.
    pub count: Holders,
}

impl World {
    /// The instant at the claim just before `position`, when the claim
    /// takes a job whose lease, held by another worker, ends right then.
    pub(super) fn instant(&self, position: usize) -> std::result::Result<Instant, String> {
        let claim = position.checked_sub(1).ok_or("no event yet")?;
        let seen = self.applied(claim)?;
        let Outcome::Claimed { claim: Some(taken) } = &seen.result.outcome else {
            return Err(format!("event {claim} took no job"));
        };
        let at = seen.result.at;
        let before = (self.scenario.events().iter())
            .take_while(|event| event.at < at)
            .count();
        let start = self.seen(before)?;
        let (holder, held) = (start.held.iter())
            .find(|(worker, held)| {
                **worker != seen.result.worker && held.id == taken.id && held.lease_until == at
            })
            .ok_or(format!("no lease on {} ends at {at} ms", taken.id))?;
        Ok(Instant {
            at,
            job: taken.id.clone(),
            holder: holder.clone(),
            claimant: seen.result.worker.clone(),
            held: held.clone(),
            rows: start.rows.clone(),
        })
    }
}

impl Instant {
    /// What `reading` lets each worker do: R4's finish and R5's claim,
    /// with the one comparison the reading changes.
    pub(super) fn read(&self, reading: Reading) -> ReadByHand {
        let now = self.at;
        // What each side makes of the instant the lease ends: R5 says it
        // is over for both; one reading keeps it for the finish, another
        // keeps it from the claim.
        let finish_keeps_the_end = reading == Reading::FinishAtLeaseEnd;
        let claim_waits_past_the_end = reading == Reading::ClaimAfterLeaseEnd;
        let finish_holds = |until: u64| now < until || (finish_keeps_the_end && now == until);
        let claim_frees = |until: u64| until < now || (!claim_waits_past_the_end && until == now);
        let held = &self.held;
        let finished = (self.rows.iter()).any(|row| {
            row.id == held.id
                && row.owner.as_deref() == Some(held.owner.as_str())
                && row.token == held.token
                && row.attempts == held.attempt
                && row.state == JobState::Leased
                && row.lease_until.is_some_and(finish_holds)
                && now < row.deadline
        });
        let claimed = (self.rows.iter())
            .find(|row| {
                let free = match row.state {
                    JobState::Pending => true,
                    JobState::Leased => row.lease_until.is_some_and(claim_frees),
                    _ => false,
                };
                free && row.attempts < row.max_attempts && now < row.deadline
            })
            .map(|row| row.id.clone());
        let holders: Vec<String> = [
            (finished, &self.holder),
            (claimed.as_ref() == Some(&self.job), &self.claimant),
        ]
        .into_iter()
        .filter(|(may, _)| *may)
        .map(|(_, worker)| worker.clone())
        .collect();
        let count = match holders.len() {
            0 => Holders::Gap,
            1 => Holders::One,
            _ => Holders::Two,
        };
        ReadByHand {
            finished,
            claimed,
            holders,
            count,
        }
    }
}

/// The first claims of a timeline played by one design.
#[derive(Debug)]
pub(super) struct DesignByHand {
    /// Each claim: who, when, what it got.
    pub took: Vec<(String, u64, Option<Claim>)>,
    /// The job's row afterwards, if the table still has it.
    pub row: Option<JobRow>,
    /// Who believes they hold the job after the last claim: a claim on it
    /// in memory, the one they took, its lease not ended.
    pub holders: Vec<String>,
    /// The first worker whose claim took the job.
    pub taker: Option<String>,
    /// What became of the job.
    pub fate: Option<Fate>,
}

impl World {
    /// The first `events` events (all claims) played by `design`: the
    /// queue's from the world's replay; a design the course turns down
    /// by its rule alone (the first row a claim may take, by the order
    /// jobs came in, is deleted, or only counted and left `pending`).
    pub(super) fn design(
        &self,
        design: Design,
        events: usize,
        job: &str,
    ) -> std::result::Result<DesignByHand, String> {
        let played = &self.scenario.events()[..events];
        let (took, rows, held) = match design {
            Design::Queue => {
                let took = (self.seen[..events].iter())
                    .map(|seen| match &seen.result.outcome {
                        Outcome::Claimed { claim } => {
                            Ok((seen.result.worker.clone(), seen.result.at, claim.clone()))
                        }
                        other => Err(format!("event {} did {other:?}", seen.result.event)),
                    })
                    .collect::<std::result::Result<Vec<_>, String>>()?;
                let rows = self
                    .seen
                    .get(events)
                    .map_or(&self.rows_at_end, |seen| &seen.rows);
                (took, rows.clone(), self.held_after(events).clone())
            }
            Design::DeleteOnClaim | Design::LeaveVisible => {
                let mut rows = self.seen(0)?.rows.clone();
                let mut held: BTreeMap<String, Claim> = BTreeMap::new();
                let mut took = Vec::new();
                for event in played {
                    let Action::Claim { lease_ms } = event.action else {
                        return Err(format!("{event:?} is not a claim"));
                    };
                    let now = event.at;
                    let index = rows.iter().position(|row| match row.state {
                        JobState::Pending => true,
                        JobState::Leased => row.lease_until.is_some_and(|until| until <= now),
                        _ => false,
                    });
                    let claim = index.map(|index| {
                        let row = &mut rows[index];
                        let claim = Claim {
                            id: row.id.clone(),
                            qty: row.qty,
                            owner: event.claim_owner().to_owned(),
                            token: row.token + 1,
                            attempt: row.attempts + 1,
                            lease_until: (now + lease_ms).min(row.deadline),
                        };
                        row.token += 1;
                        row.attempts += 1;
                        claim
                    });
                    if let (Some(index), Design::DeleteOnClaim) = (index, design) {
                        rows.remove(index);
                    }
                    if let Some(claim) = &claim {
                        held.insert(event.worker.clone(), claim.clone());
                    }
                    took.push((event.worker.clone(), now, claim));
                }
                (took, rows, held)
            }
        };
        let now = took.last().map_or(0, |(_, at, _)| *at);
        let holders: Vec<String> = (took.iter())
            .filter(|(worker, _, claim)| {
                held.get(worker).is_some_and(|held| {
                    Some(held) == claim.as_ref() && held.id == job && now < held.lease_until
                })
            })
            .map(|(worker, _, _)| worker.clone())
            .collect();
        let taker = (took.iter())
            .find(|(_, _, claim)| claim.as_ref().is_some_and(|claim| claim.id == job))
            .map(|(worker, _, _)| worker.clone());
        let row = rows.into_iter().find(|row| row.id == job);
        let fate = match (row.as_ref().map(|row| row.state), holders.len()) {
            (None, _) if taker.is_some() => Some(Fate::Lost),
            (Some(_), 2..) => Some(Fate::Shared),
            (Some(JobState::Pending), 1) => Some(Fate::Open),
            (Some(JobState::Leased), 1) => Some(Fate::Kept),
            _ => None,
        };
        Ok(DesignByHand {
            took,
            row,
            holders,
            taker,
            fate,
        })
    }
}
