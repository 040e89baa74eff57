//! The world of a screen, built afresh, and each assertion of the
//! playground's sentences (`leasefence_course::playground::assertions`)
//! checked against it (`tests/screens.rs`).
//!
//! The world is the scenario on screen played again on the queue itself
//! ([`Player`]), event by event, keeping what each event saw before it ran
//! (the table, the claims each worker holds) and what it did; and, when a
//! naive finish is shown, the same scenario played with it. None of it is
//! read from the panels' runs or from a chapter's written timeline, so an
//! assertion made from a stale or wrong run disagrees with it.

use std::cell::RefCell;
use std::collections::BTreeMap;

use leasefence::error::Result;
use leasefence::fence::Condition;
use leasefence::model::{Claim, JobRow, JobState, Stamp};
use leasefence::replay::{EventResult, Outcome, Player};
use leasefence::scenario::{Action, Event, Scenario};

use leasefence::store::{Outside, Replaces};
use leasefence_course::lab::{self, Did, Graded, Level, Shortest, Writes};
use leasefence_course::mechanism::Refusal;
use leasefence_course::mechanism::invariants::{Broken, Invariant, Side, StepCheck, along};
use leasefence_course::mechanism::races;
use leasefence_course::mechanism::statements::{Does, Run, StepKind};
use leasefence_course::playground::CHAPTERS;
use leasefence_course::playground::assertions::{Assertion, RunFact};
use leasefence_course::playground::chapter_scenarios;
use leasefence_course::playground::quiz::field::Field;
use leasefence_course::playground::statements::{Race, SEND_MS};
use leasefence_course::variants::Guard;
use leasefence_course::variants::unfenced::{self, Unfenced};

/// What one event saw and did.
#[derive(Debug, Clone)]
struct Seen {
    /// The table just before it.
    rows: Vec<JobRow>,
    /// The claims held just before it, by worker.
    held: BTreeMap<String, Claim>,
    /// What it did.
    result: EventResult,
}

/// The world of one screen: the scenario on it, replayed, how many of its
/// events are applied, and the naive queues its panels show.
#[derive(Debug, Clone)]
pub struct World {
    scenario: Scenario,
    /// The invariants at every step, per side, played when first asked.
    invariants: RefCell<Vec<(Side, Vec<StepCheck>)>>,
    seen: Vec<Seen>,
    /// The claims held after the last event.
    held_at_end: BTreeMap<String, Claim>,
    /// The table after the last event.
    rows_at_end: Vec<JobRow>,
    position: usize,
    naive: Vec<Unfenced>,
    /// The statement panel's race, and its two runs (real, naive), when
    /// the panel is open.
    statements: Option<(Race, usize, [Run; 2])>,
    /// The lab's level and the statement in its box, when it is open.
    lab: Option<(&'static str, String)>,
}

/// An assertion the world does not hold, and what the world says instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The assertion.
    pub assertion: Assertion,
    /// What the world holds instead.
    pub world: String,
}

impl World {
    /// `scenario` replayed, `position` events applied, with the naive
    /// finishes `guards` played too.
    pub fn of(scenario: &Scenario, position: usize, guards: &[Guard]) -> Result<World> {
        let mut player = Player::new(scenario.clone())?;
        let mut seen = Vec::with_capacity(scenario.events().len());
        loop {
            let rows = player.rows()?;
            let held = player.held_claims().clone();
            let Some(result) = player.step()? else {
                break;
            };
            seen.push(Seen { rows, held, result });
        }
        let naive = guards
            .iter()
            .map(|guard| unfenced::play(scenario, *guard))
            .collect::<Result<_>>()?;
        Ok(World {
            scenario: scenario.clone(),
            invariants: RefCell::new(Vec::new()),
            seen,
            held_at_end: player.held_claims().clone(),
            rows_at_end: player.rows()?,
            position: position.min(scenario.events().len()),
            naive,
            statements: None,
            lab: None,
        })
    }

    /// This world with the lab open on `level`, `sql` in its box.
    pub fn with_lab(mut self, level: &'static str, sql: &str) -> World {
        self.lab = Some((level, sql.to_owned()));
        self
    }

