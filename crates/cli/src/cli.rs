//! Argument parsing (clap) and the one-shot commands.
//!
//! `cli` parses and dispatches; it is imported by nobody. What the commands
//! share (JSON output, input errors, the clock) lives in `output` and
//! `clock`, so `http` and `work` never reach back into it.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand};
use leasefence::{Error, NewJob, Queue, Receiver, Scenario, Stamp, replay_json, replay_on};
use leasefence_course::lab::{self, Graded, LEVELS, Level, Shortest};
use leasefence_course::playground::{Lang, chapter_scenarios, lesson, view};
use serde_json::json;

use crate::clock::wall_clock_ms;
use crate::output::{Failure, invalid, print_json};
use crate::{http, work};

/// A job queue that refuses a late worker's stale finish, in a SQLite
/// file or a PostgreSQL database.
#[derive(Debug, Parser)]
#[command(name = "leasefence", version, about, long_about = None)]
struct Cli {
    /// The queue (for `receiver`, its ledger): a SQLite file (rollback
    /// journal; created by `enqueue`), or a PostgreSQL database's
    /// `postgres://` or `postgresql://` URL (its table created likewise).
    #[arg(long, global = true, value_name = "PATH|URL")]
    db: Option<PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Add a job; prints the stored row.
    Enqueue {
        /// Unique job id.
        #[arg(long)]
        id: String,
        /// Items to deliver (>= 1).
        #[arg(long, allow_hyphen_values = true)]
        qty: u64,
        /// The job's deadline, in milliseconds on the same clock as `--now`.
        #[arg(
            long,
            value_name = "MS",
            allow_hyphen_values = true,
            required_unless_present = "deadline_in"
        )]
        deadline: Option<u64>,
        /// The deadline as milliseconds from now on the wall clock (for
        /// `work`, which uses the wall clock).
        #[arg(
            long,
            value_name = "MS",
            allow_hyphen_values = true,
            conflicts_with = "deadline"
        )]
        deadline_in: Option<u64>,
        /// Claims allowed before the job is quarantined.
        #[arg(long, default_value_t = leasefence::model::DEFAULT_MAX_ATTEMPTS, allow_hyphen_values = true)]
        max_attempts: u64,
    },
    /// Claim the first claimable job; prints the claim or `null`.
    Claim {
        /// The worker name to claim under.
        #[arg(long)]
        owner: String,
        /// The current time in milliseconds.
        #[arg(long, value_name = "MS", allow_hyphen_values = true)]
        now: u64,
        /// How long the lease lasts.
        #[arg(long, value_name = "MS", allow_hyphen_values = true)]
        lease_ms: u64,
        /// Print `ready` on stderr, then wait for a line on stdin before
        /// claiming: lines up racing processes (R13).
        #[arg(long)]
        start_gate: bool,
    },
    /// Present a claim's stamp; prints the verdict. Exit 1 when rejected.
    Finish {
        #[command(flatten)]
        stamp: StampArgs,
        /// The current time in milliseconds.
        #[arg(long, value_name = "MS", allow_hyphen_values = true)]
        now: u64,
    },
    /// Print every row in enqueue order.
    Inspect,
    /// Replay a scenario file (`-` for stdin); prints the replay document.
    /// With `--db`, plays it on that queue, which must hold no job, and
    /// leaves the end state there (`inspect` shows it).
    Replay {
        /// The scenario JSON file.
        file: PathBuf,
    },
    /// Run the idempotent receiver (R12) over HTTP until stopped.
    Receiver {
        /// Address to listen on; port 0 picks a free port.
        #[arg(long, default_value = "127.0.0.1:8090")]
        listen: String,
    },
    /// Claim, deliver to a receiver and finish, on the wall clock (or
    /// `--clock`), until no job is left.
    Work(work::WorkArgs),
    /// Check a lesson's scenario file (`-` for stdin) as the playground
    /// reads it, before publishing: prints `{"ok": true, ...}`, or the
    /// problem with its place (the key, or the line and column). Exit 0
    /// only when the playground would show it.
    Check {
        /// The scenario JSON file.
        file: PathBuf,
    },
    /// Grade a statement written for one of the lab's levels on every
    /// ordering of every chapter; prints what was checked, or the shortest
    /// ordering where it and the queue's own statement disagree. Exit 0
    /// only on a pass, 1 when it fails or is refused.
    Grade {
        /// The level.
        #[arg(value_parser = PossibleValuesParser::new(LEVELS.map(|level| level.id)))]
        level: String,
        /// The file holding the statement (`-` for stdin).
        file: PathBuf,
    },
    /// Serve the playground page (`www/`) with the right MIME types.
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: String,
        /// The directory to serve.
        #[arg(long, default_value = "www")]
        dir: PathBuf,
    },
}

