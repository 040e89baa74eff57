//! What a host page hears: `leasefence:step` after every move,
//! `leasefence:verdict` for each finish the move revealed, and
//! `leasefence:complete` after each grading in the lab, as bubbling
//! `CustomEvent`s on the playground's root.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::Page;
use crate::convert::to_js;
use leasefence::replay::Outcome;

#[derive(Serialize)]
struct StepDetail<'a> {
    chapter: &'a str,
    position: usize,
    total: usize,
    result: Option<&'a leasefence::EventResult>,
}

#[derive(Serialize)]
struct VerdictDetail<'a> {
    chapter: &'a str,
    event: usize,
    at: u64,
    worker: &'a str,
    #[serde(flatten)]
    finish: &'a leasefence::Finish,
}

/// Fires the step event, and a verdict event for each finish between
/// `revealed_from` and the position (a jump to the end reveals all; a new
/// timeline, `None`, reveals none).
pub(super) fn step(page: &Page, revealed_from: Option<usize>) -> Result<(), JsValue> {
    let mut events = Vec::new();
    let state = page.state.borrow();
    let stepper = &state.session.stepper;
    let detail = StepDetail {
        chapter: stepper.chapter(),
        position: stepper.position(),
        total: stepper.total(),
        result: stepper.frame().map(|frame| &frame.result),
    };
    events.push(("leasefence:step", to_js(&detail)?));
    let revealed = match revealed_from {
        Some(before) if before < stepper.position() => before..stepper.position(),
        _ => 0..0,
    };
    for frame in &stepper.timeline().frames[revealed] {
        if let Outcome::Finished(finish) = &frame.result.outcome {
            let verdict = VerdictDetail {
                chapter: stepper.chapter(),
                event: frame.result.event,
                at: frame.result.at,
                worker: &frame.result.worker,
                finish,
            };
            events.push(("leasefence:verdict", to_js(&verdict)?));
        }
    }
    drop(state);
    for (name, detail) in events {
        fire(page, name, &detail)?;
    }
    Ok(())
}

#[derive(Serialize)]
struct CompleteDetail {
    level: &'static str,
    passed: bool,
    attempts: u32,
    checked: Option<leasefence_course::lab::Checked>,
}

/// Fires `leasefence:complete` for the lab's last grading: the level,
/// whether it passed, the attempts so far and what was checked (`null`
/// for a statement refused before any playing).
pub(super) fn complete(page: &Page) -> Result<(), JsValue> {
    use leasefence_course::lab::{Answer, Graded};
    let state = page.state.borrow();
    let Some(bench) = state.session.lab() else {
        return Ok(());
    };
    let checked = match &bench.answer {
        Some(Answer::Graded(Graded::Passed { checked } | Graded::Failed { checked, .. })) => {
            Some(*checked)
        }
        _ => None,
    };
    let detail = to_js(&CompleteDetail {
        level: bench.level.id,
        passed: bench.passed(),
        attempts: bench.attempts,
        checked,
    })?;
    drop(state);
    fire(page, "leasefence:complete", &detail)
}

fn fire(page: &Page, name: &str, detail: &JsValue) -> Result<(), JsValue> {
    let init = web_sys::CustomEventInit::new();
    init.set_bubbles(true);
    // Out of an embed's shadow root too, to the host's own element.
    init.set_composed(true);
    init.set_detail(detail);
    let event = web_sys::CustomEvent::new_with_event_init_dict(name, &init)?;
    page.root.dispatch_event(&event)?;
    Ok(())
}