    /// This world with the statement panel open on `race`; a timeline
    /// race takes apart the first `taken` events.
    pub fn with_statements(mut self, race: Race, taken: usize) -> Result<World> {
        let refused = |refusal: Refusal| leasefence::error::Error::Internal {
            what: refusal.to_string(),
        };
        let within = self.scenario.first(taken);
        let (real, naive) = match race {
            Race::Claim => (races::real_claim_race(1), races::naive_claim_race()),
            Race::Send => (
                races::send_race(false, SEND_MS),
                races::send_race(true, SEND_MS),
            ),
            Race::Timeline => (
                races::timeline(&within, false),
                races::timeline(&within, true),
            ),
            // The lab's race is its last answer's counterexample: the
            // statement in its box graded again.
            Race::Lab => {
                let Some((level, sql)) = &self.lab else {
                    return Ok(self);
                };
                let level = Level::find(level).expect("a level");
                let graded = lab::grade(&level, sql, &chapter_scenarios())?;
                if let Graded::Failed { shortest, .. } = graded
                    && let Shortest::Statements(race) = *shortest
                {
                    self.statements = Some((Race::Lab, taken, [race.expected, race.current]));
                }
                return Ok(self);
            }
        };
        self.statements = Some((
            race,
            taken,
            [real.map_err(refused)?, naive.map_err(refused)?],
        ));
        Ok(self)
    }

