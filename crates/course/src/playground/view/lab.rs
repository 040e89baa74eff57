//! The lab's panel: the levels, what to write, the learner's statement,
//! and the last answer in words: a pass with what was checked, or the
//! first event where their queue and the reference part, the two
//! verdicts and the two tables side by side.

use serde::Serialize;

use crate::key;
use crate::lab::{
    Answer, Bench, Current, Did, Disagreement, Graded, Interleaving, LEVELS, Shortest,
};
use crate::mechanism::statements::{Does, Run, StepKind};
use crate::playground::Lang;
use crate::playground::assertions::{Assertion, RaceEnd, Said, Turn, Turned};
use crate::playground::explain::{COLUMNS, cell, problem_text};
use crate::playground::session::Session;
use crate::timeline::Timeline;
use leasefence::model::{Claim, JobRow, JobState};
use leasefence::scenario::{Action, Event};

/// The SQL functions a statement may call in the browser's SQLite (its
/// build keeps only these: vendor/sqlite/regen/keep-functions.txt; the
/// course's browser tests call each).
pub const FUNCTIONS: [&str; 6] = ["min", "max", "count", "sum", "coalesce", "ifnull"];

/// The lab's panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LabView {
    /// One button per level, in order.
    pub levels: Vec<LevelButton>,
    /// What the statement must do, not how: the box starts wrong, and
    /// finding why is the exercise.
    pub goal: String,
    /// The parameters the queue passes, and the functions there are.
    pub given: Vec<String>,
    /// The hints asked for so far, in order: each a question.
    pub hints: Vec<String>,
    /// The label of the button that shows the next hint, while one is
    /// left.
    pub more_hints: Option<String>,
    /// The statement in the box.
    pub sql: String,
    /// The last answer, if the learner has graded.
    pub answer: Option<AnswerView>,
}

/// A level's button.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LevelButton {
    /// The level's id (the page's action argument).
    pub id: &'static str,
    /// Its name, with ✓ once passed.
    pub label: String,
    /// Whether it is the one open.
    pub current: bool,
}

/// The last answer in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnswerView {
    /// Whether it was a pass.
    pub passed: bool,
    /// The answer in one sentence.
    pub headline: Said,
    /// The counterexample's events, one line each (`1000 ms · A ·
    /// finish`), the last the one where the two part; or the race's
    /// steps, drawn from the turns its headline states.
    pub events: Vec<String>,
    /// What the event lines are drawn from: the counterexample's events
    /// as its headline's ordering has them ([`Assertion::LabEvents`]). No
    /// words of its own.
    #[serde(skip)]
    pub played: Said,
    /// Further sentences: the two verdicts, what was checked.
    pub lines: Vec<Said>,
    /// The tables after the event, side by side, when they differ.
    pub rows: Option<SideBySide>,
    /// The button that opens the counterexample in the timeline.
    pub open: Option<String>,
}

/// The jobs table after the event, the reference's and the learner's, row
/// by row, as the step card's table shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideBySide {
    /// The column names, after the side's own column.
    pub columns: Vec<&'static str>,
    /// Each row: the side's name, then its cells.
    pub rows: Vec<(String, Vec<String>)>,
    /// What the cells are drawn from: the two tables, whole
    /// ([`Assertion::LabTables`]). No words of its own.
    #[serde(skip)]
    pub said: Said,
}

impl SideBySide {
    /// The rows of `expected` and `current` that differ, drawn from the
    /// assertion that the answer `headline` states leaves these two
    /// tables.
    fn of(lang: Lang, headline: &Said, expected: &[JobRow], current: &[JobRow]) -> SideBySide {
        SideBySide {
            columns: COLUMNS.to_vec(),
            rows: side_by_side(lang, expected, current),
            said: headline.underlying(|of| Assertion::LabTables {
                of,
                expected: expected.to_vec(),
                current: current.to_vec(),
            }),
        }
    }
}

/// The lab's panel for `session`, when the lab is open.
pub fn lab(session: &Session) -> Option<LabView> {
    let bench = session.lab()?;
    let lang = session.lang;
    let levels = LEVELS
        .iter()
        .map(|level| {
            let name = lang.text(crate::playground::lab::texts(*level).name);
            let passed = session.labs_passed().contains(&level.id);
            LevelButton {
                id: level.id,
                label: if passed {
                    format!("{name} ✓")
                } else {
                    name.to_owned()
                },
                current: *level == bench.level,
            }
        })
        .collect();
    let names = |list: &[&str]| list.join(", ");
    let texts = crate::playground::lab::texts(bench.level);
    let ladder = texts.hints;
    let more_hints = (bench.hints < ladder.len()).then(|| {
        lang.fill(
            key!("lab.hint.more"),
            &[
                ("next", (bench.hints + 1).to_string()),
                ("total", ladder.len().to_string()),
            ],
        )
    });
    Some(LabView {
        levels,
        goal: lang.text(texts.goal).to_owned(),
        hints: (ladder.iter().take(bench.hints))
            .map(|&hint| lang.text(hint).to_owned())
            .collect(),
        more_hints,
        given: vec![
            lang.fill(
                key!("lab.parameters"),
                &[("names", names(&bench.level.writes.parameters()))],
            ),
            lang.fill(key!("lab.functions"), &[("names", names(&FUNCTIONS))]),
        ],
        sql: bench.sql.clone(),
        answer: bench
            .answer
            .as_ref()
            .map(|answer| answer_view(session, bench, answer)),
    })
}