/// The stamp a finish presents (R4).
#[derive(Debug, Args)]
struct StampArgs {
    /// Job id.
    #[arg(long)]
    id: String,
    /// The name the job was claimed under.
    #[arg(long)]
    owner: String,
    /// The claim's fencing token.
    #[arg(long, allow_hyphen_values = true)]
    token: u64,
    /// The claim's attempt number.
    #[arg(long, allow_hyphen_values = true)]
    attempt: u64,
}

/// Parses the arguments, runs the command and maps the outcome to an exit
/// code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match execute(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("leasefence: {}", as_flags(err));
            ExitCode::from(2)
        }
    }
}

/// Names the command-line flag where the core names its field
/// (`lease_ms` -> `--lease-ms`), so the message points at what to retype.
fn as_flags(failure: Failure) -> Failure {
    const FLAGS: [&str; 9] = [
        "id",
        "qty",
        "deadline",
        "max_attempts",
        "owner",
        "now",
        "lease_ms",
        "token",
        "attempt",
    ];
    match failure {
        Failure::Queue(Error::InvalidInput { field, problem })
            if FLAGS.contains(&field.as_str()) =>
        {
            Failure::Queue(Error::InvalidInput {
                field: format!("--{}", field.replace('_', "-")),
                problem,
            })
        }
        other => other,
    }
}

fn db_path(db: Option<&Path>) -> Result<&Path, Failure> {
    db.ok_or_else(|| invalid("--db", "this command needs the queue database file"))
}

/// The URL `--db` gives, when it names a PostgreSQL database rather than a
/// file.
fn server_url(db: &Path) -> Option<&str> {
    let text = db.to_str()?;
    ["postgres://", "postgresql://"]
        .iter()
        .any(|scheme| text.starts_with(scheme))
        .then_some(text)
}

/// Opens the queue `--db` names, creating it (the file, or the database's
/// `jobs` table) if it is not there yet.
fn open(db: Option<&Path>) -> Result<Queue, Failure> {
    let db = db_path(db)?;
    Ok(match server_url(db) {
        Some(url) => Queue::connect(url)?,
        None => Queue::open(db)?,
    })
}

/// Opens an existing queue; only `enqueue`, `work` and `replay` may create
/// one, so a mistyped path is reported instead of silently made empty.
fn open_existing(db: Option<&Path>) -> Result<Queue, Failure> {
    let path = db_path(db)?;
    if let Some(url) = server_url(path) {
        return Ok(Queue::connect_existing(url)?);
    }
    if !path.exists() {
        return Err(invalid(
            "--db",
            format!(
                "{} does not exist (enqueue a job to create it)",
                path.display()
            ),
        ));
    }
    Ok(Queue::open_existing(path)?)
}