    /// Every assertion of `said` this world does not hold.
    pub fn check<'a>(&self, said: impl IntoIterator<Item = &'a Assertion>) -> Vec<Violation> {
        said.into_iter()
            .filter_map(|assertion| {
                self.judge(assertion).err().map(|world| Violation {
                    assertion: assertion.clone(),
                    world,
                })
            })
            .collect()
    }

    /// `Ok` when the world holds `assertion`, else what it holds instead.
    fn judge(&self, assertion: &Assertion) -> std::result::Result<(), String> {
        match assertion {
            Assertion::Guess {
                event,
                finish,
                yes,
                right,
            } => {
                let seen = self.applied(*event)?;
                let happened = match (&seen.result.outcome, finish) {
                    (Outcome::Finished(done), true) => done.accepted(),
                    (Outcome::Claimed { claim }, false) => claim.is_some(),
                    (other, _) => return Err(format!("event {event} is {other:?}")),
                };
                expect(yes == right, happened, "what happened")
            }
            // The boundary panel tells of its finish wherever the learner
            // stands: a verdict is the timeline's, applied yet or not.
            Assertion::Finish {
                event,
                at,
                accepted,
            } => {
                let seen = self.seen(*event)?;
                let Outcome::Finished(done) = &seen.result.outcome else {
                    return Err(format!("event {event} is no finish"));
                };
                expect(*at, seen.result.at, "its time")?;
                expect(*accepted, done.accepted(), "accepted")
            }
            Assertion::Condition { .. } => self.condition(assertion),
            Assertion::Failed { event, conditions } => {
                let seen = self.applied(*event)?;
                let stamp = (seen.held.get(&seen.result.worker))
                    .ok_or(format!("{} holds no claim", seen.result.worker))?
                    .stamp();
                let row = seen.rows.iter().find(|row| row.id == stamp.id);
                let world: Vec<Condition> = match row {
                    None => vec![Condition::Id],
                    Some(row) => (Condition::ALL.into_iter())
                        .filter(|condition| !r4(*condition, &stamp, row, seen.result.at).0)
                        .collect(),
                };
                expect(conditions, &world, "the conditions failed")
            }
            Assertion::NoStamp { event, worker } => {
                let seen = self.seen(*event)?;
                expect(worker, &seen.result.worker, "its worker")?;
                expect(false, seen.held.contains_key(worker), "holds a claim")
            }
            Assertion::Sends { event, worker } => {
                let seen = self.seen(*event)?;
                expect(worker, &seen.result.worker, "its worker")?;
                expect("finish", seen.result.action, "its action")?;
                expect(true, seen.held.contains_key(worker), "holds a claim")
            }
            Assertion::Reclaimed {
                event,
                job,
                holder,
                until,
                at,
            } => {
                let seen = self.applied(*event)?;
                expect(Some(job), claimed(seen), "the job claimed")?;
                expect(*at, seen.result.at, "its time")?;
                let before = row(seen, job)?;
                expect(Some(holder), before.owner.as_ref(), "the owner before")?;
                expect(Some(*until), before.lease_until, "lease_until before")?;
                expect(true, until <= at, "lease_until <= now")
            }
            Assertion::TookPending { event, job } => {
                let seen = self.applied(*event)?;
                expect(Some(job), claimed(seen), "the job claimed")?;
                expect(
                    "pending",
                    row(seen, job)?.state.as_str(),
                    "its state before",
                )
            }
            Assertion::Came { event, result } => {
                let seen = self.applied(*event)?;
                let world = match &seen.result.outcome {
                    Outcome::Claimed { claim: Some(_) } => "claimed",
                    Outcome::Claimed { claim: None } => "empty",
                    Outcome::Finished(done) if done.accepted() => "accepted",
                    Outcome::Finished(_) => "rejected",
                    Outcome::Sent {
                        reason: Some(_), ..
                    } => "no_claim",
                    Outcome::Sent { applied: true, .. } => "applied",
                    Outcome::Sent { .. } => "duplicate",
                    Outcome::Enqueued { .. } => "enqueued",
                };
                expect(*result, world, "its result")
            }
            Assertion::Holds {
                event,
                worker,
                job,
                token,
            } => {
                let seen = self.seen(*event)?;
                expect(worker, &seen.result.worker, "its worker")?;
                let held = seen.held.get(worker).map(|claim| (&claim.id, claim.token));
                expect(Some((job, *token)), held, "(job, token) held")
            }
            Assertion::FoundNothing { event } => {
                let seen = self.applied(*event)?;
                expect(None, claimed(seen), "the job claimed")
            }
            Assertion::Claimed {
                event,
                worker,
                job,
                token,
                attempt,
                until,
            } => {
                let seen = self.applied(*event)?;
                let Outcome::Claimed { claim: Some(claim) } = &seen.result.outcome else {
                    return Err(format!("event {event} took no job"));
                };
                expect(worker, &seen.result.worker, "its worker")?;
                let said = (job, *token, *attempt, *until);
                let world = (&claim.id, claim.token, claim.attempt, claim.lease_until);
                expect(said, world, "(job, token, attempt, lease_until)")?;
                // Said as a reclaim: someone held it, and that lease ended.
                let before = row(seen, job)?;
                let held_before = before.lease_until.is_some_and(|end| end <= seen.result.at);
                expect(*token > 1, held_before, "a lease on it ended before")
            }
            Assertion::Completed { event, worker, job } => {
                let seen = self.applied(*event)?;
                expect(worker, &seen.result.worker, "its worker")?;
                expect(true, self.accepted(*event)?, "accepted")?;
                let after = self.rows_after(*event);
                let state = after.iter().find(|row| &row.id == job).map(|row| row.state);
                expect(Some(JobState::Done), state, "its state after")
            }
            Assertion::Delivered {
                event,
                worker,
                job,
                qty,
                applied,
            } => {
                let seen = self.applied(*event)?;
                let Outcome::Sent {
                    applied: world,
                    reason: None,
                } = &seen.result.outcome
                else {
                    return Err(format!("event {event} sent nothing"));
                };
                expect(worker, &seen.result.worker, "its worker")?;
                let held = seen
                    .held
                    .get(worker)
                    .ok_or(format!("{worker} holds nothing"))?;
                expect((job, *qty), (&held.id, held.qty), "(job, qty) sent")?;
                expect(applied, world, "applied")
            }
            Assertion::Enqueued {
                event,
                worker,
                job,
                qty,
                deadline,
            } => {
                let seen = self.applied(*event)?;
                expect(worker, &seen.result.worker, "its worker")?;
                expect(
                    false,
                    seen.rows.iter().any(|row| &row.id == job),
                    "there before",
                )?;
                let after = self.rows_after(*event);
                let added = after.iter().find(|row| &row.id == job);
                let world = added.map(|row| (row.qty, row.deadline, row.state));
                let said = Some((*qty, *deadline, JobState::Pending));
                expect(said, world, "(qty, deadline, state) after")
            }
            Assertion::Swept {
                event,
                state,
                count,
            } => {
                let seen = self.applied(*event)?;
                let after = self.rows_after(*event);
                let moved = (after.iter())
                    .filter(|row| row.state == *state)
                    .filter(|row| {
                        (seen.rows.iter()).any(|old| old.id == row.id && old.state != *state)
                    })
                    .count();
                expect(*count, moved, "jobs moved")
            }
            Assertion::Judged {
                event,
                guard,
                accepted,
                row,
            } => {
                let seen = self.applied(*event)?;
                let (world, after) = match guard {
                    None => {
                        let stamp = seen.held.get(&seen.result.worker).map(|claim| &claim.id);
                        let after = self.rows_after(*event);
                        let row = stamp.and_then(|id| after.iter().find(|row| &row.id == id));
                        (self.accepted(*event)?, row.cloned())
                    }
                    Some(guard) => {
                        let naive = (self.naive(*guard)?.finishes.iter())
                            .find(|finish| finish.event == *event)
                            .ok_or(format!("no naive finish at {event}"))?;
                        (naive.accepted, naive.current.clone())
                    }
                };
                let after = after.map(|row| {
                    let owner = row.owner.clone().unwrap_or_else(|| "null".to_owned());
                    (row.state.as_str().to_owned(), owner, row.token)
                });
                expect(
                    (*accepted, row),
                    (world, &after),
                    "(accepted, the row after)",
                )
            }
            Assertion::Agree { guard, position } => {
                expect(self.position, *position, "the position")?;
                for finish in &self.naive(*guard)?.finishes {
                    if finish.event >= self.position {
                        continue;
                    }
                    let fenced = self.accepted(finish.event)?;
                    expect(
                        fenced,
                        finish.accepted,
                        &format!("verdicts at {}", finish.event),
                    )?;
                }
                Ok(())
            }
            Assertion::Differ {
                guard,
                event,
                naive_accepted,
                same_row,
            } => {
                let naive = (self.naive(*guard)?.finishes.iter())
                    .find(|finish| finish.event == *event)
                    .ok_or(format!("no naive finish at {event}"))?;
                let fenced = self.applied(*event)?;
                let Outcome::Finished(fenced) = &fenced.result.outcome else {
                    return Err(format!("event {event} is no finish"));
                };
                let said = (!naive_accepted, *naive_accepted);
                expect(said, (fenced.accepted(), naive.accepted), "verdicts")?;
                expect(*same_row, naive.current == fenced.current, "rows equal")
            }
            Assertion::Tells {
                position,
                first,
                second,
                fields,
            } => expect(fields, &self.telling(*position, first, second)?, "fields"),
            Assertion::Picked {
                position,
                picked,
                right,
            } => {
                let (first, second) = self.pair(*position)?;
                let fields = self.telling(*position, &first, &second)?;
                expect(*right, fields.contains(picked), "among the differing")
            }
            Assertion::Blocks {
                claim,
                worker,
                at,
                until,
            } => {
                let seen = self.seen(*claim)?;
                let lease = lease_of(seen).ok_or(format!("event {claim} got no claim"))?;
                expect(worker, &seen.result.worker, "its worker")?;
                expect(*at, seen.result.at, "its time")?;
                expect(*until, lease, "lease_until")
            }
            Assertion::Kept {
                side,
                invariant,
                position,
            } => {
                expect(self.position, *position, "the position")?;
                match self.first_broken(*side, *invariant)? {
                    Some((step, _)) if step <= self.position => {
                        Err(format!("{invariant:?} broke at step {step} on {side:?}"))
                    }
                    _ => Ok(()),
                }
            }
            Assertion::Broke {
                side,
                invariant,
                step,
                job,
                workers,
            } => {
                let first = self.first_broken(*side, *invariant)?;
                let said = Some((*step, job.clone(), workers.clone()));
                let world = first.map(|(step, broken)| (step, broken.job, broken.workers));
                expect(said, world, "the first break")?;
                expect(true, *step <= self.position, "broken by a step applied")
            }
            Assertion::Breaks {
                side,
                chapter,
                event,
            } => {
                let breaks = |id: &str| {
                    let found = CHAPTERS.iter().find(|found| found.id == id)?;
                    let scenario = Scenario::parse(found.scenario()).ok()?;
                    let checks = along(&scenario, *side).ok()?;
                    let broken = checks.iter().find(|check| !check.broken.is_empty())?;
                    Some(broken.event)
                };
                expect(Some(*event), breaks(chapter), "the first break")?;
                let sooner = CHAPTERS
                    .iter()
                    .find(|other| breaks(other.id).is_some_and(|at| at < *event));
                if let Some(sooner) = sooner {
                    return Err(format!("{} breaks sooner", sooner.id));
                }
                // "This timeline does not show it": nothing breaks here.
                let every = [
                    Invariant::OneValidHolder,
                    Invariant::FinishPresentedCurrentToken,
                    Invariant::TokensOnlyGrow,
                    Invariant::AppliedOnce,
                ];
                for invariant in every {
                    if let Some((step, _)) = self.first_broken(*side, invariant)? {
                        return Err(format!("{invariant:?} breaks here, at step {step}"));
                    }
                }
                Ok(())
            }
            Assertion::Orderings {
                actors,
                events,
                orderings,
            } => {
                let mut world: Vec<String> = Vec::new();
                for event in self.scenario.events() {
                    if !world.contains(&event.worker) {
                        world.push(event.worker.clone());
                    }
                }
                expect(actors, &world, "the actors")?;
                expect(*events, self.scenario.events().len(), "the events")?;
                expect(*orderings, self.ordering_count(), "the orderings")
            }
            Assertion::Counted {
                side,
                orderings,
                counts,
            } => {
                let world = self.every_ordering(*side)?;
                expect((*orderings, *counts), world, "(orderings, counts)")
            }
            Assertion::BreaksAtEnd { side, step } => {
                expect(self.scenario.events().len(), *step, "the last step")?;
                let checks = along(&self.scenario, *side).map_err(|err| err.to_string())?;
                let first = (checks.iter()).find(|check| !check.broken.is_empty());
                expect(
                    Some(*step),
                    first.map(|check| check.event + 1),
                    "the first break",
                )
            }
            Assertion::LabPassed {
                level,
                sql,
                scenarios,
                orderings,
            } => {
                let level = self.lab_level(level, sql)?;
                let graded = lab::grade(&level, sql, &chapter_scenarios());
                let checked = match graded.map_err(|err| err.to_string())? {
                    Graded::Passed { checked } => (checked.scenarios, checked.orderings),
                    Graded::Failed { .. } => return Err("it fails when graded".to_owned()),
                };
                expect((*scenarios, *orderings), checked, "(scenarios, orderings)")
            }
            Assertion::LabParted {
                level,
                sql,
                scenario,
                event,
                expected,
                current,
                ..
            } => {
                let level = self.lab_level(level, sql)?;
                let scenario = Scenario::parse(scenario).map_err(|err| err.to_string())?;
                parted(&level, sql, &scenario, *event, (expected, current.as_ref()))
            }
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
            Assertion::Leased {
                claim,
                lease_ms,
                until,
                capped,
            } => {
                let seen = self.seen(*claim)?;
                let event = &self.scenario.events()[*claim];
                let Action::Claim { lease_ms: asked } = event.action else {
                    return Err(format!("event {claim} is no claim"));
                };
                expect(*lease_ms, asked, "the lease asked for")?;
                let world = lease_of(seen).ok_or(format!("event {claim} got no claim"))?;
                expect(*until, world, "lease_until")?;
                let cut = world < seen.result.at + asked;
                expect(*capped, cut, "cut short by the deadline")
            }
            Assertion::EndsFirst {
                claim,
                finish,
                worker,
                at,
                until,
            } => {
                let lease =
                    lease_of(self.seen(*claim)?).ok_or(format!("event {claim} got no claim"))?;
                let later = self.seen(*finish)?;
                expect(*until, lease, "lease_until")?;
                expect(worker, &later.result.worker, "the finish's worker")?;
                expect(*at, later.result.at, "the finish's time")?;
                expect(true, until <= at, "lease_until <= the finish's time")
            }
        }
    }

    /// A condition of the finish at `event`, as the stamp its worker held
    /// and the row as it was just before it compare in this world, by
    /// R4's own words (not the queue's code): the assertion must be
    /// exactly that comparison, sides and holder too.
    fn condition(&self, said: &Assertion) -> std::result::Result<(), String> {
        let Assertion::Condition {
            event,
            condition,
            held,
            stamp: stamp_side,
            row: row_side,
            holder,
        } = said
        else {
            return Err("not a condition".to_owned());
        };
        let seen = self.seen(*event)?;
        let stamp = (seen.held.get(&seen.result.worker))
            .ok_or(format!("{} holds no claim", seen.result.worker))?
            .stamp();
        let now = seen.result.at;
        let said = (*condition, *held, stamp_side.as_str(), row_side.as_str());
        // No row with the stamp's id: only the id can be compared.
        let Some(row) = seen.rows.iter().find(|row| row.id == stamp.id) else {
            return expect(
                said,
                (Condition::Id, false, &stamp.id, ""),
                "the comparison",
            );
        };
        let (world, stamp_world, row_world) = r4(*condition, &stamp, row, now);
        let world = (*condition, world, stamp_world.as_str(), row_world.as_str());
        expect(said, world, "the comparison")?;
        // A lease met is the current row's: its holder is named.
        let named = (*held && *condition == Condition::LeaseUntil).then(|| row.owner.clone());
        expect(holder.clone(), named.flatten(), "whose lease")
    }

    /// How many orderings this world's timeline has: events! over each
    /// worker's events!, as the counting of them would find.
    fn ordering_count(&self) -> usize {
        let factorial = |n: usize| (1..=n).product::<usize>();
        let mut lanes: BTreeMap<&str, usize> = BTreeMap::new();
        for event in self.scenario.events() {
            *lanes.entry(&event.worker).or_default() += 1;
        }
        let below: usize = lanes.values().map(|n| factorial(*n)).product();
        factorial(self.scenario.events().len()) / below
    }

    /// Every ordering of this world's timeline (each worker's events in
    /// their order, the k-th event at the timeline's k-th time), played
    /// one by one on `side`: how many there are, and how many broke any
    /// invariant, then each of the four (a stale finish accepted, a job
    /// applied twice, two valid holders, a token handed out again).
    fn every_ordering(&self, side: Side) -> std::result::Result<(usize, [usize; 5]), String> {
        fn orders(lanes: &mut [Vec<usize>], prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if lanes.iter().all(Vec::is_empty) {
                out.push(prefix.clone());
            }
            for lane in 0..lanes.len() {
                if lanes[lane].is_empty() {
                    continue;
                }
                let event = lanes[lane].remove(0);
                prefix.push(event);
                orders(lanes, prefix, out);
                prefix.pop();
                lanes[lane].insert(0, event);
            }
        }
        let events = self.scenario.events();
        let mut lanes: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (index, event) in events.iter().enumerate() {
            lanes.entry(&event.worker).or_default().push(index);
        }
        let mut all = Vec::new();
        orders(
            &mut lanes.into_values().collect::<Vec<_>>(),
            &mut Vec::new(),
            &mut all,
        );
        let mut counts = [0; 5];
        let kinds = [
            Invariant::FinishPresentedCurrentToken,
            Invariant::AppliedOnce,
            Invariant::OneValidHolder,
            Invariant::TokensOnlyGrow,
        ];
        for order in &all {
            let reordered = (order.iter().zip(events))
                .map(|(&index, slot)| Event {
                    at: slot.at,
                    ..events[index].clone()
                })
                .collect();
            let scenario = Scenario::new(self.scenario.jobs().to_vec(), reordered)
                .map_err(|err| err.to_string())?;
            let checks = along(&scenario, side).map_err(|err| err.to_string())?;
            let broken: Vec<Invariant> = (checks.iter())
                .flat_map(|check| check.broken.iter().map(|broken| broken.invariant))
                .collect();
            counts[0] += usize::from(!broken.is_empty());
            for (kind, invariant) in kinds.iter().enumerate() {
                counts[kind + 1] += usize::from(broken.contains(invariant));
            }
        }
        Ok((all.len(), counts))
    }

    /// The first step (1 is the first event) at which `invariant` broke on
    /// `side`, playing the whole scenario afresh, and what broke.
    fn first_broken(
        &self,
        side: Side,
        invariant: Invariant,
    ) -> std::result::Result<Option<(usize, Broken)>, String> {
        let mut played = self.invariants.borrow_mut();
        if !played.iter().any(|(played, _)| *played == side) {
            let checks = along(&self.scenario, side).map_err(|err| err.to_string())?;
            played.push((side, checks));
        }
        let checks = (played.iter().find(|(played, _)| *played == side))
            .map(|(_, checks)| checks)
            .into_iter()
            .flatten();
        Ok(checks.into_iter().find_map(|check| {
            let broken = check.broken.iter().find(|b| b.invariant == invariant)?;
            Some((check.event + 1, broken.clone()))
        }))
    }

    fn seen(&self, event: usize) -> std::result::Result<&Seen, String> {
        self.seen
            .get(event)
            .ok_or(format!("no event {event} (of {})", self.seen.len()))
    }

    /// An event already applied at this screen's position.
    fn applied(&self, event: usize) -> std::result::Result<&Seen, String> {
        if event >= self.position {
            return Err(format!(
                "event {event} is not applied yet ({} are)",
                self.position
            ));
        }
        self.seen(event)
    }

    fn accepted(&self, event: usize) -> std::result::Result<bool, String> {
        match &self.seen(event)?.result.outcome {
            Outcome::Finished(done) => Ok(done.accepted()),
            other => Err(format!("event {event} is {other:?}")),
        }
    }

    fn naive(&self, guard: Guard) -> std::result::Result<&Unfenced, String> {
        (self.naive.iter())
            .find(|run| run.guard == guard)
            .ok_or(format!("no run of {guard:?} in this world"))
    }

    /// The lab's level `id`, when the lab is open on it with `sql` in its
    /// box: an answer beside another statement is a stale one.
    fn lab_level(&self, id: &str, sql: &str) -> std::result::Result<Level, String> {
        let (open, shown) = self.lab.as_ref().ok_or("no lab open")?;
        expect(id, open, "the level")?;
        expect(sql, shown.as_str(), "the statement in the box")?;
        Level::find(id).ok_or(format!("no level {id}"))
    }

    /// The table just after event `event`.
    fn rows_after(&self, event: usize) -> &[JobRow] {
        self.seen
            .get(event + 1)
            .map_or(&self.rows_at_end, |seen| &seen.rows)
    }

    /// The claims held after `position` events.
    fn held_after(&self, position: usize) -> &BTreeMap<String, Claim> {
        self.seen
            .get(position)
            .map_or(&self.held_at_end, |seen| &seen.held)
    }

    /// The first two workers, in name order, holding claims on one job.
    fn pair(&self, position: usize) -> std::result::Result<(String, String), String> {
        let held: Vec<(&String, &Claim)> = self.held_after(position).iter().collect();
        held.iter()
            .enumerate()
            .find_map(|(index, (first, claim))| {
                let (second, _) = held[index + 1..]
                    .iter()
                    .find(|(_, other)| other.id == claim.id)?;
                Some(((*first).clone(), (*second).clone()))
            })
            .ok_or("no two claims on one job".to_owned())
    }

    fn telling(
        &self,
        position: usize,
        first: &str,
        second: &str,
    ) -> std::result::Result<Vec<Field>, String> {
        let held = self.held_after(position);
        let (Some(one), Some(other)) = (held.get(first), held.get(second)) else {
            return Err(format!("{first} and {second} do not both hold claims"));
        };
        Ok((Field::ALL.into_iter())
            .filter(|field| field.of(one) != field.of(other))
            .collect())
    }
}

