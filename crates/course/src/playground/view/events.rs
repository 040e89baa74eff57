//! The event list: one line per event, and the result marks that appear as
//! the learner steps past each one.

use crate::key;
use crate::playground::Lang;
use crate::playground::assertions::{Assertion, Said};
use crate::playground::session::Session;
use leasefence::scenario::{Action, Event};
use serde::Serialize;

/// One event as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventLine {
    /// `1000 ms`.
    pub at: String,
    /// The actor, with the owner name it claims under when that differs.
    pub who: String,
    /// The action, in words.
    pub what: String,
    /// The lease asked for, the stamp presented, or the job enqueued.
    pub detail: Said,
}

/// An event's result mark, as it changes while stepping.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventMark {
    /// The event's index.
    pub event: usize,
    /// Its result label (`accepted`, `rejected`, ...) once applied.
    pub result: Option<&'static str>,
    /// A symbol and a word, never colour alone; empty before it is applied.
    pub text: Said,
    /// Whether it is the last applied event.
    pub current: bool,
}

/// Who acts in `event`, as every list of events names them: the worker,
/// and the owner name it claims under when that is another (a restarted
/// run's).
pub(crate) fn who(lang: Lang, event: &Event) -> String {
    match event.owner.as_ref().filter(|owner| **owner != event.worker) {
        Some(owner) => lang.fill(
            key!("timeline.owner"),
            &[("worker", event.worker.clone()), ("owner", owner.clone())],
        ),
        None => event.worker.clone(),
    }
}

/// Every event's line.
pub fn lines(session: &Session) -> Vec<EventLine> {
    let lang = session.lang;
    let stepper = &session.stepper;
    stepper
        .scenario()
        .events()
        .iter()
        .enumerate()
        .map(|(index, event)| {
            let who = who(lang, event);
            let detail = match &event.action {
                Action::Claim { lease_ms } => Said::plain(format!("lease_ms={lease_ms}")),
                // The stamp this actor will present, as it holds it then;
                // not while predicting, when it would tell how the claims
                // before it end.
                Action::Finish | Action::Send if stepper.predict() => Said::default(),
                Action::Finish | Action::Send => index
                    .checked_sub(1)
                    .and_then(|before| stepper.timeline().frames.get(before))
                    .and_then(|frame| frame.holding.get(&event.worker))
                    .map(|claim| {
                        let holds = Assertion::Holds {
                            event: index,
                            worker: event.worker.clone(),
                            job: claim.id.clone(),
                            token: claim.token,
                        };
                        Said::of(lang, holds)
                    })
                    .unwrap_or_default(),
                Action::Enqueue(job) => Said::plain(job.id.clone()),
            };
            EventLine {
                at: format!("{} ms", event.at),
                who,
                what: lang
                    .text(crate::playground::explain::action_key(&event.action))
                    .to_owned(),
                detail,
            }
        })
        .collect()
}

/// The marks that differ from what the list showed at position `drawn`
/// (every applied one for a fresh list, `None`).
pub fn marks(session: &Session, drawn: Option<usize>) -> Vec<EventMark> {
    let stepper = &session.stepper;
    let (position, total) = (stepper.position(), stepper.total());
    // Only the rows between the old and the new position change, plus the
    // one that was current before.
    let range = match drawn {
        None => 0..position,
        Some(before) => before.min(position).saturating_sub(1)..before.max(position).min(total),
    };
    range
        .map(|index| {
            let result = stepper
                .timeline()
                .frames
                .get(index)
                .filter(|_| index < position)
                .map(|frame| frame.result.outcome.label());
            EventMark {
                event: index,
                result,
                text: result
                    .map(|result| {
                        let came = Assertion::Came {
                            event: index,
                            result,
                        };
                        Said::of(session.lang, came)
                    })
                    .unwrap_or_default(),
                current: index + 1 == position,
            }
        })
        .collect()
}
