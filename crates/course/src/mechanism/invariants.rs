//! Live invariants: four facts checked after every step of a timeline, so
//! a learner sees them hold with the fence and sees the step where one
//! breaks without it.
//!
//! * **One valid holder**: no two actors hold claims on one job whose
//!   leases are both still valid (`at < lease_until`, R5). A lease is
//!   judged from the claim the actor holds, as the actor would act on it.
//! * **An accepted finish presented the current token**: the row's token
//!   just before the finish equals the stamp's (R4).
//! * **Tokens only grow**: a row's token never goes down, and a claim
//!   hands out a token greater than any the job had before (R2).
//! * **Applied once**: the receiver applied each job at most once (R12).
//!
//! The real side is read from a [`Timeline`] (what the page steps through)
//! or played afresh. A naive side swaps one part for a teaching
//! [`Variant`] and keeps the rest real: a naive finish
//! ([`crate::variants::unfenced`]) beside the real receiver, or the real queue
//! beside a receiver without its ledger, which applies whatever arrives.
//! So a broken invariant is that one part's fault. Every side feeds one
//! [`Checker`].

use std::collections::BTreeMap;

use serde::Serialize;

use crate::timeline::Timeline;
use crate::variants::Guard;
use crate::variants::Variant;
use crate::variants::unfenced;
use leasefence::error::Result;
use leasefence::model::{Claim, JobRow, Stamp};
use leasefence::replay::{Outcome, Player};
use leasefence::scenario::{Action, Event, Scenario};

use super::statements::Run;

/// One of the four invariants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Invariant {
    /// At most one valid holder per job.
    OneValidHolder,
    /// An accepted finish presented the current token.
    FinishPresentedCurrentToken,
    /// Tokens only grow.
    TokensOnlyGrow,
    /// The receiver applied each job once.
    AppliedOnce,
}

/// An invariant broken at one step, and the job it broke for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Broken {
    /// Which invariant.
    pub invariant: Invariant,
    /// The job.
    pub job: String,
    /// The actors involved (the holders, the finisher, the sender).
    pub workers: Vec<String>,
}

/// The invariants after one event: green when nothing is broken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepCheck {
    /// The event's index.
    pub event: usize,
    /// Its time.
    pub at: u64,
    /// What broke at this step (empty: all four hold).
    pub broken: Vec<Broken>,
}

/// Which system plays a scenario: the real one, or the real one with one
/// part naive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The real queue and receiver.
    Fenced,
    /// The finish guarded by `guard` only; the receiver keeps its ledger.
    Unfenced(Guard),
    /// The real queue; the receiver applies every delivery.
    ReceiverWithoutLedger,
}

impl Side {
    /// The teaching variant this side runs; `None` for the real system.
    pub fn variant(self) -> Option<Variant> {
        match self {
            Side::Fenced => None,
            Side::Unfenced(guard) => Some(Variant::finish(guard)),
            Side::ReceiverWithoutLedger => Some(Variant::ReceiverWithoutLedger),
        }
    }

    /// Whether this side can differ from the real system on `scenario`:
    /// a receiver without its ledger only where something is sent.
    pub fn applies_to(self, scenario: &Scenario) -> bool {
        match self {
            Side::ReceiverWithoutLedger => scenario
                .events()
                .iter()
                .any(|event| event.action == Action::Send),
            Side::Fenced | Side::Unfenced(_) => true,
        }
    }

    /// The side that runs `variant`; `None` for a variant no event-level
    /// side plays (the statement panel's two are statement-level ones;
    /// the points' boundary readings and rejected designs run their own).
    pub fn of(variant: Variant) -> Option<Side> {
        match variant {
            Variant::IdOnlyFinish => Some(Side::Unfenced(Guard::IdOnly)),
            Variant::IdAndOwnerFinish => Some(Side::Unfenced(Guard::IdAndOwner)),
            Variant::ReceiverWithoutLedger => Some(Side::ReceiverWithoutLedger),
            Variant::ReadThenWriteClaim
            | Variant::SendInsideTransaction
            | Variant::FinishAtLeaseEnd
            | Variant::ClaimAfterLeaseEnd
            | Variant::DeleteOnClaim
            | Variant::LeaveVisible => None,
        }
    }
}

/// What one step showed, as the checker needs it.
#[derive(Debug)]
pub(crate) struct Seen<'a> {
    pub at: u64,
    pub worker: &'a str,
    /// Actor -> the claim it holds after the step.
    pub holding: &'a BTreeMap<String, Claim>,
    /// The table after the step.
    pub rows: Vec<&'a JobRow>,
    /// A finish: the stamp presented, whether it was accepted, the row
    /// just before it.
    pub finish: Option<(&'a Stamp, bool, Option<&'a JobRow>)>,
    /// The job the receiver applied at this step.
    pub applied: Option<&'a str>,
}