fn answer_view(session: &Session, bench: &Bench, answer: &Answer) -> AnswerView {
    let lang = session.lang;
    let attempts = ("attempts", bench.attempts.to_string());
    match answer {
        Answer::Refused(problem) => AnswerView {
            passed: false,
            headline: Said::plain(lang.fill(
                key!("lab.refused"),
                &[("message", problem_text(lang, problem))],
            )),
            events: Vec::new(),
            played: Said::default(),
            lines: Vec::new(),
            rows: None,
            open: None,
        },
        Answer::Graded(Graded::Passed { checked }) => AnswerView {
            passed: true,
            headline: Said::worded(
                lang.fill(
                    key!("lab.passed"),
                    &[
                        ("scenarios", checked.scenarios.to_string()),
                        ("orderings", checked.orderings.to_string()),
                        attempts,
                    ],
                ),
                Assertion::LabPassed {
                    level: bench.level.id,
                    sql: bench.sql.clone(),
                    scenarios: checked.scenarios,
                    orderings: checked.orderings,
                },
            ),
            events: Vec::new(),
            played: Said::default(),
            lines: Vec::new(),
            rows: None,
            open: None,
        },
        Answer::Graded(Graded::Failed { checked, shortest }) => {
            let checked = Said::plain(lang.fill(
                key!("lab.checked"),
                &[
                    ("scenarios", checked.scenarios.to_string()),
                    ("orderings", checked.orderings.to_string()),
                ],
            ));
            match shortest.as_ref() {
                Shortest::Events(shortest) => {
                    let current = match &shortest.current {
                        Current::Observed(current) => Some(current.did.clone()),
                        Current::Stopped(_) => None,
                    };
                    let scenario = shortest.scenario.to_json();
                    let because = because(lang, shortest).map(|reason| reason.within(&scenario));
                    let said = Assertion::LabParted {
                        level: bench.level.id,
                        sql: bench.sql.clone(),
                        from: shortest.from,
                        scenario,
                        event: shortest.event,
                        expected: shortest.expected.did.clone(),
                        current,
                    };
                    let headline = Said::worded(failed_headline(session, shortest), said);
                    let events = shortest.scenario.events().to_vec();
                    let lines = event_lines(lang, &events);
                    let played = headline.underlying(|of| Assertion::LabEvents {
                        of,
                        events: events.clone(),
                    });
                    let (verdicts, rows) = parted(lang, shortest, &headline);
                    let mut said = vec![headline.reworded(verdicts)];
                    said.extend(because);
                    said.push(checked);
                    AnswerView {
                        passed: false,
                        lines: said,
                        headline,
                        events: lines,
                        played,
                        rows,
                        open: Some(lang.text(key!("lab.open")).to_owned()),
                    }
                }
                Shortest::Statements(race) => raced(session, bench, race, checked),
            }
        }
    }
}

/// Why the queue did what it did at the event where the learner's
/// statement parts from it: the reason a step card gives for that event
/// (the finish's failed or met conditions, what a claim found), or, where
/// both claims took the same job with other leases, how the queue's lease
/// was set. `None` where only the tables differ or SQLite stopped the
/// learner's statement (its message is the reason). Its assertions are
/// about the counterexample, not the screen's timeline.
pub fn because(lang: Lang, shortest: &Disagreement) -> Option<Said> {
    let Current::Observed(current) = &shortest.current else {
        return None;
    };
    let event = shortest.event;
    let reason = match (&shortest.expected.did, &current.did) {
        (expected, current) if expected == current => return None,
        (
            Did::Claim { claim: Some(queue) },
            Did::Claim {
                claim: Some(learner),
            },
        ) if queue.id == learner.id && queue.lease_until != learner.lease_until => {
            let played = &shortest.scenario.events()[event];
            let Action::Claim { lease_ms } = played.action else {
                return None;
            };
            let until = queue.lease_until;
            let capped = until < played.at.saturating_add(lease_ms);
            let key = if capped {
                key!("lab.why.capped")
            } else {
                key!("lab.why.lease")
            };
            let values = [
                ("lease", lease_ms.to_string()),
                ("until", until.to_string()),
            ];
            let leased = Assertion::Leased {
                claim: event,
                lease_ms,
                until,
                capped,
            };
            Said::worded(lang.fill(key, &values), leased)
        }
        (
            Did::Claim { claim: queue },
            Did::Claim {
                claim: Some(learner),
            },
        ) if queue.as_ref().map(|claim| &claim.id) != Some(&learner.id) => {
            let timeline = Timeline::build(shortest.scenario.clone()).ok()?;
            let queue = super::reasons::why_in(lang, &timeline, event);
            match held(&timeline, event, &learner.id) {
                Some(held) => Said::of(lang, held).then(queue),
                None => queue,
            }
        }
        _ => {
            let timeline = Timeline::build(shortest.scenario.clone()).ok()?;
            super::reasons::why_in(lang, &timeline, event)
        }
    };
    (!reason.text().is_empty())
        .then(|| Said::fill(lang, key!("lab.because"), &[], vec![("reason", reason)]))
}

