//! The boundary panel: the finish the chapter is about, moved in time, and
//! the lease it presents, made longer or shorter; each with a readout of
//! the verdict it now gets.

use crate::key;
use crate::playground::Lang;
use crate::playground::assertions::{Assertion, Said};
use crate::playground::session::Session;
use leasefence::replay::Outcome;
use serde::Serialize;

/// One slider of the boundary panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum SliderView {
    /// A slider the learner can move.
    Enabled {
        /// What it moves.
        label: String,
        /// The lowest value.
        min: u64,
        /// The highest value (fixed per timeline, so the knob holds still).
        max: u64,
        /// The current value.
        value: u64,
        /// The verdict at this value, in words.
        readout: Said,
        /// What this value costs besides, when there is a cost to say (a
        /// long lease: how long a crashed worker's job would wait).
        cost: Option<Said>,
    },
    /// Nothing to move here, and why.
    Disabled {
        /// The reason, shown in place of the label.
        why: String,
    },
    /// Hidden while the learner predicts: the slider above says why, once.
    /// (A struct variant: in JSON a tag, never a string a reader could take
    /// for words on the page.)
    Waiting {},
}

/// While the learner predicts, both sliders wait: which finish they move,
/// which claim it presents and its verdict would answer the questions.
/// The finish slider says so; the lease slider is [`SliderView::Waiting`],
/// so the notice is not said twice. A timeline a slider made does not lock
/// them: the learner moving a slider keeps moving it.
fn waits(session: &Session) -> bool {
    let stepper = &session.stepper;
    stepper.answers_ahead() && !stepper.slid()
}

fn wait_for_answers(session: &Session) -> Option<SliderView> {
    waits(session).then(|| SliderView::Disabled {
        why: session.lang.text(key!("predict.sliders_hidden")).to_owned(),
    })
}

/// The finish slider: the boundary finish's time and its verdict.
pub fn finish(session: &Session) -> SliderView {
    if let Some(waiting) = wait_for_answers(session) {
        return waiting;
    }
    let lang = session.lang;
    let stepper = &session.stepper;
    let Some((index, event)) = stepper
        .boundary_event()
        .and_then(|index| Some((index, stepper.scenario().events().get(index)?)))
    else {
        return SliderView::Disabled {
            why: lang.text(key!("boundary.none")).to_owned(),
        };
    };
    let label = lang.fill(
        key!("boundary.label"),
        &[
            ("worker", event.worker.clone()),
            ("n", (index + 1).to_string()),
        ],
    );
    let readout = Said::fill(
        lang,
        key!("boundary.value"),
        &[("at", event.at.to_string())],
        vec![("verdict", verdict(session).unwrap_or_default())],
    );
    SliderView::Enabled {
        label,
        min: 0,
        max: stepper.ranges().finish_max,
        value: event.at,
        readout,
        cost: None,
    }
}

/// The lease slider: the length of the lease the boundary finish presents,
/// or why there is none to change.
pub fn lease(session: &Session) -> SliderView {
    if waits(session) {
        return SliderView::Waiting {};
    }
    let lang = session.lang;
    let stepper = &session.stepper;
    let events = &stepper.scenario().events();
    let finish_event = stepper.boundary_event();
    let finish = finish_event.and_then(|index| events.get(index));
    let (Some(lease), Some(finish), Some(finish_event)) = (stepper.lease(), finish, finish_event)
    else {
        let why = match finish {
            Some(finish) => lang.fill(key!("lease.none"), &[("worker", finish.worker.clone())]),
            None => lang.text(key!("boundary.none")).to_owned(),
        };
        return SliderView::Disabled { why };
    };
    let label = lang.fill(
        key!("lease.label"),
        &[
            ("worker", events[lease.event].worker.clone()),
            ("n", (lease.event + 1).to_string()),
        ],
    );
    // The deadline cuts a lease short (R9), and then a longer one changes
    // nothing; say so rather than let the slider seem broken.
    let capped = lease.lease_until < lease.at.saturating_add(lease.lease_ms);
    let readout = Said::fill(
        lang,
        if capped {
            key!("lease.value_capped")
        } else {
            key!("lease.value")
        },
        &[
            ("lease", lease.lease_ms.to_string()),
            ("until", lease.lease_until.to_string()),
            ("worker", finish.worker.clone()),
        ],
        vec![("verdict", verdict(session).unwrap_or_default())],
    )
    .stating(Assertion::Leased {
        claim: lease.event,
        lease_ms: lease.lease_ms,
        until: lease.lease_until,
        capped,
    });
    // The other side of the trade. A lease that ends before the finish
    // (R5) costs the live worker its work; one that outlasts it would
    // keep a crashed worker's job from everyone until it ends. A lease the
    // deadline cut short has neither: the deadline, not its length, ends
    // it, and a job past its deadline is expired, never reclaimed (R9).
    let cost = if capped {
        None
    } else if leasefence::claimable::within_lease(finish.at, lease.lease_until) {
        Some(Said::of(
            lang,
            Assertion::Blocks {
                claim: lease.event,
                worker: events[lease.event].worker.clone(),
                at: lease.at,
                until: lease.lease_until,
            },
        ))
    } else {
        Some(Said::of(
            lang,
            Assertion::EndsFirst {
                claim: lease.event,
                finish: finish_event,
                worker: finish.worker.clone(),
                at: finish.at,
                until: lease.lease_until,
            },
        ))
    };
    SliderView::Enabled {
        label,
        min: 1,
        // The range was fixed for the claim the chapter started with; a
        // drag may have made another claim the one presented.
        max: stepper.ranges().lease_max.max(lease.lease_ms),
        value: lease.lease_ms,
        readout,
        cost,
    }
}

/// The boundary finish's verdict, with the reason when refused.
fn verdict(session: &Session) -> Option<Said> {
    let lang: Lang = session.lang;
    let stepper = &session.stepper;
    let event = stepper.boundary_event()?;
    let frame = stepper.timeline().frames.get(event)?;
    let Outcome::Finished(finish) = &frame.result.outcome else {
        return None;
    };
    let said = Said::of(
        lang,
        Assertion::Finish {
            event,
            at: frame.result.at,
            accepted: finish.accepted(),
        },
    );
    if finish.accepted() {
        return Some(said);
    }
    Some(Said::fill(
        lang,
        key!("verdict.because"),
        &[],
        vec![
            ("verdict", said),
            ("reason", super::reasons::why(session, event)),
        ],
    ))
}
