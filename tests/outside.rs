//! The seam for a statement written outside the queue (a learner's): what
//! it may be, and that running it can neither reach past the `jobs` table
//! nor hang the queue. Runs natively and in headless Chromium
//! (`wasm-pack test`), like `rules.rs`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::store::{CLAIM, FINISH, MAX_STEPS, Outside, Replaces};
use leasefence::{Error, Forbidden, NewJob, Problem, Queue};

/// The problem `Outside::new` refuses `sql` with, if it does (as its
/// `Debug` text, which `check!` can print side by side).
fn refused_as_text(sql: &str) -> String {
    format!("{:?}", refused(sql))
}

/// The problem `Outside::new` refuses `sql` with, if it does.
fn refused(sql: &str) -> Option<Problem> {
    match Outside::new(Replaces::Finish, sql) {
        Ok(_) => None,
        Err(Error::InvalidInput { field, problem }) if field == "sql" => Some(problem),
        Err(other) => panic!("expected a refusal of field sql, got {other:?}"),
    }
}

#[test]
fn the_queues_own_finish_and_a_naive_one_are_accepted_as_outside_statements() {
    check!(
        refused_as_text(FINISH),
        "None".to_owned(),
        "the queue's own finish"
    );
    check!(
        refused_as_text("UPDATE jobs SET state = 'done' WHERE id = :id;"),
        "None".to_owned(),
        "the id-only finish, with a trailing semicolon"
    );
}

#[test]
fn an_outside_statement_is_one_statement_naming_only_the_queues_parameters() {
    let cases = [
        ("", Problem::NotOneStatement),
        ("  ;  ", Problem::NotOneStatement),
        (
            "UPDATE jobs SET state = 'done' WHERE id = :id; DELETE FROM jobs",
            Problem::NotOneStatement,
        ),
        (
            "UPDATE jobs SET state = 'done' WHERE id = :job",
            Problem::UnknownParameter {
                name: ":job".to_owned(),
                allowed: ":id, :owner, :token, :attempt, :now".to_owned(),
            },
        ),
        (
            "UPDATE jobs SET state = 'done' WHERE id = ?",
            Problem::UnknownParameter {
                name: "?".to_owned(),
                allowed: ":id, :owner, :token, :attempt, :now".to_owned(),
            },
        ),
        ("SELECT id FROM jobs WHERE id = :id", Problem::ReturnsRows),
        (
            "UPDATE jobs SET state = 'done' WHERE id = :id RETURNING id",
            Problem::ReturnsRows,
        ),
    ];
    for (sql, problem) in cases {
        check!(
            refused_as_text(sql),
            format!("{:?}", Some(problem)),
            "{sql:?}"
        );
    }
}

/// A claim in place of the queue's: the claim's columns returned, in
/// order, and only the claim's parameters.
#[test]
fn an_outside_claim_returns_the_claims_columns_and_names_only_the_claims_parameters() {
    let claim_refused = |sql: &str| match Outside::new(Replaces::Claim, sql) {
        Ok(_) => None,
        Err(Error::InvalidInput { problem, .. }) => Some(problem),
        Err(other) => panic!("expected a refusal of field sql, got {other:?}"),
    };
    let columns = "id, qty, owner, token, attempts, lease_until".to_owned();
    let cases = [
        (CLAIM, None),
        (
            "UPDATE jobs SET state = 'leased' WHERE seq = 1",
            Some(Problem::ReturnsOtherColumns {
                expected: columns.clone(),
            }),
        ),
        (
            "UPDATE jobs SET state = 'leased' RETURNING token, id, qty, owner, attempts, lease_until",
            Some(Problem::ReturnsOtherColumns { expected: columns }),
        ),
        (
            "SELECT id, qty, owner, token, attempts, lease_until FROM jobs",
            Some(Problem::WritesNothing),
        ),
        (
            "UPDATE jobs SET owner = :id RETURNING id, qty, owner, token, attempts, lease_until",
            Some(Problem::UnknownParameter {
                name: ":id".to_owned(),
                allowed: ":owner, :now, :now_plus_lease".to_owned(),
            }),
        ),
    ];
    for (sql, problem) in cases {
        check!(
            format!("{:?}", claim_refused(sql)),
            format!("{problem:?}"),
            "{sql:?}"
        );
    }
}

