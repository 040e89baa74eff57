//! Words and comparisons for one step: the sentence that says what
//! happened, the reason a finish was refused, the rows that changed, and
//! the stamp beside the row (R14).

use crate::key;
use crate::playground::Lang;
use crate::playground::assertions::{Assertion, Said};
use crate::playground::messages::Key;
use crate::playground::parser_words::{parser_words, parser_words_at};
use crate::playground::sqlite_words::sqlite_words;
use crate::timeline::{Frame, Timeline};
use leasefence::error::{Error, Forbidden, Problem, ScriptMistake};
use leasefence::fence::Finish;
use leasefence::fence::{Condition, Verdict};
use leasefence::model::{JobRow, JobState, Reason};
use leasefence::replay::Outcome;
use leasefence::store;
use serde::Serialize;

/// The columns of a jobs row, in table order.
pub const COLUMNS: &[&str] = &[
    "id",
    "qty",
    "state",
    "owner",
    "token",
    "attempts",
    "max_attempts",
    "lease_until",
    "deadline",
];

/// One cell of a row as text (`null` for an empty owner or lease).
pub fn cell(row: &JobRow, column: &str) -> String {
    let optional = |value: Option<String>| value.unwrap_or_else(|| "null".to_owned());
    match column {
        "id" => row.id.clone(),
        "qty" => row.qty.to_string(),
        "state" => row.state.as_str().to_owned(),
        "owner" => optional(row.owner.clone()),
        "token" => row.token.to_string(),
        "attempts" => row.attempts.to_string(),
        "max_attempts" => row.max_attempts.to_string(),
        "lease_until" => optional(row.lease_until.map(|v| v.to_string())),
        "deadline" => row.deadline.to_string(),
        _ => String::new(),
    }
}

/// A row before and after a step; either side may be absent (a new job).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowChange {
    /// The job id.
    pub id: String,
    /// The row before the step.
    pub before: Option<JobRow>,
    /// The row after the step.
    pub after: Option<JobRow>,
}

impl RowChange {
    /// The columns whose value differs between before and after.
    pub fn changed_columns(&self) -> Vec<&'static str> {
        COLUMNS
            .iter()
            .copied()
            .filter(|column| {
                self.before.as_ref().map(|row| cell(row, column))
                    != self.after.as_ref().map(|row| cell(row, column))
            })
            .collect()
    }
}

/// Rows the step `index` changed, plus its target row even if unchanged
/// (a refused finish shows its row "before = after").
pub fn row_changes(timeline: &Timeline, index: usize) -> Vec<RowChange> {
    timeline
        .changes(index)
        .into_iter()
        .map(|(before, after)| RowChange {
            id: after.id.clone(),
            before: before.cloned(),
            after: Some(after.clone()),
        })
        .collect()
}

/// An error in the learner's language: where, then what. Problems with a
/// place (a scenario's field, an argument) are translated; anything else
/// (a database failure, a bug) is shown as the core says it.
pub fn error_text(lang: Lang, err: &Error) -> String {
    let (place, problem) = match err {
        Error::Scenario { path, problem } => (path, problem),
        Error::InvalidInput { field, problem } => (field, problem),
        other => return other.to_string(),
    };
    let problem = match problem {
        // A value that does not fit its field: the field's range is known.
        Problem::Unfit(message) => lang.fill(
            key!("problem.unfit"),
            &[("message", parser_words_at(lang, message, place))],
        ),
        problem => problem_text(lang, problem),
    };
    placed(lang, place, problem)
}

/// A problem already in words, said at its place: the core names the
/// whole document "(document)"; any other place is a JSON path, which is
/// code in either language.
pub(crate) fn placed(lang: Lang, place: &str, problem: String) -> String {
    let place = if place == "(document)" {
        lang.text(key!("error.whole_document")).to_owned()
    } else {
        place.to_owned()
    };
    lang.fill(key!("error.at"), &[("place", place), ("problem", problem)])
}

