//! What the world says of the teaching variants a point runs beside the
//! queue: the lease's end read every way, and the designs the course turns
//! down. Each is worked out by hand from the rules on the world's replay
//! ([`super::by_hand`]), not by the variants' own code.

use leasefence_course::playground::assertions::{DesignFact, ReadFact};
use leasefence_course::playground::explain::cell;

use super::*;

/// The columns a design's row shows.
const SHOWN: [&str; 4] = ["state", "owner", "token", "lease_until"];

impl World {
    /// Whether the world holds an assertion about a variant's run.
    pub(super) fn variant_fact(&self, assertion: &Assertion) -> std::result::Result<(), String> {
        match assertion {
            Assertion::Read {
                position,
                reading,
                at,
                fact,
            } => {
                expect(self.position, *position, "the position")?;
                let instant = self.instant(*position)?;
                expect(instant.at, *at, "the instant")?;
                let read = instant.read(*reading);
                let world = match fact {
                    ReadFact::Finish { .. } => ReadFact::Finish {
                        worker: instant.holder.clone(),
                        accepted: read.finished,
                    },
                    ReadFact::Claim { .. } => ReadFact::Claim {
                        worker: instant.claimant.clone(),
                        job: read.claimed,
                    },
                    ReadFact::Holders { .. } => ReadFact::Holders {
                        job: instant.job.clone(),
                        holder: instant.holder.clone(),
                        claimant: instant.claimant.clone(),
                        holders: read.holders,
                        count: read.count,
                    },
                };
                expect(fact, &world, "the reading")
            }
            Assertion::Designed {
                events,
                design,
                fact,
            } => {
                expect(self.position, *events, "the events played")?;
                let job = self.first_taken(*events)?;
                let run = self.design(*design, *events, &job)?;
                match fact {
                    DesignFact::Took { worker, at, claim } => {
                        let took = (run.took.iter())
                            .find(|(who, when, _)| who == worker && when == at)
                            .ok_or(format!("no claim by {worker} at {at} ms"))?;
                        let got = |claim: &Claim| (claim.id.clone(), claim.token);
                        expect(claim, &took.2.as_ref().map(got), "what it took")
                    }
                    DesignFact::Row { job: said, cells } => {
                        expect(said, &job, "the job")?;
                        let world = run.row.as_ref().map(|row| {
                            (SHOWN.iter())
                                .map(|column| ((*column).to_owned(), cell(row, column)))
                                .collect::<Vec<_>>()
                        });
                        expect(cells, &world, "the row")
                    }
                    DesignFact::Fate {
                        job: said,
                        fate,
                        named,
                        until,
                    } => {
                        expect(said, &job, "the job")?;
                        expect(Some(*fate), run.fate, "the fate")?;
                        let world: Vec<String> = match fate {
                            leasefence_course::variants::designs::Fate::Lost => {
                                run.taker.iter().cloned().collect()
                            }
                            _ => run.holders.clone(),
                        };
                        expect(named, &world, "the workers named")?;
                        let lease = run.row.as_ref().and_then(|row| row.lease_until);
                        expect(*until, lease, "the lease's end")
                    }
                }
            }
            other => Err(format!("not {other:?}")),
        }
    }

    /// The job the first claim of the first `events` events took, in the
    /// world's replay.
    fn first_taken(&self, events: usize) -> std::result::Result<String, String> {
        (self.seen[..events.min(self.seen.len())].iter())
            .find_map(|seen| match &seen.result.outcome {
                Outcome::Claimed { claim: Some(claim) } => Some(claim.id.clone()),
                _ => None,
            })
            .ok_or(format!(
                "no claim among the first {events} events took a job"
            ))
    }
}
