//! The command line on PostgreSQL: `--db` takes a `postgres://` URL, and
//! every queue command does there what it does on a file, down to the
//! replay document, identical on both engines. A throwaway cluster serves
//! these tests (`tests/engines/postgres.rs` at the root).
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod support;

#[path = "../../../tests/engines/postgres.rs"]
mod postgres_cluster;

use std::process::{Command, Output};

use postgres_cluster::fresh_url;
use serde_json::{Value, json};
use support::SCENARIOS;

fn leasefence(db: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_leasefence"));
    if let Some(db) = db {
        command.args(["--db", db]);
    }
    command
        .args(args)
        .output()
        .expect("the leasefence binary runs")
}

fn json_of(out: &Output, what: &str) -> Value {
    assert!(
        out.status.success(),
        "{what}: exit {}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|err| panic!("{what}: {err}"))
}

/// Every chapter's scenario, replayed into a fresh PostgreSQL queue, gives
/// the document the in-memory replay gives, and leaves its rows there.
#[test]
fn replay_on_postgresql_gives_the_same_document_and_leaves_the_rows() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, scenario, _) in SCENARIOS {
        let file = dir.path().join(format!("{name}.json"));
        std::fs::write(&file, scenario).expect("writes the scenario");
        let file = file.to_str().expect("a UTF-8 path");
        let url = fresh_url();
        let in_memory = json_of(&leasefence(None, &["replay", file]), name);
        let on_server = json_of(&leasefence(Some(&url), &["replay", file]), name);
        check!(
            on_server,
            in_memory,
            "{name}: the replay document on PostgreSQL"
        );
        let inspected = json_of(&leasefence(Some(&url), &["inspect"]), name);
        check!(
            inspected,
            in_memory["rows"],
            "{name}: `inspect` shows the end state the replay left"
        );
    }
}

/// A replay starts from an empty queue: into one that holds jobs, it is
/// refused and the rows stay as they were.
#[test]
fn replay_into_a_queue_that_holds_jobs_is_refused() {
    let url = fresh_url();
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, scenario, _) = SCENARIOS[0];
    let file = dir.path().join("scenario.json");
    std::fs::write(&file, scenario).expect("writes the scenario");
    let file = file.to_str().expect("a UTF-8 path");
    json_of(
        &leasefence(Some(&url), &["replay", file]),
        "the first replay",
    );
    let before = json_of(&leasefence(Some(&url), &["inspect"]), "inspect");
    let again = leasefence(Some(&url), &["replay", file]);
    check!(again.status.code(), Some(2), "exit code of a second replay");
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(said.contains("--db"), "the refusal names --db: {said}");
    let after = json_of(&leasefence(Some(&url), &["inspect"]), "inspect");
    check!(after, before, "a refused replay changes nothing");
}

/// The canonical timeline by hand (R4, R8): A claims, B reclaims once A's
/// lease is over, A's late finish is refused (exit 1) and B's accepted.
#[test]
fn the_late_finish_is_refused_through_the_command_line() {
    let url = fresh_url();
    let db = Some(url.as_str());
    let claim_before_enqueue = leasefence(
        db,
        &["claim", "--owner", "A", "--now", "0", "--lease-ms", "1000"],
    );
    check!(
        claim_before_enqueue.status.code(),
        Some(2),
        "a claim on a database with no queue yet"
    );
    json_of(
        &leasefence(
            db,
            &[
                "enqueue",
                "--id",
                "snack-1",
                "--qty",
                "2",
                "--deadline",
                "5000",
            ],
        ),
        "enqueue",
    );
    let a = json_of(
        &leasefence(
            db,
            &["claim", "--owner", "A", "--now", "0", "--lease-ms", "1000"],
        ),
        "A's claim",
    );
    let b = json_of(
        &leasefence(
            db,
            &[
                "claim",
                "--owner",
                "B",
                "--now",
                "1000",
                "--lease-ms",
                "1000",
            ],
        ),
        "B's claim",
    );
    check!(
        (a["token"].clone(), b["token"].clone()),
        (json!(1), json!(2)),
        "R2: tokens"
    );
    let finish = |owner: &str, token: &str, attempt: &str, now: &str| {
        let args = [
            "finish",
            "--id",
            "snack-1",
            "--owner",
            owner,
            "--token",
            token,
            "--attempt",
            attempt,
            "--now",
            now,
        ];
        leasefence(db, &args)
    };
    let late = finish("A", "1", "1", "1001");
    check!(
        late.status.code(),
        Some(1),
        "R4: exit code of A's late finish"
    );
    let late: Value = serde_json::from_slice(&late.stdout).expect("prints the verdict");
    check!(
        late["reason"],
        json!("token_mismatch"),
        "R4: why A's finish is refused"
    );
    check!(
        late["current"]["owner"],
        json!("B"),
        "R14: the row it was refused against"
    );
    let current = json_of(&finish("B", "2", "2", "1500"), "B's finish");
    check!(current["accepted"], json!(true), "R4: the holder's finish");
}
