//! The lab's transaction level: the claim written as a read, a
//! write and a transaction around them, graded on every interleaving of
//! two claims' statements. R6: choosing and taking happen in one write
//! transaction.

use leasefence::Problem;
use leasefence::Scenario;
use leasefence::error::{Error, ScriptMistake};
use leasefence::model::NewJob;
use leasefence::store::{Piece, Script};
use leasefence_course::lab::{Graded, Interleaving, Level, Shortest, grade};
use leasefence_course::mechanism::statements::{Actor, Does, Machine, Op, StepKind};
use leasefence_course::playground::session::Session;
use leasefence_course::playground::{CHAPTERS, Lang, chapter_scenarios};
use leasefence_course::variants::sql::{CLAIM_SCRIPT, NAIVE_CLAIM_READ, NAIVE_CLAIM_WRITE};

fn level() -> Level {
    Level::find("transaction").expect("the transaction level")
}

fn script(begin: &str, commit: &str) -> String {
    let (read, write) = (NAIVE_CLAIM_READ.trim(), NAIVE_CLAIM_WRITE.trim());
    format!("{begin}{read};\n{write};\n{commit}")
}

/// The shortest interleaving `sql` fails on.
fn failing(sql: &str) -> Interleaving {
    let graded = grade(&level(), sql, &chapter_scenarios()).expect("grades");
    match graded {
        Graded::Failed { shortest, .. } => match *shortest {
            Shortest::Statements(race) => race,
            Shortest::Events(other) => panic!("a script's counterexample, got {other:#?}"),
        },
        Graded::Passed { checked } => panic!("{sql}\nexpected a failure, passed {checked:?}"),
    }
}

#[test]
fn r6_reading_before_begin_hands_one_token_to_two_workers() {
    let race = failing(level().start);
    assert_eq!(race.from, "race-one-job", "the course's race: {race:#?}");
    let tokens: Vec<(String, u64)> = (race.current.claims.values())
        .flatten()
        .map(|claim| (claim.id.clone(), claim.token))
        .collect();
    assert_eq!(
        tokens,
        [("snack-1".to_owned(), 1), ("snack-1".to_owned(), 1)],
        "expected: both workers hold snack-1 token 1; current: {:#?}",
        race.current.claims
    );
    let given: Vec<_> = race.expected.claims.values().flatten().collect();
    assert_eq!(
        given.len(),
        1,
        "the queue's claims give the job once: {given:#?}"
    );
    assert_eq!(race.worker.as_deref(), Some("B"), "B's claim differs");
}

#[test]
fn r6_no_transaction_at_all_fails_the_same_way() {
    let race = failing(&script("", ""));
    let holders = race.current.claims.values().flatten().count();
    assert_eq!(
        holders, 2,
        "both workers hold the one job: {:#?}",
        race.current.claims
    );
}

#[test]
fn r6_a_deferred_begin_is_refused_by_sqlite_with_busy() {
    // Both read under a read lock; the first to write takes the write
    // lock, and the second's write would wait for it while the first's
    // COMMIT waits for the second's read lock: SQLite refuses it at once.
    let race = failing(&script("BEGIN;\n", "\nCOMMIT;"));
    assert!(
        !race.current.busy.is_empty(),
        "expected a worker refused with SQLITE_BUSY, current: {:#?}",
        race.current
    );
    let busy = (race.current.steps.iter()).position(|step| step.kind == StepKind::Busy);
    let busy = busy.unwrap_or_else(|| panic!("a refused write: {:#?}", race.current.steps));
    // SQLITE_BUSY leaves the transaction open, its read lock held, until
    // the worker rolls it back.
    let refused = &race.current.steps[busy];
    assert!(
        refused.reading.contains(&refused.actor),
        "the refused worker still holds its read lock: {refused:#?}"
    );
    let rollback = (race.current.steps[busy..].iter())
        .find(|step| step.actor == refused.actor && step.does == Does::Rollback)
        .unwrap_or_else(|| panic!("a ROLLBACK after the refusal: {:#?}", race.current.steps));
    assert!(
        !rollback.reading.contains(&refused.actor),
        "the ROLLBACK releases the read lock: {rollback:#?}"
    );
}

#[test]
fn r6_a_commit_between_the_read_and_the_write_fails() {
    let (read, write) = (NAIVE_CLAIM_READ.trim(), NAIVE_CLAIM_WRITE.trim());
    let race = failing(&format!("BEGIN IMMEDIATE;\n{read};\nCOMMIT;\n{write};"));
    let holders = race.current.claims.values().flatten().count();
    assert_eq!(
        holders, 2,
        "both workers hold the one job: {:#?}",
        race.current.claims
    );
}

