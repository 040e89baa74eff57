//! R12 end to end: a real receiver on loopback and two real `work`
//! processes. A delivers its first job, then stalls past its lease; B
//! reclaims that job and delivers it again. The queue refuses A's stale
//! finish, and the receiver counts every job exactly once.
//!
//! Why an injected clock: on the wall clock the story depends on how the
//! machine schedules the processes (does B reclaim before A wakes? which
//! reason does A's finish get?), so such a test can check only what every
//! schedule shares, and it must sleep through real leases. Here the workers
//! read the time from a file (`work --clock FILE`), and the test moves that
//! time only when each worker has done what the story needs. The
//! processes, the file locking and the HTTP stay real; every claim,
//! delivery and verdict is exact, and nothing waits on a real lease. One
//! short smoke test beside it runs the README's commands on the wall clock.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::processes::{Running, leasefence, start_receiver, totals};

/// The jobs' deadline on the injected clock: far beyond the story.
const DEADLINE: u64 = 60_000;

/// How long the test waits for a process to do its part before failing.
const PATIENCE: Duration = Duration::from_secs(10);

/// The workers' time, as a file holding milliseconds. It is replaced whole
/// (written beside, then renamed), so a worker never reads half a number.
struct FileClock(PathBuf);

impl FileClock {
    fn set(&self, ms: u64) {
        let next = self.0.with_extension("next");
        std::fs::write(&next, ms.to_string()).expect("writes the time");
        std::fs::rename(&next, &self.0).expect("moves the time into place");
    }
}

/// A `work` process whose JSON lines arrive on a channel, so the test can
/// wait for the next one with a time limit instead of hanging.
struct Worker {
    name: &'static str,
    process: Running,
    lines: mpsc::Receiver<Value>,
}

impl Worker {
    fn start(name: &'static str, queue: &Path, url: &str, extra: &[&str]) -> Worker {
        let mut child = leasefence(queue)
            .args([
                "work",
                "--owner",
                name,
                "--lease-ms",
                "300",
                "--receiver",
                url,
            ])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the worker starts");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                let value = serde_json::from_str(&line).expect("each line is JSON");
                if send.send(value).is_err() {
                    break;
                }
            }
        });
        Worker {
            name,
            process: Running(child),
            lines,
        }
    }

    /// The next line the worker prints, while it should be doing `what`.
    fn next_line(&self, what: &str) -> Value {
        self.lines
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|err| panic!("{}: no line while {what} ({err})", self.name))
    }

    /// Waits for the worker to exit 0 after printing `last`, its summary.
    fn exits_after(mut self, last: Value) {
        check!(
            self.next_line("ending"),
            last,
            "{}'s summary line",
            self.name
        );
        let status = self.process.0.wait().expect("the worker exits");
        let mut stderr = String::new();
        if let Some(mut pipe) = self.process.0.stderr.take() {
            let _ = pipe.read_to_string(&mut stderr);
        }
        check!(
            status.code(),
            Some(0),
            "{}'s exit code ({stderr})",
            self.name
        );
    }
}

/// What `work` prints for one job: its claim, the receiver's answer, and
/// the verdict on its finish.
fn work_line(worker: &str, claim: Value, applied: bool, finish: Value) -> Value {
    json!({ "worker": worker, "claim": claim, "delivered": { "applied": applied }, "finish": finish })
}

/// The n-th snack's claim (qty n) with this token, lease ending at `until`.
fn claim(n: u64, owner: &str, token: u64, until: u64) -> Value {
    json!({ "id": format!("snack-{n}"), "qty": n, "owner": owner, "token": token,
            "attempt": token, "lease_until": until })
}

/// A finish by the holder of `claim`, accepted: the row is `done`.
fn accepted(claim: &Value) -> Value {
    json!({ "accepted": true, "reason": null, "expected": stamp(claim), "current": done_row(claim) })
}

fn stamp(claim: &Value) -> Value {
    json!({ "id": claim["id"], "owner": claim["owner"], "token": claim["token"],
            "attempt": claim["attempt"] })
}

