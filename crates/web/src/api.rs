//! The queue's JavaScript API: converts types and delegates.
//!
//! No rule and no SQL lives here. Every argument arrives as a `JsValue`
//! and is checked for its JavaScript type first (a `TypeError` naming the
//! argument), so no call can hand wasm-bindgen's glue a value it would
//! misread; numbers are then checked to be integers from 0 to 2^53 - 1 (an
//! `Error` naming the argument). Objects are read once, through calls
//! that catch (`convert`); results leave as plain objects (maps
//! become objects, integers become numbers).

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::convert::{
    error, from_js, function_arg, integer_arg, is_array, plain, refused, string_arg, to_js,
    wrong_type,
};
use leasefence::model::{NewJob, Stamp};

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
/** Why a finish was refused, in one word: of every condition it failed, the one named first by the contract's naming order. */
export type Reason = "no_claim" | "unknown_job" | "not_leased" | "token_mismatch" | "owner_mismatch"
  | "attempt_mismatch" | "lease_expired" | "deadline_passed";
/** A finish's verdict, with the stamp and the row side by side (R14). */
export interface Finish { accepted: boolean; reason: Reason | null; expected: Stamp | null; current: JobRow | null }
/** One event's result in a replay document (`worker` of an enqueue
 * written without one is `"producer"`). */
export type EventResult = { event: number; at: number; worker: string } & (
  | { do: "claim"; claim: Claim | null }
  | ({ do: "finish" } & Finish)
  | { do: "send"; applied: boolean; reason: Reason | null }
  | { do: "enqueue"; job: JobRow });
/** One event of a scenario: who does what, when (ms). An enqueue is the
 * producer's, so its `worker` is optional. */
export type ScenarioEvent = { at: number; owner?: string } & (
  | { do: "claim"; worker: string; lease_ms: number }
  | { do: "finish"; worker: string }
  | { do: "send"; worker: string }
  | { do: "enqueue"; worker?: string; job: NewJob });
/** A scenario document: the jobs on the queue at the start, then the
 * timeline (what `replay`, `Player` and the playground read). */
export interface Scenario { jobs?: NewJob[]; events: ScenarioEvent[] }
/** The contract's replay document. */
export interface ReplayDocument { results: EventResult[]; rows: JobRow[]; receiver: Record<string, number> }
/** One worker step. */
export interface Processed { claim: Claim; finish: Finish }
/** What the receiver holds: `qty` stops at 2^53 - 1, and `capped` says the sum is larger. */
export interface Totals { jobs: number; qty: number; capped?: true; repeats: number; applied: Record<string, number> }
"#;

/// The shape `census` returns, for TypeScript users.
#[cfg(feature = "bench")]
#[wasm_bindgen(typescript_custom_section)]
const CENSUS_TYPES: &str = r#"
/** Every ordering of a scenario, counted per side (`census`). */
export interface Census {
  actors: string[]; orderings: number;
  sides: Array<{
    side: "fenced" | { naive_finish: "id_only" | "id_and_owner" } | "receiver_without_ledger";
    bad: number; stale_finish: number; applied_twice: number; two_holders: number; token_reused: number;
    shortest: { scenario: Scenario; broken: Array<{ invariant: string; job: string; workers: string[] }> } | null;
  }>;
}
"#;

/// A core error for JavaScript. A scenario's type complaint is said in
/// JavaScript's words, as a `TypeError` when the type is wrong.
fn core_error(err: leasefence::Error) -> JsValue {
    match err {
        leasefence::Error::Scenario {
            path,
            problem: leasefence::Problem::Unfit(said),
        } => {
            let place = match path.as_str() {
                "(document)" => "scenario".to_owned(),
                path => format!("scenario: {path}"),
            };
            refused(&place, &said)
        }
        other => error(&other.to_string()),
    }
}

/// A scenario given as an object or as JSON text. Both are read as one
/// JSON value (an object as [`plain`] reads it, text as `JSON.parse`
/// would: [`leasefence::scenario::read_json`]), then by one reader,
/// [`leasefence::Scenario::from_value`], so a caller gets the same result
/// and the same messages either way. That reader writes the value out as
/// JSON text and reads it with the reader of the page's editor, less the
/// line and column, which would point into text nobody wrote.
fn scenario_arg(value: &JsValue) -> Result<leasefence::Scenario, JsValue> {
    match value.as_string() {
        Some(json) => leasefence::scenario::read_json(&json)
            .and_then(leasefence::Scenario::from_value)
            .map_err(core_error),
        None if value.is_object() && !value.is_function() && !is_array(value)? => {
            leasefence::Scenario::from_value(plain("scenario", value)?).map_err(core_error)
        }
        None => Err(wrong_type(
            "scenario",
            "a scenario object or its JSON text",
            value,
        )),
    }
}