/// Keeps what the invariants need from earlier steps. Cloned and compared
/// by the census, which goes back to shared prefixes and recognises a
/// state it has counted before.
#[derive(Debug, Default, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Checker {
    /// Job -> the highest token it has had.
    tokens: BTreeMap<String, u64>,
    /// Actor -> the claim it held before this step.
    held: BTreeMap<String, Claim>,
    /// Job -> how many times the receiver applied it.
    applied: BTreeMap<String, u64>,
}

impl Checker {
    /// Checks one step and remembers it.
    pub(crate) fn step(&mut self, seen: &Seen<'_>) -> Vec<Broken> {
        let mut broken = Vec::new();
        // Job -> the workers whose claims on it are still valid. `holding`
        // is keyed by actor, so each job's workers come in name order, and
        // the jobs (and their `OneValidHolder` entries) in the order of
        // their first valid holder's name.
        let mut valid: Vec<(&str, Vec<String>)> = Vec::new();
        for (worker, claim) in seen.holding {
            if seen.at < claim.lease_until {
                match valid.iter_mut().find(|(job, _)| *job == claim.id) {
                    Some((_, workers)) => workers.push(worker.clone()),
                    None => valid.push((&claim.id, vec![worker.clone()])),
                }
            }
        }
        for (job, workers) in valid.into_iter().filter(|(_, w)| w.len() > 1) {
            broken.push(broke(Invariant::OneValidHolder, job, workers));
        }
        if let Some((stamp, true, before)) = seen.finish
            && before.is_none_or(|row| row.token != stamp.token)
        {
            let who = vec![seen.worker.to_owned()];
            broken.push(broke(
                Invariant::FinishPresentedCurrentToken,
                &stamp.id,
                who,
            ));
        }
        self.tokens_grow(seen, &mut broken);
        if let Some(job) = seen.applied {
            let count = self.applied.entry(job.to_owned()).or_default();
            *count += 1;
            if *count > 1 {
                let who = vec![seen.worker.to_owned()];
                broken.push(broke(Invariant::AppliedOnce, job, who));
            }
        }
        self.held.clone_from(seen.holding);
        broken
    }

    /// What later steps, all at `at` or after, can tell of this memory: a
    /// lease that ended by `at` is over for each of them alike, so its end
    /// reads `at` (see the census's tree, which merges such states).
    pub(crate) fn see_from(&mut self, at: u64) {
        for claim in self.held.values_mut() {
            claim.lease_until = claim.lease_until.max(at);
        }
    }

    /// Actor -> the claim it holds after the last step: the actors'
    /// memories, from which the census rebuilds a player's.
    pub(crate) fn held(&self) -> &BTreeMap<String, Claim> {
        &self.held
    }

    /// Rows never go down in token; a new claim's token is above the
    /// job's highest before it. Judged against the highest tokens before
    /// the step, which are raised afterwards.
    fn tokens_grow(&mut self, seen: &Seen<'_>, broken: &mut Vec<Broken>) {
        let highest = |job: &str| self.tokens.get(job).copied().unwrap_or(0);
        for (worker, claim) in seen.holding {
            let new = self.held.get(worker) != Some(claim);
            if new && claim.token <= highest(&claim.id) {
                broken.push(broke(
                    Invariant::TokensOnlyGrow,
                    &claim.id,
                    vec![worker.clone()],
                ));
            }
        }
        for row in &seen.rows {
            if row.token < highest(&row.id) {
                broken.push(broke(Invariant::TokensOnlyGrow, &row.id, Vec::new()));
            }
        }
        let claims = seen.holding.values().map(|claim| (&claim.id, claim.token));
        let rows = seen.rows.iter().map(|row| (&row.id, row.token));
        for (job, token) in claims.chain(rows) {
            match self.tokens.get_mut(job) {
                Some(top) => *top = (*top).max(token),
                None => drop(self.tokens.insert(job.clone(), token)),
            }
        }
    }
}

fn broke(invariant: Invariant, job: &str, workers: Vec<String>) -> Broken {
    Broken {
        invariant,
        job: job.to_owned(),
        workers,
    }
}

