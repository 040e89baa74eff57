//! What the world says of the statement panel's runs.

use super::*;

impl World {
    /// Whether the world holds an assertion about the statement panel.
    pub(super) fn statement_fact(&self, assertion: &Assertion) -> std::result::Result<(), String> {
        match assertion {
            Assertion::TakenApart { taken, events } => {
                let (_, world, _) = self.statements.as_ref().ok_or("no statement panel")?;
                let all = self.scenario.events().len();
                expect((*taken, *events), (*world, all), "(taken, events)")
            }
            Assertion::Moment { step, steps, at } => {
                let (_, _, runs) = self.statements.as_ref().ok_or("no statement panel")?;
                let clock = clock(runs);
                let now = step
                    .checked_sub(1)
                    .map(|index| clock.get(index).map(|tick| tick.0));
                expect(
                    (*steps, at.map(Some)),
                    (clock.len(), now),
                    "(moments in all, the time of this one)",
                )
            }
            Assertion::Run { race, naive, fact } => {
                let (world, _, runs) = self.statements.as_ref().ok_or("no statement panel")?;
                expect(race, world, "the race")?;
                let (this, other) = (&runs[usize::from(*naive)], &runs[usize::from(!*naive)]);
                if let RunFact::AllRan {
                    applied,
                    statements,
                    other: at,
                } = fact
                {
                    let ran = (this.steps.iter())
                        .filter(|step| step.kind == StepKind::Ran)
                        .count();
                    let world = (this.steps.len(), ran, other.steps.len() > *at);
                    return expect(
                        (*applied, *statements, true),
                        world,
                        "(steps applied = all of this side's, its statements, the other has steps left)",
                    );
                }
                run_fact(this, fact)
            }
            other => Err(format!("not {other:?}")),
        }
    }
}

/// Both runs' steps on one clock: a moment is a time and, for steps at
/// one time, its rank among them, so two steps of one side at one time
/// are two moments and the two sides' steps at one rank are one.
fn clock(runs: &[Run; 2]) -> Vec<(u64, usize)> {
    let mut clock: Vec<(u64, usize)> = runs
        .iter()
        .flat_map(|run| {
            (run.steps.iter().enumerate()).map(|(index, step)| {
                let rank = (run.steps[..index].iter())
                    .filter(|before| before.at == step.at)
                    .count();
                (step.at, rank)
            })
        })
        .collect();
    clock.sort_unstable();
    clock.dedup();
    clock
}

/// Whether `run` shows `fact`, read off its steps: who took which claim
/// is where a worker's claim in memory changed, not the statement that
/// changed it.
fn run_fact(run: &Run, fact: &RunFact) -> std::result::Result<(), String> {
    let mut taken: Vec<((String, u64), Vec<String>)> = Vec::new();
    let mut before: BTreeMap<String, Claim> = BTreeMap::new();
    for step in &run.steps {
        let now = step.holding.get(&step.actor);
        if let Some(claim) = now.filter(|claim| before.get(&step.actor) != Some(*claim)) {
            let key = (claim.id.clone(), claim.token);
            match taken.iter_mut().find(|(known, _)| *known == key) {
                Some((_, takers)) => takers.push(step.actor.clone()),
                None => taken.push((key, vec![step.actor.clone()])),
            }
        }
        before = step.holding.clone();
    }
    let twice = taken.iter().find(|(_, takers)| takers.len() > 1);
    match fact {
        RunFact::Twice {
            job,
            token,
            workers,
        } => {
            let said = Some(((job.clone(), *token), workers.clone()));
            expect(said.as_ref(), twice, "the first claim taken twice")
        }
        RunFact::Once => expect(None, twice, "a claim taken twice"),
        RunFact::TookNothing { workers } => {
            let world: Vec<String> = (run.claims.iter())
                .filter(|(actor, claim)| claim.is_none() && !run.busy.contains(actor))
                .map(|(actor, _)| actor.clone())
                .collect();
            expect(workers, &world, "who took nothing")
        }
        RunFact::Refused { at, worker, token } => {
            let found = run.steps.iter().any(|step| {
                let ran = step.sql.as_ref().filter(|_| step.kind == StepKind::Ran);
                step.at == *at
                    && step.actor == *worker
                    && step.does == Does::Finish
                    && ran.is_some_and(|ran| ran.rows == 0)
                    && step.holding.get(worker).map(|claim| claim.token) == Some(*token)
            });
            expect(true, found, "a finish that changed no row")
        }
        RunFact::Waited {
            enqueue_ms,
            claim_ms,
        } => {
            let waited = |actor: &str| run.waited_ms.get(actor).copied().unwrap_or(0);
            let world = (waited("producer"), waited(races::CLAIMER));
            expect((*enqueue_ms, *claim_ms), world, "(enqueue, claim) waits")
        }
        RunFact::Busy { workers } => expect(workers, &run.busy, "refused by SQLite"),
        RunFact::Did {
            step,
            at,
            worker,
            did,
        } => {
            let ran = run.steps.get(*step).ok_or(format!("no step {step}"))?;
            expect((*at, worker), (ran.at, &ran.actor), "(time, actor)")?;
            step_did(run, *step, did)
        }
        RunFact::Lock { applied, lock } => {
            let Some(last) = applied.checked_sub(1) else {
                return expect(&LockNow::Free, lock, "the lock before any step");
            };
            let step = run.steps.get(last).ok_or(format!("no step {last}"))?;
            let others = |list: &[String]| -> Vec<String> {
                (list.iter())
                    .filter(|name| step.lock.as_ref() != Some(*name))
                    .cloned()
                    .collect()
            };
            let world = match &step.lock {
                Some(holder) if step.waiting.contains(holder) => LockNow::CommitWaits {
                    holder: holder.clone(),
                    readers: others(&step.reading),
                },
                Some(holder) => LockNow::Held {
                    holder: holder.clone(),
                    waiting: others(&step.waiting),
                },
                None => {
                    let write = step.sql.as_ref().is_some_and(|sql| sql.write);
                    let began = (run.steps[..last].iter().rev())
                        .find(|before| before.actor == step.actor)
                        .is_some_and(|before| before.lock.as_ref() == Some(&step.actor));
                    match lock {
                        LockNow::OwnStatement { worker }
                            if step.kind == StepKind::Ran && write && !began =>
                        {
                            LockNow::OwnStatement {
                                worker: worker.clone(),
                            }
                        }
                        _ => LockNow::Free,
                    }
                }
            };
            expect(lock, &world, "the write lock")
        }
        RunFact::AllRan { .. } => Err("all ran: judged with both sides".to_owned()),
        RunFact::Holding { applied, claims } => {
            let held = match applied.checked_sub(1) {
                None => BTreeMap::new(),
                Some(last) => (run.steps.get(last))
                    .ok_or(format!("no step {last}"))?
                    .holding
                    .clone(),
            };
            let world: Vec<(String, String, u64)> = (held.into_iter())
                .map(|(actor, claim)| (actor, claim.id, claim.token))
                .collect();
            expect(claims, &world, "the claims held")
        }
    }
}

