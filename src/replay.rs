//! Replaying a scenario on a fresh in-memory queue and receiver.
//!
//! Each actor remembers the last claim it received, the way a real worker
//! holds its claim in memory: a claim that finds nothing, a finish and a
//! send leave that memory as it was, so a late actor can still present an
//! old stamp. [`Player`] applies one event at a time (the playground steps
//! with it); [`replay`] runs them all and returns the contract's document.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::error::Result;
use crate::error::{Error, Problem};
use crate::fence::Finish;
use crate::fence::Verdict;
use crate::model::{Claim, JobRow, Reason};
use crate::queue::Queue;
use crate::receiver::Receiver;
use crate::scenario::{Action, Event, MAX_EVENTS, Order, Scenario};

/// The replay document: one result per event, the final rows and what the
/// receiver applied. Identical on every target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replay {
    /// One entry per event, in order.
    pub results: Vec<EventResult>,
    /// The jobs table at the end, in enqueue order.
    pub rows: Vec<JobRow>,
    /// Job id -> qty the receiver applied.
    pub receiver: BTreeMap<String, u64>,
}

/// What one event did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventResult {
    /// Index of the event in the scenario.
    pub event: usize,
    /// Its time.
    pub at: u64,
    /// Its actor.
    pub worker: String,
    /// Its action's name.
    #[serde(rename = "do")]
    pub action: &'static str,
    /// What came of it.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// The action-specific part of an [`EventResult`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Outcome {
    /// A claim, or `None` when nothing was claimable.
    Claimed {
        /// The claim received.
        claim: Option<Claim>,
    },
    /// A finish, accepted or rejected.
    Finished(Finish),
    /// A delivery to the receiver.
    Sent {
        /// `true` the first time the job id reached the receiver.
        applied: bool,
        /// `no_claim` when the actor held no claim to send.
        reason: Option<Reason>,
    },
    /// A job put on the queue.
    Enqueued {
        /// The job as stored.
        job: JobRow,
    },
}

impl Outcome {
    /// The page's one-word label of the result: `claimed`, `empty`,
    /// `accepted`, `rejected`, `applied`, `duplicate`, `no_claim` (a send
    /// by an actor holding no claim) or `enqueued`.
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Claimed { claim: Some(_) } => "claimed",
            Outcome::Claimed { claim: None } => "empty",
            Outcome::Finished(finish) if finish.accepted() => "accepted",
            Outcome::Finished(_) => "rejected",
            Outcome::Sent {
                reason: Some(_), ..
            } => "no_claim",
            Outcome::Sent { applied: true, .. } => "applied",
            Outcome::Sent { .. } => "duplicate",
            Outcome::Enqueued { .. } => "enqueued",
        }
    }

    /// The job the event was about: the claimed, finished or enqueued job
    /// (a send names none: it delivers whatever its actor holds).
    pub fn job_id(&self) -> Option<&str> {
        match self {
            Outcome::Claimed { claim } => claim.as_ref().map(|claim| claim.id.as_str()),
            Outcome::Finished(finish) => finish.expected.as_ref().map(|stamp| stamp.id.as_str()),
            Outcome::Enqueued { job } => Some(job.id.as_str()),
            Outcome::Sent { .. } => None,
        }
    }
}

/// Steps through a scenario one event at a time.
#[derive(Debug)]
pub struct Player {
    scenario: Scenario,
    queue: Queue,
    receiver: Receiver,
    memory: BTreeMap<String, Claim>,
    next: usize,
    /// What an added event must agree with (see [`Player::push`]).
    order: Order,
}

impl Player {
    /// Sets up a fresh queue holding the scenario's jobs. Every
    /// [`Scenario`] was checked by its reader; what an event added later
    /// must agree with (time, ids used) is read off it here.
    pub fn new(scenario: Scenario) -> Result<Player> {
        Player::on(Queue::open_in_memory()?, scenario)
    }

    /// Sets up `queue`, which holds no job, with the scenario's jobs.
    fn on(queue: Queue, scenario: Scenario) -> Result<Player> {
        let order = scenario.checked_order()?;
        for job in scenario.jobs() {
            queue.enqueue(job)?;
        }
        Ok(Player {
            queue,
            receiver: Receiver::open_in_memory()?,
            memory: BTreeMap::new(),
            next: 0,
            order,
            scenario,
        })
    }

    /// Goes back to an earlier point of this playing, for a caller that
    /// tries every ordering of the same events from a shared prefix: each
    /// actor holds `claims` (as [`Player::held_claims`] said then), the
    /// table goes from `now` back to `then` (as [`Player::rows`] said now
    /// and then), and the deliveries of the ids in `delivered`, made since
    /// then, are taken back. The position does not move.
    pub fn go_back(
        &mut self,
        claims: &BTreeMap<String, Claim>,
        (now, then): (&[JobRow], &[JobRow]),
        delivered: &[String],
    ) -> Result<()> {
        self.queue.put_back(now, then)?;
        self.receiver.take_back(delivered)?;
        self.memory.clone_from(claims);
        Ok(())
    }

    /// Notes that `worker` now holds `claim`, one it got another way than
    /// [`Player::play`] (a claim run on [`Player::queue`] with
    /// [`Queue::claim_outside`]), as `play` notes the claims it makes.
    pub fn hold(&mut self, worker: &str, claim: Claim) {
        self.memory.insert(worker.to_owned(), claim);
    }

    /// The claim each actor holds in memory, by worker.
    pub fn held_claims(&self) -> &BTreeMap<String, Claim> {
        &self.memory
    }

