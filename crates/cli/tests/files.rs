//! File databases and the command line: the rollback journal (R6), no lock
//! held while sending (R7), and bad input refused with nothing changed.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::path::Path;
use std::process::{Command, Output};

use leasefence::{Error, NewJob, Queue, store};
use rusqlite::{Connection, ErrorCode, named_params};

fn leasefence(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_leasefence"))
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .expect("the leasefence binary runs")
}

/// A connection that never waits for a lock: a busy database answers at
/// once with SQLITE_BUSY, which is what R7's proof and its control need.
fn impatient(db: &Path) -> Connection {
    let conn = Connection::open(db).expect("opens");
    conn.busy_timeout(std::time::Duration::ZERO)
        .expect("sets the timeout");
    conn
}

fn raw_enqueue(conn: &Connection, id: &str) -> rusqlite::Result<usize> {
    conn.execute(
        store::ENQUEUE,
        named_params! {":id": id, ":qty": 1, ":max_attempts": 3, ":deadline": 10_000},
    )
}

/// R6: a file database uses the rollback journal, not WAL.
#[test]
fn file_database_uses_the_rollback_journal() -> Result<(), Error> {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("queue.db");
    Queue::open(&db)?.enqueue(&NewJob::new("snack-1", 1, 100))?;
    let mode: String =
        Connection::open(&db)?.query_row("PRAGMA journal_mode", [], |row| row.get(0))?;
    check!(mode, "delete".to_owned(), "R6: journal_mode");
    Ok(())
}

/// R7: inside `send`, another connection enqueues a job at once: the
/// claim's transaction has committed and holds no lock.
#[test]
fn another_connection_enqueues_while_a_job_is_being_sent() -> Result<(), Error> {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("queue.db");
    let queue = Queue::open(&db)?;
    queue.enqueue(&NewJob::new("snack-1", 1, 10_000))?;
    let other = impatient(&db);
    let mut during_send = None;
    let processed = queue
        .process_one(
            "A",
            1000,
            || 0,
            |_claim| {
                during_send = Some(raw_enqueue(&other, "snack-2"));
                Ok::<(), ()>(())
            },
        )
        .expect("process_one runs")
        .expect("a job was claimed");
    let inserted = during_send.expect("send was called");
    assert!(
        matches!(inserted, Ok(1)),
        "R7: enqueue inside send must succeed at once, got {inserted:?}"
    );
    check!(
        processed.finish.accepted(),
        true,
        "R7: the job is then finished"
    );
    check!(
        queue.rows()?.len(),
        2,
        "R7: the job enqueued during send is stored"
    );
    Ok(())
}

/// R7's control: the same enqueue while a claim transaction is held open
/// is refused as busy, so the test above would catch a held lock.
#[test]
fn the_same_enqueue_is_refused_while_a_claim_transaction_is_held() -> Result<(), Error> {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("queue.db");
    Queue::open(&db)?.enqueue(&NewJob::new("snack-1", 1, 10_000))?;
    let holder = impatient(&db);
    holder.execute_batch("BEGIN IMMEDIATE")?;
    let claimed: String = holder.query_row(
        store::CLAIM,
        named_params! {":owner": "A", ":now": 0, ":now_plus_lease": 1000},
        |row| row.get(0),
    )?;
    check!(
        claimed,
        "snack-1".to_owned(),
        "control: the held transaction claimed the job"
    );
    let refused = raw_enqueue(&impatient(&db), "snack-2");
    let busy = matches!(&refused, Err(rusqlite::Error::SqliteFailure(err, _)) if err.code == ErrorCode::DatabaseBusy);
    assert!(
        busy,
        "control: expected SQLITE_BUSY while the claim is uncommitted, got {refused:?}"
    );
    holder.execute_batch("ROLLBACK")?;
    Ok(())
}