/// Whether the run's step `index` did `did`, read off the step and the
/// lock around it.
fn step_did(run: &Run, index: usize, did: &StepDid) -> std::result::Result<(), String> {
    let step = &run.steps[index];
    let ran = step.sql.as_ref().filter(|_| step.kind == StepKind::Ran);
    let held_before = (index.checked_sub(1)).and_then(|before| run.steps[before].lock.as_deref());
    let world = format!(
        "{:?} of {:?}, lock {:?} before and {:?} after, readers {:?}",
        step.kind, step.does, held_before, step.lock, step.reading
    );
    let holds = match did {
        StepDid::Waits { holder } => {
            step.kind == StepKind::Waits
                && step.does != Does::Commit
                && step.lock.as_ref() == Some(holder)
        }
        StepDid::CommitWaits { readers } => {
            let others: Vec<&String> = (step.reading.iter())
                .filter(|reader| **reader != step.actor)
                .collect();
            step.kind == StepKind::Waits
                && step.does == Does::Commit
                && !readers.is_empty()
                && others == readers.iter().collect::<Vec<_>>()
        }
        StepDid::Sends { ms } => {
            let back = (run.steps[index..].iter())
                .find(|later| later.actor == step.actor && later.kind == StepKind::SendReturns);
            step.kind == StepKind::SendStarts && back.map(|back| back.at - step.at) == Some(*ms)
        }
        StepDid::SendReturns => step.kind == StepKind::SendReturns,
        StepDid::NoClaim => step.kind == StepKind::NoClaim && step.sql.is_none(),
        StepDid::Busy { holder } => {
            step.kind == StepKind::Busy && step.lock.as_ref() == Some(holder)
        }
        StepDid::Begin => {
            ran.is_some() && step.does == Does::Begin && step.lock.as_ref() == Some(&step.actor)
        }
        StepDid::BeginDeferred => {
            ran.is_some() && step.does == Does::BeginDeferred && step.lock.is_none()
        }
        StepDid::Commit { held } => {
            let was = held_before == Some(step.actor.as_str());
            ran.is_some() && step.does == Does::Commit && was == *held
        }
        StepDid::Rollback => ran.is_some() && step.does == Does::Rollback,
        StepDid::Ran { write, rows } => {
            ran.is_some_and(|ran| ran.write == *write && ran.rows == *rows)
                && !matches!(
                    step.does,
                    Does::Begin | Does::BeginDeferred | Does::Commit | Does::Rollback
                )
        }
    };
    match holds {
        true => Ok(()),
        false => Err(format!(
            "step {index} did {did:?}: the world's step is {world}"
        )),
    }
}