/// The queue's own claim, run through the seam, is the queue's claim:
/// the same job, token and lease, after the same sweeps.
#[test]
fn the_queues_own_claim_through_the_seam_claims_as_the_queue_does() -> Result<(), Error> {
    let outside = Outside::new(Replaces::Claim, CLAIM)?;
    let (ours, theirs) = (Queue::open_in_memory()?, Queue::open_in_memory()?);
    for queue in [&ours, &theirs] {
        queue.enqueue(&NewJob::new("snack-1", 2, 800))?;
    }
    let expected = ours.claim("A", 0, 1000)?;
    let current = theirs.claim_outside(&outside, "A", 0, 1000)?;
    check!(
        format!("{current:?}"),
        format!("{expected:?}"),
        "R9: the lease capped at the deadline either way"
    );
    check!(
        format!("{:?}", theirs.rows()?),
        format!("{:?}", ours.rows()?),
        "the same row"
    );
    Ok(())
}

/// SQLite's authorizer: the `jobs` table only; no schema, no pragma, no
/// transaction of its own (the queue opens and commits it).
#[test]
fn an_outside_statement_may_touch_only_the_jobs_table() {
    let not_allowed = |what| Some(Problem::NotAllowed { what });
    let cases = [
        (
            "UPDATE jobs SET state = 'done' WHERE id = (SELECT name FROM sqlite_schema)",
            not_allowed(Forbidden::Table("sqlite_master".to_owned())),
        ),
        ("BEGIN IMMEDIATE", not_allowed(Forbidden::Transaction)),
        ("DROP TABLE jobs", not_allowed(Forbidden::Schema)),
        ("CREATE TABLE mine (x)", not_allowed(Forbidden::Schema)),
    ];
    for (sql, problem) in cases {
        check!(refused_as_text(sql), format!("{problem:?}"), "{sql:?}");
    }
    assert!(
        matches!(refused("UPDATE jobz SET state = 'done'"), Some(Problem::Sqlite(said)) if said.contains("no such table")),
        "SQLite's own complaint, in its words"
    );
    // The browser's SQLite has no PRAGMA at all (its parser was generated
    // without it): there it is a syntax error, natively the authorizer's.
    let pragma = refused("PRAGMA user_version = 7");
    if cfg!(target_arch = "wasm32") {
        assert!(
            matches!(&pragma, Some(Problem::Sqlite(said)) if said.contains("syntax error")),
            "got {pragma:?}"
        );
    } else {
        check!(
            format!("{pragma:?}"),
            format!(
                "{:?}",
                not_allowed(Forbidden::Pragma("user_version".to_owned()))
            ),
            "PRAGMA"
        );
    }
}

/// A runaway statement (a join of `jobs` with itself twenty times: 3^20
/// rows) is stopped by the queue's progress handler and changes nothing.
/// The bound is on all the outside statements of the queue together (a
/// slow statement run for every finish of every ordering is bounded too):
/// the next one is stopped at once, while the queue's own statements are
/// never stopped.
#[test]
fn a_runaway_outside_statement_is_stopped_and_changes_nothing() -> Result<(), Error> {
    let queue = Queue::open_in_memory()?;
    for id in ["a", "b", "c"] {
        queue.enqueue(&NewJob::new(id, 1, 5000))?;
    }
    let claim = queue.claim("A", 0, 1000)?.expect("a claim");
    let joins: Vec<String> = (0..20).map(|n| format!("jobs j{n}")).collect();
    let runaway = format!(
        "UPDATE jobs SET state = 'done' WHERE id = :id AND (SELECT count(*) FROM {}) > 0",
        joins.join(", ")
    );
    let outside = Outside::new(Replaces::Finish, &runaway)?;
    let before = queue.rows()?;
    let stopped = |result: Result<(bool, Option<leasefence::JobRow>), Error>| {
        matches!(
            result,
            Err(Error::InvalidInput {
                problem: Problem::TooMuchWork { steps: MAX_STEPS },
                ..
            })
        )
    };
    let first = queue.finish_outside(&outside, &claim.stamp(), 10);
    assert!(stopped(first), "the runaway is stopped");
    check!(
        queue.rows()?,
        before,
        "the table after the stopped statement"
    );
    // A statement of some ten thousand steps (3^8 rows), which alone
    // runs: the handler looks every 1,000 steps, and finds nothing left.
    let joins: Vec<String> = (0..8).map(|n| format!("jobs j{n}")).collect();
    let slow = format!(
        "UPDATE jobs SET state = 'done' WHERE id = :id AND (SELECT count(*) FROM {}) > 0",
        joins.join(", ")
    );
    let slow = Outside::new(Replaces::Finish, &slow)?;
    let fresh = Queue::open_in_memory()?;
    for id in ["a", "b", "c"] {
        fresh.enqueue(&NewJob::new(id, 1, 5000))?;
    }
    let fresh_claim = fresh.claim("A", 0, 1000)?.expect("a claim");
    check!(
        fresh.finish_outside(&slow, &fresh_claim.stamp(), 10)?.0,
        true,
        "on a fresh queue it runs"
    );
    let next = queue.finish_outside(&slow, &claim.stamp(), 10);
    assert!(
        stopped(next),
        "the allowance is used up: the next is stopped too"
    );
    // The queue's own statements are not bounded: a claim sweeps and
    // chooses among every job, a finish and the rows read after it.
    for id in 0..200 {
        queue.enqueue(&NewJob::new(format!("more-{id}"), 1, 5000))?;
    }
    let finish = queue.finish(&claim.stamp(), 10)?;
    check!(
        finish.accepted(),
        true,
        "the queue's own finish runs after it"
    );
    check!(queue.rows()?.len(), 203, "and its own enqueues");
    Ok(())
}

