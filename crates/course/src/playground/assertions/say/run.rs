//! A statement run's facts in words, its actors named as the panel names
//! them.

use crate::key;
use crate::mechanism::races;
use crate::playground::Lang;
use crate::playground::assertions::{LockNow, RunFact, StepDid};
use crate::playground::view::names::who;

/// Actors as the panel names them, in a list.
fn names(lang: Lang, workers: &[String]) -> String {
    (workers.iter())
        .map(|worker| who(lang, worker))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A fact of a statement run, with its actors as the panel names them.
pub(super) fn run_words(lang: Lang, fact: &RunFact) -> String {
    match fact {
        RunFact::Twice {
            job,
            token,
            workers,
        } => lang.fill(
            key!("stmt.twice"),
            &[
                ("workers", names(lang, workers)),
                ("id", job.clone()),
                ("token", token.to_string()),
                ("n", workers.len().to_string()),
            ],
        ),
        RunFact::Once => lang.text(key!("stmt.once")).to_owned(),
        RunFact::TookNothing { workers } => {
            lang.fill(key!("stmt.empty"), &[("workers", names(lang, workers))])
        }
        RunFact::Refused { at, worker, token } => lang.fill(
            key!("stmt.refused"),
            &[
                ("at", at.to_string()),
                ("worker", who(lang, worker)),
                ("token", token.to_string()),
            ],
        ),
        RunFact::Waited {
            enqueue_ms,
            claim_ms,
        } => lang.fill(
            if enqueue_ms + claim_ms == 0 {
                key!("stmt.no_wait")
            } else {
                key!("stmt.waited")
            },
            &[
                ("ms", enqueue_ms.to_string()),
                ("claim_ms", claim_ms.to_string()),
                ("claimer", races::CLAIMER.to_owned()),
            ],
        ),
        RunFact::Busy { workers } => {
            lang.fill(key!("stmt.busy"), &[("workers", names(lang, workers))])
        }
        RunFact::Did {
            at, worker, did, ..
        } => step_words(lang, *at, worker, did),
        RunFact::Lock { lock, .. } => lock_words(lang, lock),
        RunFact::Holding { claims, .. } if claims.is_empty() => {
            lang.text(key!("stmt.nobody")).to_owned()
        }
        RunFact::Holding { claims, .. } => {
            let held: Vec<String> = (claims.iter())
                .map(|(worker, job, token)| format!("{} → {job} token={token}", who(lang, worker)))
                .collect();
            lang.fill(key!("stmt.held"), &[("claims", held.join(" · "))])
        }
        RunFact::AllRan { statements, .. } => {
            lang.fill(key!("stmt.side_done"), &[("n", statements.to_string())])
        }
    }
}

/// What one step of a statement run did, with its time.
fn step_words(lang: Lang, at: u64, worker: &str, did: &StepDid) -> String {
    let mut values = vec![("worker", who(lang, worker)), ("at", at.to_string())];
    let key = match did {
        StepDid::CommitWaits { readers } => {
            values.push(("readers", names(lang, readers)));
            key!("stmt.now.commit_waits")
        }
        StepDid::Waits { holder } => {
            values.push(("holder", who(lang, holder)));
            key!("stmt.now.waits")
        }
        StepDid::Sends { ms } => {
            values.push(("ms", ms.to_string()));
            match ms {
                0 => key!("stmt.now.send_at_once"),
                _ => key!("stmt.now.send_starts"),
            }
        }
        StepDid::SendReturns => key!("stmt.now.send_returns"),
        StepDid::NoClaim => key!("stmt.now.no_claim"),
        StepDid::Busy { holder } => {
            values.push(("holder", who(lang, holder)));
            key!("stmt.now.busy")
        }
        StepDid::Begin => key!("stmt.now.begin"),
        StepDid::BeginDeferred => key!("stmt.now.begin_deferred"),
        StepDid::Commit { held: true } => key!("stmt.now.commit"),
        StepDid::Commit { held: false } => key!("stmt.now.commit_alone"),
        StepDid::Rollback => key!("stmt.now.rollback"),
        StepDid::Ran { write, rows } => {
            values.push(("n", rows.to_string()));
            match write {
                true => key!("stmt.now.changed"),
                false => key!("stmt.now.read"),
            }
        }
    };
    lang.fill(key, &values)
}

/// Who holds the write lock, who waits and who reads.
fn lock_words(lang: Lang, lock: &LockNow) -> String {
    match lock {
        LockNow::Free => lang.text(key!("stmt.lock.free")).to_owned(),
        LockNow::OwnStatement { worker } => lang.fill(
            key!("stmt.lock.own_statement"),
            &[("worker", who(lang, worker))],
        ),
        LockNow::Held { holder, waiting } if waiting.is_empty() => {
            lang.fill(key!("stmt.lock.held"), &[("holder", who(lang, holder))])
        }
        LockNow::Held { holder, waiting } => lang.fill(
            key!("stmt.lock.held_waiting"),
            &[
                ("holder", who(lang, holder)),
                ("waiting", names(lang, waiting)),
            ],
        ),
        LockNow::CommitWaits { holder, readers } => lang.fill(
            key!("stmt.lock.commit_waits"),
            &[
                ("holder", who(lang, holder)),
                ("readers", names(lang, readers)),
            ],
        ),
    }
}
