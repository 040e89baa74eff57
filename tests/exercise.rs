//! R12 end to end: a real receiver on loopback and two real `work`
//! processes on the wall clock. A delivers its first job, then stalls past
//! its lease; B reclaims that job and delivers it again. The queue refuses
//! A's stale finish, and the receiver counts every job exactly once.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const JOBS: u64 = 5;

fn leasefence(db: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_leasefence"));
    command.arg("--db").arg(db);
    command
}

/// Stops the receiver even when an assertion fails.
struct Stopper(Child);

impl Drop for Stopper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn totals(url: &str) -> Value {
    ureq::get(&format!("{url}/totals"))
        .call()
        .expect("the receiver answers")
        .body_mut()
        .read_json()
        .expect("totals are JSON")
}

fn json_lines(out: &Output) -> Vec<Value> {
    assert!(
        out.status.success(),
        "worker failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect()
}

#[test]
fn stalled_worker_is_fenced_and_the_receiver_counts_each_job_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let queue = dir.path().join("queue.db");
    for n in 1..=JOBS {
        let out = leasefence(&queue)
            .args([
                "enqueue",
                "--id",
                &format!("snack-{n}"),
                "--qty",
                &n.to_string(),
                "--deadline-in",
                "60000",
            ])
            .output()
            .expect("enqueue runs");
        assert!(
            out.status.success(),
            "enqueue: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    let mut receiver = leasefence(&dir.path().join("receiver.db"))
        .args(["receiver", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the receiver starts");
    let mut first_line = String::new();
    BufReader::new(receiver.stdout.take().expect("piped stdout"))
        .read_line(&mut first_line)
        .expect("the receiver announces its address");
    let _receiver = Stopper(receiver);
    let url = serde_json::from_str::<Value>(&first_line).expect("JSON")["listening"]
        .as_str()
        .expect("an address")
        .to_owned();

    let worker = |owner: &str, extra: &[&str]| {
        leasefence(&queue)
            .args([
                "work",
                "--owner",
                owner,
                "--lease-ms",
                "300",
                "--receiver",
                &url,
            ])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the worker starts")
    };
    // A takes the first job, delivers it, then sleeps 1 s with a 300 ms lease.
    let late = worker("A", &["--stall-ms", "1000", "--stall-jobs", "1"]);
    let started = Instant::now();
    while totals(&url)["jobs"] == json!(0) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "A never delivered"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let prompt = worker("B", &[]);
    let b_lines = json_lines(&prompt.wait_with_output().expect("B exits"));
    let a_lines = json_lines(&late.wait_with_output().expect("A exits"));

    // A's first job: delivered and applied, but its finish came too late.
    let a_first = &a_lines[0];
    check!(
        a_first["claim"]["id"],
        json!("snack-1"),
        "A claimed the first job"
    );
    check!(
        a_first["delivered"]["applied"],
        json!(true),
        "R12: A's delivery reached the receiver first"
    );
    check!(
        a_first["finish"]["accepted"],
        json!(false),
        "R4: A's finish after its lease ({a_first})"
    );

    // B reclaimed it with a new token; its repeat delivery added nothing.
    let b_snack_1 = b_lines
        .iter()
        .find(|line| line["claim"]["id"] == json!("snack-1"))
        .unwrap_or_else(|| panic!("B never reclaimed snack-1: {b_lines:?}"));
    check!(
        b_snack_1["claim"]["token"],
        json!(2),
        "B's reclaim carries token 2"
    );
    check!(
        b_snack_1["delivered"]["applied"],
        json!(false),
        "R12: B's repeat delivery is ignored"
    );
    check!(
        b_snack_1["finish"]["accepted"],
        json!(true),
        "B's finish is accepted"
    );

    let totals = totals(&url);
    let expected_qty: u64 = (1..=JOBS).sum();
    check!(
        (&totals["jobs"], &totals["qty"], &totals["repeats"]),
        (&json!(JOBS), &json!(expected_qty), &json!(1)),
        "R12: receiver totals count each job once ({totals})"
    );
    let rows: Vec<Value> = serde_json::from_slice(
        &leasefence(&queue)
            .arg("inspect")
            .output()
            .expect("inspect")
            .stdout,
    )
    .expect("rows are JSON");
    assert!(
        rows.iter().all(|row| row["state"] == json!("done")),
        "every job is done: {rows:?}"
    );
}
