//! Scenarios: a timeline of actors claiming, sending and finishing, as data.
//!
//! The same JSON drives the command line's `replay`, the golden tests and
//! the browser playground, so all three cannot drift apart. A scenario is
//! checked whole before anything runs: a malformed one is refused with the
//! path of the first bad field (`events[2].lease_ms`), and nothing of it is
//! applied.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Problem, Result};
use crate::model::{NewJob, check_int, check_name};

/// The most events (and the most jobs) one scenario may hold.
pub const MAX_EVENTS: usize = 100_000;

/// The actor of an `enqueue` written without `worker`. An enqueue is the
/// producer's, not a worker's: it holds no claim and presents no stamp, so
/// the contract asks no name of it. The replay document still names an
/// actor for every event, and this is the name it shows;
/// [`Scenario::to_json`] leaves it out again.
pub const PRODUCER: &str = "producer";

/// A checked scenario: jobs to start with and a timeline of events. Its
/// fields are private, so every `Scenario` was checked by one of its
/// readers: [`Scenario::parse`] (text, with the line and column of a
/// mistake), [`Scenario::from_value`] (a JavaScript object, as a JSON
/// value) and [`Scenario::new`] (built in code).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scenario {
    /// Jobs on the queue before the first event.
    jobs: Vec<NewJob>,
    /// The timeline, in non-decreasing `at` order.
    events: Vec<Event>,
}

/// One thing an actor does at one instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// When, in milliseconds.
    pub at: u64,
    /// The actor (one process) that acts; [`PRODUCER`] for an enqueue
    /// written without one.
    pub worker: String,
    /// The name it claims under; `None` means its worker name (R8).
    pub owner: Option<String>,
    /// What it does.
    pub action: Action,
}

impl Event {
    /// Reads and checks one event that arrived on its own as a JSON value
    /// (a JavaScript object), as the event at `index` of a timeline: the
    /// checks and messages of [`Scenario::from_value`] (errors name
    /// `events[index].field`). Its place in time and its job id are
    /// checked where it is added ([`crate::Player::push`]).
    pub fn from_value(value: serde_json::Value, index: usize) -> Result<Event> {
        let place = format!("events[{index}]");
        event_from_written(
            index,
            &from_json_value(&value, &place, &format!("{place}."))?,
        )
    }

    /// Checks the event's own fields as the event at `index` of a timeline
    /// (errors name `events[index].field`): times and leases are integers
    /// in range, names are well formed, an enqueued job is valid.
    pub fn check(&self, index: usize) -> Result<()> {
        let field = |name: &str| format!("events[{index}].{name}");
        check_int(&field("at"), self.at, 0).map_err(at_path)?;
        check_name(&field("worker"), &self.worker).map_err(at_path)?;
        if let Some(owner) = &self.owner {
            check_name(&field("owner"), owner).map_err(at_path)?;
        }
        match &self.action {
            Action::Claim { lease_ms } => check_int(&field("lease_ms"), *lease_ms, 1)
                .map(drop)
                .map_err(at_path),
            Action::Enqueue(job) => job.validate(&field("job.")).map_err(at_path),
            Action::Finish | Action::Send => Ok(()),
        }
    }

    /// The name a claim by this actor is made under.
    pub fn claim_owner(&self) -> &str {
        self.owner.as_deref().unwrap_or(&self.worker)
    }
}

/// What an event does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Claim the first claimable job for `lease_ms`.
    Claim {
        /// Requested lease length.
        lease_ms: u64,
    },
    /// Finish the claim the actor holds in memory.
    Finish,
    /// Deliver the claimed job's qty to the receiver (R12).
    Send,
    /// Put a new job on the queue.
    Enqueue(NewJob),
}

impl Action {
    /// The contract's name for it (`"claim"`, `"finish"`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Action::Claim { .. } => "claim",
            Action::Finish => "finish",
            Action::Send => "send",
            Action::Enqueue(_) => "enqueue",
        }
    }
}

/// The document as written: every field optional, unknown fields refused,
/// so that a typo is reported instead of ignored.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WrittenScenario {
    #[serde(default)]
    jobs: Vec<NewJob>,
    events: Vec<WrittenEvent>,
}

/// One event as written, for a document of the caller's that holds a
/// scenario's two keys (`jobs`, `events`) among keys of its own: the
/// caller declares `events: Vec<WrittenEvent>` (and `jobs:
/// Vec<NewJob>`) in its document, reads the document with
/// [`read_document`] and checks the two with [`Scenario::from_written`],
/// so a mistake is placed as [`Scenario::parse`] places it (path, line
/// and column). The course's lessons are such documents: a scenario with
/// a title and a narration.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenEvent {
    at: u64,
    /// Required of every action but `enqueue` ([`PRODUCER`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    worker: Option<String>,
    #[serde(rename = "do")]
    action: WrittenAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    owner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lease_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    job: Option<NewJob>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum WrittenAction {
    Claim,
    Finish,
    Send,
    Enqueue,
}