/// A file of another program is refused and left byte for byte as it was.
#[test]
fn a_foreign_file_is_refused_and_untouched() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("notes.txt");
    std::fs::write(&db, "not a database\n").expect("writes");
    let out = leasefence(&db, &["inspect"]);
    check!(out.status.code(), Some(2), "exit code for a foreign file");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("not a leasefence database"),
        "stderr: {stderr}"
    );
    check!(
        std::fs::read_to_string(&db).expect("reads"),
        "not a database\n".to_owned(),
        "file untouched"
    );

    // Another program's database in WAL mode: refused before any pragma
    // could convert it to the rollback journal.
    let other = dir.path().join("other.db");
    Connection::open(&other)
        .and_then(|conn| {
            conn.execute_batch("PRAGMA journal_mode=WAL; CREATE TABLE notes (body TEXT)")
        })
        .expect("another program's database");
    let before = std::fs::read(&other).expect("reads");
    let claim = ["claim", "--owner", "A", "--now", "0", "--lease-ms", "5"];
    check!(
        leasefence(&other, &claim).status.code(),
        Some(2),
        "exit code for another SQLite database"
    );
    check!(
        std::fs::read(&other).expect("reads"),
        before,
        "another program's database untouched"
    );
    let mode: String = Connection::open(&other)
        .and_then(|conn| conn.query_row("PRAGMA journal_mode", [], |row| row.get(0)))
        .expect("reads its journal mode");
    check!(mode, "wal".to_owned(), "its journal mode is still its own");
}

/// Every kind of bad input on the command line exits 2 with one line naming
/// the field, and leaves the database file byte for byte unchanged.
#[test]
fn bad_command_line_input_exits_2_names_the_field_and_changes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("queue.db");
    let made = leasefence(
        &db,
        &[
            "enqueue",
            "--id",
            "snack-1",
            "--qty",
            "2",
            "--deadline",
            "5000",
        ],
    );
    check!(
        made.status.code(),
        Some(0),
        "enqueue: {}",
        String::from_utf8_lossy(&made.stderr)
    );
    let before = std::fs::read(&db).expect("reads");
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "enqueue",
                "--id",
                "snack-1",
                "--qty",
                "2",
                "--deadline",
                "5000",
            ],
            "id",
        ),
        (
            &["enqueue", "--id", "x", "--qty", "0", "--deadline", "5000"],
            "--qty",
        ),
        (
            &[
                "enqueue",
                "--id",
                "x",
                "--qty",
                "9007199254740992",
                "--deadline",
                "5",
            ],
            "--qty",
        ),
        (
            &[
                "enqueue",
                "--id",
                "x",
                "--qty",
                "18446744073709551616",
                "--deadline",
                "5",
            ],
            "--qty",
        ),
        (
            &["enqueue", "--id", "", "--qty", "1", "--deadline", "5"],
            "--id",
        ),
        (
            &["claim", "--owner", "A", "--now", "-1", "--lease-ms", "5"],
            "--now",
        ),
        (
            &["claim", "--owner", "A", "--now", "1.5", "--lease-ms", "5"],
            "--now",
        ),
        (
            &["claim", "--owner", "A", "--now", "0", "--lease-ms", "-5"],
            "--lease-ms",
        ),
        (
            &["claim", "--owner", "A", "--now", "0", "--lease-ms", "0"],
            "--lease-ms",
        ),
        (
            &["claim", "--owner", "", "--now", "0", "--lease-ms", "5"],
            "--owner",
        ),
        (
            &[
                "finish",
                "--id",
                "snack-1",
                "--owner",
                "A",
                "--token",
                "-1",
                "--attempt",
                "1",
                "--now",
                "1",
            ],
            "--token",
        ),
        (
            &[
                "finish",
                "--id",
                "snack-1",
                "--owner",
                "A",
                "--token",
                "0",
                "--attempt",
                "1",
                "--now",
                "1",
            ],
            "--token",
        ),
        (
            &[
                "work",
                "--owner",
                "A",
                "--lease-ms",
                "5",
                "--receiver",
                "http://127.0.0.1:9",
                "--clock",
                "no-such-clock-file",
            ],
            "--clock",
        ),
    ];
    for (args, field) in cases {
        let out = leasefence(&db, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        check!(
            out.status.code(),
            Some(2),
            "exit code of {args:?} (stderr: {stderr})"
        );
        assert!(
            stderr.contains(field),
            "{args:?}: stderr must name {field:?}, got: {stderr}"
        );
        check!(
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::new(),
            "{args:?} printed on stdout"
        );
        assert!(
            std::fs::read(&db).expect("reads") == before,
            "{args:?} changed the database"
        );
    }
}

