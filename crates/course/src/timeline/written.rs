//! A timeline written down, and read back without SQLite.
//!
//! The page's module comes in two parts, and a learner waits only for the
//! first (`scripts/split-module.mjs`). A chapter's timeline is the same on
//! every visit, so each chapter folder keeps it written down
//! (`timeline.json`): the page draws a chapter from it, and SQLite (its
//! parser, code generator and B-tree, about half the module) waits in the
//! second part until the learner changes the timeline. The file holds what
//! the queue and SQLite did, nothing computed here: each event's outcome,
//! the statements it ran, and every version of every row.
//! `playground::chapters`' tests replay each chapter and compare, so a
//! file the queue would no longer write fails them (`make bless` writes it
//! again).
//!
//! What the scenario says (each event's time, actor and action) is not
//! written: it is read from the scenario. What follows from the outcomes
//! (the claims held, the receiver's deliveries) is computed as a replay
//! computes it ([`Timeline::push`]).

use std::borrow::Cow;
use std::fmt;
use std::rc::Rc;

use leasefence::fence::{Condition, Conditions, Finish, Verdict};
use leasefence::model::{Claim, JobRow, Reason, Stamp};
use leasefence::replay::{EventResult, Outcome};
use leasefence::scenario::Scenario;
use leasefence::store::{Bound, Executed};
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
#[cfg(test)]
use serde::{Serialize, Serializer};

use super::Timeline;

/// The file's document.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
struct Written<'a> {
    /// Each statement's text once, in the order first run: the statements
    /// name theirs by its place here.
    texts: Vec<String>,
    /// Per job, in enqueue order: its versions, each with the first
    /// position it holds at.
    jobs: Vec<Vec<(usize, JobRow)>>,
    /// Per event, in order.
    #[serde(borrow)]
    events: Vec<Event<'a>>,
}

/// What one event did.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
struct Event<'a> {
    outcome: WrittenOutcome<'a>,
    #[serde(borrow)]
    sql: Vec<Statement<'a>>,
}

/// An [`Outcome`], its variant named (the replay document's shape leaves
/// it to be guessed from the fields), and a refusal with every condition
/// that failed (the document names one reason).
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
#[serde(rename_all = "snake_case")]
enum WrittenOutcome<'a> {
    Claimed(Option<Claim>),
    Finished {
        /// `accepted`, `no_claim`, or the fields of the failed conditions.
        #[serde(borrow)]
        verdict: WrittenVerdict<'a>,
        expected: Option<Stamp>,
        current: Option<JobRow>,
    },
    Sent {
        applied: bool,
        reason: Option<Reason>,
    },
    Enqueued(JobRow),
}

/// A [`Verdict`], a refusal's conditions by their fields.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
#[serde(rename_all = "snake_case")]
enum WrittenVerdict<'a> {
    Accepted,
    NoClaim,
    #[serde(borrow)]
    Refused(Vec<&'a str>),
}

/// An [`Executed`], its text by its place in [`Written::texts`].
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
struct Statement<'a> {
    text: usize,
    #[serde(borrow)]
    params: Vec<(&'a str, Value)>,
    write: bool,
    rows: usize,
}

/// A [`Bound`] value: an integer, a string or `null`, as the replay
/// document writes it.
struct Value(Bound);

#[cfg(test)]
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        struct Read;
        impl Visitor<'_> for Read {
            type Value = Value;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer, a string or null")
            }
            fn visit_i64<E: de::Error>(self, value: i64) -> Result<Value, E> {
                Ok(Value(Bound::Int(value)))
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> Result<Value, E> {
                i64::try_from(value)
                    .map(|value| Value(Bound::Int(value)))
                    .map_err(|_| E::custom("an integer beyond SQLite's"))
            }
            fn visit_str<E: de::Error>(self, value: &str) -> Result<Value, E> {
                Ok(Value(Bound::Text(value.to_owned())))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
                Ok(Value(Bound::Null))
            }
        }
        deserializer.deserialize_any(Read)
    }
}