fn refuse(path: impl Into<String>, problem: Problem) -> Error {
    Error::Scenario {
        path: path.into(),
        problem,
    }
}

/// Re-labels a field check's error with its place in the document.
fn at_path(err: Error) -> Error {
    match err {
        Error::InvalidInput { field, problem } => refuse(field, problem),
        other => other,
    }
}

/// Refuses a scenario too large for one page or process to hold.
fn check_counts(jobs: usize, events: usize) -> Result<()> {
    for (what, count) in [("jobs", jobs), ("events", events)] {
        if count > MAX_EVENTS {
            return Err(refuse(
                what,
                Problem::TooMany {
                    what,
                    max: MAX_EVENTS,
                },
            ));
        }
    }
    Ok(())
}

/// Reads text that should hold a scenario as `JSON.parse` would, into a
/// JSON value for [`Scenario::from_value`]: a key given twice keeps its
/// last value. Text that is not JSON is refused as [`Scenario::parse`]
/// refuses it: at the last place the parser knew, with the line and
/// column. The JavaScript API reads a scenario given as text this way, and
/// the playground's editor reads text it adds to.
pub fn read_json(text: &str) -> Result<serde_json::Value> {
    serde_json::from_str(text).map_err(|_| {
        // Not JSON: the scenario parser says where, as `parse` says it (it
        // reads the same text the same way up to the mistake, and its
        // code is in the module anyway, where a second path-tracking
        // reader of values would cost the page 1.3 KB).
        match Scenario::parse(text) {
            Err(refused) => refused,
            Ok(_) => Error::Internal {
                what: "text that is not JSON parsed as a scenario".into(),
            },
        }
    })
}

/// Reads a document of the caller's that holds a scenario's keys (see
/// [`WrittenEvent`]), placing a mistake as [`Scenario::parse`] does: the
/// path of the first bad field, and a syntax error's line and column.
pub fn read_document<T: serde::de::DeserializeOwned>(json: &str) -> Result<T> {
    deserialize(json, "(document)", "")
}

/// Reads `json` as a `T`, naming the first bad field's place: `whole` when
/// the problem is the value itself or trailing text, else `within`
/// followed by the field's path. A syntax error is placed at the last
/// field the parser knew (its path ends in `?` past it) and tells its line
/// and column.
fn deserialize<T: serde::de::DeserializeOwned>(json: &str, whole: &str, within: &str) -> Result<T> {
    read(json, whole, within, true)
}

/// Reads a `T` from a JSON value (a JavaScript object, or text read as
/// `JSON.parse` reads it), naming the first bad field's place as
/// [`read_document`] does: `whole` when the problem is the value itself,
/// else `within` followed by the field's path. The value is read as its own JSON text, by the
/// reader of documents: the browser's module then holds one reader of each
/// type, not one for text and one for values. Its keys are written in key
/// order, so the field named is the first wrong one in key order. A value
/// has no lines, so the message says none.
pub fn from_json_value<T: serde::de::DeserializeOwned>(
    value: &serde_json::Value,
    whole: &str,
    within: &str,
) -> Result<T> {
    let json = serde_json::to_string(value).map_err(|err| Error::Internal {
        what: format!("a JSON value not written as text: {err}"),
    })?;
    read(&json, whole, within, false)
}

/// [`deserialize`], the line and column of a mistake said (`placed`) or
/// not.
fn read<T: serde::de::DeserializeOwned>(
    json: &str,
    whole: &str,
    within: &str,
    placed: bool,
) -> Result<T> {
    let mut de = serde_json::Deserializer::from_str(json);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = known_path(err.path());
        let place = if path.is_empty() {
            whole.to_owned()
        } else {
            format!("{within}{path}")
        };
        refuse(place, json_problem(&err.into_inner(), placed))
    })?;
    de.end()
        .map_err(|err| refuse(whole, json_problem(&err, placed)))?;
    Ok(value)
}

/// The part of a parser's path that names a field: `events[0]` of
/// `events[0].?` (`?` is where the parser lost track, inside text that is
/// not JSON), and nothing of `.` (the value itself).
fn known_path(path: &serde_path_to_error::Path) -> String {
    let path = path.to_string();
    path.trim_end_matches('?').trim_end_matches('.').to_owned()
}

