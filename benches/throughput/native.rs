//! The measurements; see `main.rs`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use leasefence::{NewJob, Queue};

const FAR: u64 = 1 << 50; // a deadline nobody reaches

pub fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("worker") {
        worker(Path::new(&args[2]), &args[3]);
        return;
    }
    // `cargo bench` passes `--bench`; a filter argument is not supported.
    let dir = tempfile::tempdir_in(std::env::var("BENCH_DIR").unwrap_or_else(|_| "target".into()))
        .expect("a temp dir for the databases");
    single_process(dir.path());
    contention(dir.path());
    table_growth();
}

/// Monotonic milliseconds since `start`: the benchmark's clock.
fn millis(start: Instant) -> u64 {
    start.elapsed().as_millis() as u64
}

fn single_process(dir: &Path) {
    const CYCLES: u64 = 400;
    // Raw: one-row UPDATE commits, same pragmas as the queue.
    let raw_path = dir.join("raw.db");
    let raw = rusqlite::Connection::open(&raw_path).expect("opens");
    raw.execute_batch(
        "PRAGMA journal_mode=DELETE; PRAGMA synchronous=FULL;
         CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO t VALUES (1, 0);",
    )
    .expect("raw schema");
    let started = Instant::now();
    for _ in 0..CYCLES * 2 {
        raw.execute_batch("BEGIN IMMEDIATE; UPDATE t SET n = n + 1 WHERE id = 1; COMMIT;")
            .expect("raw commit");
    }
    let raw_rate = (CYCLES * 2) as f64 / started.elapsed().as_secs_f64();

    let queue = Queue::open(dir.join("single.db")).expect("opens");
    for n in 0..CYCLES {
        queue
            .enqueue(&NewJob::new(format!("job-{n}"), 1, FAR))
            .expect("enqueues");
    }
    let clock = Instant::now();
    let started = Instant::now();
    for _ in 0..CYCLES {
        let claim = queue
            .claim("bench", millis(clock), 60_000)
            .expect("claims")
            .expect("a job");
        let finish = queue
            .finish(&claim.stamp(), millis(clock))
            .expect("finishes");
        assert!(finish.accepted);
    }
    let cycle_rate = CYCLES as f64 / started.elapsed().as_secs_f64();
    println!("## Single process, file database ({CYCLES} cycles)\n");
    println!("| measure | per second |\n| --- | ---: |");
    println!("| raw `BEGIN IMMEDIATE; UPDATE; COMMIT` | {raw_rate:.0} |");
    println!(
        "| ceiling for claim+finish (raw / 2) | {:.0} |",
        raw_rate / 2.0
    );
    println!("| claim+finish cycles | {cycle_rate:.0} |");
    println!(
        "| cycles / ceiling | {:.2} |\n",
        cycle_rate / (raw_rate / 2.0)
    );
}

/// One worker process: claims until nothing is left, spending ~1 ms in
/// `send`; prints `jobs errors wait_us...` on one line.
fn worker(db: &Path, owner: &str) {
    let queue = Queue::open(db).expect("worker opens");
    let clock = Instant::now();
    let (mut jobs, mut errors, mut waits) = (0u64, 0u64, Vec::new());
    loop {
        let asked = Instant::now();
        let result = queue.process_one(
            owner,
            60_000,
            || millis(clock),
            |_claim| {
                std::thread::sleep(Duration::from_millis(1));
                Ok::<(), ()>(())
            },
        );
        waits.push(asked.elapsed().as_micros() as u64);
        match result {
            Ok(Some(processed)) if processed.finish.accepted => jobs += 1,
            Ok(Some(_)) => errors += 1,
            Ok(None) => break,
            Err(err) => {
                errors += 1;
                eprintln!("{owner}: {err:?}");
            }
        }
    }
    let waits: Vec<String> = waits.iter().map(u64::to_string).collect();
    println!("{jobs} {errors} {}", waits.join(" "));
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn contention(dir: &Path) {
    const JOBS: u64 = 2000;
    println!("## Contending processes, {JOBS} jobs, ~1 ms in send\n");
    println!(
        "| workers | jobs/s | shares (jobs each) | min share / fair share | p50 wait | p99 wait | errors |"
    );
    println!("| ---: | ---: | --- | ---: | ---: | ---: | ---: |");
    let exe = std::env::current_exe().expect("own path");
    for workers in [2usize, 4, 8] {
        let db = dir.join(format!("contend-{workers}.db"));
        let queue = Queue::open(&db).expect("opens");
        for n in 0..JOBS {
            queue
                .enqueue(&NewJob::new(format!("job-{n}"), 1, FAR))
                .expect("enqueues");
        }
        let started = Instant::now();
        let children: Vec<_> = (0..workers)
            .map(|w| {
                Command::new(&exe)
                    .args(["worker", db.to_str().expect("utf-8 path"), &format!("w{w}")])
                    .stdout(Stdio::piped())
                    .spawn()
                    .expect("worker starts")
            })
            .collect();
        let (mut shares, mut waits, mut errors) = (Vec::new(), Vec::new(), 0);
        for child in children {
            let out = child.wait_with_output().expect("worker ends");
            let text = String::from_utf8_lossy(&out.stdout);
            let mut fields = text
                .split_whitespace()
                .map(|f| f.parse::<u64>().expect("number"));
            shares.push(fields.next().expect("jobs"));
            errors += fields.next().expect("errors");
            waits.extend(fields);
        }
        let elapsed = started.elapsed().as_secs_f64();
        waits.sort_unstable();
        let total: u64 = shares.iter().sum();
        assert_eq!(total, JOBS, "every job finished exactly once");
        let fair = JOBS as f64 / workers as f64;
        let min_share = *shares.iter().min().expect("workers") as f64 / fair;
        println!(
            "| {workers} | {:.0} | {shares:?} | {min_share:.2} | {:.1} ms | {:.1} ms | {errors} |",
            total as f64 / elapsed,
            percentile(&waits, 0.5) as f64 / 1000.0,
            percentile(&waits, 0.99) as f64 / 1000.0,
        );
    }
    println!();
}

/// Claim+finish cost in memory (no disk in the way) with `finished` done
/// rows ahead of the claimable ones.
fn claim_cost(finished: u64) -> f64 {
    const SAMPLES: u64 = 2000;
    let queue = Queue::open_in_memory().expect("opens");
    for n in 0..finished + SAMPLES {
        queue
            .enqueue(&NewJob::new(format!("job-{n}"), 1, FAR))
            .expect("enqueues");
    }
    for _ in 0..finished {
        let claim = queue
            .claim("fill", 0, 1_000_000)
            .expect("claims")
            .expect("a job");
        queue.finish(&claim.stamp(), 1).expect("finishes");
    }
    let started = Instant::now();
    for _ in 0..SAMPLES {
        let claim = queue
            .claim("bench", 2, 1_000_000)
            .expect("claims")
            .expect("a job");
        queue.finish(&claim.stamp(), 3).expect("finishes");
    }
    started.elapsed().as_secs_f64() * 1e6 / SAMPLES as f64
}

fn table_growth() {
    println!("## Claim+finish cost as finished rows pile up (in memory)\n");
    println!("| finished rows | µs per claim+finish |\n| ---: | ---: |");
    for finished in [1_000, 100_000] {
        println!("| {finished} | {:.1} |", claim_cost(finished));
    }
    println!();
}
