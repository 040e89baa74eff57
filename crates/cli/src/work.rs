//! `leasefence work`: a real worker process, on the wall clock or on the
//! file clock given with `--clock`.
//!
//! It claims, delivers the job to the receiver over HTTP with no transaction
//! open (R7), then finishes with its stamp, until no job is left. With
//! `--stall-ms` it plays the late worker: after delivering it waits as if
//! the receiver's answer were slow, so its lease can run out and another
//! worker can reclaim the job before its finish arrives.

use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use leasefence::{Claim, ProcessError, Queue};
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
    applied: Option<bool>,
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
    // The clock's error, when the queue was handed a time it refuses
    // instead (process_one's clock returns a time, not a result).
    let clock_failed = RefCell::new(None);
    let now = || {
        clock.now().unwrap_or_else(|err| {
            clock_failed.borrow_mut().get_or_insert(err);
            leasefence::MAX_INT + 1
        })
    };
    loop {
        let mut applied = None;
        let send = |claim: &Claim| -> Result<(), String> {
            applied = Some(deliver(&agent, &url, claim)?);
            if args.stall_ms > 0 && stalls_left > 0 {
                stalls_left -= 1;
                clock.wait(args.stall_ms).map_err(|err| {
                    clock_failed.borrow_mut().get_or_insert(err);
                    "the clock stopped".to_owned()
                })?;
            }
            Ok(())
        };
        let processed = queue.process_one(&args.owner, args.lease_ms, now, send);
        if let Some(err) = clock_failed.borrow_mut().take() {
            return Err(err);
        }
        match processed {
            Ok(Some(processed)) => {
                if processed.finish.accepted() {
                    finished += 1;
                } else {
                    rejected += 1;
                }
                print_json(&Line {
                    worker: &args.owner,
                    claim: &processed.claim,
                    delivered: Delivered { applied },
                    finish: &processed.finish,
                })?;
            }
            Ok(None) if queue.live_jobs()? == 0 => break,
            Ok(None) => clock.wait(args.poll_ms)?,
            Err(ProcessError::Queue(err)) => return Err(err.into()),
            Err(ProcessError::Send(message)) => {
                // Not bad input: the receiver is down, silent or refused.
                // The job stays leased and is reclaimed after its lease.
                eprintln!("leasefence: --receiver: {message}");
                return Ok(ExitCode::from(3));
            }
        }
    }
    print_json(&json!({ "worker": args.owner, "finished": finished, "rejected": rejected }))?;
    Ok(ExitCode::SUCCESS)
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
