//! The command line as real processes, for the tests that run them
//! (`exercise.rs`, `crash.rs`, `servers.rs`): the binary on a database
//! file, the receiver and the file server on loopback, and children that
//! cannot outlive a failing test.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// The `leasefence` binary on the database file `db`.
pub fn leasefence(db: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_leasefence"));
    command.arg("--db").arg(db);
    command
}

/// A child process, killed (SIGKILL) and reaped when dropped, so that a
/// failing assertion leaves nothing running.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `leasefence receiver` on `listen` (`127.0.0.1:0` picks a port)
/// and returns it with the URL it announced, once it listens; `None` when
/// it exited instead (the address was taken).
pub fn start_receiver(db: &Path, listen: &str) -> Option<(Running, String)> {
    start_server(leasefence(db).args(["receiver", "--listen", listen]))
}

/// [`start_receiver`] on a free loopback port, the process allowed at most
/// `files` open file descriptors (`prlimit`, util-linux).
pub fn start_receiver_with_files(db: &Path, files: u32) -> Option<(Running, String)> {
    let mut command = Command::new("prlimit");
    command
        .arg(format!("--nofile={files}:{files}"))
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_leasefence"))
        .arg("--db")
        .arg(db)
        .args(["receiver", "--listen", "127.0.0.1:0"]);
    start_server(&mut command)
}

/// Starts `leasefence serve` for `dir` on a free loopback port and returns
/// it with the URL it announced.
pub fn start_file_server(dir: &Path) -> (Running, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_leasefence"));
    command
        .args(["serve", "--listen", "127.0.0.1:0", "--dir"])
        .arg(dir);
    start_server(&mut command).expect("the file server listens")
}

/// Starts one of the command line's servers and waits for the line
/// announcing its address.
fn start_server(command: &mut Command) -> Option<(Running, String)> {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut first_line = String::new();
    BufReader::new(child.stdout.take().expect("piped stdout"))
        .read_line(&mut first_line)
        .expect("reads the server's stdout");
    let running = Running(child);
    let announced: Value = serde_json::from_str(&first_line).ok()?;
    let url = announced["listening"].as_str()?.to_owned();
    Some((running, url))
}

/// What the receiver at `url` holds (`GET /totals`).
pub fn totals(url: &str) -> Value {
    ureq::get(&format!("{url}/totals"))
        .call()
        .expect("the receiver answers")
        .body_mut()
        .read_json()
        .expect("totals are JSON")
}