/// The parser's complaint, sorted: text that is not JSON, or JSON whose
/// values do not fit; its line and column said (`placed`) or not.
fn json_problem(err: &serde_json::Error, placed: bool) -> Problem {
    let mut text = err.to_string();
    // serde_json ends a placed message with " at line L column C".
    if !placed && err.line() > 0 {
        let end = format!(" at line {} column {}", err.line(), err.column());
        if text.ends_with(&end) {
            text.truncate(text.len() - end.len());
        }
    }
    if err.is_data() {
        Problem::Unfit(text)
    } else {
        Problem::Syntax(text)
    }
}

/// Builds one event from what was written, refusing a field its action
/// does not take or lacks one it needs, then checks its values.
fn event_from_written(index: usize, event: &WrittenEvent) -> Result<Event> {
    let field = |name: &str| format!("events[{index}].{name}");
    let action = match (event.action, event.lease_ms, &event.job) {
        (WrittenAction::Claim, None, _) => {
            return Err(refuse(field("lease_ms"), Problem::LeaseMissing));
        }
        (_, Some(_), _) if event.action != WrittenAction::Claim => {
            return Err(refuse(field("lease_ms"), Problem::LeaseNotTaken));
        }
        (WrittenAction::Enqueue, _, None) => {
            return Err(refuse(field("job"), Problem::JobMissing));
        }
        (WrittenAction::Enqueue, _, Some(job)) => Action::Enqueue(job.clone()),
        (_, _, Some(_)) => return Err(refuse(field("job"), Problem::JobNotTaken)),
        (WrittenAction::Claim, Some(lease_ms), None) => Action::Claim { lease_ms },
        (WrittenAction::Finish, _, None) => Action::Finish,
        (WrittenAction::Send, _, None) => Action::Send,
    };
    let worker = match (&event.worker, event.action) {
        (Some(worker), _) => worker.clone(),
        (None, WrittenAction::Enqueue) => PRODUCER.to_owned(),
        // The words serde would have used, which the playground translates.
        (None, _) => {
            return Err(refuse(
                format!("events[{index}]"),
                Problem::Unfit("missing field `worker`".to_owned()),
            ));
        }
    };
    let event = Event {
        at: event.at,
        worker,
        owner: event.owner.clone(),
        action,
    };
    event.check(index)?;
    Ok(event)
}

/// What an event must agree with in the timeline before it: time does not
/// go back, and a job id is used once.
#[derive(Debug, Default)]
pub(crate) struct Order {
    ids: BTreeSet<String>,
    previous_at: u64,
}

impl Order {
    /// The order at the start of a timeline with these jobs, each checked
    /// (`jobs[i].field`) and its id used once.
    fn with_jobs(jobs: &[NewJob]) -> Result<Order> {
        let mut order = Order::default();
        for (index, job) in jobs.iter().enumerate() {
            let prefix = format!("jobs[{index}].");
            job.validate(&prefix).map_err(at_path)?;
            if !order.ids.insert(job.id.clone()) {
                return Err(refuse(
                    format!("{prefix}id"),
                    Problem::JobListedTwice { id: job.id.clone() },
                ));
            }
        }
        Ok(order)
    }

    /// Accepts `event` as the event at `index`, or says why not.
    pub(crate) fn admit(&mut self, index: usize, event: &Event) -> Result<()> {
        self.check(index, event)?;
        self.record(event);
        Ok(())
    }

    /// Whether `event` may come next, as the event at `index`.
    pub(crate) fn check(&self, index: usize, event: &Event) -> Result<()> {
        if event.at < self.previous_at {
            return Err(refuse(
                format!("events[{index}].at"),
                Problem::TimeGoesBack {
                    at: event.at,
                    previous: self.previous_at,
                },
            ));
        }
        match &event.action {
            Action::Enqueue(job) if self.ids.contains(job.id.as_str()) => Err(refuse(
                format!("events[{index}].job.id"),
                Problem::JobAlreadyInScenario { id: job.id.clone() },
            )),
            _ => Ok(()),
        }
    }

    /// Takes note of an event that was accepted.
    pub(crate) fn record(&mut self, event: &Event) {
        if let Action::Enqueue(job) = &event.action {
            self.ids.insert(job.id.clone());
        }
        self.previous_at = event.at;
    }
}

impl Scenario {
    /// Parses and checks a scenario document.
    pub fn parse(json: &str) -> Result<Scenario> {
        Scenario::from_document(read_document(json)?)
    }

    /// Reads and checks a scenario document that arrived as a JSON value
    /// (a JavaScript object, or text the JavaScript API read as
    /// `JSON.parse` would), with [`Scenario::parse`]'s checks and places.
    /// A value has no line and column, and when several fields are wrong,
    /// the one named comes first in key order rather than in the order
    /// written (CONTRACT.md, "Scenarios from JavaScript are JSON values").
    pub fn from_value(value: serde_json::Value) -> Result<Scenario> {
        Scenario::from_document(from_json_value(&value, "(document)", "")?)
    }

