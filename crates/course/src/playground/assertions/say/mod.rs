//! An assertion in words: the message files' templates filled with the
//! assertion's own values, so the words cannot show a value it does not
//! state.

use leasefence::fence::Condition;
use leasefence::model::JobState;

use crate::key;
use crate::mechanism::invariants::Invariant;

mod run;
mod variants;

use super::{Assertion, Carried, Standing};
use crate::playground::Lang;
use crate::playground::quiz::field::Field;
use crate::playground::view::names::{side_name, variant_name};
use crate::variants::Variant;
use run::run_words;
use variants::{design_words, read_words};

/// The words of `assertion` in `lang`.
pub(super) fn say(lang: Lang, assertion: &Assertion) -> String {
    let n = |value: &u64| value.to_string();
    match assertion {
        Assertion::Guess {
            finish, yes, right, ..
        } => {
            // The verdict is what happened: what the learner said if they
            // were right, the other answer if not.
            let happened = yes == right;
            let key = if *right {
                key!("predict.right")
            } else {
                key!("predict.wrong")
            };
            let verdict = lang.text(match (finish, happened) {
                (true, true) => key!("result.accepted"),
                (true, false) => key!("result.rejected"),
                (false, true) => key!("result.claimed"),
                (false, false) => key!("result.empty"),
            });
            lang.fill(key, &[("verdict", verdict.to_owned())])
        }
        Assertion::Finish { accepted, .. } => lang
            .text(if *accepted {
                key!("verdict.accepted")
            } else {
                key!("verdict.rejected")
            })
            .to_owned(),
        Assertion::Condition {
            condition,
            held,
            stamp,
            row,
            holder,
            ..
        } => condition_words(lang, *condition, *held, stamp, row, holder.as_deref()),
        Assertion::Failed { conditions, .. } => {
            let fields: Vec<&str> = conditions
                .iter()
                .map(|condition| condition.field())
                .collect();
            lang.fill(
                key!("predict.field_all"),
                &[
                    ("n", conditions.len().to_string()),
                    ("fields", fields.join(", ")),
                ],
            )
        }
        Assertion::NoStamp { .. } => lang.text(key!("reason.no_claim")).to_owned(),
        Assertion::Sends { worker, .. } => {
            lang.fill(key!("predict.sends"), &[("worker", worker.clone())])
        }
        Assertion::Reclaimed {
            job,
            holder,
            until,
            at,
            ..
        }
        | Assertion::Held {
            job,
            holder,
            until,
            at,
            ..
        } => {
            let key = if matches!(assertion, Assertion::Held { .. }) {
                key!("reason.claim.held")
            } else {
                key!("reason.claim.reclaimed")
            };
            let values = [
                ("job", job.clone()),
                ("holder", holder.clone()),
                ("until", n(until)),
                ("at", n(at)),
            ];
            lang.fill(key, &values)
        }
        Assertion::TookPending { job, .. } => {
            lang.fill(key!("reason.claim.pending"), &[("job", job.clone())])
        }
        Assertion::FoundNothing { .. } => lang.text(key!("reason.claim.nothing")).to_owned(),
        Assertion::Came { result, .. } => {
            // A symbol and a word, never colour alone.
            let symbol = match *result {
                "accepted" | "applied" => "✓",
                "rejected" => "✗",
                "empty" | "duplicate" | "no_claim" => "∅",
                _ => "•",
            };
            format!(
                "{symbol} {}",
                lang.text(crate::playground::explain::result_key(result))
            )
        }
        Assertion::Holds { job, token, .. } => format!("{job} · token={token}"),
        Assertion::Claimed {
            worker,
            job,
            token,
            attempt,
            until,
            ..
        } => lang.fill(
            // A token above 1 means someone held this job before: a reclaim.
            if *token > 1 {
                key!("step.reclaimed")
            } else {
                key!("step.claimed")
            },
            &[
                ("worker", worker.clone()),
                ("id", job.clone()),
                ("token", n(token)),
                ("attempt", n(attempt)),
                ("lease_until", n(until)),
            ],
        ),
        Assertion::Completed { worker, job, .. } => lang.fill(
            key!("step.accepted"),
            &[("worker", worker.clone()), ("id", job.clone())],
        ),
        Assertion::Delivered {
            worker,
            job,
            qty,
            applied,
            ..
        } => lang.fill(
            if *applied {
                key!("step.applied")
            } else {
                key!("step.duplicate")
            },
            &[
                ("worker", worker.clone()),
                ("id", job.clone()),
                ("qty", n(qty)),
            ],
        ),
        Assertion::Enqueued {
            worker,
            job,
            qty,
            deadline,
            ..
        } => lang.fill(
            key!("step.enqueued"),
            &[
                ("worker", worker.clone()),
                ("id", job.clone()),
                ("qty", n(qty)),
                ("deadline", n(deadline)),
            ],
        ),
        Assertion::Swept { state, count, .. } => lang.fill(
            if *state == JobState::Quarantined {
                key!("step.swept_quarantined")
            } else {
                key!("step.swept_expired")
            },
            &[("n", count.to_string())],
        ),
        Assertion::Judged { accepted, row, .. } => {
            let verdict = lang.text(if *accepted {
                key!("compare.naive_accepts")
            } else {
                key!("compare.naive_rejects")
            });
            match row {
                Some((state, owner, token)) => lang.fill(
                    key!("compare.verdict_row"),
                    &[
                        ("verdict", verdict.to_owned()),
                        ("state", state.clone()),
                        ("owner", owner.clone()),
                        ("token", n(token)),
                    ],
                ),
                None => verdict.to_owned(),
            }
        }
        Assertion::Agree { guard, .. } => lang.fill(
            key!("compare.same"),
            &[("variant", variant_name(lang, Variant::finish(*guard)))],
        ),
        Assertion::Differ {
            guard,
            naive_accepted,
            same_row,
            ..
        } => lang.fill(
            match (naive_accepted, same_row) {
                (true, false) => key!("compare.harm"),
                (true, true) => key!("compare.differ_same_row"),
                (false, _) => key!("compare.differ_refused"),
            },
            &[("variant", variant_name(lang, Variant::finish(*guard)))],
        ),
        Assertion::Tells { fields, .. } => {
            lang.fill(key!("quiz.telling"), &[("fields", field_list(fields))])
        }
        Assertion::Values {
            field,
            values: [first, second],
            ..
        } => lang.fill(
            if first == second {
                key!("quiz.same")
            } else {
                key!("quiz.differs")
            },
            &[
                ("field", field.name().to_owned()),
                ("first", first.clone()),
                ("second", second.clone()),
            ],
        ),
        Assertion::Due { job, .. } => lang.fill(key!("lanes.deadline"), &[("id", job.clone())]),
        Assertion::Read { at, fact, .. } => read_words(lang, *at, fact),
        Assertion::Designed { fact, .. } => design_words(lang, fact),
        Assertion::Picked { right, .. } => lang
            .text(if *right {
                key!("quiz.right")
            } else {
                key!("quiz.wrong")
            })
            .to_owned(),
        Assertion::Blocks {
            worker, at, until, ..
        } => lang.fill(
            key!("lease.cost"),
            &[
                ("worker", worker.clone()),
                ("at", n(at)),
                ("until", n(until)),
                ("wait", until.saturating_sub(*at).to_string()),
            ],
        ),
        Assertion::Kept { .. } => lang.text(key!("invariants.holds")).to_owned(),
        Assertion::Broke {
            invariant,
            step,
            job,
            workers,
            ..
        } => {
            let worker = |n: usize| workers.get(n).cloned().unwrap_or_default();
            let key = match invariant {
                Invariant::OneValidHolder => key!("invariants.why_holders"),
                Invariant::FinishPresentedCurrentToken => key!("invariants.why_stale"),
                Invariant::TokensOnlyGrow => key!("invariants.why_token"),
                Invariant::AppliedOnce => key!("invariants.why_twice"),
            };
            let why = lang.fill(
                key,
                &[
                    ("id", job.clone()),
                    ("worker", worker(0)),
                    ("other", worker(1)),
                ],
            );
            lang.fill(
                key!("invariants.broke"),
                &[("step", step.to_string()), ("why", why)],
            )
        }
        Assertion::Breaks {
            side,
            chapter,
            event,
        } => lang.fill(
            key!("breaks.note"),
            &[
                ("variant", side_name(lang, *side)),
                (
                    "title",
                    lang.text(crate::playground::lesson::title_key(chapter))
                        .to_owned(),
                ),
                ("step", (event + 1).to_string()),
            ],
        ),
        Assertion::Run { fact, .. } => run_words(lang, fact),
        Assertion::TakenApart { taken, events } => lang.fill(
            key!("stmt.cut"),
            &[("n", taken.to_string()), ("total", events.to_string())],
        ),
        Assertion::Leased { until, .. } => n(until),
        Assertion::Because { reason, .. } => say(lang, reason),
        // The lab's panel words its answers itself (`Said::worded`), and
        // draws its tables as cells.
        Assertion::LabPassed { .. }
        | Assertion::LabParted { .. }
        | Assertion::LabRaced { .. }
        | Assertion::LabTables { .. }
        | Assertion::LabEvents { .. } => String::new(),
        Assertion::At { position, total } => lang.fill(
            key!("controls.position"),
            &[("n", position.to_string()), ("total", total.to_string())],
        ),
        Assertion::Spans { from, to, .. } => lang.fill(
            key!("lanes.summary"),
            &[("from", from.to_string()), ("to", to.to_string())],
        ),
        Assertion::Moment { step, steps, at } => {
            let mut values = vec![("n", step.to_string()), ("total", steps.to_string())];
            match at {
                None => lang.fill(key!("controls.position"), &values),
                Some(at) => {
                    values.push(("at", at.to_string()));
                    lang.fill(key!("stmt.position"), &values)
                }
            }
        }
        Assertion::Carries { worker, stamp, .. } => carried_words(lang, worker, stamp.as_ref()),
        Assertion::BothHold {
            first, second, job, ..
        } => lang.fill(
            key!("quiz.question"),
            &[
                ("first", first.clone()),
                ("second", second.clone()),
                ("id", job.clone()),
            ],
        ),
        Assertion::Orderings {
            actors,
            events,
            orderings,
        } => lang.fill(
            key!("invariants.orderings"),
            &[
                ("actors", actors.len().to_string()),
                ("names", actors.join(", ")),
                ("events", events.to_string()),
                ("orderings", orderings.to_string()),
            ],
        ),
        Assertion::Counted { side, .. } | Assertion::BreaksAtEnd { side, .. } => {
            side_name(lang, *side)
        }
        Assertion::EndsFirst {
            worker, at, until, ..
        } => lang.fill(
            key!("lease.cost_short"),
            &[
                ("worker", worker.clone()),
                ("at", n(at)),
                ("until", n(until)),
            ],
        ),
    }
}

