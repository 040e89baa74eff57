//! SQLite's complaints about a learner's statement, said in the learner's
//! language: each statement below is one SQLite really refuses or stops
//! in the lab (graded at the finish level), so the shapes read are SQLite's
//! own, not a copy of them.

mod support;

use leasefence::{Error, Problem};
use leasefence_course::lab::{Current, Graded, Level, Shortest, grade};
use leasefence_course::playground::Lang;
use leasefence_course::playground::chapter_scenarios;
use leasefence_course::playground::explain::problem_text;
use leasefence_course::playground::sqlite_words::sqlite_words;

/// What SQLite said when the finish level graded `sql`: at preparing (a
/// refusal) or while it ran (the counterexample's stopped statement).
fn sqlites_complaint(sql: &str) -> String {
    let level = Level::find("finish").expect("the finish level");
    let problem = match grade(&level, sql, &chapter_scenarios()) {
        Err(Error::InvalidInput { problem, .. }) => problem,
        Ok(Graded::Failed { shortest, .. }) => match *shortest {
            Shortest::Events(parted) => match parted.current {
                Current::Stopped(problem) => problem,
                other => panic!("{sql}: SQLite must stop it, it ran: {other:?}"),
            },
            other => panic!("{sql}: a statement's counterexample, got {other:?}"),
        },
        other => panic!("{sql}: SQLite must refuse it, got {other:?}"),
    };
    match problem {
        Problem::Sqlite(message) => message,
        other => panic!("{sql}: SQLite's own complaint, got {other:?}"),
    }
}

/// Each statement, and what of it the Korean words must keep (the name or
/// the text SQLite quoted).
const REFUSED: &[(&str, &str)] = &[
    (
        "UPDATE jobs SET state = 'done' WHERE id = :id AND attempt = :attempt",
        "attempt",
    ),
    ("UPDATE jobz SET state = 'done' WHERE id = :id", "jobz"),
    (
        "UPDATE jobs SET state = 'done' WHERE id = :id AND nosuch(owner) = :owner",
        "nosuch",
    ),
    (
        "UPDATE jobs SET state = 'done' WHERE id = :id AND owner = 'A",
        "'A",
    ),
    ("UPDATE jobs SET state = 'finished' WHERE id = :id", "state"),
    (
        "UPDATE jobs SET state = 'done' WHERE WHERE id = :id",
        "WHERE",
    ),
    ("UPDATE jobs SET state = 'done' WHERE id = :id AND", ""),
    (
        "UPDATE jobs SET state = 'done' WHERE id = :id AND max(token) = :token",
        "max",
    ),
    (
        "UPDATE jobs SET state = 'done' WHERE id = :id AND max() = :token",
        "max",
    ),
    ("UPDATE jobs SET state = 'done' WHERE (id, owner) = :id", ""),
    (
        "UPDATE jobs SET state = 'done' WHERE id IN (SELECT id, owner FROM jobs)",
        "2",
    ),
    (
        "UPDATE jobs SET state = 'done' WHERE id = :id AND length(zeroblob(200000)) > 0",
        "",
    ),
];

/// A finish whose condition adds 1 to itself 150 times: an expression
/// tree deeper than the 100 levels a statement may have.
fn deep() -> String {
    let sum = "+1".repeat(150);
    format!("UPDATE jobs SET state = 'done' WHERE id = :id AND 1{sum} > 0")
}

/// The English templates give back SQLite's exact words (so each shape is
/// read right), and the Korean ones keep what SQLite quoted while leaving
/// none of its English behind: no shape falls through to SQLite's words
/// alone.
#[test]
fn sqlites_complaints_are_said_in_the_learners_language() {
    let english = [
        "no such",
        "syntax",
        "near",
        "incomplete",
        "constraint",
        "failed",
        "unrecognized",
        "wrong number",
        "misuse",
        "ambiguous",
        "sub-select",
        "misused",
        "returns",
        "Expression",
        "too large",
        "too big",
    ];
    let deep = deep();
    let every = (REFUSED.iter().copied()).chain([(deep.as_str(), "100")]);
    for (sql, kept) in every {
        let message = sqlites_complaint(sql);
        check!(
            sqlite_words(Lang::En, &message),
            message.clone(),
            "the English words are SQLite's for {sql}"
        );
        let korean = sqlite_words(Lang::Ko, &message);
        for word in english {
            assert!(
                !korean.contains(word),
                "{sql}: {message:?} became {korean:?}, still saying {word:?}"
            );
        }
        assert!(
            korean.contains(kept),
            "{sql}: {message:?} became {korean:?}, which lost {kept:?}"
        );
    }
}

/// A complaint of a shape not read is still said as SQLite's, marked as
/// its English words, inside the learner's sentence.
#[test]
fn a_complaint_of_another_shape_is_quoted_as_sqlites_own() {
    let message = "some future complaint";
    let problem = Problem::Sqlite(message.to_owned());
    let korean = problem_text(Lang::Ko, &problem);
    assert!(
        korean.contains(message) && korean.contains("영어 원문"),
        "got {korean:?}"
    );
    check!(
        problem_text(Lang::En, &problem),
        format!("SQLite says: {message}"),
        "English"
    );
}