/// A refusal's reason as a short name (`선점 토큰 불일치`), for a chip
/// beside its code (`token_mismatch`), which the learner may look up.
pub fn reason_name(lang: Lang, reason: Reason) -> String {
    let key = match reason {
        Reason::NoClaim => key!("reason_name.no_claim"),
        Reason::UnknownJob => key!("reason_name.unknown_job"),
        Reason::NotLeased => key!("reason_name.not_leased"),
        Reason::TokenMismatch => key!("reason_name.token_mismatch"),
        Reason::OwnerMismatch => key!("reason_name.owner_mismatch"),
        Reason::AttemptMismatch => key!("reason_name.attempt_mismatch"),
        Reason::LeaseExpired => key!("reason_name.lease_expired"),
        Reason::DeadlinePassed => key!("reason_name.deadline_passed"),
    };
    lang.text(key).to_owned()
}

/// The message of why a finish was refused (`reason.token_mismatch`,
/// with the values beside it: see `assertions::say`).
pub(crate) fn reason_key(reason: Reason) -> Key {
    match reason {
        Reason::NoClaim => key!("reason.no_claim"),
        Reason::UnknownJob => key!("reason.unknown_job"),
        Reason::NotLeased => key!("reason.not_leased"),
        Reason::TokenMismatch => key!("reason.token_mismatch"),
        Reason::OwnerMismatch => key!("reason.owner_mismatch"),
        Reason::AttemptMismatch => key!("reason.attempt_mismatch"),
        Reason::LeaseExpired => key!("reason.lease_expired"),
        Reason::DeadlinePassed => key!("reason.deadline_passed"),
    }
}

/// The message of a result's label (`claimed`, `rejected`, ...: an
/// [`leasefence::replay::Outcome::label`]).
pub(crate) fn result_key(label: &str) -> Key {
    const RESULTS: [(&str, Key); 8] = [
        ("claimed", key!("result.claimed")),
        ("empty", key!("result.empty")),
        ("accepted", key!("result.accepted")),
        ("rejected", key!("result.rejected")),
        ("applied", key!("result.applied")),
        ("duplicate", key!("result.duplicate")),
        ("enqueued", key!("result.enqueued")),
        ("no_claim", key!("result.no_claim")),
    ];
    Key::among(label, &RESULTS)
}

/// The message of an event's action (`claim`, `finish`, ...).
pub(crate) fn action_key(action: &leasefence::scenario::Action) -> Key {
    use leasefence::scenario::Action;
    match action {
        Action::Claim { .. } => key!("action.claim"),
        Action::Finish => key!("action.finish"),
        Action::Send => key!("action.send"),
        Action::Enqueue(_) => key!("action.enqueue"),
    }
}

