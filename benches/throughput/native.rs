//! The measurements; see `main.rs`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use leasefence::{NewJob, Queue, Receiver};

pub const FAR: u64 = 1 << 50; // a deadline nobody reaches

pub fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("worker") {
        worker(&args[2], &args[3]);
        return;
    }
    // `cargo bench --bench throughput -- single` runs only the tables whose
    // name contains a given word (single, contention, growth, replay, ledger,
    // engines, fence).
    let filter = args.iter().skip(1).find(|arg| !arg.starts_with("--"));
    let wanted = |name: &str| filter.is_none_or(|word| name.contains(word.as_str()));
    let dir = tempfile::tempdir_in(std::env::var("BENCH_DIR").unwrap_or_else(|_| "target".into()))
        .expect("a temp dir for the databases");
    if wanted("single") {
        single_process(dir.path());
    }
    if wanted("contention") {
        contention(dir.path());
    }
    if wanted("growth") {
        table_growth();
    }
    if wanted("replay") {
        replay_speed();
    }
    if wanted("ledger") {
        ledger_growth();
    }
    if wanted("engines") {
        super::engines::workers_on_both(dir.path());
    }
    if wanted("fence") {
        super::engines::fence_cost();
    }
}

/// Monotonic milliseconds since `start`: the benchmark's clock.
fn millis(start: Instant) -> u64 {
    start.elapsed().as_millis() as u64
}

/// Raw commits and queue cycles, measured in alternating rounds so that
/// both see the same disk weather; the ratio is taken per round and the
/// median reported.
fn single_process(dir: &Path) {
    const ROUNDS: usize = 9;
    const CYCLES: u64 = 100;
    let raw = rusqlite::Connection::open(dir.join("raw.db")).expect("opens");
    raw.execute_batch(
        "PRAGMA journal_mode=DELETE; PRAGMA synchronous=FULL;
         CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO t VALUES (1, 0);",
    )
    .expect("raw schema");
    let queue = Queue::open(dir.join("single.db")).expect("opens");
    for n in 0..CYCLES * ROUNDS as u64 {
        queue
            .enqueue(&NewJob::new(format!("job-{n}"), 1, FAR))
            .expect("enqueues");
    }
    let clock = Instant::now();
    let (mut raw_rates, mut cycle_rates, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let started = Instant::now();
        for _ in 0..CYCLES * 2 {
            raw.execute_batch("BEGIN IMMEDIATE; UPDATE t SET n = n + 1 WHERE id = 1; COMMIT;")
                .expect("raw commit");
        }
        let raw_rate = (CYCLES * 2) as f64 / started.elapsed().as_secs_f64();
        let started = Instant::now();
        for _ in 0..CYCLES {
            claim_and_finish(&queue, millis(clock));
        }
        let cycle_rate = CYCLES as f64 / started.elapsed().as_secs_f64();
        ratios.push(cycle_rate / (raw_rate / 2.0));
        raw_rates.push(raw_rate);
        cycle_rates.push(cycle_rate);
    }
    let median = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let raw_rate = median(&mut raw_rates);
    println!(
        "## Single process, file database ({ROUNDS} alternating rounds of {CYCLES} cycles; medians)\n"
    );
    println!("| measure | per second |\n| --- | ---: |");
    println!("| raw `BEGIN IMMEDIATE; UPDATE; COMMIT` | {raw_rate:.0} |");
    println!(
        "| ceiling for claim+finish (raw / 2) | {:.0} |",
        raw_rate / 2.0
    );
    println!("| claim+finish cycles | {:.0} |", median(&mut cycle_rates));
    println!(
        "| cycles / ceiling (median of per-round ratios) | {:.2} |\n",
        median(&mut ratios)
    );
}

