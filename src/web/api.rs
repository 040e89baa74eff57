//! The queue's JavaScript API: converts types and delegates.
//!
//! No rule and no SQL lives here. Numbers arrive from JavaScript as `f64`,
//! so each is checked to be a finite, non-negative integer no larger than
//! 2^53 - 1 before the core sees it; anything else throws an `Error` that
//! names the argument. Objects cross through `serde_wasm_bindgen`
//! (`convert`); results leave as plain objects (maps become objects,
//! integers become numbers).

use wasm_bindgen::prelude::*;

use super::convert::{from_js, integer, plain, to_js};
use crate::model::{NewJob, Stamp};

/// The shapes the functions below take and return, for TypeScript users.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** A job to enqueue. */
export interface NewJob { id: string; qty: number; deadline: number; max_attempts?: number }
/** Where a job is in its life. */
export type JobState = "pending" | "leased" | "done" | "quarantined" | "expired";
/** One row of the jobs table. */
export interface JobRow {
  id: string; qty: number; state: JobState; owner: string | null; token: number;
  attempts: number; max_attempts: number; lease_until: number | null; deadline: number;
}
/** What a successful claim returns (R3). */
export interface Claim { id: string; qty: number; owner: string; token: number; attempt: number; lease_until: number }
/** What a finish presents (R4). */
export interface Stamp { id: string; owner: string; token: number; attempt: number }
/** Why a finish was refused, the first that applies. */
export type Reason = "no_claim" | "unknown_job" | "not_leased" | "token_mismatch" | "owner_mismatch"
  | "attempt_mismatch" | "lease_expired" | "deadline_passed";
/** A finish's verdict, with the stamp and the row side by side (R14). */
export interface Finish { accepted: boolean; reason: Reason | null; expected: Stamp | null; current: JobRow | null }
/** One event's result in a replay document. */
export type EventResult = { event: number; at: number; worker: string } & (
  | { do: "claim"; claim: Claim | null }
  | ({ do: "finish" } & Finish)
  | { do: "send"; applied: boolean; reason: Reason | null }
  | { do: "enqueue"; job: JobRow });
/** One event of a scenario: who does what, when (ms). */
export type ScenarioEvent = { at: number; worker: string; owner?: string } & (
  | { do: "claim"; lease_ms: number }
  | { do: "finish" }
  | { do: "send" }
  | { do: "enqueue"; job: NewJob });
/** The contract's replay document. */
export interface ReplayDocument { results: EventResult[]; rows: JobRow[]; receiver: Record<string, number> }
/** One worker step. */
export interface Processed { claim: Claim; finish: Finish }
/** What the receiver holds. */
export interface Totals { jobs: number; qty: number; repeats: number; applied: Record<string, number> }
"#;

fn core_error(err: crate::Error) -> JsError {
    JsError::new(&err.to_string())
}

/// Replays a scenario document (JSON text) and returns the replay document,
/// identical to `leasefence replay`.
#[wasm_bindgen(unchecked_return_type = "ReplayDocument")]
pub fn replay(scenario_json: &str) -> Result<JsValue, JsError> {
    to_js(&crate::replay_json(scenario_json).map_err(core_error)?)
}

/// The benchmark's generated scenario of `events` events, as JSON (see
/// `Scenario::generated`); the browser and native replay the same one.
#[wasm_bindgen(js_name = generatedScenario)]
pub fn generated_scenario(events: f64) -> Result<String, JsError> {
    let events = integer("events", events)?;
    let events = usize::try_from(events.min(crate::scenario::MAX_EVENTS as u64)).unwrap_or(0);
    Ok(crate::Scenario::generated(events).to_json())
}

/// A queue on its own in-memory database, for step-by-step use.
///
/// One connection per database: the browser's memory VFS makes SQLite's
/// locks no-ops, so a second connection to the same database would not be
/// kept out of an open transaction (tests/web.rs shows it). Actors are
/// modelled by their claims, as in a scenario, not by connections.
#[wasm_bindgen]
pub struct Queue {
    inner: crate::Queue,
}

