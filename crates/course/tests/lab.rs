//! The lab (issue 21): the queue's own statement passes every level, each
//! level's starting version fails with a counterexample that shows the
//! failure the level is about, and a statement SQLite stops is a
//! disagreement, not a crash.

mod support;

use leasefence::Problem;
use leasefence_course::lab::{Current, Graded, LEVELS, Level, grade};

fn level(id: &str) -> Level {
    Level::find(id).unwrap_or_else(|| panic!("a level {id}"))
}

#[test]
fn the_queues_own_statement_passes_every_level() {
    for level in LEVELS {
        let graded = grade(&level, level.reference()).expect("grades");
        let Graded::Passed { checked } = graded else {
            panic!("{}: the reference must pass, got {graded:#?}", level.id);
        };
        assert!(
            checked.scenarios > 11 && checked.orderings > checked.scenarios,
            "{}: every chapter and the lab's own, in every ordering: {checked:?}",
            level.id
        );
    }
}

/// The id-only finish lets a late worker's stale "done" land on the new
/// holder's claim: the reference refuses that finish, the learner's
/// accepts it.
#[test]
fn the_finish_levels_start_accepts_a_stale_finish_the_reference_refuses() {
    let level = level("finish");
    let Graded::Failed { shortest, .. } = grade(&level, level.start).expect("grades") else {
        panic!("the id-only finish must fail");
    };
    check!(
        shortest.expected.accepted,
        Some(false),
        "the reference refuses"
    );
    let Current::Observed(current) = &shortest.current else {
        panic!("the learner's statement ran: {:?}", shortest.current);
    };
    check!(current.accepted, Some(true), "the id-only finish accepts");
    check!(
        shortest.event + 1,
        shortest.scenario.events.len(),
        "the counterexample stops at the disagreement"
    );
}

/// With `<=` the old holder's finish passes at the very instant its
/// lease ends, when another worker may claim the job (R5).
#[test]
fn the_boundary_levels_start_accepts_a_finish_at_the_instant_the_lease_ends() {
    let level = level("boundary");
    let Graded::Failed { shortest, .. } = grade(&level, level.start).expect("grades") else {
        panic!("the <= finish must fail");
    };
    let finish = &shortest.scenario.events[shortest.event];
    let lease_end = shortest
        .expected
        .rows
        .iter()
        .find_map(|row| row.lease_until)
        .expect("the job was leased");
    check!(finish.at, lease_end, "the finish stands on the lease's end");
    check!(
        shortest.expected.accepted,
        Some(false),
        "the reference refuses"
    );
}

/// A statement that breaks the schema's `CHECK` is stopped by SQLite at
/// its first finish: the counterexample carries SQLite's words.
#[test]
fn a_statement_sqlite_stops_is_a_counterexample_with_sqlites_words() {
    let level = level("finish");
    let graded =
        grade(&level, "UPDATE jobs SET state = 'finished' WHERE id = :id").expect("grades");
    let Graded::Failed { shortest, .. } = graded else {
        panic!("it must fail");
    };
    assert!(
        matches!(&shortest.current, Current::Stopped(Problem::Sqlite(said)) if said.contains("CHECK")),
        "got {:?}",
        shortest.current
    );
}

#[test]
fn a_statement_the_seam_refuses_is_refused_before_any_playing() {
    let level = level("finish");
    let refused = grade(&level, "DELETE FROM jobs; DELETE FROM jobs");
    assert!(
        matches!(
            refused,
            Err(leasefence::Error::InvalidInput {
                problem: Problem::NotOneStatement,
                ..
            })
        ),
        "got {refused:?}"
    );
}