fn execute(cli: Cli) -> Result<ExitCode, Failure> {
    let db = cli.db.as_deref();
    match cli.command {
        Command::Enqueue {
            id,
            qty,
            deadline,
            deadline_in,
            max_attempts,
        } => {
            let deadline = match (deadline, deadline_in) {
                (Some(at), _) => at,
                (None, Some(from_now)) => wall_clock_ms().saturating_add(from_now),
                (None, None) => return Err(invalid("--deadline", "is required")),
            };
            let job = NewJob {
                id,
                qty,
                deadline,
                max_attempts,
            };
            // Check the input before the file is created.
            job.validate("")?;
            let row = open(db)?.enqueue(&job)?;
            print_json(&row)?;
        }
        Command::Claim {
            owner,
            now,
            lease_ms,
            start_gate,
        } => {
            let queue = open_existing(db)?;
            if start_gate {
                wait_for_go()?;
            }
            print_json(&queue.claim(&owner, now, lease_ms)?)?;
        }
        Command::Finish { stamp, now } => {
            let stamp = Stamp {
                id: stamp.id,
                owner: stamp.owner,
                token: stamp.token,
                attempt: stamp.attempt,
            };
            let finish = open_existing(db)?.finish(&stamp, now)?;
            print_json(&finish)?;
            if !finish.accepted() {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Inspect => print_json(&open_existing(db)?.rows()?)?,
        Command::Replay { file } => {
            let scenario = read_file(&file)?;
            match db {
                None => print_json(&replay_json(&scenario)?)?,
                Some(_) => {
                    let scenario = Scenario::parse(&scenario)?;
                    let queue = open(db)?;
                    let held = queue.rows()?.len();
                    if held > 0 {
                        return Err(invalid(
                            "--db",
                            format!("the queue holds {held} jobs; a replay starts from none"),
                        ));
                    }
                    print_json(&replay_on(queue, scenario)?)?;
                }
            }
        }
        Command::Receiver { listen } => {
            let path = db_path(db)?;
            let receiver = match server_url(path) {
                Some(url) => Receiver::connect(url)?,
                None => Receiver::open(path)?,
            };
            http::run_receiver(&listen, receiver)?;
        }
        Command::Work(args) => {
            let path = db_path(db)?;
            let queue = work::patiently(|| {
                Ok(match server_url(path) {
                    Some(url) => Queue::connect(url)?,
                    None => Queue::open(path)?,
                })
            })?;
            return work::run(queue, &args);
        }
        Command::Grade { level, file } => return grade(&level, &read_file(&file)?),
        Command::Check { file } => return check(&read_file(&file)?),
        Command::Serve { listen, dir } => http::serve_dir(&listen, &dir)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `leasefence grade`: the lab's grader, its answer as JSON. A statement
/// the lab refuses (two statements, a table other than `jobs`, SQLite's
/// syntax error) is a failed submission, said in the JSON, not bad input.
fn grade(level: &str, sql: &str) -> Result<ExitCode, Failure> {
    let level = Level::find(level).ok_or_else(|| invalid("LEVEL", "no such level"))?;
    match lab::grade(&level, sql, &chapter_scenarios()) {
        Ok(graded) => {
            let mut answer = json!({ "level": level.id, "graded": graded });
            // Why the queue did what it did where the statement parts
            // from it, as the lab's page says it (in English).
            if let Graded::Failed { shortest, .. } = &graded
                && let Shortest::Events(parted) = shortest.as_ref()
                && let Some(because) = view::because(Lang::En, parted)
            {
                answer["because"] = json!(because.text());
            }
            print_json(&answer)?;
            Ok(ExitCode::from(if graded.passed() { 0 } else { 1 }))
        }
        Err(refused @ Error::InvalidInput { .. }) => {
            print_json(&json!({ "level": level.id, "refused": refused.to_string() }))?;
            Ok(ExitCode::from(1))
        }
        Err(other) => Err(other.into()),
    }
}

/// `leasefence check`: the playground's own reading of a lesson (the
/// scenario parser, then the page's size limit), its answer as JSON.
fn check(text: &str) -> Result<ExitCode, Failure> {
    let answer = lesson::check(text);
    print_json(&answer)?;
    Ok(ExitCode::from(if answer["ok"] == true { 0 } else { 1 }))
}

/// The most bytes a command reads from its input file: far above any
/// scenario the queue takes (100,000 events) or SQL the lab grades, and a
/// bound on what a link to `/dev/zero` or a pasted book can cost.
const MAX_FILE_BYTES: u64 = 64 << 20;

/// The text of `file`, or of stdin for `-`: a regular file only (a link is
/// followed to one; a FIFO, a device or a folder is refused without being
/// read or waited on), at most [`MAX_FILE_BYTES`]. An error names the file
/// and what went wrong, never what it holds.
fn read_file(file: &Path) -> Result<String, Failure> {
    let refused = |why: String| invalid("FILE", format!("{}: {why}", file.display()));
    let input: Box<dyn Read> = if file == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        // Opening a FIFO for reading waits for a writer; without blocking,
        // it opens at once and is then refused as not a regular file.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
        let opened = options.open(file).map_err(|err| refused(err.to_string()))?;
        let metadata = opened.metadata().map_err(|err| refused(err.to_string()))?;
        if !metadata.is_file() {
            return Err(refused("not a regular file".to_owned()));
        }
        Box::new(opened)
    };
    let mut bytes = Vec::new();
    input
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| refused(err.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(refused(format!("larger than {MAX_FILE_BYTES} bytes")));
    }
    String::from_utf8(bytes).map_err(|_| refused("not UTF-8 text".to_owned()))
}

/// The start gate: announce readiness, then block until the parent says go.
fn wait_for_go() -> Result<(), Failure> {
    eprintln!("ready");
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|err| invalid("--start-gate", err.to_string()))?;
    Ok(())
}