/// A statement SQLite refuses while it runs (here the schema's `CHECK`
/// on `state`) is SQLite's own complaint and changes nothing.
#[test]
fn an_outside_statement_that_breaks_a_check_changes_nothing() -> Result<(), Error> {
    let queue = Queue::open_in_memory()?;
    queue.enqueue(&NewJob::new("a", 1, 5000))?;
    let claim = queue.claim("A", 0, 1000)?.expect("a claim");
    let outside = Outside::new(
        Replaces::Finish,
        "UPDATE jobs SET state = 'finished' WHERE id = :id",
    )?;
    let before = queue.rows()?;
    let failed = queue.finish_outside(&outside, &claim.stamp(), 10);
    assert!(
        matches!(&failed, Err(Error::InvalidInput { problem: Problem::Sqlite(said), .. }) if said.contains("CHECK constraint failed")),
        "expected SQLite's CHECK failure, got {failed:?}"
    );
    check!(queue.rows()?, before, "the table after it");
    Ok(())
}

/// Before SQLite reads a statement: a text over the bound is refused by
/// its length (SQLite's parser and planner work in proportion to it, and a
/// correct statement padded with a comment must not keep a grader busy),
/// and a NUL byte is refused rather than SQLite silently reading only
/// what comes before it.
#[test]
fn a_statement_too_long_or_with_a_nul_byte_is_refused_before_sqlite_reads_it() {
    use leasefence::store::MAX_SQL_BYTES;
    let padded = format!("{FINISH} -- {}", "x".repeat(MAX_SQL_BYTES));
    let too_long = Problem::TooLong {
        len: padded.len(),
        max: MAX_SQL_BYTES,
    };
    check!(
        refused_as_text(&padded),
        format!("{:?}", Some(&too_long)),
        "a correct statement padded past the bound"
    );
    let fitting = format!(
        "{FINISH} -- {}",
        "x".repeat(MAX_SQL_BYTES - FINISH.len() - 4)
    );
    check!(
        (fitting.len(), refused_as_text(&fitting)),
        (MAX_SQL_BYTES, "None".to_owned()),
        "the same padded to exactly the bound"
    );
    check!(
        refused_as_text(&format!("{FINISH}\0; DELETE FROM jobs")),
        format!("{:?}", Some(Problem::NulByte)),
        "text after a NUL byte"
    );
    // A claim script is held to the same two bounds.
    let script = |text: &str| match leasefence::store::Script::new(text) {
        Err(Error::InvalidInput { problem, .. }) => format!("{problem:?}"),
        other => format!("accepted: {other:?}"),
    };
    check!(
        (
            script(&padded),
            script(&format!("{CLAIM}\0; DELETE FROM jobs"))
        ),
        (format!("{too_long:?}"), format!("{:?}", Problem::NulByte)),
        "a claim script too long, and one with a NUL byte"
    );
}

/// An expression nested deeper than 100 levels is refused as SQLite
/// parses it, with SQLite's own words, on both targets alike. In the
/// browser a few thousand levels, well inside the length bound
/// (`… AND 1+1+…`), once overflowed the engine's stack while SQLite
/// walked the tree: a trap, and the page's module dead until a reload.
#[test]
fn an_expression_nested_too_deep_is_refused_and_the_module_lives_on() {
    let sum = |terms: usize| {
        let sum = "+1".repeat(terms - 1);
        format!("UPDATE jobs SET state = 'done' WHERE id = :id AND 1{sum} > 0")
    };
    let too_deep = Some(Problem::Sqlite(
        "Expression tree is too large (maximum depth 100)".to_owned(),
    ));
    for terms in [150, 4_900] {
        let sql = sum(terms);
        assert!(
            sql.len() <= leasefence::store::MAX_SQL_BYTES,
            "{terms} terms fit the length bound"
        );
        check!(
            refused_as_text(&sql),
            format!("{too_deep:?}"),
            "a sum of {terms} terms"
        );
    }
    // A tree well inside the bound, and the queue's own, still run.
    check!(
        refused_as_text(&sum(50)),
        "None".to_owned(),
        "a sum of 50 terms"
    );
    check!(
        refused_as_text(FINISH),
        "None".to_owned(),
        "the queue's own finish"
    );
}
