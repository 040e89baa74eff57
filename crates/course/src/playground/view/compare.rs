//! Fencing off vs on: every finish of the timeline, as the fenced queue and
//! a naive one (id only, or id + owner) took it, and where the naive one
//! did harm.

use super::names::variant_name;
use crate::key;
use crate::mechanism::invariants::Side;
use crate::playground::assertions::{Assertion, Said};
use crate::playground::breaks;
use crate::playground::explain::cell;
use crate::playground::messages::Key;
use crate::playground::session::Session;
use crate::variants::unfenced::{Unfenced, UnfencedFinish};
use crate::variants::{Guard, Variant};
use leasefence::model::JobRow;
use leasefence::replay::Outcome;
use serde::Serialize;

/// The comparison panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CompareView {
    /// The naive guard's statement.
    pub guard_sql: &'static str,
    /// The naive guard's name, for the column header.
    pub guard_name: String,
    /// One row per finish.
    pub rows: Vec<CompareRow>,
    /// Whether any shown finish did harm.
    pub harm: bool,
    /// The conclusion so far, in words.
    pub note: Said,
    /// At the end of a timeline where the two queues agree: the chapter
    /// where the naive finish breaks.
    pub breaks: Option<BreakLink>,
}

/// Where a naive side breaks, said, and the button that opens it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BreakLink {
    /// The sentence.
    pub said: Said,
    /// The chapter it names, which the button opens; `None` in an embed
    /// without the chapter picker, which stays on its lesson (the sentence
    /// still names it).
    pub opens: Option<&'static str>,
    /// What the button says.
    pub label: String,
}

/// The link to where `side` breaks, if it breaks anywhere.
pub(super) fn break_link(session: &Session, side: Side) -> Option<BreakLink> {
    let lang = session.lang;
    let found = breaks::shortest(side)?;
    let title = lang
        .text(crate::playground::lesson::title_key(found.chapter))
        .to_owned();
    Some(BreakLink {
        said: Said::of(
            lang,
            Assertion::Breaks {
                side,
                chapter: found.chapter,
                event: found.event,
            },
        ),
        opens: session.show.chapters.then_some(found.chapter),
        label: lang.fill(key!("breaks.open"), &[("title", title)]),
    })
}

/// One finish on both queues.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CompareRow {
    /// `1001 ms · A`.
    pub event: String,
    /// The fenced verdict and the row after it (or "not yet").
    pub fenced: Said,
    /// The naive verdict and the row after it (or "not yet").
    pub naive: Said,
    /// Whether the naive queue did harm here: it accepted a finish the
    /// fenced queue refused, and its row now differs from the fenced one.
    /// Accepting a finish on a row that was already `done` changes nothing
    /// and is no harm.
    pub harm: bool,
}

/// The comparison at the learner's place; `None` while it is closed.
pub fn view(session: &Session) -> Option<CompareView> {
    let lang = session.lang;
    let t = |key: Key| lang.text(key).to_owned();
    let stepper = &session.stepper;
    let naive = session.unfenced().filter(|_| session.compare_open())?;
    let mut rows = Vec::new();
    for finish in &naive.finishes {
        let Some(Outcome::Finished(fenced)) = stepper
            .timeline()
            .frames
            .get(finish.event)
            .map(|frame| &frame.result.outcome)
        else {
            continue;
        };
        let shown = finish.event < stepper.position();
        let verdict = |guard: Option<Guard>, accepted: bool, row: Option<&JobRow>| {
            if !shown {
                return Said::plain(t(key!("timeline.pending")));
            }
            let row = row.map(|row| (row.state.as_str().to_owned(), cell(row, "owner"), row.token));
            let judged = Assertion::Judged {
                event: finish.event,
                guard,
                accepted,
                row,
            };
            Said::of(lang, judged)
        };
        let event = &stepper.scenario().events()[finish.event];
        rows.push(CompareRow {
            event: format!("{} ms · {}", event.at, event.worker),
            fenced: verdict(None, fenced.accepted(), fenced.current.as_ref()),
            naive: verdict(Some(naive.guard), finish.accepted, finish.current.as_ref()),
            harm: shown && harmed(fenced, finish),
        });
    }
    let harm = rows.iter().any(|row| row.harm);
    let note = note(session, naive);
    let at_end = stepper.position() == stepper.total();
    let agrees = note
        .asserts()
        .iter()
        .any(|said| matches!(said, Assertion::Agree { .. }));
    let breaks = (at_end && agrees)
        .then(|| break_link(session, Side::Unfenced(naive.guard)))
        .flatten();
    let variant = variant_name(lang, Variant::finish(session.guard()));
    Some(CompareView {
        guard_sql: session.guard().sql(),
        guard_name: variant.clone(),
        rows,
        harm,
        note,
        breaks,
    })
}

/// The conclusion so far: the first finish where the naive queue did harm,
/// else the first where the verdicts differ at all, else that they agree
/// on every finish shown (or that none is shown yet).
fn note(session: &Session, naive: &Unfenced) -> Said {
    let lang = session.lang;
    let stepper = &session.stepper;
    let shown: Vec<(&UnfencedFinish, &leasefence::Finish)> = (naive.finishes.iter())
        .filter(|finish| finish.event < stepper.position())
        .filter_map(
            |finish| match &stepper.timeline().frames.get(finish.event)?.result.outcome {
                Outcome::Finished(fenced) => Some((finish, fenced)),
                _ => None,
            },
        )
        .collect();
    if shown.is_empty() {
        return Said::plain(lang.text(key!("compare.not_yet")));
    }
    let differs = |(finish, fenced): &&(&UnfencedFinish, &leasefence::Finish)| {
        finish.accepted != fenced.accepted()
    };
    let first =
        (shown.iter().find(|pair| harmed(pair.1, pair.0))).or_else(|| shown.iter().find(differs));
    let guard = naive.guard;
    Said::of(
        lang,
        match first {
            Some((finish, fenced)) => Assertion::Differ {
                guard,
                event: finish.event,
                naive_accepted: finish.accepted,
                same_row: finish.current == fenced.current,
            },
            None => Assertion::Agree {
                guard,
                position: stepper.position(),
            },
        },
    )
}

/// Harm: the naive queue let through what the fence refused, and its row
/// is not what the fenced row is.
fn harmed(fenced: &leasefence::Finish, naive: &UnfencedFinish) -> bool {
    naive.accepted && !fenced.accepted() && naive.current != fenced.current
}