/// One problem in words, with its numbers. Every variant has a message in
/// both languages (the match has no fallback, so a new one must add its own).
pub fn problem_text(lang: Lang, problem: &Problem) -> String {
    let n = |value: &dyn ToString| value.to_string();
    let (key, values) = match problem {
        Problem::TooSmall { min, got } => (
            key!("problem.too_small"),
            vec![("min", n(min)), ("got", n(got))],
        ),
        Problem::TooLarge { got, max } => (
            key!("problem.too_large"),
            vec![("got", n(got)), ("max", n(max))],
        ),
        Problem::Empty => (key!("problem.empty"), Vec::new()),
        Problem::TooLong { len, max } => (
            key!("problem.too_long"),
            vec![("len", n(len)), ("max", n(max))],
        ),
        Problem::ControlCharacters => (key!("problem.control_characters"), Vec::new()),
        Problem::NulByte => (key!("problem.nul_byte"), Vec::new()),
        Problem::TimeGoesBack { at, previous } => (
            key!("problem.time_goes_back"),
            vec![("at", n(at)), ("previous", n(previous))],
        ),
        Problem::JobListedTwice { id } => {
            (key!("problem.job_listed_twice"), vec![("id", id.clone())])
        }
        Problem::JobAlreadyInScenario { id } => (
            key!("problem.job_already_in_scenario"),
            vec![("id", id.clone())],
        ),
        Problem::LeaseMissing => (key!("problem.lease_missing"), Vec::new()),
        Problem::LeaseNotTaken => (key!("problem.lease_not_taken"), Vec::new()),
        Problem::JobMissing => (key!("problem.job_missing"), Vec::new()),
        Problem::JobNotTaken => (key!("problem.job_not_taken"), Vec::new()),
        Problem::TooMany { what, max } => (
            key!("problem.too_many"),
            vec![("what", (*what).to_owned()), ("max", n(max))],
        ),
        Problem::NotPlayedThrough { applied, total } => (
            key!("problem.not_played_through"),
            vec![("applied", n(applied)), ("total", n(total))],
        ),
        // The JSON parser's words, said again in the learner's language.
        Problem::Syntax(message) => (
            key!("problem.syntax"),
            vec![("message", parser_words(lang, message))],
        ),
        Problem::Unfit(message) => (
            key!("problem.unfit"),
            vec![("message", parser_words(lang, message))],
        ),
        Problem::NotOneStatement => (key!("problem.not_one_statement"), Vec::new()),
        Problem::UnknownParameter { name, allowed } => (
            key!("problem.unknown_parameter"),
            vec![("name", name.clone()), ("allowed", allowed.clone())],
        ),
        Problem::NotAllowed { what } => {
            let (key, name) = match what {
                Forbidden::Table(table) => (key!("forbidden.table"), table.as_str()),
                Forbidden::Pragma(pragma) => (key!("forbidden.pragma"), pragma.as_str()),
                Forbidden::Transaction => (key!("forbidden.transaction"), ""),
                Forbidden::Attach => (key!("forbidden.attach"), ""),
                Forbidden::Schema => (key!("forbidden.schema"), ""),
            };
            let what = lang.fill(key, &[("name", name.to_owned())]);
            (key!("problem.not_allowed"), vec![("what", what)])
        }
        Problem::ReturnsRows => (key!("problem.returns_rows"), Vec::new()),
        Problem::ReturnsOtherColumns { expected } => (
            key!("problem.returns_other_columns"),
            vec![("expected", expected.clone())],
        ),
        Problem::WritesNothing => (key!("problem.writes_nothing"), Vec::new()),
        Problem::ReadWrites => (key!("problem.read_writes"), Vec::new()),
        Problem::ReadsBadValue => (key!("problem.reads_bad_value"), Vec::new()),
        Problem::ReadsOtherColumns { expected } => (
            key!("problem.reads_other_columns"),
            vec![("expected", expected.clone())],
        ),
        Problem::Script(mistake) => {
            let key = match mistake {
                ScriptMistake::NoRead => key!("problem.script.no_read"),
                ScriptMistake::NoWrite => key!("problem.script.no_write"),
                ScriptMistake::TwoReads => key!("problem.script.two_reads"),
                ScriptMistake::TwoWrites => key!("problem.script.two_writes"),
                ScriptMistake::WriteBeforeRead => key!("problem.script.write_before_read"),
                ScriptMistake::TwoTransactions => key!("problem.script.two_transactions"),
                ScriptMistake::NoCommit => key!("problem.script.no_commit"),
                ScriptMistake::NoBegin => key!("problem.script.no_begin"),
                ScriptMistake::Rollback => key!("problem.script.rollback"),
                ScriptMistake::WriteIgnoresRead => key!("problem.script.write_ignores_read"),
                ScriptMistake::Unsplittable => key!("problem.script.unsplittable"),
            };
            (key, Vec::new())
        }
        // SQLite's words, said again in the learner's language.
        Problem::Sqlite(message) => (
            key!("problem.sqlite"),
            vec![("message", sqlite_words(lang, message))],
        ),
        Problem::TooMuchWork { steps } => {
            (key!("problem.too_much_work"), vec![("steps", n(steps))])
        }
    };
    lang.fill(key, &values)
}

/// What the claim's transaction set aside before choosing: sentences for
/// quarantined and expired jobs, if any.
fn sweeps(lang: Lang, frame: &Frame) -> Said {
    let count = |sql: &str| {
        frame
            .sql
            .iter()
            .filter(|statement| statement.sql == sql.trim())
            .map(|statement| statement.rows)
            .sum::<usize>()
    };
    [
        (store::QUARANTINE, JobState::Quarantined),
        (store::EXPIRE, JobState::Expired),
    ]
    .into_iter()
    .filter(|(sql, _)| count(sql) > 0)
    .fold(Said::default(), |said, (sql, state)| {
        said.then(Said::of(
            lang,
            Assertion::Swept {
                event: frame.result.event,
                state,
                count: count(sql),
            },
        ))
    })
}

/// What the step did, in a sentence or two.
pub fn describe(lang: Lang, frame: &Frame) -> Said {
    sweeps(lang, frame).then(describe_event(lang, frame))
}