/// What a worker's card says: the stamp it carries, then (on a line of
/// its own) how the row stands against it.
fn carried_words(lang: Lang, worker: &str, stamp: Option<&Carried>) -> String {
    let Some(stamp) = stamp else {
        return lang.fill(key!("card.none"), &[("worker", worker.to_owned())]);
    };
    // A worker whose finish was accepted holds its stamp no longer in
    // any sense that matters: it has sent it.
    let key = match stamp.standing {
        Some(Standing::Done) => key!("card.sent"),
        _ => key!("card.stamp"),
    };
    let carries = lang.fill(
        key,
        &[
            ("worker", worker.to_owned()),
            ("job", stamp.job.clone()),
            ("token", stamp.token.to_string()),
            ("attempt", stamp.attempt.to_string()),
        ],
    );
    let Some(standing) = stamp.standing else {
        return carries;
    };
    let standing = match standing {
        Standing::Current { until } => {
            lang.fill(key!("card.current"), &[("until", until.to_string())])
        }
        Standing::Ended { until } => lang.fill(key!("card.ended"), &[("until", until.to_string())]),
        Standing::Stale { token } => lang.fill(key!("card.stale"), &[("token", token.to_string())]),
        Standing::Done => lang.text(key!("card.done")).to_owned(),
        Standing::Quarantined => lang.text(key!("card.quarantined")).to_owned(),
        Standing::Expired => lang.text(key!("card.expired")).to_owned(),
    };
    // Two lines on the card: what the worker holds, then the row.
    format!("{carries}\n{standing}")
}