/// Replays a scenario (an object, or its JSON text) and returns the replay
/// document, identical to `leasefence replay`.
#[wasm_bindgen(unchecked_return_type = "ReplayDocument")]
pub fn replay(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&leasefence::replay(scenario_arg(&scenario)?).map_err(core_error)?)
}

/// Every ordering of a scenario's actors (each actor's own order kept),
/// replayed with the fence on and off, counted per side, with the
/// shortest failing ordering as a scenario (`mechanism::orderings`). A
/// scenario over the bound (8 events, 4 actors) is refused. Only with the
/// `bench` feature: `make bench-page` times the largest chapter with it
/// (`e2e/budgets.mjs`); the page itself does not count orderings yet.
#[cfg(feature = "bench")]
#[wasm_bindgen(unchecked_return_type = "Census")]
pub fn census(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
) -> Result<JsValue, JsValue> {
    use leasefence_course::mechanism::Refusal;
    match leasefence_course::mechanism::orderings::census(&scenario_arg(&scenario)?) {
        Ok(counted) => to_js(&counted),
        Err(Refusal::Queue(err)) => Err(core_error(err)),
        Err(refusal) => Err(error(&refusal.to_string())),
    }
}

/// The benchmark's generated scenario of `events` events, as JSON (see
/// `Scenario::generated`); the browser and native replay the same one.
/// Only with the `bench` feature (`make replay-speed`): a benchmark's
/// fixture, not the package's API.
#[cfg(feature = "bench")]
#[wasm_bindgen(js_name = generatedScenario)]
pub fn generated_scenario(
    #[wasm_bindgen(unchecked_param_type = "number")] events: JsValue,
) -> Result<String, JsValue> {
    let events = integer_arg("events", &events)?;
    let events = usize::try_from(events.min(leasefence::scenario::MAX_EVENTS as u64)).unwrap_or(0);
    Ok(leasefence::Scenario::generated(events).to_json())
}

/// A queue on its own in-memory database, for step-by-step use.
///
/// One connection per database: the browser's memory VFS makes SQLite's
/// locks no-ops, so a second connection to the same database would not be
/// kept out of an open transaction (crates/web/tests/web.rs shows it). Actors are
/// modelled by their claims, as in a scenario, not by connections.
#[wasm_bindgen]
pub struct Queue {
    /// Shared with a `process` whose `send` is still pending.
    inner: Rc<leasefence::Queue>,
}

/// Why `process`'s `send` did not simply return.
enum Sending {
    /// It threw this.
    Threw(JsValue),
    /// It returned a promise (or another thenable): the claim it was
    /// given is finished once that settles.
    Pending(js_sys::Promise, leasefence::Claim),
}

