//! The queue's promise is about workers that die, so this test kills them.
//!
//! Two `work` processes and the receiver run a few hundred jobs, on files
//! and on a PostgreSQL server, while the test kills one of the three with
//! SIGKILL at random moments
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
//! On PostgreSQL the test also ends the processes' sessions
//! (`pg_terminate_backend`) and restarts the server at once (`pg_ctl -m
//! immediate`, a crash to the server), while the processes run on.
//! Afterwards (files: both pass `PRAGMA integrity_check`) every job must
//! be `done`, the receiver must hold each job's qty exactly once, and the
//! workers' own reports must show no token handed out twice and no finish
//! accepted but the last claim's.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod support;

#[path = "../../../tests/engines/postgres.rs"]
mod postgres_cluster;

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use leasefence::{JobState, NewJob, Queue, Receiver};
use support::processes::{Running, leasefence, start_receiver};

const JOBS: u64 = 500;
const WORKERS: [&str; 2] = ["A", "B"];
/// Two more workers, never killed, that stall after every delivery for
/// longer than their lease: A or B reclaims the job meanwhile, and the
/// late finish must be refused (R4), whatever the kills did. Two, not one:
/// a kill of the receiver or the server cuts a late worker's round short
/// (it exits 3 and starts again), and with one alone a run on PostgreSQL
/// came, once, to no late finish at all.
const LATE: [&str; 2] = ["C", "D"];
/// The late workers' lease, and their stall after each delivery: short, so
/// that each finishes late many times between the kills of a run.
const LATE_LEASE_MS: &str = "100";
const STALL_MS: &str = "200";
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
    /// The queue and the ledger: two files, or two PostgreSQL URLs.
    queue: PathBuf,
    receiver_db: PathBuf,
    /// The URL of the server's database, when they are on PostgreSQL.
    server: Option<String>,
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
    fn start(dir: &Path, (queue, receiver_db): (PathBuf, PathBuf), server: Option<String>) -> Cast {
        let (receiver, url) = start_receiver(&receiver_db, "127.0.0.1:0").expect("listens");
        let mut cast = Cast {
            dir: dir.to_owned(),
            queue,
            receiver_db,
            server,
            listen: url.trim_start_matches("http://").to_owned(),
            url,
            receiver,
            workers: Vec::new(),
            started: Instant::now(),
            log: Vec::new(),
        };
        for name in WORKERS.into_iter().chain(LATE) {
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

    /// Where each run of worker `name` appends its JSON lines.
    fn stdout_file(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.stdout"))
    }

    fn spawn_worker(&self, name: &str) -> Running {
        let append = |path: PathBuf| -> File {
            (OpenOptions::new().create(true).append(true).open(path))
                .expect("opens the worker's output file")
        };
        let stderr = append(self.stderr_file(name));
        let stdout = append(self.stdout_file(name));
        let child = leasefence(&self.queue)
            .args([
                "work",
                "--owner",
                name,
                "--poll-ms",
                "10",
                "--receiver",
                &self.url,
            ])
            .args(match name {
                name if LATE.contains(&name) => [
                    "--lease-ms",
                    LATE_LEASE_MS,
                    "--stall-ms",
                    STALL_MS,
                    "--stall-jobs",
                    "1000",
                ]
                .as_slice(),
                _ => ["--lease-ms", LEASE_MS].as_slice(),
            })
            .stdout(stdout)
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

    /// What may be done to the cast: kill a worker or the receiver, and
    /// on a server, end every session or restart the server.
    fn victims(&self) -> usize {
        WORKERS.len() + 1 + if self.server.is_some() { 2 } else { 0 }
    }

    /// SIGKILLs victim `index` (a worker, or the receiver past the last
    /// worker) and restarts it under the same name; past the receiver, on
    /// a server, ends every session of the test's database, or restarts
    /// the server at once. A finished worker is left alone.
    fn kill_and_restart(&mut self, index: usize) -> Option<&'static str> {
        if let Some(database) = self.server.clone() {
            if index == WORKERS.len() + 1 {
                let mut admin = postgres::Client::connect(&database, postgres::NoTls)
                    .expect("connects to end the sessions");
                let ended: i64 = admin
                    .query_one(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                         WHERE datname = current_database() AND pid <> pg_backend_pid() \
                           AND backend_type = 'client backend'",
                        &[],
                    )
                    .expect("ends the sessions")
                    .get(0);
                self.note(format!("ended {ended} sessions"));
                return Some("sessions");
            }
            if index == WORKERS.len() + 2 {
                postgres_cluster::restart_server_now().expect("restarts the server");
                self.note("restarted the server (immediate)".into());
                return Some("server");
            }
        }
        if index < WORKERS.len() {
            let worker = &mut self.workers[index];
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
    let dir = tempfile::tempdir().expect("temp dir");
    let home = (dir.path().join("queue.db"), dir.path().join("receiver.db"));
    crash(dir.path(), home, None);
}

/// The same on PostgreSQL, with sessions ended and the server restarted
/// under the running processes; the queue and the ledger each in their own
/// schema of one database.
#[test]
fn on_postgresql_workers_receiver_sessions_and_server_killed_lose_no_job() {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = (
        PathBuf::from(postgres_cluster::fresh_url()),
        PathBuf::from(postgres_cluster::fresh_url()),
    );
    crash(
        dir.path(),
        home,
        Some(postgres_cluster::server().to_owned()),
    );
}

/// Runs the cast on `home` (the queue and the ledger) until every job is
/// done, with kills at random moments, and checks what they left.
fn crash(dir: &Path, home: (PathBuf, PathBuf), server: Option<String>) {
    let seed = seed();
    println!("crash test seed: {seed} (CRASH_SEED={seed} replays its schedule)");
    let mut rng = fastrand::Rng::with_seed(seed);
    let deadline = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as u64
        + 10 * 60 * 1000;
    let mut expected = BTreeMap::new();
    {
        let queue = open_queue(&home.0);
        for n in 0..JOBS {
            let job = NewJob {
                max_attempts: MAX_ATTEMPTS,
                ..NewJob::new(format!("job-{n}"), 1 + n % 7, deadline)
            };
            queue.enqueue(&job).expect("enqueues");
            expected.insert(job.id, job.qty);
        }
    }

    let mut cast = Cast::start(dir, home, server);
    let mut kills: BTreeMap<&str, usize> = BTreeMap::new();
    let mut next_kill = Instant::now() + Duration::from_millis(rng.u64(GAP_MS));
    let mut chaos = 0usize;
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
            // Every kind of violence early, then at random.
            let victim = if chaos < cast.victims() {
                cast.victims() - 1 - chaos
            } else {
                rng.usize(0..cast.victims())
            };
            chaos += 1;
            if let Some(victim) = cast.kill_and_restart(victim) {
                *kills.entry(victim).or_default() += 1;
            }
            next_kill = Instant::now() + Duration::from_millis(rng.u64(GAP_MS));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let took = cast.started.elapsed();
    let kinds = cast.victims() - WORKERS.len() + 1;
    let Cast {
        receiver,
        log,
        queue,
        receiver_db,
        server,
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
        kills_made >= MIN_KILLS && kills.len() >= kinds,
        "seed {seed}: expected at least {MIN_KILLS} kills of every kind ({kinds}), \
         got {kills:?}: too few to prove anything\n{}",
        log.join("\n")
    );
    if server.is_none() {
        for (file, path) in [("queue", &queue), ("receiver", &receiver_db)] {
            check!(
                integrity(path),
                "ok".to_owned(),
                "seed {seed}: PRAGMA integrity_check of the {file} file after {kills_made} kills"
            );
        }
    }
    let rows = open_queue(&queue).rows().expect("rows");
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
    fenced(dir, &rows, seed);
    let totals = open_receiver(&receiver_db).totals().expect("totals");
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

/// The URL `home` is, when the cast's databases are on PostgreSQL.
fn server_url(home: &Path) -> Option<&str> {
    home.to_str()
        .filter(|home| home.starts_with("postgresql://"))
}

fn open_queue(home: &Path) -> Queue {
    match server_url(home) {
        Some(url) => Queue::connect(url),
        None => Queue::open(home),
    }
    .expect("opens the queue")
}

fn open_receiver(home: &Path) -> Receiver {
    match server_url(home) {
        Some(url) => Receiver::connect(url),
        None => Receiver::open(home),
    }
    .expect("opens the receiver's ledger")
}

/// What the workers said, line by line, across all their runs: no token
/// of a job was handed out twice (R2), and the one finish accepted for
/// each job was its last claim's (R4: a stale finish accepted would show
/// as an accepted finish of an earlier token).
fn fenced(dir: &Path, rows: &[leasefence::JobRow], seed: u64) {
    let mut claims: BTreeMap<(String, u64), usize> = BTreeMap::new();
    let mut accepted: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let mut torn = 0;
    let mut refused_after_reclaim = 0;
    for name in WORKERS.into_iter().chain(LATE) {
        let said = std::fs::read_to_string(dir.join(format!("{name}.stdout"))).unwrap_or_default();
        for line in said.lines() {
            let Ok(line) = serde_json::from_str::<serde_json::Value>(line) else {
                torn += 1; // a line a kill cut short
                continue;
            };
            let Some(id) = line["claim"]["id"].as_str() else {
                continue; // the summary line
            };
            let token = line["claim"]["token"].as_u64().expect("a token");
            *claims.entry((id.to_owned(), token)).or_default() += 1;
            if line["finish"]["accepted"] == true {
                accepted.entry(id.to_owned()).or_default().push(token);
            }
            if line["finish"]["reason"] == "token_mismatch" {
                refused_after_reclaim += 1;
            }
        }
    }
    let twice: Vec<((String, u64), usize)> = (claims.into_iter())
        .filter(|(_, count)| *count > 1)
        .collect();
    check!(
        twice,
        Vec::new(),
        "seed {seed}: R2: tokens handed out twice ((id, token), claims)"
    );
    let stale: Vec<(&str, u64, Option<&Vec<u64>>)> = rows
        .iter()
        .filter(|row| {
            accepted
                .get(&row.id)
                .is_some_and(|tokens| tokens != &vec![row.token])
        })
        .map(|row| (row.id.as_str(), row.token, accepted.get(&row.id)))
        .collect();
    check!(
        stale,
        Vec::new(),
        "seed {seed}: R4: jobs with a finish accepted but their last claim's \
         (id, last token, tokens accepted); {torn} lines cut short by kills"
    );
    // Without one, the run never put the fence to the test.
    assert!(
        refused_after_reclaim > 0,
        "seed {seed}: no finish was refused after a reclaim (the late workers {LATE:?} \
         never finished late)"
    );
    println!("seed {seed}: {refused_after_reclaim} late finishes refused after a reclaim");
}