/// The model of two workers running `sql`'s script, after `turns`.
fn after(sql: &str, turns: &[usize]) -> leasefence_course::mechanism::statements::Run {
    let script = Script::new(sql).expect("a script");
    let actors = ["A", "B"].map(|name| Actor {
        name: name.to_owned(),
        start_ms: 0,
        ops: vec![Op::ScriptClaim {
            script: script.clone(),
            lease_ms: 1000,
            owner: None,
        }],
    });
    let jobs = [NewJob::new("snack-1", 2, 5000)];
    let mut machine = Machine::new(&jobs, &actors).expect("a model");
    for &actor in turns {
        machine.turn(actor, 0).expect("a turn");
    }
    machine.into_run().expect("a run")
}

/// A read runs on the table as last committed, not on another worker's
/// write that is not committed yet: under the rollback journal a reader
/// waits only for a writer about to commit (PENDING), and reads the file.
#[test]
fn a_read_under_anothers_uncommitted_write_sees_the_committed_row() {
    // A reads, takes the lock and writes; B reads before A commits.
    let run = after(level().start, &[0, 0, 0, 1]);
    let b_read = run.steps.last().expect("B's read");
    assert_eq!(
        b_read.kind,
        StepKind::Ran,
        "B's read does not wait: {b_read:#?}"
    );
    assert_eq!(
        b_read.sql.as_ref().map(|executed| executed.rows),
        Some(1),
        "B reads the pending row as last committed: {b_read:#?}"
    );
}

/// The holder's COMMIT waits for the read locks others hold, and says so.
#[test]
fn a_commit_waits_for_anothers_read_lock_and_says_whose() {
    // A begins, B begins, B reads (a read lock), A reads, A writes (the
    // write lock), A commits: it must wait for B's read lock.
    let run = after(&script("BEGIN;\n", "\nCOMMIT;"), &[0, 1, 1, 0, 0, 0]);
    let waits = run.steps.last().expect("A's COMMIT");
    assert_eq!(
        (waits.kind, waits.does, waits.reading.clone()),
        (StepKind::Waits, Does::Commit, vec!["B".to_owned()]),
        "A's COMMIT waits for B's read lock: {waits:#?}"
    );
}

#[test]
fn empty_statements_and_a_trailing_comment_are_not_statements() {
    let (read, write) = (NAIVE_CLAIM_READ.trim(), NAIVE_CLAIM_WRITE.trim());
    let sql = format!(
        "BEGIN IMMEDIATE;;\n{read}; /* a ; here */\n-- and; here\n{write};\nCOMMIT; -- done"
    );
    let script = Script::new(&sql).expect("a script");
    let texts: Vec<&str> = (script.pieces().iter())
        .map(|piece| match piece {
            Piece::Begin { sql, .. } | Piece::Commit { sql } => sql.as_str(),
            Piece::Read(outside) | Piece::Write(outside) => outside.sql(),
        })
        .collect();
    assert_eq!(
        texts.first().copied(),
        Some("BEGIN IMMEDIATE"),
        "{texts:#?}"
    );
    assert_eq!(texts.last().copied(), Some("COMMIT"), "{texts:#?}");
    assert_eq!(texts.len(), 4, "{texts:#?}");
}

#[test]
fn r6_begin_immediate_or_exclusive_before_the_read_passes() {
    for sql in [
        CLAIM_SCRIPT.to_owned(),
        script("BEGIN EXCLUSIVE;\n", "\nEND;"),
        script("begin immediate transaction;\n", "\ncommit transaction;"),
    ] {
        let graded = grade(&level(), &sql, &chapter_scenarios()).expect("grades");
        let Graded::Passed { checked } = graded else {
            panic!("{sql}\nexpected a pass, got {graded:#?}");
        };
        assert!(checked.orderings > 3, "{sql}: {checked:?}");
    }
}