#[wasm_bindgen]
impl Queue {
    /// Opens a fresh, empty queue.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<Queue, JsValue> {
        Ok(Queue {
            inner: Rc::new(leasefence::Queue::open_in_memory().map_err(core_error)?),
        })
    }

    /// Adds `{id, qty, deadline, max_attempts?}`; returns the stored row.
    #[wasm_bindgen(unchecked_return_type = "JobRow")]
    pub fn enqueue(
        &self,
        #[wasm_bindgen(unchecked_param_type = "NewJob")] job: JsValue,
    ) -> Result<JsValue, JsValue> {
        let job: NewJob = from_js("job", &job)?;
        job.validate("job.").map_err(core_error)?;
        to_js(&self.inner.enqueue(&job).map_err(core_error)?)
    }

    /// Claims the first claimable job; returns the claim or `null`.
    #[wasm_bindgen(unchecked_return_type = "Claim | null")]
    pub fn claim(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] owner: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] lease_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let owner = string_arg("owner", &owner)?;
        let now = integer_arg("now", &now)?;
        let lease_ms = integer_arg("lease_ms", &lease_ms)?;
        to_js(
            &self
                .inner
                .claim(&owner, now, lease_ms)
                .map_err(core_error)?,
        )
    }

    /// Presents `{id, owner, token, attempt}`; returns the verdict.
    #[wasm_bindgen(unchecked_return_type = "Finish")]
    pub fn finish(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Stamp")] stamp: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] now: JsValue,
    ) -> Result<JsValue, JsValue> {
        let stamp: Stamp = from_js("stamp", &stamp)?;
        let now = integer_arg("now", &now)?;
        to_js(&self.inner.finish(&stamp, now).map_err(core_error)?)
    }

    /// One worker step (R7): claims at `clock()`, calls `send(claim)` with
    /// no transaction open, then finishes at `clock()`. Returns
    /// `{claim, finish}`, or `null` when nothing was claimable; rethrows
    /// what `send` throws (the job then stays leased). When `send` returns
    /// a promise, so does `process`: the finish waits for it, and a
    /// rejection is passed on with the job left unfinished.
    #[wasm_bindgen(unchecked_return_type = "Processed | null | Promise<Processed>")]
    pub fn process(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] owner: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] lease_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "() => number")] clock: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(claim: Claim) => void | Promise<unknown>")]
        send: JsValue,
    ) -> Result<JsValue, JsValue> {
        let owner = string_arg("owner", &owner)?;
        let lease_ms = integer_arg("lease_ms", &lease_ms)?;
        let clock = function_arg("clock", &clock)?;
        let send = function_arg("send", &send)?;
        let mut clock_error = None;
        let now = || {
            read_clock(&clock).unwrap_or_else(|err| {
                clock_error.get_or_insert(err);
                leasefence::MAX_INT + 1 // refused by the queue; the clock's error is reported
            })
        };
        let send = |claim: &leasefence::Claim| -> Result<(), Sending> {
            let sent = send
                .call1(&JsValue::NULL, &to_js(claim).map_err(Sending::Threw)?)
                .map_err(Sending::Threw)?;
            match thenable(&sent) {
                Some(pending) => Err(Sending::Pending(pending, claim.clone())),
                None => Ok(()),
            }
        };
        let processed = self.inner.process_one(&owner, lease_ms, now, send);
        if let Some(err) = clock_error {
            return Err(err);
        }
        match processed {
            Ok(None) => Ok(JsValue::NULL),
            Ok(Some(processed)) => processed_js(&processed.claim, &processed.finish),
            Err(leasefence::ProcessError::Queue(err)) => Err(core_error(err)),
            Err(leasefence::ProcessError::Send(Sending::Threw(thrown))) => Err(thrown),
            Err(leasefence::ProcessError::Send(Sending::Pending(sent, claim))) => {
                finish_after(Rc::clone(&self.inner), &sent, clock, claim)
            }
        }
    }

    /// Every row, in enqueue order.
    #[wasm_bindgen(unchecked_return_type = "JobRow[]")]
    pub fn rows(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.rows().map_err(core_error)?)
    }
}
/// `clock()`, checked like any integer argument.
fn read_clock(clock: &js_sys::Function) -> Result<u64, JsValue> {
    let now = clock
        .call0(&JsValue::NULL)
        .map_err(|_| error("clock: threw"))?;
    integer_arg("clock()", &now)
}

/// `{claim, finish}`, as `process` returns it.
fn processed_js(
    claim: &leasefence::Claim,
    finish: &leasefence::Finish,
) -> Result<JsValue, JsValue> {
    to_js(&serde_json::json!({ "claim": claim, "finish": finish }))
}

/// `value` as a promise, if it is one or another thenable (an object with a
/// `then` method); `None` for anything else.
fn thenable(value: &JsValue) -> Option<js_sys::Promise> {
    if !value.is_object() {
        return None;
    }
    let then = js_sys::Reflect::get(value, &JsValue::from_str("then")).ok()?;
    if !then.is_function() {
        return None;
    }
    // A promise of our own, settled by `value`. `Promise.resolve(value)`
    // would read `value.constructor` here, in Rust's frames (a getter
    // that throws would unwind through them), and hand back `value`
    // itself when it is a promise, whose `then` its owner may redefine.
    let value = value.clone();
    Some(js_sys::Promise::new(&mut |resolve, _reject| {
        // Settling reads `value.then` in JavaScript; what it throws
        // rejects the promise.
        let _ = resolve.call1(&JsValue::UNDEFINED, &value);
    }))
}