#[wasm_bindgen]
impl Queue {
    /// Opens a fresh, empty queue.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<Queue, JsError> {
        Ok(Queue {
            inner: crate::Queue::open_in_memory().map_err(core_error)?,
        })
    }

    /// Adds `{id, qty, deadline, max_attempts?}`; returns the stored row.
    #[wasm_bindgen(unchecked_return_type = "JobRow")]
    pub fn enqueue(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NewJob")] job: JsValue,
    ) -> Result<JsValue, JsError> {
        let job: NewJob = from_js("job", &job)?;
        job.validate("job.").map_err(core_error)?;
        to_js(&self.inner.enqueue(&job).map_err(core_error)?)
    }

    /// Claims the first claimable job; returns the claim or `null`.
    #[wasm_bindgen(unchecked_return_type = "Claim | null")]
    pub fn claim(&self, owner: &str, now: f64, lease_ms: f64) -> Result<JsValue, JsError> {
        let claim = self
            .inner
            .claim(owner, integer("now", now)?, integer("lease_ms", lease_ms)?)
            .map_err(core_error)?;
        to_js(&claim)
    }

    /// Presents `{id, owner, token, attempt}`; returns the verdict.
    #[wasm_bindgen(unchecked_return_type = "Finish")]
    pub fn finish(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Stamp")] stamp: JsValue,
        now: f64,
    ) -> Result<JsValue, JsError> {
        let stamp: Stamp = from_js("stamp", &stamp)?;
        to_js(
            &self
                .inner
                .finish(&stamp, integer("now", now)?)
                .map_err(core_error)?,
        )
    }

    /// One worker step (R7): claims at `clock()`, calls `send(claim)` with
    /// no transaction open, then finishes at `clock()`. Returns
    /// `{claim, finish}`, or `null` when nothing was claimable; rethrows
    /// what `send` throws (the job then stays leased).
    #[wasm_bindgen(unchecked_return_type = "Processed | null")]
    pub fn process(
        &self,
        owner: &str,
        lease_ms: f64,
        #[wasm_bindgen(unchecked_param_type = "() => number")] clock: &js_sys::Function,
        #[wasm_bindgen(unchecked_param_type = "(claim: Claim) => void")] send: &js_sys::Function,
    ) -> Result<JsValue, JsValue> {
        let lease_ms = integer("lease_ms", lease_ms)?;
        let mut clock_error = None;
        let now = || {
            let read = clock
                .call0(&JsValue::NULL)
                .map_err(|_| JsError::new("clock: threw"))
                .and_then(|value| integer("clock()", value.as_f64().unwrap_or(f64::NAN)));
            read.unwrap_or_else(|err| {
                clock_error.get_or_insert(err);
                crate::MAX_INT + 1 // refused by the queue; the clock's error is reported
            })
        };
        let send = |claim: &crate::Claim| -> Result<(), JsValue> {
            send.call1(&JsValue::NULL, &to_js(claim)?).map(drop)
        };
        let processed = self.inner.process_one(owner, lease_ms, now, send);
        if let Some(err) = clock_error {
            return Err(err.into());
        }
        match processed {
            Ok(None) => Ok(JsValue::NULL),
            Ok(Some(processed)) => Ok(to_js(&serde_json::json!({
                "claim": processed.claim,
                "finish": processed.finish,
            }))?),
            Err(crate::ProcessError::Queue(err)) => Err(core_error(err).into()),
            Err(crate::ProcessError::Send(thrown)) => Err(thrown),
        }
    }

    /// Every row, in enqueue order.
    #[wasm_bindgen(unchecked_return_type = "JobRow[]")]
    pub fn rows(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.rows().map_err(core_error)?)
    }
}

/// A timeline of actors, played one event at a time: the scenario's own
/// events with `step()`, and new ones written live with `push(event)`,
/// each with the caller's time in `at`. Actors remember their last claim,
/// as in `replay`, so a late finish presents an old stamp. Results have
/// the shape of the replay document's `results`.
#[wasm_bindgen]
pub struct Player {
    inner: crate::Player,
}

#[wasm_bindgen]
impl Player {
    /// A player over a scenario document, given as JSON text like
    /// `replay`'s (events then come as objects, to `push`), or over an
    /// empty queue when none is given.
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: Option<String>) -> Result<Player, JsError> {
        let scenario = match scenario_json {
            Some(json) => crate::Scenario::parse(&json).map_err(core_error)?,
            None => crate::Scenario::default(),
        };
        Ok(Player {
            inner: crate::Player::new(scenario).map_err(core_error)?,
        })
    }

    /// Applies the scenario's next event; `null` when all are applied.
    #[wasm_bindgen(unchecked_return_type = "EventResult | null")]
    pub fn step(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.inner.step().map_err(core_error)?)
    }

    /// Adds `{at, worker, do, lease_ms?, job?, owner?}` after the last event
    /// and applies it; throws, changing nothing, if the scenario parser
    /// would refuse it there (time going back, a job id used twice, ...).
    #[wasm_bindgen(unchecked_return_type = "EventResult")]
    pub fn push(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ScenarioEvent")] event: JsValue,
    ) -> Result<JsValue, JsError> {
        let index = self.inner.scenario().events.len();
        let value = plain(&format!("scenario: events[{index}]"), &event)?;
        let event = crate::Scenario::event_from_value(value, index).map_err(core_error)?;
        to_js(&self.inner.push(event).map_err(core_error)?)
    }

    /// How many events have been applied.
    #[wasm_bindgen(getter)]
    pub fn position(&self) -> usize {
        self.inner.position()
    }

    /// Every row, in enqueue order.
    #[wasm_bindgen(unchecked_return_type = "JobRow[]")]
    pub fn rows(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.rows().map_err(core_error)?)
    }

    /// Job id -> qty the receiver has applied.
    #[wasm_bindgen(unchecked_return_type = "Record<string, number>")]
    pub fn receiver(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.receiver().map_err(core_error)?)
    }

    /// The timeline so far, pushed events included, as a scenario document
    /// (what `replay` and the playground read).
    #[wasm_bindgen(js_name = scenarioJson)]
    pub fn scenario_json(&self) -> String {
        self.inner.scenario().to_json()
    }
}

/// The idempotent receiver (R12), in memory.
#[wasm_bindgen]
pub struct Receiver {
    inner: crate::Receiver,
}

#[wasm_bindgen]
impl Receiver {
    /// A fresh, empty ledger.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<Receiver, JsError> {
        Ok(Receiver {
            inner: crate::Receiver::open_in_memory().map_err(core_error)?,
        })
    }

    /// Delivers `qty` of job `id`: `true` if applied, `false` for a repeat;
    /// throws for a different qty of a known id.
    pub fn deliver(&self, id: &str, qty: f64) -> Result<bool, JsError> {
        self.inner
            .deliver(id, integer("qty", qty)?)
            .map_err(core_error)
    }

    /// `{jobs, qty, repeats, applied}`.
    #[wasm_bindgen(unchecked_return_type = "Totals")]
    pub fn totals(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.totals().map_err(core_error)?)
    }
}
