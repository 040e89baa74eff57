//! What a course runs in its own CI with the page's code: `leasefence
//! grade`, the lab's grader, exit 0 only on a pass; and
//! `leasefence check`, a lesson read as the playground reads
//! it, exit 0 only when it would show. JSON out.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// `leasefence grade LEVEL -` with `sql` on stdin: the exit code and the
/// JSON printed.
fn grade(level: &str, sql: &str) -> (Option<i32>, Value) {
    run(&["grade", level, "-"], sql)
}

/// `leasefence ARGS` with `input` on stdin: the exit code and the JSON
/// printed.
fn run(args: &[&str], input: &str) -> (Option<i32>, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_leasefence"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    // A command refused by its arguments exits before reading stdin, so
    // the write may find the pipe closed; the exit code says the rest.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    let out = child.wait_with_output().expect("waits");
    let printed = String::from_utf8_lossy(&out.stdout);
    let json = serde_json::from_str(printed.trim()).unwrap_or(Value::Null);
    (out.status.code(), json)
}

#[test]
fn the_queues_own_finish_passes_with_exit_0_and_says_what_was_checked() {
    let (code, json) = grade("finish", leasefence::store::FINISH);
    check!(code, Some(0), "the exit code: {json}");
    check!(
        json["graded"]["result"],
        serde_json::json!("passed"),
        "the result"
    );
    assert!(
        json["graded"]["checked"]["orderings"].as_u64() > Some(1000),
        "every ordering of every chapter: {json}"
    );
    check!(json.get("because"), None, "no reason for a pass");
}

#[test]
fn a_failing_statement_exits_1_with_the_shortest_counterexample() {
    let (code, json) = grade("finish", "UPDATE jobs SET state = 'done' WHERE id = :id");
    check!(code, Some(1), "the exit code");
    let shortest = &json["graded"]["shortest"];
    check!(
        (
            &shortest["expected"]["did"]["accepted"],
            &shortest["current"]["observed"]["did"]["accepted"]
        ),
        (&serde_json::json!(false), &serde_json::json!(true)),
        "expected and current side by side: {json}"
    );
    assert!(
        shortest["scenario"]["events"].is_array(),
        "the counterexample is a scenario the playground reads: {json}"
    );
    // Why the queue refused it, in the page's words: the id-only finish
    // is first wrong at the instant the lease ends, so the reason
    // compares the finish's time with the row's lease_until.
    let because = json["because"].as_str().unwrap_or_default();
    assert!(
        because.contains("lease_until"),
        "the reason names the condition the finish fails: {json}"
    );
}

/// R6: the transaction level on the command line. The script that reads
/// before `BEGIN IMMEDIATE` fails with both runs side by side: the
/// queue's claims, then the script's interleaved statements, where both
/// workers hold token 1; the lock taken first passes.
#[test]
fn the_transaction_level_grades_a_claim_script_on_every_interleaving() {
    use leasefence_course::variants::sql::{CLAIM_SCRIPT, CLAIM_SCRIPT_READ_FIRST};
    let (code, json) = grade("transaction", CLAIM_SCRIPT_READ_FIRST);
    check!(code, Some(1), "the exit code: {json}");
    let shortest = &json["graded"]["shortest"];
    check!(
        shortest["from"],
        serde_json::json!("race-one-job"),
        "the race: {json}"
    );
    let tokens = |run: &Value| -> Vec<Value> {
        (run["claims"].as_object().into_iter().flatten())
            .map(|(_, claim)| claim["token"].clone())
            .filter(|token| !token.is_null())
            .collect()
    };
    check!(
        (tokens(&shortest["expected"]), tokens(&shortest["current"])),
        (
            vec![serde_json::json!(1)],
            vec![serde_json::json!(1), serde_json::json!(1)]
        ),
        "the queue hands token 1 out once, the script twice: {json}"
    );
    let (code, json) = grade("transaction", CLAIM_SCRIPT);
    check!(code, Some(0), "the lock first passes: {json}");
}

#[test]
fn a_refused_statement_exits_1_saying_why_and_a_bad_level_exits_2() {
    let (code, json) = grade("finish", "DELETE FROM jobs; DELETE FROM jobs");
    check!(code, Some(1), "a refused statement fails the submission");
    check!(
        json["refused"],
        serde_json::json!("sql: must be exactly one SQL statement"),
        "the refusal"
    );
    let (code, _) = grade("no-such-level", "SELECT 1");
    check!(code, Some(2), "an unknown level is bad input");
}

#[test]
fn check_says_whether_the_playground_would_show_a_lesson_and_where_it_is_wrong() {
    let lesson = r#"{"jobs": [{"id": "tea-1", "qty": 1, "deadline": 9000}],
        "events": [{"at": 0, "worker": "Mina", "do": "claim", "lease_ms": 500}]}"#;
    let (code, json) = run(&["check", "-"], lesson);
    check!(code, Some(0), "a good lesson: {json}");
    check!(
        json,
        serde_json::json!({ "ok": true, "jobs": 1, "events": 1 }),
        "what was read"
    );
    let typo = lesson.replace("lease_ms", "lease");
    let (code, json) = run(&["check", "-"], &typo);
    check!(code, Some(1), "a broken lesson");
    let said = json["error"].as_str().unwrap_or_default();
    assert!(
        said.starts_with("scenario: events[0].lease: unknown field") && said.contains("line 2"),
        "it names the key and the line: {json}"
    );
}

/// `leasefence ARGS` with nothing on stdin, stopped if it runs past 10 s:
/// the exit code (`None` if it had to be stopped) and what it wrote on
/// stderr.
fn run_bounded(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_leasefence"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let started = std::time::Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if started.elapsed() > std::time::Duration::from_secs(10) {
            child.kill().expect("stops");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("waits");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An input file is read only if it is a regular file of a bounded size:
/// a FIFO is refused without waiting for a writer, a link to a device
/// without reading it, and a file past the bound without reading it
/// whole. Each is bad input (exit 2) that names the file and says why.
#[cfg(unix)]
#[test]
fn grade_reads_only_a_regular_file_of_bounded_size() {
    let dir = tempfile::tempdir().expect("a folder");
    let fifo = dir.path().join("answer.fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo");
    let zero = dir.path().join("answer.sql");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("a link");
    let huge = dir.path().join("huge.sql");
    let file = std::fs::File::create(&huge).expect("a file");
    file.set_len(64 << 20 | 1)
        .expect("a sparse file past the bound");
    for (path, why) in [
        (&fifo, "not a regular file"),
        (&zero, "not a regular file"),
        (&huge, "larger than"),
    ] {
        let path = path.to_str().expect("a UTF-8 path");
        let (code, said) = run_bounded(&["grade", "finish", path]);
        check!(code, Some(2), "{path}: bad input, settled in time: {said}");
        assert!(
            said.contains(path) && said.contains(why),
            "{path}: the message names the file and says {why:?}: {said}"
        );
    }
}