impl Timeline {
    /// The timeline written down, as a chapter folder keeps it
    /// (`timeline.json`; the course's tests write it, `make bless`).
    #[cfg(test)]
    pub(crate) fn written(&self) -> String {
        let mut texts: Vec<String> = Vec::new();
        let mut text_of = |sql: &str| match texts.iter().position(|known| known == sql) {
            Some(index) => index,
            None => {
                texts.push(sql.to_owned());
                texts.len() - 1
            }
        };
        let events = self
            .frames
            .iter()
            .map(|frame| Event {
                outcome: WrittenOutcome::of(&frame.result.outcome),
                sql: frame
                    .sql
                    .iter()
                    .map(|executed| Statement {
                        text: text_of(&executed.sql),
                        params: (executed.params.iter())
                            .map(|(name, value)| (*name, Value(value.clone())))
                            .collect(),
                        write: executed.write,
                        rows: executed.rows,
                    })
                    .collect(),
            })
            .collect();
        let jobs = (self.jobs.iter())
            .map(|versions| {
                (versions.iter())
                    .map(|(from, row)| (*from, JobRow::clone(row)))
                    .collect()
            })
            .collect();
        let written = Written {
            texts,
            jobs,
            events,
        };
        serde_json::to_string(&written).expect("a timeline is plain values")
    }

    /// The timeline of `scenario` read back from `text` ([`Timeline::written`]),
    /// or `None` if `text` is not one or was written for another number of
    /// events. The parameters' names are borrowed from `text`, as a
    /// statement borrows them from the queue's code.
    pub fn read(scenario: &Scenario, text: &'static str) -> Option<Timeline> {
        let written: Written<'static> = serde_json::from_str(text).ok()?;
        if written.events.len() != scenario.events().len() {
            return None;
        }
        let mut timeline = Timeline {
            frames: Vec::with_capacity(written.events.len()),
            jobs: (written.jobs.into_iter())
                .map(|versions| {
                    (versions.into_iter())
                        .map(|(from, row)| (from, Rc::new(row)))
                        .collect()
                })
                .collect(),
            deliveries: Vec::new(),
        };
        for (index, (event, written_event)) in
            scenario.events().iter().zip(written.events).enumerate()
        {
            let sql = (written_event.sql.into_iter())
                .map(|statement| {
                    Some(Executed {
                        sql: Cow::Owned(written.texts.get(statement.text)?.clone()),
                        params: (statement.params.into_iter())
                            .map(|(name, value)| (name, value.0))
                            .collect(),
                        write: statement.write,
                        rows: statement.rows,
                    })
                })
                .collect::<Option<_>>()?;
            let result = EventResult {
                event: index,
                at: event.at,
                worker: event.worker.clone(),
                action: event.action.name(),
                outcome: written_event.outcome.read()?,
            };
            timeline.push(result, sql);
        }
        Some(timeline)
    }
}

impl WrittenOutcome<'_> {
    #[cfg(test)]
    fn of(outcome: &Outcome) -> WrittenOutcome<'static> {
        match outcome {
            Outcome::Claimed { claim } => WrittenOutcome::Claimed(claim.clone()),
            Outcome::Finished(finish) => WrittenOutcome::Finished {
                verdict: match finish.verdict {
                    Verdict::Accepted => WrittenVerdict::Accepted,
                    Verdict::NoClaim => WrittenVerdict::NoClaim,
                    Verdict::Refused(failed) => {
                        WrittenVerdict::Refused(failed.iter().map(Condition::field).collect())
                    }
                },
                expected: finish.expected.clone(),
                current: finish.current.clone(),
            },
            Outcome::Sent { applied, reason } => WrittenOutcome::Sent {
                applied: *applied,
                reason: *reason,
            },
            Outcome::Enqueued { job } => WrittenOutcome::Enqueued(job.clone()),
        }
    }

    /// The outcome, or `None` for a refusal naming a field no condition has.
    fn read(self) -> Option<Outcome> {
        Some(match self {
            WrittenOutcome::Claimed(claim) => Outcome::Claimed { claim },
            WrittenOutcome::Finished {
                verdict,
                expected,
                current,
            } => Outcome::Finished(Finish {
                verdict: match verdict {
                    WrittenVerdict::Accepted => Verdict::Accepted,
                    WrittenVerdict::NoClaim => Verdict::NoClaim,
                    WrittenVerdict::Refused(fields) => Verdict::Refused(Conditions::of(
                        &fields
                            .into_iter()
                            .map(Condition::parse)
                            .collect::<Option<Vec<_>>>()?,
                    )),
                },
                expected,
                current,
            }),
            WrittenOutcome::Sent { applied, reason } => Outcome::Sent { applied, reason },
            WrittenOutcome::Enqueued(job) => Outcome::Enqueued { job },
        })
    }
}