/// The canonical timeline through the command line, as in the README.
#[test]
fn cli_canonical_timeline_refuses_a_late_finish_with_exit_1() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("queue.db");
    let run = |args: &[&str]| {
        let out = leasefence(&db, args);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        )
    };
    run(&[
        "enqueue",
        "--id",
        "snack-1",
        "--qty",
        "2",
        "--deadline",
        "5000",
    ]);
    let (_, a) = run(&["claim", "--owner", "A", "--now", "0", "--lease-ms", "1000"]);
    check!(
        a,
        r#"{"id":"snack-1","qty":2,"owner":"A","token":1,"attempt":1,"lease_until":1000}"#
            .to_owned(),
        "A's claim"
    );
    check!(
        run(&[
            "claim",
            "--owner",
            "C",
            "--now",
            "999",
            "--lease-ms",
            "1000"
        ]),
        (Some(0), "null".to_owned()),
        "claim during A's lease"
    );
    run(&[
        "claim",
        "--owner",
        "B",
        "--now",
        "1000",
        "--lease-ms",
        "1000",
    ]);
    let (code, verdict) = run(&[
        "finish",
        "--id",
        "snack-1",
        "--owner",
        "A",
        "--token",
        "1",
        "--attempt",
        "1",
        "--now",
        "1001",
    ]);
    check!(code, Some(1), "a rejected finish exits 1");
    let verdict: serde_json::Value = serde_json::from_str(&verdict).expect("JSON verdict");
    check!(
        verdict["reason"],
        serde_json::json!("token_mismatch"),
        "reason"
    );
    check!(
        verdict["current"]["owner"],
        serde_json::json!("B"),
        "the row stays B's"
    );
}

/// A read never writes, and a file that is not a queue yet, or
/// is damaged, is refused before anything is written to it. `inspect` on
/// an empty file wrote a schema into it and printed `[]`; a queue whose
/// pages were overwritten was read as if nothing were wrong.
#[test]
fn an_empty_or_damaged_file_is_refused_unchanged_by_every_command_but_enqueue() {
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").expect("writes");
    for args in [
        &["inspect"][..],
        &["claim", "--owner", "A", "--now", "0", "--lease-ms", "10"],
    ] {
        let out = leasefence(&empty, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        check!(
            out.status.code(),
            Some(2),
            "{args:?} on an empty file: exit code ({stderr})"
        );
        assert!(stderr.contains("it is empty"), "{args:?}: {stderr}");
        check!(
            std::fs::metadata(&empty).expect("stat").len(),
            0,
            "{args:?}: still 0 bytes"
        );
    }

    let damaged = dir.path().join("queue.db");
    for n in 0..40 {
        let id = format!("job-{n}");
        let out = leasefence(
            &damaged,
            &["enqueue", "--id", &id, "--qty", "1", "--deadline", "9000"],
        );
        assert!(out.status.success(), "enqueue {id}");
    }
    let mut bytes = std::fs::read(&damaged).expect("reads");
    assert!(bytes.len() > 4096, "a queue of several pages");
    for byte in &mut bytes[2048..3072] {
        *byte = 0xA5;
    }
    std::fs::write(&damaged, &bytes).expect("writes");
    let out = leasefence(&damaged, &["inspect"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    check!(
        out.status.code(),
        Some(2),
        "inspect on a damaged queue ({stderr})"
    );
    assert!(
        stderr.contains("integrity check") || stderr.contains("malformed"),
        "says it is damaged: {stderr}"
    );
    check!(
        std::fs::read(&damaged).expect("reads") == bytes,
        true,
        "damaged file unchanged"
    );
}
