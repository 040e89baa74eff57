//! A throwaway PostgreSQL cluster for the tests: started by the first test
//! that asks for one in a test process, gone within a second after the
//! process ends (however it ends), and a fresh schema for each queue.
//!
//! `LEASEFENCE_POSTGRES_URL` names a server to use instead (its fresh
//! schemas are left there). Without it, this needs PostgreSQL's programs
//! (`pg_config --bindir`: initdb, pg_ctl); `scripts/setup.sh` installs
//! them. A machine without them fails the tests that need them, saying
//! so: a test that skips itself would pass having checked nothing.
//!
//! initdb and the server refuse to run as root, so as root they run as
//! the `postgres` user. The server listens on no TCP port, only on a
//! socket in the cluster's own temporary folder, so two test processes
//! never meet.

#![allow(dead_code)] // each test file uses a different part of this module

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// The test process's server: its URL (the database `postgres`), and the
/// cluster's programs and data when this process started it.
struct Server {
    url: String,
    cluster: Option<(PathBuf, PathBuf)>,
}

fn the_server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| match std::env::var("LEASEFENCE_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Server { url, cluster: None },
        _ => start(Durability::Test)
            .unwrap_or_else(|why| panic!("no PostgreSQL server for the tests: {why}")),
    })
}

/// Whether the server writes to disk as a production server does.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// `fsync=off`: the data are a test's, and a crash of this machine
    /// takes the test with it.
    Test,
    /// PostgreSQL's defaults (`fsync=on`, `synchronous_commit=on`): for a
    /// benchmark beside a SQLite file with `synchronous=FULL`.
    Durable,
}

/// A server of its own with PostgreSQL's durable defaults, started for a
/// benchmark (`LEASEFENCE_POSTGRES_URL` names one instead): its URL.
pub fn durable_server() -> &'static str {
    static SERVER: OnceLock<String> = OnceLock::new();
    SERVER.get_or_init(|| match std::env::var("LEASEFENCE_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => url,
        _ => (start(Durability::Durable).map(|server| server.url))
            .unwrap_or_else(|why| panic!("no PostgreSQL server: {why}")),
    })
}

/// The URL of the test process's server, its database `postgres`.
pub fn server() -> &'static str {
    &the_server().url
}

/// Stops the test server at once, as a crash would (`-m immediate`: no
/// checkpoint, sessions cut), and starts it again, recovering from its
/// write-ahead log. Only a server this process started can be restarted.
pub fn restart_server_now() -> Result<(), String> {
    let (bin, data) = (the_server().cluster.as_ref())
        .ok_or("the server is LEASEFENCE_POSTGRES_URL's, not this process's")?;
    run(
        as_server_user(&bin.join("pg_ctl"))
            .arg("-D")
            .arg(data)
            .args(["-m", "immediate", "-w", "restart", "-l"])
            // The log, as at the start: a server left writing to this
            // process's output would hold it open.
            .arg(data.with_file_name("log")),
        "pg_ctl restart",
    )
}

/// A URL whose queue lives in a new, empty schema of the test server: each
/// test its own tables, on one server.
pub fn fresh_url() -> String {
    fresh_url_on(server())
}

/// A URL for a new, empty schema of the server at `base`.
pub fn fresh_url_on(base: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let schema = format!(
        "t{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let mut client = postgres::Client::connect(base, postgres::NoTls)
        .unwrap_or_else(|err| panic!("connecting to the test server {base}: {err}"));
    client
        .batch_execute(&format!("CREATE SCHEMA {schema}"))
        .unwrap_or_else(|err| panic!("creating schema {schema}: {err}"));
    let join = if base.contains('?') { '&' } else { '?' };
    format!("{base}{join}options=-csearch_path%3D{schema}")
}

/// Runs `program` as the user PostgreSQL's programs accept: this one, or
/// `postgres` when this one is root.
fn as_server_user(program: &Path) -> Command {
    if is_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

/// Where PostgreSQL's server programs are: where `pg_config` says, or
/// Debian's folder of the newest version installed.
fn bindir() -> Result<PathBuf, String> {
    let said = Command::new("pg_config")
        .arg("--bindir")
        .output()
        .ok()
        .map(|out| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()));
    let debian = std::fs::read_dir("/usr/lib/postgresql")
        .ok()
        .and_then(|versions| {
            (versions.filter_map(|entry| entry.ok()))
                .filter_map(|entry| Some((entry.file_name().to_str()?.parse::<u32>().ok()?, entry)))
                .max_by_key(|(version, _)| *version)
                .map(|(_, entry)| entry.path().join("bin"))
        });
    (said.into_iter().chain(debian))
        .find(|dir| dir.join("initdb").exists())
        .ok_or_else(|| {
            "no initdb (pg_config --bindir, /usr/lib/postgresql/*/bin): install \
             PostgreSQL's server (scripts/setup.sh does), or set LEASEFENCE_POSTGRES_URL"
                .to_owned()
        })
}

fn run(command: &mut Command, what: &str) -> Result<(), String> {
    let out = command
        .stdin(Stdio::null())
        .output()
        .map_err(|err| format!("{what}: {err}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "{what} failed ({}): {}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    ))
}

/// Makes a cluster in a new temporary folder, starts its server on a
/// socket there, and leaves a watcher that stops it and removes the folder
/// once this process is gone.
fn start(durability: Durability) -> Result<Server, String> {
    let bin = bindir()?;
    let dir = tempfile::Builder::new()
        .prefix("leasefence-pg-")
        .tempdir()
        .map_err(|err| format!("a temporary folder: {err}"))?
        .keep();
    if is_root() {
        run(
            Command::new("chown").arg("postgres").arg(&dir),
            "chown postgres",
        )?;
    }
    let data = dir.join("data");
    run(
        as_server_user(&bin.join("initdb"))
            .arg("-D")
            .arg(&data)
            .args(["-A", "trust", "-U", "postgres", "-E", "UTF8"])
            .args(["--locale=C", "--no-sync"]),
        "initdb",
    )?;
    watch(&bin, &dir)?;
    // No TCP: only the socket in the folder.
    let fsync = match durability {
        Durability::Test => "off",
        Durability::Durable => "on",
    };
    let options = format!(
        "-k {} -c listen_addresses='' -c fsync={fsync} -c max_connections=200",
        dir.display()
    );
    run(
        as_server_user(&bin.join("pg_ctl"))
            .arg("-D")
            .arg(&data)
            .args(["-o", &options, "-l"])
            .arg(dir.join("log"))
            .args(["-w", "start"]),
        "pg_ctl start",
    )?;
    let url = format!(
        "postgresql://postgres@{}/postgres",
        dir.display().to_string().replace('/', "%2F")
    );
    Ok(Server {
        url,
        cluster: Some((bin, data)),
    })
}

/// A shell that waits for this process to end, then stops the server at
/// once and removes its folder: the tests have no hook that runs after the
/// last of them, and a killed test process runs none.
fn watch(bin: &Path, dir: &Path) -> Result<(), String> {
    let pg_ctl = bin.join("pg_ctl");
    let stop = if is_root() {
        format!("runuser -u postgres -- '{}'", pg_ctl.display())
    } else {
        format!("'{}'", pg_ctl.display())
    };
    let script = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; \
         {stop} -D '{dir}/data' -m immediate stop >/dev/null 2>&1; rm -rf '{dir}'",
        pid = std::process::id(),
        dir = dir.display(),
    );
    Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|err| format!("the cluster's watcher: {err}"))?;
    Ok(())
}
