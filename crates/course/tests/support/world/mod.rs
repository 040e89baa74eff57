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
use leasefence_course::lab::{Did, Graded, Level, Shortest, Writes, grade};
use leasefence_course::mechanism::Refusal;
use leasefence_course::mechanism::invariants::{Broken, Invariant, Side, StepCheck, along};
use leasefence_course::mechanism::races;
use leasefence_course::mechanism::statements::{Does, Run, StepKind};
use leasefence_course::playground::CHAPTERS;
use leasefence_course::playground::assertions::{
    Assertion, Carried, LockNow, RunFact, Standing, StepDid,
};
use leasefence_course::playground::chapter_scenarios;
use leasefence_course::playground::quiz::field::Field;
use leasefence_course::playground::statements::{Race, SEND_MS};
use leasefence_course::variants::Guard;
use leasefence_course::variants::unfenced::{self, Unfenced};

mod by_hand;
mod events;
mod lab;
mod panels;
mod statements;
mod variants;

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
                let graded = grade(&level, sql, &chapter_scenarios())?;
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
            Assertion::Run { .. } | Assertion::TakenApart { .. } | Assertion::Moment { .. } => {
                self.statement_fact(assertion)
            }
            Assertion::Read { .. } | Assertion::Designed { .. } => self.variant_fact(assertion),
            Assertion::LabPassed { .. }
            | Assertion::LabParted { .. }
            | Assertion::LabRaced { .. }
            | Assertion::LabTables { .. }
            | Assertion::LabEvents { .. }
            | Assertion::Because { .. } => self.lab_fact(assertion),
            Assertion::Agree { .. }
            | Assertion::Differ { .. }
            | Assertion::Tells { .. }
            | Assertion::At { .. }
            | Assertion::Spans { .. }
            | Assertion::BothHold { .. }
            | Assertion::Carries { .. }
            | Assertion::Picked { .. }
            | Assertion::Values { .. }
            | Assertion::Kept { .. }
            | Assertion::Broke { .. }
            | Assertion::Breaks { .. }
            | Assertion::BreaksAtEnd { .. }
            | Assertion::Orderings { .. }
            | Assertion::Counted { .. } => self.panel_fact(assertion),
            _ => self.event_fact(assertion),
        }
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

    /// The table just after event `event`.
    fn rows_after(&self, event: usize) -> &[JobRow] {
        self.rows_at(event + 1)
    }

    /// The table after `position` events.
    fn rows_at(&self, position: usize) -> &[JobRow] {
        self.seen
            .get(position)
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