    /// The queue the events are played on: for a caller that runs some of
    /// them another way ([`Queue::finish_with`]).
    pub fn queue(&self) -> &Queue {
        &self.queue
    }

    /// From now on, write down the SQL each step runs (see
    /// [`Player::take_sql`]).
    pub fn record_sql(&self) {
        self.queue.record_sql(true);
    }

    /// The statements run since the last call, if recording.
    pub fn take_sql(&self) -> Vec<crate::store::Executed> {
        self.queue.take_sql()
    }

    /// The ids of the jobs changed since the last call, if recording.
    pub fn take_touched(&self) -> Vec<String> {
        self.queue.take_touched()
    }

    /// The scenario being played.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// How many events have been applied.
    pub fn position(&self) -> usize {
        self.next
    }

    /// The claim an actor holds in memory, if any.
    pub fn held_claim(&self, worker: &str) -> Option<&Claim> {
        self.memory.get(worker)
    }

    /// One job as it is now.
    pub fn row(&self, id: &str) -> Result<Option<JobRow>> {
        self.queue.row(id)
    }

    /// The jobs table as it is now.
    pub fn rows(&self) -> Result<Vec<JobRow>> {
        self.queue.rows()
    }

    /// What the receiver has applied so far.
    pub fn receiver(&self) -> Result<BTreeMap<String, u64>> {
        self.receiver.applied()
    }

    /// Applies the next event; `None` when all have been applied.
    pub fn step(&mut self) -> Result<Option<EventResult>> {
        let Some(event) = self.scenario.events().get(self.next).cloned() else {
            return Ok(None);
        };
        let outcome = self.play(&event)?;
        Ok(Some(self.played(&event, outcome)))
    }

    /// Adds `event` to the end of the timeline and applies it: a timeline
    /// written live, one event at a time, by a caller that supplies the
    /// time. The event is checked as if it had been in the document (its
    /// fields; time does not go back; a job id is used once); a refused
    /// event changes nothing. Every earlier event must have been applied.
    pub fn push(&mut self, event: Event) -> Result<EventResult> {
        let index = self.scenario.events().len();
        if self.next < index {
            return Err(Error::invalid(
                "events",
                Problem::NotPlayedThrough {
                    applied: self.next,
                    total: index,
                },
            ));
        }
        if index >= MAX_EVENTS {
            return Err(Error::invalid(
                "events",
                Problem::TooMany {
                    what: "events",
                    max: MAX_EVENTS,
                },
            ));
        }
        event.check(index)?;
        self.order.check(index, &event)?;
        let outcome = self.play(&event)?;
        self.order.record(&event);
        let result = self.played(&event, outcome);
        self.scenario.push_checked(event);
        Ok(result)
    }

    /// The result of the event at the current position, which moves on.
    fn played(&mut self, event: &Event, outcome: Outcome) -> EventResult {
        let result = EventResult {
            event: self.next,
            at: event.at,
            worker: event.worker.clone(),
            action: event.action.name(),
            outcome,
        };
        self.next += 1;
        result
    }

    /// Applies `event` as `event.worker` at `event.at`, whether or not it
    /// is the document's next: for a caller that explores other orderings
    /// of the same events ([`Player::go_back`]) or plays some of them
    /// another way. It is not checked against the document (its time may
    /// go back) and the position does not move.
    pub fn play(&mut self, event: &Event) -> Result<Outcome> {
        Ok(match &event.action {
            Action::Claim { lease_ms } => {
                let claim = self.queue.claim(event.claim_owner(), event.at, *lease_ms)?;
                if let Some(claim) = &claim {
                    self.memory.insert(event.worker.clone(), claim.clone());
                }
                Outcome::Claimed { claim }
            }
            Action::Finish => match self.memory.get(&event.worker) {
                Some(claim) => Outcome::Finished(self.queue.finish(&claim.stamp(), event.at)?),
                None => Outcome::Finished(Finish {
                    verdict: Verdict::NoClaim,
                    expected: None,
                    current: None,
                }),
            },
            Action::Send => match self.memory.get(&event.worker) {
                Some(claim) => Outcome::Sent {
                    applied: self.receiver.deliver(&claim.id, claim.qty)?,
                    reason: None,
                },
                None => Outcome::Sent {
                    applied: false,
                    reason: Some(Reason::NoClaim),
                },
            },
            Action::Enqueue(job) => Outcome::Enqueued {
                job: self.queue.enqueue(job)?,
            },
        })
    }
}

/// Replays every event of `scenario` and returns the contract's document.
pub fn replay(scenario: Scenario) -> Result<Replay> {
    replay_on(Queue::open_in_memory()?, scenario)
}

/// Replays every event of `scenario` on `queue`, which must hold no job
/// (a file or a database of any engine), and leaves the end state there:
/// the document is [`replay`]'s, whatever the engine. The receiver is the
/// replay's own, in memory.
pub fn replay_on(queue: Queue, scenario: Scenario) -> Result<Replay> {
    let mut player = Player::on(queue, scenario)?;
    let mut results = Vec::with_capacity(player.scenario().events().len());
    while let Some(result) = player.step()? {
        results.push(result);
    }
    Ok(Replay {
        results,
        rows: player.rows()?,
        receiver: player.receiver()?,
    })
}

/// Parses a scenario document and replays it: the one call behind
/// `leasefence replay` and the browser's `replay()`.
pub fn replay_json(scenario_json: &str) -> Result<Replay> {
    replay(Scenario::parse(scenario_json)?)
}
