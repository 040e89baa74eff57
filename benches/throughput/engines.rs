//! SQLite and PostgreSQL side by side: worker processes on each, and on
//! PostgreSQL the fence's cost against the completions other queues use.
//! PostgreSQL runs a throwaway cluster with its durable defaults
//! (`fsync=on`), as the SQLite file has `synchronous=FULL`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use leasefence::{NewJob, Queue};

#[path = "../../tests/engines/postgres.rs"]
mod postgres_cluster;

use super::native::{FAR, percentile};

/// A queue named as `--db` names one: a `postgresql://` URL or a file.
pub fn open(db: &str) -> Queue {
    if db.starts_with("postgresql://") || db.starts_with("postgres://") {
        Queue::connect(db).expect("connects")
    } else {
        Queue::open(db).expect("opens")
    }
}

/// One run of `workers` processes on the queue at `db` holding `jobs`
/// jobs: jobs per second, p50 and p99 claim-to-finish wait in ms.
fn run(db: &str, workers: usize, jobs: u64) -> (f64, f64, f64) {
    let queue = open(db);
    for n in 0..jobs {
        queue
            .enqueue(&NewJob::new(format!("job-{n}"), 1, FAR))
            .expect("enqueues");
    }
    let exe = std::env::current_exe().expect("own path");
    let started = Instant::now();
    let children: Vec<_> = (0..workers)
        .map(|w| {
            Command::new(&exe)
                .args(["worker", db, &format!("w{w}")])
                .stdout(Stdio::piped())
                .spawn()
                .expect("worker starts")
        })
        .collect();
    let (mut done, mut waits) = (0, Vec::new());
    for child in children {
        let out = child.wait_with_output().expect("worker ends");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut fields = (text.split_whitespace()).map(|f| f.parse::<u64>().expect("number"));
        done += fields.next().expect("jobs");
        let errors = fields.next().expect("errors");
        assert_eq!(errors, 0, "a worker's errors");
        waits.extend(fields);
    }
    let elapsed = started.elapsed().as_secs_f64();
    assert_eq!(done, jobs, "every job finished exactly once");
    waits.sort_unstable();
    let ms = |p| percentile(&waits, p) as f64 / 1000.0;
    (jobs as f64 / elapsed, ms(0.5), ms(0.99))
}

/// Worker processes on a SQLite file and on PostgreSQL, each spending
/// about 1 ms in `send`, one engine after the other for each count.
pub fn workers_on_both(dir: &Path) {
    const JOBS: u64 = 2000;
    let server = postgres_cluster::durable_server();
    println!("## Worker processes on SQLite and on PostgreSQL, {JOBS} jobs, ~1 ms in send\n");
    println!(
        "| workers | SQLite jobs/s | PostgreSQL jobs/s | PostgreSQL / SQLite | SQLite p50 / p99 wait | PostgreSQL p50 / p99 wait |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    for workers in [1usize, 2, 4, 8, 16] {
        let file = dir.join(format!("engines-{workers}.db"));
        let sqlite = run(file.to_str().expect("a UTF-8 path"), workers, JOBS);
        let postgres = run(&postgres_cluster::fresh_url_on(server), workers, JOBS);
        println!(
            "| {workers} | {:.0} | {:.0} | {:.2} | {:.1} / {:.1} ms | {:.1} / {:.1} ms |",
            sqlite.0,
            postgres.0,
            postgres.0 / sqlite.0,
            sqlite.1,
            sqlite.2,
            postgres.1,
            postgres.2
        );
    }
    println!();
}

/// How a finish is checked: leasefence's fence, or what the queues that
/// leave it out check (issue trackers of River, Oban, pg-boss, ...).
#[derive(Clone, Copy, Debug)]
enum Completion {
    /// `Queue::finish`: id, owner, token, attempt, state, lease, deadline.
    Fenced,
    /// The id only.
    IdOnly,
    /// The id, and that the job is running.
    IdAndState,
}

impl Completion {
    /// The other queues' completions, as one statement each; `None` for
    /// the queue's own.
    fn sql(self) -> Option<&'static str> {
        match self {
            Completion::Fenced => None,
            Completion::IdOnly => Some("UPDATE jobs SET state = 'done' WHERE id = $1"),
            Completion::IdAndState => {
                Some("UPDATE jobs SET state = 'done' WHERE id = $1 AND state = 'leased'")
            }
        }
    }
}

/// Microseconds per finish on PostgreSQL (each after a claim, which is
/// not timed), checked each way, in alternating rounds on one queue each;
/// medians.
pub fn fence_cost() {
    const ROUNDS: usize = 9;
    const CYCLES: u64 = 400;
    let server = postgres_cluster::durable_server();
    let kinds = [
        Completion::Fenced,
        Completion::IdOnly,
        Completion::IdAndState,
    ];
    type Setup = (
        Completion,
        Queue,
        postgres::Client,
        Option<postgres::Statement>,
    );
    let mut setups: Vec<Setup> = (kinds.iter())
        .map(|&kind| {
            let url = postgres_cluster::fresh_url_on(server);
            let queue = Queue::connect(&url).expect("connects");
            for n in 0..CYCLES * ROUNDS as u64 {
                queue
                    .enqueue(&NewJob::new(format!("job-{n}"), 1, FAR))
                    .expect("enqueues");
            }
            let mut client = postgres::Client::connect(&url, postgres::NoTls).expect("connects");
            // Prepared once, as the queue prepares its own statements.
            let statement = (kind.sql()).map(|sql| client.prepare(sql).expect("prepares"));
            (kind, queue, client, statement)
        })
        .collect();
    let mut samples = vec![Vec::new(); kinds.len()];
    for round in 0..ROUNDS {
        // Each kind first in turn: no kind always runs right after another.
        let mut order: Vec<_> = setups.iter_mut().zip(&mut samples).collect();
        order.rotate_left(round % kinds.len());
        for ((kind, queue, client, statement), times) in order {
            let mut spent = std::time::Duration::ZERO;
            for _ in 0..CYCLES {
                let claim = (queue.claim("bench", 1, 1_000_000))
                    .expect("claims")
                    .expect("a job");
                // Only the finish is timed: the claim is the same for all.
                let started = Instant::now();
                match statement {
                    None => assert!(
                        queue
                            .finish(&claim.stamp(), 2)
                            .expect("finishes")
                            .accepted()
                    ),
                    Some(statement) => {
                        let changed =
                            (client.execute(&*statement, &[&claim.id])).expect("completes");
                        assert_eq!(changed, 1, "{kind:?} completes the job");
                    }
                }
                spent += started.elapsed();
            }
            times.push(spent.as_secs_f64() * 1e6 / CYCLES as f64);
        }
    }
    let medians: Vec<f64> = (samples.into_iter())
        .map(|mut times| {
            times.sort_by(f64::total_cmp);
            times[times.len() / 2]
        })
        .collect();
    println!(
        "## The fence's cost on PostgreSQL ({ROUNDS} alternating rounds of {CYCLES} finishes, each after a claim; medians)\n"
    );
    println!("| finish checks | µs per finish | × the fenced one |\n| --- | ---: | ---: |");
    for (kind, median) in kinds.iter().zip(&medians) {
        let what = match kind {
            Completion::Fenced => "id, owner, token, attempt, state, lease, deadline (leasefence)",
            Completion::IdOnly => "the id only",
            Completion::IdAndState => "the id and `state = 'leased'`",
        };
        println!("| {what} | {median:.0} | {:.2} |", median / medians[0]);
    }
    println!();
}
