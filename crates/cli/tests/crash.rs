//! The queue's promise is about workers that die, so this test kills them.
//!
//! Two `work` processes and the receiver run a few hundred jobs on files
//! while the test kills one of the three with SIGKILL at random moments
//! (seeded: the seed is printed, `CRASH_SEED=<seed>` replays the same
//! schedule of kills, though not the same instants inside the processes).
//! Each victim is restarted at once under the same name: a worker as the
//! same `--owner` (R8), the receiver on the same database file and address.
//! A worker that exits 3 because the receiver was down is restarted too.
//!
//! A kill can land anywhere: inside a claim's or a finish's transaction
//! (a hot journal the next opener rolls back, R6), between a claim and its
//! delivery (the job waits out its lease and is reclaimed, R1, R5), after a
//! delivery but before the finish (the next holder delivers again, and the
//! receiver adds nothing, R12), or inside the receiver's own transaction.
//! Afterwards both files must pass `PRAGMA integrity_check`, every job must
//! be `done`, and the receiver must hold each job's qty exactly once.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use leasefence::{JobState, NewJob, Queue, Receiver};
use support::processes::{Running, leasefence, start_receiver};

const JOBS: u64 = 500;
const WORKERS: [&str; 2] = ["A", "B"];
const LEASE_MS: &str = "400";
/// The gaps between kills, which go on until the workers are done.
const GAP_MS: std::ops::RangeInclusive<u64> = 5..=80;
/// A run with fewer kills proves too little and fails.
const MIN_KILLS: usize = 10;
/// Each kill or lost delivery costs a job at most one attempt; this many
/// leaves no job quarantined by the test's own violence (R10).
const MAX_ATTEMPTS: u64 = 1_000;
/// The run fails if the workers have not finished by then.
const LIMIT: Duration = Duration::from_secs(60);

fn seed() -> u64 {
    std::env::var("CRASH_SEED")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(1, |since| since.as_nanos() as u64)
        })
}

/// One worker name and the process currently running under it.
struct Worker {
    name: &'static str,
    process: Option<Running>,
    /// It exited 0: no job was left to claim or finish.
    done: bool,
}

/// The three processes, what happened to them, and how to restart them.
struct Cast {
    dir: PathBuf,
    queue: PathBuf,
    receiver_db: PathBuf,
    /// The receiver's address, kept across restarts.
    listen: String,
    url: String,
    receiver: Running,
    workers: Vec<Worker>,
    started: Instant,
    /// What happened, in order, for the failure message.
    log: Vec<String>,
}

impl Cast {
    fn start(dir: &Path) -> Cast {
        let receiver_db = dir.join("receiver.db");
        let (receiver, url) = start_receiver(&receiver_db, "127.0.0.1:0").expect("listens");
        let mut cast = Cast {
            dir: dir.to_owned(),
            queue: dir.join("queue.db"),
            receiver_db,
            listen: url.trim_start_matches("http://").to_owned(),
            url,
            receiver,
            workers: Vec::new(),
            started: Instant::now(),
            log: Vec::new(),
        };
        for name in WORKERS {
            let process = Some(cast.spawn_worker(name));
            cast.workers.push(Worker {
                name,
                process,
                done: false,
            });
        }
        cast
    }

    fn note(&mut self, what: String) {
        let at = self.started.elapsed().as_millis();
        self.log.push(format!("{at:>6} ms  {what}"));
    }

    fn stderr_file(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.stderr"))
    }

    fn spawn_worker(&self, name: &str) -> Running {
        let stderr: File = OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.stderr_file(name))
            .expect("opens the worker's stderr file");
        let child = leasefence(&self.queue)
            .args(["work", "--owner", name, "--lease-ms", LEASE_MS])
            .args(["--poll-ms", "10", "--receiver", &self.url])
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("the worker starts");
        Running(child)
    }

    /// Restarts the receiver on the same file and address; the old
    /// process must be gone (its socket closed) before this is called.
    fn restart_receiver(&mut self) {
        for _ in 0..100 {
            if let Some((receiver, _)) = start_receiver(&self.receiver_db, &self.listen) {
                self.receiver = receiver;
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the receiver could not listen on {} again", self.listen);
    }

    /// Looks at every worker: one that finished is left alone, one that
    /// exited 3 (the receiver was down) is restarted, any other exit fails
    /// the test.
    fn reap(&mut self) {
        for index in 0..self.workers.len() {
            let worker = &mut self.workers[index];
            let Some(process) = &mut worker.process else {
                continue;
            };
            let Some(status) = process.0.try_wait().expect("polls the worker") else {
                continue;
            };
            let name = worker.name;
            match status.code() {
                Some(0) => {
                    worker.done = true;
                    worker.process = None;
                    self.note(format!("{name} finished"));
                }
                Some(3) => {
                    self.note(format!("{name} exited 3 (receiver down), restarted"));
                    self.workers[index].process = Some(self.spawn_worker(name));
                }
                other => {
                    let stderr =
                        std::fs::read_to_string(self.stderr_file(name)).unwrap_or_default();
                    panic!(
                        "{name} exited with {other:?}\nits stderr:\n{stderr}\n{}",
                        self.log.join("\n")
                    );
                }
            }
        }
    }

    fn all_done(&self) -> bool {
        self.workers.iter().all(|worker| worker.done)
    }

    /// SIGKILLs victim `index` (a worker, or the receiver past the last
    /// worker) and restarts it under the same name. A finished worker is
    /// left alone.
    fn kill_and_restart(&mut self, index: usize) -> Option<&'static str> {
        if let Some(worker) = self.workers.get_mut(index) {
            let mut process = worker.process.take()?;
            let name = worker.name;
            process.0.kill().expect("SIGKILL");
            process.0.wait().expect("reaps the worker");
            self.workers[index].process = Some(self.spawn_worker(name));
            self.note(format!("killed {name}, restarted"));
            return Some(name);
        }
        self.receiver.0.kill().expect("SIGKILL");
        self.receiver.0.wait().expect("reaps the receiver");
        self.restart_receiver();
        self.note("killed the receiver, restarted".into());
        Some("receiver")
    }
}