/// Why no claim may take `job` at the claim `event`: a lease on it still
/// valid then. `None` when the job was free to take (the learner's claim
/// is wrong for another reason: a deadline, a state).
fn held(timeline: &Timeline, event: usize, job: &str) -> Option<Assertion> {
    let at = timeline.frames.get(event)?.result.at;
    let rows = timeline.rows_after(event);
    let row = rows.iter().find(|row| row.id == job)?;
    match (row.state, &row.owner, row.lease_until) {
        (JobState::Leased, Some(holder), Some(until)) if at < until => Some(Assertion::Held {
            event,
            job: job.to_owned(),
            holder: holder.clone(),
            until,
            at,
        }),
        _ => None,
    }
}

/// "In <scenario>, at event n (A's finish at 1000 ms), …".
fn failed_headline(session: &Session, shortest: &Disagreement) -> String {
    let lang = session.lang;
    let event = &shortest.scenario.events()[shortest.event];
    lang.fill(
        key!("lab.failed"),
        &[
            ("title", session.lab_scenario_title(shortest.from)),
            ("event", (shortest.event + 1).to_string()),
            ("worker", event.worker.clone()),
            (
                "action",
                lang.text(crate::playground::explain::action_key(&event.action))
                    .to_owned(),
            ),
            ("at", event.at.to_string()),
        ],
    )
}

/// The counterexample's events as the event list says them.
fn event_lines(lang: Lang, events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|event| {
            let who = super::events::who(lang, event);
            let what = lang
                .text(crate::playground::explain::action_key(&event.action))
                .to_owned();
            match &event.action {
                Action::Claim { lease_ms } => {
                    format!("{} ms · {who} · {what} · lease_ms={lease_ms}", event.at)
                }
                Action::Enqueue(job) => format!("{} ms · {who} · {what} · {}", event.at, job.id),
                Action::Finish | Action::Send => format!("{} ms · {who} · {what}", event.at),
            }
        })
        .collect()
}

/// A claim script's counterexample: which worker's claim ends otherwise,
/// the learner's interleaved steps, the two claims, and the tables.
fn raced(session: &Session, bench: &Bench, race: &Interleaving, checked: Said) -> AnswerView {
    let lang = session.lang;
    let title = ("title", session.lab_scenario_title(race.from));
    let claim = |run: &Run, worker: &str| run.claims.get(worker).cloned().flatten();
    // How the script's run ends for the worker named, and the line that
    // says it beside the queue's.
    let (current, line) = match (&race.stopped, &race.worker) {
        (Some(stopped), _) => {
            let message = problem_text(lang, &stopped.problem);
            let values = [("worker", stopped.worker.clone()), ("message", message)];
            let ends = RaceEnd::Stopped {
                worker: stopped.worker.clone(),
            };
            (ends, Some(lang.fill(key!("lab.stopped_race"), &values)))
        }
        (None, Some(worker)) => {
            let (ends, words) = if race.current.busy.contains(worker) {
                (RaceEnd::Busy, lang.text(key!("lab.busy")).to_owned())
            } else {
                let got = claim(&race.current, worker);
                let words = claimed(lang, got.as_ref());
                (RaceEnd::Claimed { claim: got }, words)
            };
            let expected = claimed(lang, claim(&race.expected, worker).as_ref());
            let values = [
                ("worker", worker.clone()),
                ("expected", expected),
                ("current", words),
            ];
            (ends, Some(lang.fill(key!("lab.race_verdicts"), &values)))
        }
        (None, None) => (RaceEnd::Claimed { claim: None }, None),
    };
    let turns = turns(&race.current);
    let said = Assertion::LabRaced {
        level: bench.level.id,
        sql: bench.sql.clone(),
        from: race.from,
        turns: turns.clone(),
        worker: race.worker.clone(),
        expected: (race.worker.as_ref()).and_then(|worker| claim(&race.expected, worker)),
        current,
    };
    let headline = Said::worded(
        match &race.worker {
            Some(worker) => lang.fill(
                key!("lab.failed_race"),
                &[title, ("worker", worker.clone())],
            ),
            None => lang.fill(key!("lab.failed_race_rows"), &[title]),
        },
        said,
    );
    let (expected, current) = (&race.expected.rows, &race.current.rows);
    let rows = (expected != current).then(|| SideBySide::of(lang, &headline, expected, current));
    let mut lines: Vec<Said> = (line.into_iter())
        .map(|text| headline.reworded(text))
        .collect();
    lines.push(checked);
    AnswerView {
        passed: false,
        headline,
        events: step_lines(lang, &turns),
        played: Said::default(),
        lines,
        rows,
        open: Some(lang.text(key!("lab.open_race")).to_owned()),
    }
}

