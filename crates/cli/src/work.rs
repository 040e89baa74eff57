//! `leasefence work`: a real worker process, on the wall clock or on the
//! file clock given with `--clock`.
//!
//! It claims, delivers the job to the receiver over HTTP with no transaction
//! open (R7), then finishes with its stamp, until no job is left. With
//! `--stall-ms` it plays the late worker: after delivering it waits as if
//! the receiver's answer were slow, so its lease can run out and another
//! worker can reclaim the job before its finish arrives.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use leasefence::{Claim, Queue};
use serde::Serialize;
use serde_json::json;

use crate::clock::Clock;
use crate::output::{Failure, print_json};

/// Options of `leasefence work`.
#[derive(Debug, Args)]
pub struct WorkArgs {
    /// The worker name to claim under.
    #[arg(long)]
    owner: String,
    /// Lease length for each claim.
    #[arg(long, value_name = "MS", allow_hyphen_values = true)]
    lease_ms: u64,
    /// The receiver's base URL, e.g. `http://127.0.0.1:8090`.
    #[arg(long, value_name = "URL")]
    receiver: String,
    /// After delivering, wait this long before finishing (the late worker).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    stall_ms: u64,
    /// Stall on only this many jobs, the first ones this worker claims.
    #[arg(long, value_name = "N", default_value_t = 1)]
    stall_jobs: u64,
    /// When every remaining job is leased by someone else, look again
    /// after this long.
    #[arg(long, value_name = "MS", default_value_t = 20)]
    poll_ms: u64,
    /// Read the time (milliseconds) from this file instead of the wall
    /// clock; waits last until the file's time has advanced. Whoever
    /// writes the file (a test, or you by hand) moves time.
    #[arg(long, value_name = "FILE")]
    clock: Option<PathBuf>,
}

/// How long a delivery may take, connecting and answering together: the
/// exercise's receiver answers at once, and a silent one hung the worker
/// forever.
const DELIVERY_TIMEOUT: Duration = Duration::from_secs(5);

/// How long `work` waits before it asks a database server that failed
/// again, and how many times in a row it asks: a server restarting is back
/// within seconds, and each call after a lost connection connects again.
const SERVER_RETRY: Duration = Duration::from_millis(100);
const SERVER_TRIES: u32 = 100;

/// One processed job, printed as a JSON line (fields in contract order).
#[derive(Serialize)]
struct Line<'a> {
    worker: &'a str,
    claim: &'a Claim,
    delivered: Delivered,
    finish: &'a leasefence::Finish,
}

/// What the receiver said: `true` applied, `false` a repeat.
#[derive(Serialize)]
struct Delivered {
    applied: bool,
}

/// Runs the worker loop; prints one JSON line per job and a summary.
pub fn run(queue: Queue, args: &WorkArgs) -> Result<ExitCode, Failure> {
    let clock = Clock::new(args.clock.as_deref())?;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(DELIVERY_TIMEOUT))
        .build()
        .into();
    let url = format!("{}/deliveries", args.receiver.trim_end_matches('/'));
    let (mut finished, mut rejected, mut stalls_left) = (0u64, 0u64, args.stall_jobs);
    // One worker step, as `Queue::process_one` takes it: claim, commit,
    // deliver with no transaction open (R7), finish with the claim's
    // stamp. Each call to the queue is asked again while a database
    // server is away (a restart, an ended session): a finish whose
    // connection broke is sent again, and is refused if the first one
    // took effect (the job is then done) or came too late.
    loop {
        let claim = patiently(|| Ok(queue.claim(&args.owner, clock.now()?, args.lease_ms)?))?;
        let Some(claim) = claim else {
            if patiently(|| Ok(queue.live_jobs()?))? == 0 {
                break;
            }
            clock.wait(args.poll_ms)?;
            continue;
        };
        let applied = match deliver(&agent, &url, &claim) {
            Ok(applied) => applied,
            Err(message) => {
                // Not bad input: the receiver is down, silent or refused.
                // The job stays leased and is reclaimed after its lease.
                eprintln!("leasefence: --receiver: {message}");
                return Ok(ExitCode::from(3));
            }
        };
        if args.stall_ms > 0 && stalls_left > 0 {
            stalls_left -= 1;
            clock.wait(args.stall_ms)?;
        }
        let finish = patiently(|| Ok(queue.finish(&claim.stamp(), clock.now()?)?))?;
        if finish.accepted() {
            finished += 1;
        } else {
            rejected += 1;
        }
        print_json(&Line {
            worker: &args.owner,
            claim: &claim,
            delivered: Delivered { applied },
            finish: &finish,
        })?;
    }
    print_json(&json!({ "worker": args.owner, "finished": finished, "rejected": rejected }))?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `call` again while a database server fails it, at most
/// [`SERVER_TRIES`] times, [`SERVER_RETRY`] apart: a worker started or
/// polling while the server restarts carries on once it is back.
pub fn patiently<T>(mut call: impl FnMut() -> Result<T, Failure>) -> Result<T, Failure> {
    let mut tries = 1;
    loop {
        match call() {
            Err(err @ Failure::Queue(leasefence::Error::Database(_))) if tries < SERVER_TRIES => {
                eprintln!("leasefence: {err}; trying again");
                std::thread::sleep(SERVER_RETRY);
                tries += 1;
            }
            other => return other,
        }
    }
}

/// Posts one delivery; returns whether the receiver applied it.
fn deliver(agent: &ureq::Agent, url: &str, claim: &Claim) -> Result<bool, String> {
    let answer: serde_json::Value = agent
        .post(url)
        .send_json(json!({ "id": claim.id, "qty": claim.qty }))
        .map_err(|err| format!("{url}: {err}"))?
        .body_mut()
        .read_json()
        .map_err(|err| format!("{url}: {err}"))?;
    answer["applied"]
        .as_bool()
        .ok_or_else(|| format!("{url}: unexpected answer {answer}"))
}