/// One worker process: claims until nothing is left, spending ~1 ms in
/// `send`; prints `jobs errors wait_us...` on one line.
fn worker(db: &str, owner: &str) {
    let queue = super::engines::open(db);
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
            Ok(Some(processed)) if processed.finish.accepted() => jobs += 1,
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

pub fn percentile(sorted: &[u64], p: f64) -> u64 {
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

/// A queue in memory (no disk in the way) with `finished` done rows ahead
/// of `pending` claimable ones.
fn queue_with_history(finished: u64, pending: u64) -> Queue {
    let queue = Queue::open_in_memory().expect("opens");
    for n in 0..finished + pending {
        queue
            .enqueue(&NewJob::new(format!("job-{n}"), 1, FAR))
            .expect("enqueues");
    }
    for _ in 0..finished {
        claim_and_finish(&queue, 0);
    }
    queue
}

/// One claim and its accepted finish, `now` and `now + 1`.
fn claim_and_finish(queue: &Queue, now: u64) {
    let claim = queue
        .claim("bench", now, 1_000_000)
        .expect("claims")
        .expect("a job");
    let finish = queue.finish(&claim.stamp(), now + 1).expect("finishes");
    assert!(finish.accepted(), "the holder's finish is accepted");
}

/// Microseconds per claim+finish over `cycles` cycles.
fn time_cycles(queue: &Queue, cycles: u64) -> f64 {
    let started = Instant::now();
    for _ in 0..cycles {
        claim_and_finish(queue, 2);
    }
    started.elapsed().as_secs_f64() * 1e6 / cycles as f64
}

/// Both table sizes, timed in alternating rounds; medians reported.
fn table_growth() {
    const ROUNDS: usize = 5;
    const CYCLES: u64 = 500;
    let sizes = [1_000u64, 100_000];
    let queues: Vec<Queue> = sizes
        .iter()
        .map(|&finished| queue_with_history(finished, CYCLES * ROUNDS as u64))
        .collect();
    let mut samples = vec![Vec::new(); sizes.len()];
    for _ in 0..ROUNDS {
        for (queue, times) in queues.iter().zip(&mut samples) {
            times.push(time_cycles(queue, CYCLES));
        }
    }
    println!(
        "## Claim+finish cost as finished rows pile up (in memory, {ROUNDS} alternating rounds of {CYCLES}; medians)\n"
    );
    println!("| finished rows | µs per claim+finish |\n| ---: | ---: |");
    for (finished, mut times) in sizes.into_iter().zip(samples) {
        times.sort_by(f64::total_cmp);
        println!("| {finished} | {:.1} |", times[times.len() / 2]);
    }
    println!();
}

/// Native replay of the generated 10,000-event scenario: events per second
/// for `replay` (the CLI's and the browser's document; the course's bench,
/// `crates/course/benches/course.rs`, times the page's frames of the same
/// scenario). `e2e/replay-speed.mjs` reads the figure it writes and
/// measures the same scenario in Chromium.
fn replay_speed() {
    const EVENTS: usize = 10_000;
    const RUNS: usize = 5;
    let json = leasefence::Scenario::generated(EVENTS).to_json();
    let median = |mut times: Vec<f64>| {
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    };
    let replay = median(
        (0..RUNS)
            .map(|_| {
                let started = Instant::now();
                let document = leasefence::replay_json(&json).expect("replays");
                let text = serde_json::to_string(&document).expect("serializes");
                assert!(!text.is_empty());
                started.elapsed().as_secs_f64()
            })
            .collect(),
    );
    let rate = EVENTS as f64 / replay;
    println!("## Replay of the generated {EVENTS}-event scenario, native (median of {RUNS})\n");
    println!("| what | ms | events/s |\n| --- | ---: | ---: |");
    println!(
        "| `replay_json` + JSON text | {:.1} | {rate:.0} |",
        replay * 1000.0
    );
    println!();
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/replay-native.json");
    let figure = format!(
        "{{\"events\": {EVENTS}, \"ms\": {:.3}, \"events_per_s\": {rate:.0}}}",
        replay * 1000.0
    );
    std::fs::write(&out, figure).expect("writes target/replay-native.json");
}

/// An in-memory receiver whose ledger already holds `applied`
/// deliveries. In memory, so that the figure is the ledger's own work,
/// not the disk's (a file's commit costs the same at any size).
fn ledger_with(applied: u64) -> Receiver {
    let receiver = Receiver::open_in_memory().expect("opens");
    for n in 0..applied {
        receiver.deliver(&format!("old-{n}"), 1).expect("delivers");
    }
    receiver
}

/// Microseconds per first delivery (a new id: the ledger's total is
/// checked) over `count` deliveries named from `from`.
fn time_deliveries(receiver: &Receiver, from: u64, count: u64) -> f64 {
    let started = Instant::now();
    for n in from..from + count {
        assert!(receiver.deliver(&format!("new-{n}"), 1).expect("delivers"));
    }
    started.elapsed().as_secs_f64() * 1e6 / count as f64
}

/// The three ledger sizes, timed in alternating rounds; medians reported.
fn ledger_growth() {
    const ROUNDS: usize = 5;
    const DELIVERIES: u64 = 200;
    let sizes = [1_000u64, 10_000, 100_000];
    let receivers: Vec<Receiver> = sizes.iter().map(|&applied| ledger_with(applied)).collect();
    let mut samples = vec![Vec::new(); sizes.len()];
    for round in 0..ROUNDS as u64 {
        for (receiver, times) in receivers.iter().zip(&mut samples) {
            times.push(time_deliveries(receiver, round * DELIVERIES, DELIVERIES));
        }
    }
    println!(
        "## Receiver: a first delivery's cost as the ledger grows (in memory, {ROUNDS} alternating rounds of {DELIVERIES}; medians)\n"
    );
    println!("| deliveries already applied | µs per delivery |\n| ---: | ---: |");
    for (applied, mut times) in sizes.into_iter().zip(samples) {
        times.sort_by(f64::total_cmp);
        println!("| {applied} | {:.1} |", times[times.len() / 2]);
    }
    println!();
}