/// What a claim came to, in words.
fn claimed(lang: Lang, claim: Option<&Claim>) -> String {
    match claim {
        Some(claim) => lang.fill(
            key!("lab.claimed"),
            &[
                ("id", claim.id.clone()),
                ("token", claim.token.to_string()),
                ("until", claim.lease_until.to_string()),
            ],
        ),
        None => lang.text(key!("lab.claimed_nothing")).to_owned(),
    }
}

/// The learner's interleaved steps: the time, the worker, and the
/// statement's first line, or that it waited or was refused.
fn turns(run: &Run) -> Vec<Turn> {
    (run.steps.iter())
        .map(|step| Turn {
            at: step.at,
            worker: step.actor.clone(),
            did: match step.kind {
                StepKind::Waits if step.does == Does::Commit => Turned::CommitWaits,
                StepKind::Waits => Turned::Waits,
                StepKind::Busy => Turned::Busy,
                _ => Turned::Ran(
                    (step.sql.as_ref())
                        .and_then(|executed| executed.sql.lines().next())
                        .unwrap_or_default()
                        .to_owned(),
                ),
            },
        })
        .collect()
}

/// The steps `turns`, one line each.
fn step_lines(lang: Lang, turns: &[Turn]) -> Vec<String> {
    (turns.iter())
        .map(|turn| {
            let what = match &turn.did {
                Turned::CommitWaits => lang.text(key!("lab.step_commit_waits")),
                Turned::Waits => lang.text(key!("lab.step_waits")),
                Turned::Busy => lang.text(key!("lab.busy")),
                Turned::Ran(first) => first,
            };
            format!("{} ms · {} · {what}", turn.at, turn.worker)
        })
        .collect()
}

/// The two verdicts in a sentence, and the two tables when they differ,
/// as the answer `headline` states leaves them.
fn parted(lang: Lang, shortest: &Disagreement, headline: &Said) -> (String, Option<SideBySide>) {
    let verdict = |did: &Did| match did {
        Did::Finish { accepted: true } => lang.text(key!("lab.accepted")).to_owned(),
        Did::Finish { accepted: false } => lang.text(key!("lab.refused_finish")).to_owned(),
        Did::Claim { claim } => claimed(lang, claim.as_ref()),
        Did::Other => lang.text(key!("lab.other_event")).to_owned(),
    };
    let expected = &shortest.expected;
    match &shortest.current {
        Current::Stopped(problem) => (
            lang.fill(
                key!("lab.stopped"),
                &[("message", problem_text(lang, problem))],
            ),
            None,
        ),
        Current::Observed(current) => {
            let sentence = lang.fill(
                key!("lab.verdicts"),
                &[
                    ("expected", verdict(&expected.did)),
                    ("current", verdict(&current.did)),
                ],
            );
            let rows = (expected.rows != current.rows)
                .then(|| SideBySide::of(lang, headline, &expected.rows, &current.rows));
            (sentence, rows)
        }
    }
}

/// The rows that differ, the reference's above the learner's.
fn side_by_side(lang: Lang, expected: &[JobRow], current: &[JobRow]) -> Vec<(String, Vec<String>)> {
    let cells = |row: &JobRow| COLUMNS.iter().map(|column| cell(row, column)).collect();
    let mut rows = Vec::new();
    for (index, wanted) in expected.iter().enumerate() {
        let got = current.get(index);
        if got == Some(wanted) {
            continue;
        }
        rows.push((
            lang.text(key!("lab.rows_expected")).to_owned(),
            cells(wanted),
        ));
        rows.push((
            lang.text(key!("lab.rows_current")).to_owned(),
            got.map(cells).unwrap_or_default(),
        ));
    }
    for extra in current.iter().skip(expected.len()) {
        rows.push((lang.text(key!("lab.rows_expected")).to_owned(), Vec::new()));
        rows.push((lang.text(key!("lab.rows_current")).to_owned(), cells(extra)));
    }
    rows
}
