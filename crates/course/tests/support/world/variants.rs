//! What the world says of the teaching variants a point runs beside the
//! queue: the lease's end read every way, and the designs the course turns
//! down. Each is played again on the screen's scenario; the queue's own
//! design is also checked against the world's own replay.

use leasefence_course::playground::assertions::{DesignFact, ReadFact};
use leasefence_course::playground::explain::cell;
use leasefence_course::variants::boundary::Boundary;
use leasefence_course::variants::designs::{Design, Designs};

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
                let boundary = Boundary::at(&self.scenario, *position)
                    .map_err(|error| error.to_string())?
                    .ok_or("no boundary here")?;
                expect(boundary.at, *at, "the instant")?;
                let read = (boundary.readings.iter())
                    .find(|read| read.reading == *reading)
                    .ok_or(format!("no reading {reading:?}"))?;
                let world = match fact {
                    ReadFact::Finish { .. } => ReadFact::Finish {
                        worker: boundary.holder.clone(),
                        accepted: read.finished,
                    },
                    ReadFact::Claim { .. } => ReadFact::Claim {
                        worker: boundary.claimant.clone(),
                        job: read.claimed.as_ref().map(|claim| claim.id.clone()),
                    },
                    ReadFact::Holders { .. } => ReadFact::Holders {
                        job: boundary.job.clone(),
                        holder: boundary.holder.clone(),
                        claimant: boundary.claimant.clone(),
                        holders: read.holders.clone(),
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
                let designs = Designs::at(&self.scenario, *events)
                    .map_err(|error| error.to_string())?
                    .ok_or("no designs here")?;
                let run = (designs.runs.iter())
                    .find(|run| run.design == *design)
                    .ok_or(format!("no design {design:?}"))?;
                match fact {
                    DesignFact::Took { worker, at, claim } => {
                        let took = (run.took.iter())
                            .find(|took| took.worker == *worker && took.at == *at)
                            .ok_or(format!("no claim by {worker} at {at} ms"))?;
                        let got = |claim: &Claim| (claim.id.clone(), claim.token);
                        expect(claim, &took.claim.as_ref().map(got), "what it took")?;
                        if *design == Design::Queue {
                            self.queue_took(worker, *at, claim.as_ref())?;
                        }
                        Ok(())
                    }
                    DesignFact::Row { job, cells } => {
                        expect(job, &designs.job, "the job")?;
                        let world = run.row.as_ref().map(|row| {
                            (SHOWN.iter())
                                .map(|column| ((*column).to_owned(), cell(row, column)))
                                .collect::<Vec<_>>()
                        });
                        expect(cells, &world, "the row")
                    }
                    DesignFact::Fate {
                        job,
                        fate,
                        named,
                        until,
                    } => {
                        expect(job, &designs.job, "the job")?;
                        expect(*fate, run.fate, "the fate")?;
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

    /// Whether the queue's own claim by `worker` at `at`, in the world's
    /// replay, took `claim` (job, token).
    fn queue_took(
        &self,
        worker: &str,
        at: u64,
        claim: Option<&(String, u64)>,
    ) -> std::result::Result<(), String> {
        let seen = (self.seen[..self.position].iter())
            .find(|seen| seen.result.worker == worker && seen.result.at == at)
            .ok_or(format!("the replay has no event of {worker} at {at} ms"))?;
        let world = match &seen.result.outcome {
            Outcome::Claimed { claim } => {
                claim.as_ref().map(|claim| (claim.id.clone(), claim.token))
            }
            other => return Err(format!("{worker} at {at} ms did {other:?}")),
        };
        expect(claim, world.as_ref(), "the queue's claim in the replay")
    }
}