/// The row after `claim`'s holder finished it.
fn done_row(claim: &Value) -> Value {
    json!({ "id": claim["id"], "qty": claim["qty"], "state": "done", "owner": claim["owner"],
            "token": claim["token"], "attempts": claim["attempt"], "max_attempts": 3,
            "lease_until": claim["lease_until"], "deadline": DEADLINE })
}

fn enqueue_snacks(queue: &Path, jobs: u64, deadline: &[&str]) {
    for n in 1..=jobs {
        let out = leasefence(queue)
            .args([
                "enqueue",
                "--id",
                &format!("snack-{n}"),
                "--qty",
                &n.to_string(),
            ])
            .args(deadline)
            .output()
            .expect("enqueue runs");
        assert!(
            out.status.success(),
            "enqueue: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Waits until the receiver holds `jobs` jobs: a worker's delivery arrived.
fn until_the_receiver_holds(url: &str, jobs: u64) {
    let started = Instant::now();
    while totals(url)["jobs"] != json!(jobs) {
        assert!(
            started.elapsed() < PATIENCE,
            "the receiver never held {jobs} jobs: {}",
            totals(url)
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn states(queue: &Path) -> Vec<Value> {
    let rows: Vec<Value> = serde_json::from_slice(
        &leasefence(queue)
            .arg("inspect")
            .output()
            .expect("inspect")
            .stdout,
    )
    .expect("rows are JSON");
    rows.iter()
        .map(|row| json!([row["id"], row["state"], row["owner"], row["token"]]))
        .collect()
}

/// The story on the injected clock, every line exact:
///
/// * t=0: A claims snack-1 (lease until 300), delivers it, and stalls until
///   t=1000. B claims, delivers and finishes snack-2..5, then finds only
///   A's valid lease and waits (R11).
/// * t=300: A's lease has ended (R5); B reclaims snack-1 with token 2,
///   delivers it again (a repeat, R12), finishes it and exits.
/// * t=1000: A wakes; its finish with token 1 is refused, `not_leased`
///   since B finished the job (R4).
#[test]
fn on_an_injected_clock_the_stalled_worker_is_fenced_and_each_job_counts_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let queue = dir.path().join("queue.db");
    enqueue_snacks(&queue, 5, &["--deadline", &DEADLINE.to_string()]);
    let clock = FileClock(dir.path().join("now"));
    clock.set(0);
    let clock_flag = ["--clock", clock.0.to_str().expect("a UTF-8 temp path")];
    let (_receiver, url) =
        start_receiver(&dir.path().join("receiver.db"), "127.0.0.1:0").expect("listens");

    let a = Worker::start(
        "A",
        &queue,
        &url,
        &[&clock_flag[..], &["--stall-ms", "1000"]].concat(),
    );
    until_the_receiver_holds(&url, 1);
    let b = Worker::start("B", &queue, &url, &clock_flag);
    for n in 2..=5 {
        let taken = claim(n, "B", 1, 300);
        check!(
            b.next_line("taking the free jobs at t=0"),
            work_line("B", taken.clone(), true, accepted(&taken)),
            "B's snack-{n} at t=0"
        );
    }
    check!(
        states(&queue)[0],
        json!(["snack-1", "leased", "A", 1]),
        "R11: B waited while A's lease was valid"
    );

    clock.set(300);
    let reclaimed = claim(1, "B", 2, 600);
    check!(
        b.next_line("reclaiming at t=300"),
        work_line("B", reclaimed.clone(), false, accepted(&reclaimed)),
        "R5, R12: B reclaims snack-1 at t=300; its delivery is a repeat"
    );
    b.exits_after(json!({ "worker": "B", "finished": 5, "rejected": 0 }));

    clock.set(1000);
    let late = claim(1, "A", 1, 300);
    check!(
        a.next_line("waking at t=1000"),
        work_line(
            "A",
            late.clone(),
            true,
            json!({ "accepted": false, "reason": "not_leased", "expected": stamp(&late),
                    "current": done_row(&reclaimed) })
        ),
        "R4: A's finish with token 1 at t=1000"
    );
    a.exits_after(json!({ "worker": "A", "finished": 0, "rejected": 1 }));

    check!(
        totals(&url),
        json!({ "applied": { "snack-1": 1, "snack-2": 2, "snack-3": 3, "snack-4": 4, "snack-5": 5 },
                "jobs": 5, "qty": 15, "repeats": 1 }),
        "R12: the receiver counts each job once"
    );
    let b_holds = |n: u64, token: u64| json!([format!("snack-{n}"), "done", "B", token]);
    check!(
        states(&queue),
        vec![
            b_holds(1, 2),
            b_holds(2, 1),
            b_holds(3, 1),
            b_holds(4, 1),
            b_holds(5, 1)
        ],
        "every job is done, by B"
    );
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

/// The README's exercise on the wall clock, shortened: real leases, real
/// sleeps. It checks what holds under any schedule: A's late finish is
/// refused (whichever reason), B's reclaim carries token 2 and its delivery
/// is a repeat, and the receiver counts each job once.
#[test]
fn on_the_wall_clock_the_stalled_worker_is_fenced_and_each_job_counts_once() {
    const JOBS: u64 = 3;
    let dir = tempfile::tempdir().expect("temp dir");
    let queue = dir.path().join("queue.db");
    enqueue_snacks(&queue, JOBS, &["--deadline-in", "60000"]);
    let (_receiver, url) =
        start_receiver(&dir.path().join("receiver.db"), "127.0.0.1:0").expect("listens");
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
    // A takes the first job, delivers it, then sleeps 800 ms on a 300 ms lease.
    let late = worker("A", &["--stall-ms", "800"]);
    until_the_receiver_holds(&url, 1);
    let b_lines = json_lines(&worker("B", &[]).wait_with_output().expect("B exits"));
    let a_lines = json_lines(&late.wait_with_output().expect("A exits"));

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
    check!(
        (&totals["jobs"], &totals["qty"], &totals["repeats"]),
        (&json!(JOBS), &json!(6), &json!(1)),
        "R12: receiver totals count each job once ({totals})"
    );
    assert!(
        states(&queue).iter().all(|row| row[1] == json!("done")),
        "every job is done: {:?}",
        states(&queue)
    );
}

/// A receiver that accepts the connection and never answers
/// hung `work` forever. Now a delivery has a time limit, and the worker
/// exits 3 saying so, its job left leased.
#[test]
fn a_silent_receiver_makes_work_exit_3_instead_of_hanging() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let queue = dir.path().join("queue.db");
    enqueue_snacks(&queue, 1, &["--deadline-in", "60000"]);
    let silent = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
    let url = format!("http://{}", silent.local_addr().expect("an address"));
    let started = Instant::now();
    let out = leasefence(&queue)
        .args([
            "work",
            "--owner",
            "A",
            "--lease-ms",
            "300",
            "--receiver",
            &url,
        ])
        .output()
        .expect("runs");
    drop(silent);
    check!(out.status.code(), Some(3), "the exit code");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "it gave up in {:?}",
        started.elapsed()
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--receiver"),
        "it names the receiver: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `work --clock FILE` spun forever once the file was deleted.
/// Now a clock file unreadable for 2 s is an error naming `--clock`.
#[test]
fn a_deleted_clock_file_makes_work_exit_2_naming_the_clock() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let queue = dir.path().join("queue.db");
    enqueue_snacks(&queue, 1, &["--deadline", &DEADLINE.to_string()]);
    let (_receiver, url) =
        start_receiver(&dir.path().join("receiver.db"), "127.0.0.1:0").expect("a receiver");
    let clock = FileClock(dir.path().join("clock"));
    clock.set(0);
    let clock_flag = ["--clock", clock.0.to_str().expect("a UTF-8 temp path")];
    // A stalls after its delivery, waiting for the clock to move.
    let worker = Worker::start(
        "A",
        &queue,
        &url,
        &[&clock_flag[..], &["--stall-ms", "500"]].concat(),
    );
    until_the_receiver_holds(&url, 1);
    std::fs::remove_file(&clock.0).expect("removes the clock");
    let Worker { mut process, .. } = worker;
    let status = process.0.wait().expect("the worker exits");
    let mut stderr = String::new();
    if let Some(mut pipe) = process.0.stderr.take() {
        let _ = pipe.read_to_string(&mut stderr);
    }
    check!(status.code(), Some(2), "the exit code ({stderr})");
    assert!(stderr.contains("--clock"), "it names the clock: {stderr}");
}
