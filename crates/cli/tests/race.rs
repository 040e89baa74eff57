//! R13: a real race between processes. Two children of the real binary
//! open one file database, wait at a start gate, and are released at the
//! same moment to claim the one pending job. Every round, exactly one of
//! them gets it.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};

use leasefence::{NewJob, Queue};

const ROUNDS: usize = 100;

/// Starts a claimer and waits until it reports `ready` at the start gate.
fn claimer_at_the_gate(db: &std::path::Path, owner: &str) -> Child {
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
    for round in 0..ROUNDS {
        let id = format!("race-{round}");
        queue
            .enqueue(&NewJob::new(id.as_str(), 1, 2_000_000_000))
            .expect("enqueues");
        let mut children = [claimer_at_the_gate(&db, "A"), claimer_at_the_gate(&db, "B")];
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
