//! Why an event came out as it did, as assertions: the reason a learner
//! is owed after a wrong prediction, and the comparison behind "which
//! condition did it fail?". Read from the row just before the event and
//! the claim its worker held, as the queue's one `UPDATE` read them.

use crate::key;
use crate::playground::Lang;
use crate::playground::assertions::{Assertion, Said};
use crate::playground::session::Session;
use crate::timeline::Timeline;
use leasefence::fence::{Condition, Verdict};
use leasefence::model::JobState;
use leasefence::replay::Outcome;

/// Why event `event` came out as it did: a refused finish's failed
/// condition (the one the replay names), an accepted finish's lease read
/// off the current row, or what a claim found.
pub(super) fn why(session: &Session, event: usize) -> Said {
    why_in(session.lang, session.stepper.timeline(), event)
}

/// Why event `event` of `timeline` came out as it did (see [`why`]): the
/// lab's reason for what the queue did at its counterexample's last event.
pub(super) fn why_in(lang: Lang, timeline: &Timeline, event: usize) -> Said {
    let Some(frame) = timeline.frames.get(event) else {
        return Said::default();
    };
    let worker = frame.result.worker.clone();
    match &frame.result.outcome {
        Outcome::Finished(finish) => match finish.verdict {
            Verdict::NoClaim => Said::of(lang, Assertion::NoStamp { event, worker }),
            Verdict::Refused(failed) => failed
                .named()
                .and_then(|named| compare(lang, timeline, event, named))
                .unwrap_or_default(),
            Verdict::Accepted => compare(lang, timeline, event, Condition::Token)
                .unwrap_or_default()
                .then(compare(lang, timeline, event, Condition::LeaseUntil).unwrap_or_default()),
        },
        Outcome::Claimed { claim: None } => Said::of(lang, Assertion::FoundNothing { event }),
        Outcome::Claimed { claim: Some(claim) } => {
            let rows = timeline.rows_after(event);
            let Some(before) = rows.iter().find(|row| row.id == claim.id) else {
                return Said::default();
            };
            match (before.state, &before.owner, before.lease_until) {
                (JobState::Pending, ..) => Said::of(
                    lang,
                    Assertion::TookPending {
                        event,
                        job: claim.id.clone(),
                    },
                ),
                (JobState::Leased, Some(holder), Some(until)) => Said::of(
                    lang,
                    Assertion::Reclaimed {
                        event,
                        job: claim.id.clone(),
                        holder: holder.clone(),
                        until,
                        at: frame.result.at,
                    },
                ),
                _ => Said::default(),
            }
        }
        _ => Said::default(),
    }
}

/// Whether the finish at `event` met `condition`, with the stamp's side
/// beside the current row's (the row as the finish found it). `None` when
/// its worker presented no stamp.
pub(super) fn condition(session: &Session, event: usize, condition: Condition) -> Option<Said> {
    compare(session.lang, session.stepper.timeline(), event, condition)
}

fn compare(lang: Lang, timeline: &Timeline, event: usize, condition: Condition) -> Option<Said> {
    let frame = timeline.frames.get(event)?;
    let before = timeline.frames.get(event.checked_sub(1)?)?;
    let stamp = before.holding.get(&frame.result.worker)?.stamp();
    let rows = timeline.rows_after(event);
    let row = rows.iter().find(|row| row.id == stamp.id).copied();
    let compared = Assertion::compared(event, condition, &stamp, row, frame.result.at);
    Some(Said::of(lang, compared))
}

/// What a refused finish's failed conditions teach beyond its named one:
/// why the token, not the owner, is the fence. A different owner is no
/// proof (a worker restarted under its old name has the same one); the
/// same owner is the case only the token tells apart; and a different
/// attempt is the same fact as the token's, since every claim raises both
/// (R2). Each note states the owner's or the attempt's comparison. Empty
/// unless the token failed. The note about `said` is left out: the field
/// question's feedback says it when the learner picked that condition.
pub(super) fn fence_notes(session: &Session, event: usize, said: Option<Condition>) -> Vec<Said> {
    [Condition::Owner, Condition::Attempt]
        .into_iter()
        .filter(|about| Some(*about) != said)
        .filter_map(|about| fence_note(session, event, about))
        .collect()
}

/// The note of [`fence_notes`] about `about` (the owner or the attempt),
/// if the refused finish at `event` has one: the owner's always once the
/// token failed, the attempt's when it failed too.
pub(super) fn fence_note(session: &Session, event: usize, about: Condition) -> Option<Said> {
    let frame = session.stepper.timeline().frames.get(event)?;
    let Outcome::Finished(finish) = &frame.result.outcome else {
        return None;
    };
    let Verdict::Refused(failed) = finish.verdict else {
        return None;
    };
    if !failed.contains(Condition::Token) {
        return None;
    }
    let key = match (about, failed.contains(about)) {
        (Condition::Owner, true) => key!("fence.owner_too"),
        (Condition::Owner, false) => key!("fence.owner_same"),
        (Condition::Attempt, true) => key!("fence.attempt_with_token"),
        _ => return None,
    };
    let said = condition(session, event, about).unwrap_or_default();
    Some(said.reworded(session.lang.text(key)))
}