/// The job a claim event took.
fn claimed(seen: &Seen) -> Option<&String> {
    match &seen.result.outcome {
        Outcome::Claimed { claim } => claim.as_ref().map(|claim| &claim.id),
        _ => None,
    }
}

/// The lease a claim event got.
fn lease_of(seen: &Seen) -> Option<u64> {
    match &seen.result.outcome {
        Outcome::Claimed { claim: Some(claim) } => Some(claim.lease_until),
        _ => None,
    }
}

/// The row of `job` just before the event.
fn row<'a>(seen: &'a Seen, job: &str) -> std::result::Result<&'a JobRow, String> {
    (seen.rows.iter())
        .find(|row| row.id == job)
        .ok_or(format!("no row {job} before the event"))
}

/// `Ok` when the sentence's value is the world's.
fn expect<T: PartialEq + std::fmt::Debug>(
    said: T,
    world: T,
    what: &str,
) -> std::result::Result<(), String> {
    if said == world {
        Ok(())
    } else {
        Err(format!("{what}: said {said:?}, the world has {world:?}"))
    }
}

/// R4 in its own words: whether `stamp` meets `condition` against `row` at
/// `now`, with the two sides a sentence shows (the stamp's value or the
/// time, and the row's).
fn r4(condition: Condition, stamp: &Stamp, row: &JobRow, now: u64) -> (bool, String, String) {
    let null = |value: Option<String>| value.unwrap_or_else(|| "null".to_owned());
    match condition {
        Condition::Id => (row.id == stamp.id, stamp.id.clone(), row.id.clone()),
        Condition::Owner => (
            row.owner.as_ref() == Some(&stamp.owner),
            stamp.owner.clone(),
            null(row.owner.clone()),
        ),
        Condition::Token => (
            row.token == stamp.token,
            stamp.token.to_string(),
            row.token.to_string(),
        ),
        Condition::Attempt => (
            row.attempts == stamp.attempt,
            stamp.attempt.to_string(),
            row.attempts.to_string(),
        ),
        Condition::State => (
            row.state == JobState::Leased,
            String::new(),
            row.state.as_str().to_owned(),
        ),
        Condition::LeaseUntil => (
            row.lease_until.is_some_and(|until| now < until),
            now.to_string(),
            null(row.lease_until.map(|until| until.to_string())),
        ),
        Condition::Deadline => (
            now < row.deadline,
            now.to_string(),
            row.deadline.to_string(),
        ),
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

/// Whether `scenario`, played from its start on the queue and on the
/// queue with `sql` in place of the level's statement, agrees on every
/// event before `event` and there parts as said: the queue doing
/// `expected`, the learner's `current` (`None`: SQLite stopped it).
fn parted(
    level: &Level,
    sql: &str,
    scenario: &Scenario,
    event: usize,
    (expected, current): (&Did, Option<&Did>),
) -> std::result::Result<(), String> {
    let err = |err: leasefence::error::Error| err.to_string();
    let Writes::Statement(replaces) = level.writes else {
        return Err("a script is graded on interleavings, not events".to_owned());
    };
    let outside = Outside::new(replaces, sql).map_err(err)?;
    let mut queue = Player::new(scenario.first(0)).map_err(err)?;
    let mut learner = Player::new(scenario.first(0)).map_err(err)?;
    for (index, played) in scenario.events().iter().enumerate() {
        let did = |outcome: Outcome| match outcome {
            Outcome::Finished(finish) => Did::Finish {
                accepted: finish.accepted(),
            },
            Outcome::Claimed { claim } => Did::Claim { claim },
            _ => Did::Other,
        };
        let wanted = did(queue.play(played).map_err(err)?);
        let got = match (&played.action, replaces) {
            (Action::Finish, Replaces::Finish) => match learner.held_claim(&played.worker).cloned()
            {
                Some(claim) => (learner.queue())
                    .finish_outside(&outside, &claim.stamp(), played.at)
                    .map(|(accepted, _)| Did::Finish { accepted })
                    .ok(),
                None => Some(Did::Finish { accepted: false }),
            },
            (Action::Claim { lease_ms }, Replaces::Claim) => {
                let owner = played.claim_owner();
                let claimed =
                    (learner.queue()).claim_outside(&outside, owner, played.at, *lease_ms);
                claimed.ok().map(|claim| {
                    if let Some(claim) = &claim {
                        learner.hold(&played.worker, claim.clone());
                    }
                    Did::Claim { claim }
                })
            }
            _ => Some(did(learner.play(played).map_err(err)?)),
        };
        let rows_agree = queue.rows().map_err(err)? == learner.rows().map_err(err)?;
        if index < event {
            let agreed = got.as_ref() == Some(&wanted) && rows_agree;
            expect(true, agreed, &format!("the two agree at event {index}"))?;
        } else {
            expect(expected, &wanted, "what the queue did")?;
            expect(current, got.as_ref(), "what the learner's statement did")?;
            return Ok(());
        }
    }
    Err(format!("no event {event}"))
}