#[test]
fn a_semicolon_in_a_comment_or_a_string_ends_no_statement() {
    let sql = format!(
        "BEGIN IMMEDIATE; -- the lock first; then read\n{};\n{};\nCOMMIT;",
        NAIVE_CLAIM_READ
            .trim()
            .replace("ORDER BY seq", "AND id <> 'a;b' ORDER BY seq"),
        NAIVE_CLAIM_WRITE.trim()
    );
    let script = Script::new(&sql).expect("a script");
    let kinds: Vec<&str> = (script.pieces().iter())
        .map(|piece| match piece {
            Piece::Begin {
                immediate: true, ..
            } => "begin immediate",
            Piece::Begin { .. } => "begin",
            Piece::Commit { .. } => "commit",
            Piece::Read(_) => "read",
            Piece::Write(_) => "write",
        })
        .collect();
    assert_eq!(kinds, ["begin immediate", "read", "write", "commit"]);
}

#[test]
fn a_script_that_is_not_one_read_one_write_and_one_transaction_is_refused() {
    let (read, write) = (NAIVE_CLAIM_READ.trim(), NAIVE_CLAIM_WRITE.trim());
    let cases = [
        (format!("BEGIN; {write}; COMMIT;"), ScriptMistake::NoRead),
        (format!("{read};"), ScriptMistake::NoWrite),
        (format!("{read}; {read}; {write};"), ScriptMistake::TwoReads),
        (
            format!("{read}; {write}; {write};"),
            ScriptMistake::TwoWrites,
        ),
        (format!("BEGIN; {read}; {write};"), ScriptMistake::NoCommit),
        (format!("{read}; {write}; COMMIT;"), ScriptMistake::NoBegin),
        (
            format!("COMMIT; {read}; {write}; BEGIN;"),
            ScriptMistake::NoBegin,
        ),
        (
            format!("BEGIN; BEGIN; {read}; {write}; COMMIT;"),
            ScriptMistake::TwoTransactions,
        ),
        (
            format!("BEGIN; {read}; {write}; ROLLBACK;"),
            ScriptMistake::Rollback,
        ),
        (
            format!("SAVEPOINT a; {read}; {write};"),
            ScriptMistake::Rollback,
        ),
        // A write that chooses its own job is a claim in one statement,
        // not the read-then-write the level asks for.
        (
            format!("{read}; {};", leasefence::store::CLAIM.trim()),
            ScriptMistake::WriteIgnoresRead,
        ),
    ];
    for (sql, mistake) in cases {
        match Script::new(&sql) {
            Err(Error::InvalidInput {
                field,
                problem: Problem::Script(got),
            }) => {
                assert_eq!(field, "sql");
                assert_eq!(got, mistake, "{sql}");
            }
            other => panic!("{sql}\nexpected {mistake:?}, got {other:?}"),
        }
    }
}

#[test]
fn a_scripts_read_and_write_are_checked_as_the_seam_checks_a_statement() {
    let (read, write) = (NAIVE_CLAIM_READ.trim(), NAIVE_CLAIM_WRITE.trim());
    let refused = |sql: String| match Script::new(&sql) {
        Err(Error::InvalidInput { problem, .. }) => problem,
        other => panic!("{sql}\nexpected a refusal, got {other:?}"),
    };
    let got = refused(format!("SELECT id, token FROM jobs LIMIT 1; {write};"));
    assert!(matches!(got, Problem::ReadsOtherColumns { .. }), "{got:?}");
    let got = refused(format!(
        "{read}; {};",
        write.replace(":read_token", ":token")
    ));
    assert!(matches!(got, Problem::UnknownParameter { .. }), "{got:?}");
    let got = refused(format!("{read}; PRAGMA journal_mode; {write};"));
    assert!(matches!(got, Problem::NotAllowed { .. }), "{got:?}");
}

#[test]
fn the_lab_panel_opens_the_interleaving_on_the_statement_panel() {
    let scenario = Scenario::parse(CHAPTERS[0].scenario()).expect("a chapter");
    let mut session = Session::new(Lang::En, CHAPTERS[0].id, scenario).expect("a session");
    assert!(session.open_lab("transaction"));
    session.grade_lab(level().start).expect("grades");
    let view = leasefence_course::playground::view::lab(&session).expect("the lab is open");
    let answer = view.answer.expect("an answer");
    assert!(!answer.passed);
    assert!(
        answer
            .lines
            .iter()
            .any(|line| line.text().contains("token 1")),
        "the verdicts name the token: {:#?}",
        answer.lines
    );
    session.open_counterexample().expect("opens");
    let panel = &session.statement_panel;
    assert!(panel.open, "the statement panel is open");
    assert_eq!(panel.race.name(), "lab");
    let runs = panel.runs().expect("two runs");
    assert!(
        runs[1].claims.values().flatten().count() == 2,
        "{:#?}",
        runs[1]
    );
}