fn describe_event(lang: Lang, frame: &Frame) -> Said {
    let result = &frame.result;
    let (event, worker) = (result.event, result.worker.clone());
    match &result.outcome {
        Outcome::Claimed { claim: Some(claim) } => Said::of(
            lang,
            Assertion::Claimed {
                event,
                worker,
                job: claim.id.clone(),
                token: claim.token,
                attempt: claim.attempt,
                until: claim.lease_until,
            },
        ),
        Outcome::Claimed { claim: None } => Said::worded(
            lang.fill(
                key!("step.empty"),
                &[("worker", worker), ("at", result.at.to_string())],
            ),
            Assertion::FoundNothing { event },
        ),
        Outcome::Finished(finish) if finish.accepted() => Said::of(
            lang,
            Assertion::Completed {
                event,
                worker,
                job: (finish.expected.as_ref())
                    .map(|stamp| stamp.id.clone())
                    .unwrap_or_default(),
            },
        ),
        Outcome::Finished(finish) => Said::fill(
            lang,
            key!("step.rejected"),
            &[("worker", worker.clone())],
            vec![("reason", refusal(lang, finish, event, &worker, result.at))],
        )
        .stating(Assertion::Finish {
            event,
            at: result.at,
            accepted: false,
        }),
        Outcome::Sent {
            reason: Some(_), ..
        } => Said::worded(
            lang.fill(key!("step.send_none"), &[("worker", worker.clone())]),
            Assertion::NoStamp { event, worker },
        ),
        Outcome::Sent { applied, .. } => {
            let claim = frame.holding.get(&worker);
            Said::of(
                lang,
                Assertion::Delivered {
                    event,
                    job: claim.map(|claim| claim.id.clone()).unwrap_or_default(),
                    qty: claim.map_or(0, |claim| claim.qty),
                    worker,
                    applied: *applied,
                },
            )
        }
        Outcome::Enqueued { job } => Said::of(
            lang,
            Assertion::Enqueued {
                event,
                worker,
                job: job.id.clone(),
                qty: job.qty,
                deadline: job.deadline,
            },
        ),
    }
}

/// Why a finish was refused: its named failed condition, both sides
/// compared, or that its worker held no claim.
fn refusal(lang: Lang, finish: &Finish, event: usize, worker: &str, at: u64) -> Said {
    match (finish.verdict, &finish.expected) {
        (Verdict::Refused(failed), Some(stamp)) => failed
            .named()
            .map(|named| {
                let row = finish.current.as_ref();
                Said::of(lang, Assertion::compared(event, named, stamp, row, at))
            })
            .unwrap_or_default(),
        _ => Said::of(
            lang,
            Assertion::NoStamp {
                event,
                worker: worker.to_owned(),
            },
        ),
    }
}

/// One line of the stamp-beside-row table (R14).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Compared {
    /// The condition's field.
    pub field: &'static str,
    /// What the finish needed (the stamp's value, or the rule).
    pub expected: String,
    /// What the row holds.
    pub current: String,
    /// Whether this condition failed.
    pub differs: bool,
}

/// The stamp and the row side by side, one line per condition of R4 in the
/// guarded `UPDATE`'s order, marked where the verdict says it failed. `at`
/// is the finish's time. An accepted finish shows the row after it
/// (`done`: the change it made), with nothing marked, since every
/// condition held.
pub fn side_by_side(finish: &Finish, at: u64) -> Vec<Compared> {
    let Some(stamp) = &finish.expected else {
        return Vec::new();
    };
    let current = |column: &str| {
        finish
            .current
            .as_ref()
            .map_or_else(|| "—".to_owned(), |row| cell(row, column))
    };
    let failed = finish.verdict.failed();
    Condition::ALL
        .into_iter()
        .map(|condition| {
            let (expected, column) = match condition {
                Condition::Id => (stamp.id.clone(), "id"),
                Condition::Owner => (stamp.owner.clone(), "owner"),
                Condition::Token => (stamp.token.to_string(), "token"),
                Condition::Attempt => (stamp.attempt.to_string(), "attempts"),
                Condition::State => ("leased".to_owned(), "state"),
                Condition::LeaseUntil => (format!("> {at}"), "lease_until"),
                Condition::Deadline => (format!("> {at}"), "deadline"),
            };
            Compared {
                field: condition.field(),
                expected,
                current: current(column),
                differs: failed.contains(condition),
            }
        })
        .collect()
}
