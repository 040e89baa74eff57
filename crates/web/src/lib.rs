//! leasefence in the browser (wasm32 only; on other targets this crate is
//! empty), in two parts:
//!
//! * [`api`]: the queue, the receiver and `replay` for JavaScript; types in,
//!   types out, no rules;
//! * `page` (feature `page`, on by default): the playground, drawn with
//!   web-sys from the view the core computes ([`leasefence_course::playground::view`]).
//!   Without it the package is the queue alone.
//!
//! # From a scenario to what the page draws
//!
//! ```text
//! leasefence:         Scenario ─▶ Player ─▶ Replay      (api: Player, replay())
//!                                   │
//! leasefence-course:                └─▶ Timeline ─▶ Stepper ─▶ Session ─▶ View
//!                                                                           │
//! this crate:                             page: the learner's input ◀── drawn with web-sys
//! ```
//!
//! The page turns a `View` into elements and the learner's input into
//! `Session` calls; it decides nothing. `api` converts JavaScript values
//! to the queue's types and back, read once through calls that catch
//! (`convert`), and says errors in JavaScript's words (`words`).

#![cfg(target_arch = "wasm32")]

pub mod api;
mod convert;
#[cfg(feature = "page")]
pub mod page;
mod words;

#[cfg(feature = "bench")]
pub use api::generated_scenario;
pub use api::{Player, Queue, Receiver, replay};

/// The playground's option and event types, for TypeScript users:
/// `mount`'s options, the chapter ids as a union (so a typo does not
/// compile), and the `detail` of each DOM event the element fires, added
/// to `HTMLElementEventMap` so `addEventListener` knows them.
/// `make bless` writes the union from the folders of `chapters/`, and
/// `crates/course/tests/chapter_lists.rs` holds it to them.
#[cfg(feature = "page")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const PAGE_TYPES: &str = r#"
/** A chapter of the playground (`data-scenario`, `mount`'s `scenario`). */
export type Chapter = "canonical" | "polling-cannot-steal" | "restart-same-name" | "fencing-off-vs-on" | "expiry-boundary" | "write-lock" | "every-ordering" | "late-delivery" | "deadline-caps-lease" | "deadline-expired" | "quarantine";
/** A text for both languages, or one per language. */
export type Texts = string | { ko?: string; en?: string };
/** An author's lesson: a scenario, with its title and narration if it has them. */
export interface Lesson extends Scenario { title?: Texts; narration?: Texts }
/** `check(text)`'s answer: whether the playground would show this lesson. */
export type CheckResult =
  | { ok: true; jobs: number; events: number; title?: { ko?: string; en?: string }; narration?: { ko?: string; en?: string } }
  | { ok: false; error: string };
/** `mount`'s options, each optional. */
export interface MountOptions {
  lang?: "ko" | "en";
  /** A chapter, or the author's own lesson (an object or its JSON text). */
  scenario?: Chapter | Lesson | string;
  /** The author's lesson's title and narration (before the lesson's own). */
  title?: string;
  narration?: { ko?: string; en?: string };
  /** Why the author's scenario could not be fetched (said in the learner's language). */
  scenarioError?: string;
  /**
   * What is shown beyond the chapter or lesson, as names separated by
   * spaces: "chapters" (the course's header and chapter picker),
   * "sandbox" (the workers' buttons on the lanes and the scenario editor),
   * "tools" (every panel, not only the chapter's own), "lab" (shown anyway
   * when `lab` opens a level). Left out: all of them with `hash`, none
   * without.
   */
  show?: string;
  /** None of the parts `show` names, with `hash` too (not with `show`). */
  compact?: boolean;
  /** Predict each claim and finish before it is shown (default: on for a chapter or a lesson). */
  predict?: boolean;
  hash?: boolean;
  /** Open the lab at this level: the learner writes the queue's SQL. */
  lab?: "finish" | "boundary" | "reclaim" | "claim" | "transaction";
}
/** `leasefence:step`'s detail: where the learner is. */
export interface StepDetail { chapter: Chapter | "lesson" | "sandbox"; position: number; total: number; result: EventResult | null }
/** `leasefence:complete`'s detail: one grading in the lab. */
export interface CompleteDetail { level: "finish" | "boundary" | "reclaim" | "claim" | "transaction"; passed: boolean; attempts: number; checked: { scenarios: number; orderings: number } | null }
/** `leasefence:verdict`'s detail: one finish revealed. */
export type VerdictDetail = { chapter: Chapter | "lesson" | "sandbox"; event: number; at: number; worker: string } & Finish;
declare global {
  interface HTMLElementEventMap {
    "leasefence:step": CustomEvent<StepDetail>;
    "leasefence:verdict": CustomEvent<VerdictDetail>;
    "leasefence:complete": CustomEvent<CompleteDetail>;
  }
}
"#;

/// Installs a panic hook, so a bug shows its message and place in the
/// console instead of "unreachable executed". (The message is enough to
/// find the bug; a JavaScript stack of the wasm frames adds little.) Not
/// in `make web`'s build, whose panics abort on the spot and never reach
/// a hook (the Makefile says why); the browser tests have it.
#[cfg(not(panic = "immediate-abort"))]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        // Handed to the console as they are, not formatted here: Rust's
        // formatting of the whole panic report costs the module ~0.5 KB.
        let payload = info.payload();
        let said = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("(no message)");
        let (file, line) = info
            .location()
            .map_or(("?", 0), |at| (at.file(), at.line()));
        web_sys::console::error_4(
            &"leasefence panicked:".into(),
            &said.into(),
            &file.into(),
            &line.into(),
        );
    }));
}
