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
            Assertion::Run { race, naive, fact } => {
                let (world, _, runs) = self.statements.as_ref().ok_or("no statement panel")?;
                expect(race, world, "the race")?;
                run_fact(&runs[usize::from(*naive)], fact)
            }
            other => Err(format!("not {other:?}")),
        }
    }
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