/// One condition of a finish, failed or met, with both sides' values.
fn condition_words(
    lang: Lang,
    condition: Condition,
    held: bool,
    stamp: &str,
    row: &str,
    holder: Option<&str>,
) -> String {
    let key = match (condition, holder, held) {
        (Condition::LeaseUntil, Some(_), true) => key!("reason.met.lease_until_holder"),
        (Condition::Id, _, true) => key!("reason.met.id"),
        (Condition::Owner, _, true) => key!("reason.met.owner"),
        (Condition::Token, _, true) => key!("reason.met.token"),
        (Condition::Attempt, _, true) => key!("reason.met.attempt"),
        (Condition::State, _, true) => key!("reason.met.state"),
        (Condition::LeaseUntil, _, true) => key!("reason.met.lease_until"),
        (Condition::Deadline, _, true) => key!("reason.met.deadline"),
        (_, _, false) => crate::playground::explain::reason_key(condition.reason()),
    };
    let mut values = match condition {
        Condition::Id => vec![("expected", stamp.to_owned())],
        Condition::State => vec![("state", row.to_owned())],
        Condition::Owner | Condition::Token | Condition::Attempt => {
            vec![("expected", stamp.to_owned()), ("current", row.to_owned())]
        }
        Condition::LeaseUntil => vec![("at", stamp.to_owned()), ("lease_until", row.to_owned())],
        Condition::Deadline => vec![("at", stamp.to_owned()), ("deadline", row.to_owned())],
    };
    if let Some(holder) = holder {
        values.push(("holder", holder.to_owned()));
    }
    lang.fill(key, &values)
}

/// The quiz's fields, as its choices name them, joined.
fn field_list(fields: &[Field]) -> String {
    fields
        .iter()
        .map(|field| field.name())
        .collect::<Vec<_>>()
        .join(", ")
}