fn integrity(path: &Path) -> String {
    rusqlite::Connection::open(path)
        .and_then(|conn| conn.query_row("PRAGMA integrity_check", [], |row| row.get(0)))
        .unwrap_or_else(|err| format!("cannot check {}: {err}", path.display()))
}

#[test]
fn workers_and_receiver_killed_at_random_lose_no_job_and_count_each_qty_once() {
    let seed = seed();
    println!("crash test seed: {seed} (CRASH_SEED={seed} replays its schedule)");
    let mut rng = fastrand::Rng::with_seed(seed);
    let dir = tempfile::tempdir().expect("temp dir");
    let deadline = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as u64
        + 10 * 60 * 1000;
    let mut expected = BTreeMap::new();
    {
        let queue = Queue::open(dir.path().join("queue.db")).expect("creates the queue");
        for n in 0..JOBS {
            let job = NewJob {
                max_attempts: MAX_ATTEMPTS,
                ..NewJob::new(format!("job-{n}"), 1 + n % 7, deadline)
            };
            queue.enqueue(&job).expect("enqueues");
            expected.insert(job.id, job.qty);
        }
    }

    let mut cast = Cast::start(dir.path());
    let mut kills: BTreeMap<&str, usize> = BTreeMap::new();
    let mut next_kill = Instant::now() + Duration::from_millis(rng.u64(GAP_MS));
    loop {
        cast.reap();
        if cast.all_done() {
            break;
        }
        assert!(
            cast.started.elapsed() < LIMIT,
            "seed {seed}: the workers were still running after {LIMIT:?}\n{}",
            cast.log.join("\n")
        );
        if Instant::now() >= next_kill {
            if let Some(victim) = cast.kill_and_restart(rng.usize(0..=WORKERS.len())) {
                *kills.entry(victim).or_default() += 1;
            }
            next_kill = Instant::now() + Duration::from_millis(rng.u64(GAP_MS));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let took = cast.started.elapsed();
    let Cast {
        receiver,
        log,
        queue,
        receiver_db,
        ..
    } = cast;
    drop(receiver); // SIGKILL once more, idle this time
    let restarts_after_exit_3 = log.iter().filter(|line| line.contains("exited 3")).count();
    println!(
        "seed {seed}: {JOBS} jobs in {took:?}; kills {kills:?}; \
         {restarts_after_exit_3} restarts after exit 3"
    );

    let kills_made: usize = kills.values().sum();
    assert!(
        kills_made >= MIN_KILLS && kills.contains_key("receiver") && kills.len() > 1,
        "seed {seed}: expected at least {MIN_KILLS} kills of workers and the receiver, \
         got {kills:?}: too few to prove anything\n{}",
        log.join("\n")
    );
    for (file, path) in [("queue", &queue), ("receiver", &receiver_db)] {
        check!(
            integrity(path),
            "ok".to_owned(),
            "seed {seed}: PRAGMA integrity_check of the {file} file after {kills_made} kills"
        );
    }
    let rows = Queue::open(&queue)
        .expect("opens the queue")
        .rows()
        .expect("rows");
    let not_done: Vec<_> = rows
        .iter()
        .filter(|row| row.state != JobState::Done)
        .map(|row| (row.id.as_str(), row.state, row.attempts))
        .collect();
    check!(
        (rows.len(), not_done),
        (JOBS as usize, Vec::new()),
        "seed {seed}: R1: every job is a row and done (id, state, attempts of the others)"
    );
    let totals = Receiver::open(&receiver_db)
        .expect("opens the receiver")
        .totals()
        .expect("totals");
    // The ledger holds one row per id, so "exactly once" is: no job
    // missing, and no id held with another qty or unknown to the queue.
    let missing: Vec<&String> = expected
        .keys()
        .filter(|id| !totals.applied.contains_key(*id))
        .collect();
    let wrong: Vec<(&String, &u64, Option<&u64>)> = totals
        .applied
        .iter()
        .filter(|(id, qty)| expected.get(*id) != Some(*qty))
        .map(|(id, qty)| (id, qty, expected.get(id)))
        .collect();
    check!(
        (missing, wrong),
        (Vec::<&String>::new(), Vec::new()),
        "seed {seed}: R12: jobs the receiver lacks; ids it holds with a wrong qty \
         (id, held, enqueued); {} repeats were ignored",
        totals.repeats
    );
    check!(
        totals.qty,
        expected.values().sum::<u64>(),
        "seed {seed}: R12: the receiver's total"
    );
    println!(
        "seed {seed}: {} deliveries were repeats, ignored",
        totals.repeats
    );
}