/// The invariants at every step of a real timeline (the page's frames).
pub fn along_timeline(timeline: &Timeline) -> Vec<StepCheck> {
    let mut checker = Checker::default();
    let mut checks = Vec::with_capacity(timeline.frames.len());
    for (index, frame) in timeline.frames.iter().enumerate() {
        let result = &frame.result;
        let before = timeline.rows_after(index);
        let finish = match &result.outcome {
            Outcome::Finished(finish) => finish.expected.as_ref().map(|stamp| {
                let row = before.iter().copied().find(|row| row.id == stamp.id);
                (stamp, finish.accepted(), row)
            }),
            _ => None,
        };
        let applied = match result.outcome {
            Outcome::Sent { applied: true, .. } => frame.holding.get(&result.worker),
            _ => None,
        };
        let seen = Seen {
            at: result.at,
            worker: &result.worker,
            holding: &frame.holding,
            rows: timeline.rows_after(index + 1),
            finish,
            applied: applied.map(|claim| claim.id.as_str()),
        };
        checks.push(StepCheck {
            event: index,
            at: result.at,
            broken: checker.step(&seen),
        });
    }
    checks
}

/// The invariants at every step of a statement-level run (one check per
/// step; `event` is the step's index). Only the holders and their tokens
/// are known per step, so this checks one valid holder and tokens only
/// growing: the two the naive claim breaks.
pub fn along_statements(run: &Run) -> Vec<StepCheck> {
    let mut checker = Checker::default();
    let checks = run.steps.iter().enumerate().map(|(index, step)| {
        let seen = Seen {
            at: step.at,
            worker: &step.actor,
            holding: &step.holding,
            rows: Vec::new(),
            finish: None,
            applied: None,
        };
        StepCheck {
            event: index,
            at: step.at,
            broken: checker.step(&seen),
        }
    });
    checks.collect()
}

/// Plays `scenario` on `side` and checks the invariants after every event.
pub fn along(scenario: &Scenario, side: Side) -> Result<Vec<StepCheck>> {
    let mut player = Player::new(scenario.first(0))?;
    let mut checks = Vec::with_capacity(scenario.events().len());
    walk(&mut player, scenario, side, |check| {
        checks.push(check);
        true
    })?;
    Ok(checks)
}

/// Plays the events of a checked `scenario` on `side`, on a `player` at
/// its start with the scenario's jobs, handing each step's check to
/// `each` while it returns `true`.
pub(crate) fn walk(
    player: &mut Player,
    scenario: &Scenario,
    side: Side,
    mut each: impl FnMut(StepCheck) -> bool,
) -> Result<()> {
    let (mut checker, mut rows) = (Checker::default(), player.rows()?);
    for (index, event) in scenario.events().iter().enumerate() {
        let broken = play(player, &mut checker, &mut rows, side, (index, event))?;
        let check = StepCheck {
            event: index,
            at: event.at,
            broken,
        };
        if !each(check) {
            break;
        }
    }
    Ok(())
}

/// Plays one event on `side` and checks it. `rows` is the table before
/// the step (the caller keeps it, so a finish's row before it costs no
/// read) and becomes the table after it. The census of every ordering
/// calls this for each step it takes, so an ordering is judged exactly as
/// [`along`] judges a timeline.
pub(crate) fn play(
    player: &mut Player,
    checker: &mut Checker,
    rows: &mut Vec<JobRow>,
    side: Side,
    (index, event): (usize, &Event),
) -> Result<Vec<Broken>> {
    let held = player.held_claim(&event.worker).cloned();
    let before = match (&event.action, &held) {
        (Action::Finish, Some(claim)) => rows.iter().find(|row| row.id == claim.id).cloned(),
        _ => None,
    };
    let real = |player: &mut Player| -> Result<(bool, bool)> {
        Ok(match player.play(event)? {
            Outcome::Finished(finish) => (finish.accepted(), false),
            Outcome::Sent { applied, .. } => (false, applied),
            _ => (false, false),
        })
    };
    let (accepted, delivered) = match side {
        Side::Fenced => real(player)?,
        // The naive finish is applied here; anything else as the real
        // system does, the receiver's ledger included.
        Side::Unfenced(guard) if event.action == Action::Finish => {
            let naive = unfenced::apply(player, guard, index, event)?;
            (naive.is_some_and(|finish| finish.accepted), false)
        }
        Side::Unfenced(_) => real(player)?,
        // Without a ledger every delivery of a held claim counts.
        Side::ReceiverWithoutLedger => {
            let (accepted, _) = real(player)?;
            (accepted, event.action == Action::Send && held.is_some())
        }
    };
    *rows = player.rows()?;
    let stamp = held.as_ref().map(Claim::stamp);
    // The actors' memories are the claims each holds: a claim that finds
    // nothing, a finish and a send leave them as they were.
    let seen = Seen {
        at: event.at,
        worker: &event.worker,
        holding: player.held_claims(),
        rows: rows.iter().collect(),
        finish: (event.action == Action::Finish)
            .then_some(stamp.as_ref())
            .flatten()
            .map(|stamp| (stamp, accepted, before.as_ref())),
        applied: delivered
            .then(|| held.as_ref().map(|c| c.id.as_str()))
            .flatten(),
    };
    Ok(checker.step(&seen))
}
