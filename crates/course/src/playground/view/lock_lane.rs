//! The statement panel's lock lane: who holds SQLite's write lock, who
//! waits for it and whose transaction holds a read lock, at every moment
//! of the panel's clock, both sides on the same columns.

use serde::Serialize;

use super::names::who;
use crate::mechanism::statements::{Run, Step, StepKind};
use crate::playground::Lang;
use crate::playground::assertions::{Assertion, LockNow, RunFact, Said};
use crate::playground::statements::{StatementPanel, Tick};

/// The write lock's lane: one column per moment of the panel's clock, the
/// same columns on both sides, so that they line up in time; and between
/// two moments more than 1 ms apart, the time that passes, so a wait of
/// 296 ms does not look as short as one of 1 ms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LaneView {
    /// Each column's time in ms.
    pub times: Vec<String>,
    /// Per column: the ms from it to the next column (0 for the last, and
    /// where the next stands at the same instant).
    pub spans: Vec<u64>,
    /// How many columns have happened (the rest are still to come).
    pub applied: usize,
    /// One row per actor.
    pub rows: Vec<LaneRow>,
    /// Who holds the lock and who waits now, in a sentence.
    pub text: Said,
}

/// An actor's row of the lock lane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LaneRow {
    /// The actor, as [`ActorView::name`].
    pub actor: String,
    /// Per column: `hold`, `wait`, or empty (neither, or still to come).
    pub cells: Vec<&'static str>,
    /// Per column: the same for the time between it and the next column
    /// (an autocommit write's lock ends with its statement; empty while
    /// the next column is still to come).
    pub between: Vec<&'static str>,
}

/// Whether the step at `index` of `run` is a write that ran in a
/// transaction of its own (no `BEGIN` before it, none open after it):
/// SQLite takes the write lock for that one statement and releases it at
/// once, as it does for the naive claim's `UPDATE`. What the naive claim
/// lacks is a lock held *across* its read and its write, not a lock for
/// the write.
fn writes_alone(run: &Run, index: usize) -> bool {
    let step = &run.steps[index];
    let held_before = index
        .checked_sub(1)
        .and_then(|before| run.steps[before].lock.as_deref())
        == Some(step.actor.as_str());
    step.kind == StepKind::Ran
        && step.lock.is_none()
        && !held_before
        && step.sql.as_ref().is_some_and(|executed| executed.write)
}

/// The lane on the panel's clock. At a moment this side runs a statement,
/// the cell says what that step left (an autocommit write holds the lock
/// for its own moment); at a moment only the other side acts, the lock
/// held and the waits go on as they were.
pub(super) fn lane(
    lang: Lang,
    run: &Run,
    names: &[&str],
    (panel, steps): (&StatementPanel, &[Tick]),
    naive: bool,
) -> LaneView {
    let race = panel.race;
    let applied = steps.partition_point(|tick| panel.now().is_some_and(|now| *tick <= now));
    let clock = panel.clock();
    // At the moment `tick`, or (`at_tick` false) in the time after it.
    let cell = |name: &str, tick: &Tick, at_tick: bool| -> &'static str {
        let ran = steps.partition_point(|step| step <= tick);
        let Some(index) = ran.checked_sub(1) else {
            return "";
        };
        let step = &run.steps[index];
        let own_write =
            at_tick && steps[index] == *tick && step.actor == name && writes_alone(run, index);
        if step.lock.as_deref() == Some(name) || own_write {
            "hold"
        } else if step.waiting.iter().any(|waiter| waiter == name) {
            "wait"
        } else if step.reading.iter().any(|reader| reader == name) {
            "read"
        } else {
            ""
        }
    };
    let rows = names
        .iter()
        .map(|&name| LaneRow {
            actor: who(lang, name),
            cells: clock
                .iter()
                .enumerate()
                .map(|(column, tick)| match column < panel.position {
                    true => cell(name, tick, true),
                    false => "",
                })
                .collect(),
            between: clock
                .iter()
                .enumerate()
                .map(|(column, tick)| match column + 1 < panel.position {
                    true => cell(name, tick, false),
                    false => "",
                })
                .collect(),
        })
        .collect();
    let last = applied.checked_sub(1).map(|index| &run.steps[index]);
    let holder = last.and_then(|step| step.lock.as_ref());
    // The holder itself waits only to commit, for the readers to go.
    let others = |list: fn(&Step) -> &Vec<String>| -> Vec<String> {
        (last.map(list).into_iter().flatten())
            .filter(|name| Some(*name) != holder)
            .cloned()
            .collect()
    };
    let committing = last.is_some_and(|step| {
        (step.lock.as_ref()).is_some_and(|holder| step.waiting.contains(holder))
    });
    // A write in a statement of its own holds the lock at its own moment
    // only.
    let alone = applied
        .checked_sub(1)
        .filter(|&index| Some(steps[index]) == panel.now() && writes_alone(run, index));
    let lock = match holder {
        None => match alone {
            Some(index) => LockNow::OwnStatement {
                worker: run.steps[index].actor.clone(),
            },
            None => LockNow::Free,
        },
        Some(holder) if committing => LockNow::CommitWaits {
            holder: holder.clone(),
            readers: others(|step| &step.reading),
        },
        Some(holder) => LockNow::Held {
            holder: holder.clone(),
            waiting: others(|step| &step.waiting),
        },
    };
    let fact = RunFact::Lock { applied, lock };
    LaneView {
        times: clock.iter().map(|(at, _)| at.to_string()).collect(),
        spans: (clock.windows(2).map(|pair| pair[1].0 - pair[0].0))
            .chain([0])
            .take(clock.len())
            .collect(),
        applied: panel.position,
        rows,
        text: Said::of(lang, Assertion::Run { race, naive, fact }),
    }
}