/// The rest of `process` once `send`'s promise `sent` is fulfilled: the
/// finish at `clock()`, as a promise of `{claim, finish}`. A rejection
/// skips it, so the job stays leased and the promise rejects with the
/// same reason.
fn finish_after(
    queue: Rc<leasefence::Queue>,
    sent: &js_sys::Promise,
    clock: js_sys::Function,
    claim: leasefence::Claim,
) -> Result<JsValue, JsValue> {
    let on_sent = Closure::once_into_js(move |_sent: JsValue| -> Result<JsValue, JsValue> {
        let now = read_clock(&clock)?;
        let finish = queue.finish(&claim.stamp(), now).map_err(core_error)?;
        processed_js(&claim, &finish)
    });
    let then = function_arg(
        "then",
        &js_sys::Reflect::get(sent, &JsValue::from_str("then"))?,
    )?;
    then.call1(sent, &on_sent)
}

/// A timeline of actors, played one event at a time: the scenario's own
/// events with `step()`, and new ones written live with `push(event)`,
/// each with the caller's time in `at`. Actors remember their last claim,
/// as in `replay`, so a late finish presents an old stamp. Results have
/// the shape of the replay document's `results`.
#[wasm_bindgen]
pub struct Player {
    inner: leasefence::Player,
}

#[wasm_bindgen]
impl Player {
    /// A player over a scenario (an object or its JSON text, like
    /// `replay`'s), or over an empty queue when none is given (`undefined`
    /// or `null`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "Scenario | string")] scenario: Option<
            JsValue,
        >,
    ) -> Result<Player, JsValue> {
        let scenario = match scenario.filter(|value| !value.is_null()) {
            Some(value) => scenario_arg(&value)?,
            None => leasefence::Scenario::default(),
        };
        Ok(Player {
            inner: leasefence::Player::new(scenario).map_err(core_error)?,
        })
    }

    /// Applies the scenario's next event; `null` when all are applied.
    #[wasm_bindgen(unchecked_return_type = "EventResult | null")]
    pub fn step(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.step().map_err(core_error)?)
    }

    /// Adds `{at, worker, do, lease_ms?, job?, owner?}` after the last event
    /// and applies it; throws, changing nothing, if the scenario parser
    /// would refuse it there (time going back, a job id used twice, ...).
    #[wasm_bindgen(unchecked_return_type = "EventResult")]
    pub fn push(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ScenarioEvent")] event: JsValue,
    ) -> Result<JsValue, JsValue> {
        let index = self.inner.scenario().events().len();
        let value = plain(&format!("scenario: events[{index}]"), &event)?;
        let event = leasefence::Event::from_value(value, index).map_err(core_error)?;
        to_js(&self.inner.push(event).map_err(core_error)?)
    }

    /// How many events have been applied.
    #[wasm_bindgen(getter)]
    pub fn position(&self) -> usize {
        self.inner.position()
    }

    /// Every row, in enqueue order.
    #[wasm_bindgen(unchecked_return_type = "JobRow[]")]
    pub fn rows(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.rows().map_err(core_error)?)
    }

    /// Job id -> qty the receiver has applied.
    #[wasm_bindgen(unchecked_return_type = "Record<string, number>")]
    pub fn receiver(&self) -> Result<JsValue, JsValue> {
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
    inner: leasefence::Receiver,
}

#[wasm_bindgen]
impl Receiver {
    /// A fresh, empty ledger.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<Receiver, JsValue> {
        Ok(Receiver {
            inner: leasefence::Receiver::open_in_memory().map_err(core_error)?,
        })
    }

    /// Delivers `qty` of job `id`: `true` if applied, `false` for a repeat;
    /// throws for a different qty of a known id.
    pub fn deliver(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] qty: JsValue,
    ) -> Result<bool, JsValue> {
        let id = string_arg("id", &id)?;
        let qty = integer_arg("qty", &qty)?;
        self.inner.deliver(&id, qty).map_err(core_error)
    }

    /// `{jobs, qty, repeats, applied}`, and `capped: true` once the sum
    /// of the quantities passed 2^53 - 1 (`qty` is held there).
    #[wasm_bindgen(unchecked_return_type = "Totals")]
    pub fn totals(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.totals().map_err(core_error)?)
    }
}
