//! R13: a real race between processes. Children of the real binary open
//! one queue (a SQLite file; a PostgreSQL database), wait at a start gate,
//! and are released at the same moment to claim the one pending job. Every
//! round, exactly one of them gets it.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod support;

#[path = "../../../tests/engines/postgres.rs"]
mod postgres_cluster;

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};

use leasefence::{NewJob, Queue};

const ROUNDS: usize = 100;

/// Starts a claimer and waits until it reports `ready` at the start gate.
fn claimer_at_the_gate(db: &OsStr, owner: &str) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_leasefence"))
        .arg("--db")
        .arg(db)
        .args([
            "claim",
            "--owner",
            owner,
            "--now",
            "0",
            "--lease-ms",
            "1000000000",
            "--start-gate",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the leasefence binary starts");
    let mut line = String::new();
    BufReader::new(child.stderr.as_mut().expect("piped stderr"))
        .read_line(&mut line)
        .expect("reads the gate line");
    assert_eq!(line.trim(), "ready", "{owner} did not reach the start gate");
    child
}

#[test]
fn two_processes_released_together_claim_one_job_exactly_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("race.db");
    let queue = Queue::open(&db).expect("creates the queue");
    race(db.as_os_str(), &queue, &["A", "B"]);
}

/// On PostgreSQL, which runs writers at once rather than one at a time, a
/// claim must lock the row it takes: more processes than the machine has
/// cores race for each job.
#[test]
fn on_postgresql_four_processes_released_together_claim_one_job_exactly_once() {
    let url = postgres_cluster::fresh_url();
    let queue = Queue::connect(&url).expect("creates the queue");
    race(OsStr::new(&url), &queue, &["A", "B", "C", "D"]);
}

/// [`ROUNDS`] rounds: a job enqueued in `queue`, then `owners` released
/// together to claim it through `db`; exactly one gets it, with token 1.
fn race(db: &OsStr, queue: &Queue, owners: &[&str]) {
    for round in 0..ROUNDS {
        let id = format!("race-{round}");
        queue
            .enqueue(&NewJob::new(id.as_str(), 1, 2_000_000_000))
            .expect("enqueues");
        let mut children: Vec<Child> = (owners.iter())
            .map(|owner| claimer_at_the_gate(db, owner))
            .collect();
        // Both are blocked reading stdin: release them back to back.
        for child in &mut children {
            child
                .stdin
                .as_mut()
                .expect("piped stdin")
                .write_all(b"go\n")
                .expect("releases");
        }
        let outputs: Vec<serde_json::Value> = children
            .into_iter()
            .map(|child| {
                let out = child.wait_with_output().expect("the claimer exits");
                assert!(
                    out.status.success(),
                    "round {round}: claimer failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                serde_json::from_slice(&out.stdout).expect("prints JSON")
            })
            .collect();
        let claims: Vec<&serde_json::Value> =
            outputs.iter().filter(|claim| !claim.is_null()).collect();
        check!(
            claims.len(),
            1,
            "R13 round {round}: number of claim results ({outputs:?})"
        );
        check!(
            claims[0]["id"],
            serde_json::json!(id),
            "R13 round {round}: the claimed job"
        );
        check!(
            claims[0]["token"],
            serde_json::json!(1),
            "R13 round {round}: first token"
        );
    }
}