    /// Checks a scenario's two keys read from a document of the caller's
    /// ([`WrittenEvent`], [`read_document`]), as [`Scenario::parse`]
    /// checks a scenario document.
    pub fn from_written(jobs: Vec<NewJob>, events: Vec<WrittenEvent>) -> Result<Scenario> {
        Scenario::from_document(WrittenScenario { jobs, events })
    }

    /// A scenario built in code, checked by the rules [`Scenario::parse`]
    /// applies to a document, with the same messages.
    pub fn new(jobs: Vec<NewJob>, events: Vec<Event>) -> Result<Scenario> {
        let scenario = Scenario { jobs, events };
        scenario.checked_order()?;
        Ok(scenario)
    }

    /// Jobs on the queue before the first event.
    pub fn jobs(&self) -> &[NewJob] {
        &self.jobs
    }

    /// The timeline, in non-decreasing `at` order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Adds an event the caller has checked against the timeline's order
    /// ([`Order::admit`]), as [`crate::Player::push`] does.
    pub(crate) fn push_checked(&mut self, event: Event) {
        self.events.push(event);
    }

    /// The scenario's first `count` events (all of them if it has fewer),
    /// with its jobs: a prefix of a checked timeline is checked.
    pub fn first(&self, count: usize) -> Scenario {
        Scenario {
            jobs: self.jobs.clone(),
            events: self.events[..count.min(self.events.len())].to_vec(),
        }
    }

    fn from_document(raw: WrittenScenario) -> Result<Scenario> {
        check_counts(raw.jobs.len(), raw.events.len())?;
        let mut order = Order::with_jobs(&raw.jobs)?;
        let mut events = Vec::with_capacity(raw.events.len());
        for (index, raw) in raw.events.iter().enumerate() {
            let event = event_from_written(index, raw)?;
            order.admit(index, &event)?;
            events.push(event);
        }
        Ok(Scenario {
            jobs: raw.jobs,
            events,
        })
    }

    /// Checks the scenario whole, returning what an event added after the
    /// last must agree with.
    pub(crate) fn checked_order(&self) -> Result<Order> {
        check_counts(self.jobs.len(), self.events.len())?;
        let mut order = Order::with_jobs(&self.jobs)?;
        for (index, event) in self.events.iter().enumerate() {
            event.check(index)?;
            order.admit(index, event)?;
        }
        Ok(order)
    }

    /// A long, busy timeline for measuring replay speed: four workers take
    /// turns to claim (25 ms leases, so many run out and are reclaimed),
    /// send and finish, one event every 10 ms, over `events / 10 + 1` jobs.
    /// The same function feeds the native benchmark and the browser's.
    pub fn generated(events: usize) -> Scenario {
        let jobs = (0..=events / 10)
            .map(|n| NewJob::new(format!("job-{n}"), 1 + (n as u64 % 3), 1 << 40))
            .collect();
        let events = (0..events)
            .map(|i| Event {
                at: i as u64 * 10,
                worker: format!("W{}", i % 4),
                owner: None,
                action: match (i / 4) % 3 {
                    0 => Action::Claim { lease_ms: 25 },
                    1 => Action::Send,
                    _ => Action::Finish,
                },
            })
            .collect();
        Scenario { jobs, events }
    }

    /// The scenario as a contract document (what [`Scenario::parse`] reads).
    pub fn to_json(&self) -> String {
        let raw = WrittenScenario {
            jobs: self.jobs.clone(),
            events: self
                .events
                .iter()
                .map(|event| WrittenEvent {
                    at: event.at,
                    worker: match event.action {
                        Action::Enqueue(_) if event.worker == PRODUCER => None,
                        _ => Some(event.worker.clone()),
                    },
                    owner: event.owner.clone(),
                    action: match event.action {
                        Action::Claim { .. } => WrittenAction::Claim,
                        Action::Finish => WrittenAction::Finish,
                        Action::Send => WrittenAction::Send,
                        Action::Enqueue(_) => WrittenAction::Enqueue,
                    },
                    lease_ms: match event.action {
                        Action::Claim { lease_ms } => Some(lease_ms),
                        _ => None,
                    },
                    job: match &event.action {
                        Action::Enqueue(job) => Some(job.clone()),
                        _ => None,
                    },
                })
                .collect(),
        };
        // Plain structs of strings and integers always serialize.
        serde_json::to_string(&raw).unwrap_or_default()
    }
}
