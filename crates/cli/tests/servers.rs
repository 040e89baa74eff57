//! The command line's two HTTP servers as a browser and the exercise meet
//! them: many connections at once, kept open between requests; copies
//! compressed by `make web` that must never be older than their file; and
//! the receiver's refusals as JSON with their status.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::fs::{self, File};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};
use support::processes::{Running, start_file_server, start_receiver, start_receiver_with_files};

/// A folder with a page, a script and the script's brotli copy.
fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::write(
        dir.path().join("index.html"),
        "<!doctype html><title>t</title>",
    )
    .expect("writes");
    fs::write(dir.path().join("app.js"), "export const answer = 42;\n").expect("writes");
    fs::write(dir.path().join("app.js.br"), b"not really brotli").expect("writes");
    fs::write(dir.path().join("app.js.gz"), b"not really gzip").expect("writes");
    dir
}

/// Sends a keep-alive GET for `path` on `stream`.
fn ask(stream: &mut TcpStream, path: &str, headers: &str) {
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: t\r\nConnection: keep-alive\r\n{headers}\r\n");
    stream.write_all(request.as_bytes()).expect("sends");
}

/// The status line and headers of the answer on `stream` (lower-cased),
/// or `None` when nothing came within `wait`.
fn answer_head(stream: &mut TcpStream, wait: Duration) -> Option<String> {
    stream.set_read_timeout(Some(wait)).expect("sets a timeout");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
    }
    Some(String::from_utf8_lossy(&head).to_lowercase())
}

/// A browser opens several connections at once and keeps them open: a
/// page with two embedded playgrounds opens about ten. Every request is
/// answered at once, in every round, however many connections stay open.
#[test]
fn connections_opened_at_once_and_kept_open_are_all_answered_at_once() {
    let dir = site();
    let (_server, url) = start_file_server(dir.path());
    let address = url.trim_start_matches("http://");
    let mut kept = Vec::new();
    let mut unanswered = 0;
    for _round in 0..10 {
        let mut burst: Vec<TcpStream> = (0..10)
            .map(|_| TcpStream::connect(address).expect("connects"))
            .collect();
        for stream in &mut burst {
            ask(stream, "/index.html", "");
        }
        for stream in &mut burst {
            let head = answer_head(stream, Duration::from_secs(2));
            unanswered += usize::from(!head.is_some_and(|head| head.starts_with("http/1.1 200")));
        }
        kept.extend(burst); // open, idle, as a browser keeps them
    }
    check!(unanswered, 0, "requests of 100 unanswered within 2 s");
}

/// The copy `make web` wrote is served to a client that accepts it, with
/// `Vary`; once the file is edited after it, the file itself is, whatever
/// the path's spelling.
#[test]
fn a_precompressed_copy_is_served_only_while_it_is_not_older_than_its_file() {
    let dir = site();
    let (_server, url) = start_file_server(dir.path());
    let address = url.trim_start_matches("http://");
    // (Content-Encoding, Vary) of the answer to `path` for `accepts`.
    let encoding = |path: &str, accepts: &str| {
        let mut stream = TcpStream::connect(address).expect("connects");
        ask(
            &mut stream,
            path,
            &format!("Accept-Encoding: {accepts}\r\n"),
        );
        let head = answer_head(&mut stream, Duration::from_secs(5)).expect("an answer");
        let found = |name: &str| {
            let value = head.lines().find_map(|line| line.strip_prefix(name));
            value.map(|value| value.trim().to_owned())
        };
        (found("content-encoding:"), found("vary:"))
    };
    let vary = Some("accept-encoding".to_owned());
    let said = |encoding: Option<&str>| (encoding.map(str::to_owned), vary.clone());
    let asked = [
        ("/app.js", "gzip, br"),
        ("/app.js", "gzip"),
        ("/%61pp.js", "br"),
    ];
    let answers = || -> Vec<_> {
        asked
            .iter()
            .map(|(path, accepts)| encoding(path, accepts))
            .collect()
    };
    check!(
        answers(),
        vec![said(Some("br")), said(Some("gzip")), said(Some("br"))],
        "fresh copies, brotli first, and Vary"
    );
    let later = SystemTime::now() + Duration::from_secs(60);
    File::options()
        .append(true)
        .open(dir.path().join("app.js"))
        .and_then(|file| file.set_modified(later))
        .expect("the file is edited after its copies");
    check!(answers(), vec![said(None); 3], "the file itself, and Vary");
}

/// A receiver on a new ledger in a temporary folder (kept while it runs),
/// on a free loopback port.
fn receiver() -> (tempfile::TempDir, Running, String) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (running, url) =
        start_receiver(&dir.path().join("receiver.db"), "127.0.0.1:0").expect("listens");
    (dir, running, url)
}

/// An HTTP client that hands back every status as an answer.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// The receiver's refusals are JSON with a status: an unknown path, a
/// known path asked with another method, a body that is not a delivery (a key
/// given twice among them), a body over 64 KiB.
#[test]
fn the_receiver_refuses_with_a_status_and_a_json_error() {
    let (_dir, _receiver, url) = receiver();
    let agent = agent();
    // The status, and what the JSON error names before its first colon.
    let said = |mut answer: ureq::http::Response<ureq::Body>| {
        let status = answer.status().as_u16();
        let body: Value = answer.body_mut().read_json().expect("JSON");
        let error = body["error"]
            .as_str()
            .and_then(|error| error.split(':').next());
        (status, error.map(str::to_owned))
    };
    let post = |path: &str, body: String| {
        let answer = agent
            .post(&format!("{url}{path}"))
            .header("Content-Type", "application/json")
            .send(body);
        said(answer.expect("answers"))
    };
    // The status and the whole JSON error.
    let post_text = |body: &str| {
        let mut answer = agent
            .post(&format!("{url}/deliveries"))
            .header("Content-Type", "application/json")
            .send(body)
            .expect("answers");
        let status = answer.status().as_u16();
        let body: Value = answer.body_mut().read_json().expect("JSON");
        (
            status,
            body["error"].as_str().unwrap_or_default().to_owned(),
        )
    };
    let routes = Some("try POST /deliveries or GET /totals".to_owned());
    check!(
        post("/nowhere", "{}".into()),
        (404, routes.clone()),
        "an unknown path"
    );
    let get = agent.get(&format!("{url}/deliveries")).call();
    check!(
        said(get.expect("answers")),
        (405, routes),
        "GET /deliveries"
    );
    let body = Some("body".to_owned());
    let without_qty = json!({"id": "x"}).to_string();
    check!(
        post("/deliveries", without_qty),
        (400, body.clone()),
        "a delivery without qty"
    );
    check!(
        post("/deliveries", json!(["x", 1]).to_string()),
        (400, body.clone()),
        "a delivery as an array, not an object"
    );
    let twice = post_text(r#"{"id": "x", "qty": 1, "qty": 9}"#);
    assert!(
        twice.0 == 400 && twice.1.contains("duplicate field `qty`"),
        "a key given twice is refused, not read as its last value, got {twice:?}"
    );
    let lone = post_text(r#"{"id": "\ud800", "qty": 1}"#);
    assert!(
        lone.0 == 400 && lone.1.contains("valid Unicode"),
        "a lone surrogate is refused as not valid Unicode, got {lone:?}"
    );
    let long = json!({"id": "x".repeat(70 * 1024), "qty": 1}).to_string();
    check!(post("/deliveries", long), (413, body), "a body over 64 KiB");
    let delivery = json!({"id": "x", "qty": 1}).to_string();
    check!(post("/deliveries", delivery), (200, None), "a delivery");
}

/// One delivery of the largest qty once wedged the receiver: the next one,
/// of any id and qty, took its total past 2^53 - 1 and got 400, so `work`
/// stopped. Every valid delivery lands; the total says it is held (R12).
#[test]
fn no_delivery_shuts_the_receiver_to_later_ones() {
    let (_dir, _receiver, url) = receiver();
    let agent = agent();
    let deliver = |id: &str, qty: u64| {
        let mut answer = (agent.post(&format!("{url}/deliveries")))
            .header("Content-Type", "application/json")
            .send(json!({"id": id, "qty": qty}).to_string())
            .expect("answers");
        let body: Value = answer.body_mut().read_json().expect("JSON");
        (answer.status().as_u16(), body)
    };
    let max = leasefence::MAX_INT;
    let applied = (200, json!({"applied": true}));
    check!(deliver("big", max), applied.clone(), "the largest qty");
    check!(deliver("next", 1), applied.clone(), "a delivery after it");
    check!(deliver("another", max), applied, "and another largest");
    let mut answer = agent.get(&format!("{url}/totals")).call().expect("answers");
    let totals: Value = answer.body_mut().read_json().expect("JSON");
    check!(
        (&totals["jobs"], &totals["qty"], &totals["capped"]),
        (&json!(3), &json!(max), &json!(true)),
        "the totals, held at the bound ({totals})"
    );
}

/// Skips the body of an answer whose head is `head` (its `content-length`).
fn skip_body(stream: &mut TcpStream, head: &str) {
    let length: usize = head
        .lines()
        .find_map(|line| line.strip_prefix("content-length:"))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).expect("the body");
}

/// A refusal waits for the request's body, so the connection carries the
/// next request. A client that sends its body after its headers (ureq
/// does) is refused, and then answered again down the same connection;
/// a refusal sent before the body arrived once closed it without a word.
#[test]
fn a_refusal_reads_the_body_and_the_connection_carries_the_next_request() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (_receiver, url) =
        start_receiver(&dir.path().join("receiver.db"), "127.0.0.1:0").expect("listens");
    let mut stream = TcpStream::connect(url.trim_start_matches("http://")).expect("connects");
    for (method, path, status) in [("POST", "/nowhere", 404), ("PUT", "/deliveries", 405)] {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n"
        );
        // A write to a connection the server closed fails: no answer then.
        let answer = stream
            .write_all(head.as_bytes())
            .and_then(|()| {
                std::thread::sleep(Duration::from_millis(100));
                stream.write_all(b"{}")
            })
            .ok()
            .and_then(|()| answer_head(&mut stream, Duration::from_secs(5)))
            .unwrap_or_default();
        check!(
            answer.starts_with(&format!("http/1.1 {status}")),
            true,
            "{method} {path} with its body late, on the connection so far: {answer:?}"
        );
        skip_body(&mut stream, &answer);
    }
    ask(&mut stream, "/totals", "");
    let totals = answer_head(&mut stream, Duration::from_secs(5)).unwrap_or_default();
    check!(
        totals.starts_with("http/1.1 200"),
        true,
        "GET /totals down the same connection: {totals:?}"
    );
}

/// More connections than the server may open files. Those past
/// its limit wait in the kernel's queue while `accept` fails, and the
/// server must keep running (it panicked, exit 101, when its runtime had
/// no timer for axum's back-off); once they close, a request is answered.
#[test]
fn a_receiver_out_of_file_descriptors_keeps_serving_once_they_free_up() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (mut receiver, url) =
        start_receiver_with_files(&dir.path().join("receiver.db"), 48).expect("listens");
    let address = url.trim_start_matches("http://").to_owned();
    let idle: Vec<TcpStream> = (0..96)
        .filter_map(|_| TcpStream::connect(&address).ok())
        .collect();
    assert!(idle.len() > 48, "opened {} connections", idle.len());
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        receiver.0.try_wait().expect("asks").is_none(),
        "the receiver exited under {} idle connections",
        idle.len()
    );
    drop(idle);
    std::thread::sleep(Duration::from_millis(1500));
    let mut stream = TcpStream::connect(&address).expect("connects");
    ask(&mut stream, "/totals", "");
    let head = answer_head(&mut stream, Duration::from_secs(10)).unwrap_or_default();
    assert!(
        head.starts_with("http/1.1 200"),
        "expected 200, got {head:?}"
    );
}

/// Idle and slow clients (slowloris: a request's headers sent a
/// byte at a time) held their connections for good, 600 of them for 40 s,
/// and with them the server's file descriptors. Now a connection that has
/// not sent its headers within the header timeout (5 s) is closed, so a
/// request that arrives while they are all still open, past the
/// descriptor limit, is answered once they are.
#[test]
fn idle_and_slow_connections_are_closed_and_a_request_behind_them_is_answered() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (_receiver, url) =
        start_receiver_with_files(&dir.path().join("receiver.db"), 48).expect("listens");
    let address = url.trim_start_matches("http://").to_owned();
    let mut held: Vec<TcpStream> = (0..96)
        .filter_map(|_| TcpStream::connect(&address).ok())
        .collect();
    assert!(held.len() > 48, "opened {} connections", held.len());
    for slow in held.iter_mut().step_by(2) {
        // Half of them begin a request and never finish its headers.
        slow.write_all(b"GET /totals HTTP/1.1\r\nHost: t\r\n")
            .expect("sends");
    }
    let asked = std::time::Instant::now();
    let mut stream = TcpStream::connect(&address).expect("connects");
    ask(&mut stream, "/totals", "");
    let head = answer_head(&mut stream, Duration::from_secs(20)).unwrap_or_default();
    assert!(
        head.starts_with("http/1.1 200"),
        "expected 200 while {} connections stay open, got {head:?} after {:?}",
        held.len(),
        asked.elapsed()
    );
    // The first connections were accepted, so the timeout closed them.
    let mut byte = [0u8; 1];
    held[1]
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("sets a timeout");
    check!(
        held[1].read(&mut byte).ok(),
        Some(0),
        "an idle connection, closed by the server (read gives end of file)"
    );
}

/// `serve` answers only files inside its folder. A link out of
/// it (a folder, a file, a precompressed copy), a dotfile and a name too
/// long for the file system are all 404 (the links leaked `/etc/passwd`
/// and a file beside the folder; the long name was a 500).
#[cfg(unix)]
#[test]
fn the_file_server_serves_only_what_lies_inside_its_folder() {
    use std::os::unix::fs::symlink;
    let dir = site();
    let outside = tempfile::tempdir().expect("a temporary folder");
    fs::write(outside.path().join("secret.txt"), "secret").expect("writes");
    symlink(outside.path(), dir.path().join("elsewhere")).expect("links a folder");
    symlink(
        outside.path().join("secret.txt"),
        dir.path().join("leak.txt"),
    )
    .expect("links");
    fs::write(dir.path().join("page.js"), "plain").expect("writes");
    symlink(
        outside.path().join("secret.txt"),
        dir.path().join("page.js.br"),
    )
    .expect("links");
    fs::write(dir.path().join(".env"), "TOKEN=1").expect("writes");
    fs::create_dir(dir.path().join(".git")).expect("a dot folder");
    fs::write(dir.path().join(".git").join("config"), "[core]").expect("writes");
    let (_server, url) = start_file_server(dir.path());
    let address = url.trim_start_matches("http://").to_owned();
    let status = |path: &str, headers: &str| -> (String, String) {
        let mut stream = TcpStream::connect(&address).expect("connects");
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n{headers}\r\n");
        stream.write_all(request.as_bytes()).expect("sends");
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        let line = answer.lines().next().unwrap_or_default().to_owned();
        let body = answer
            .split("\r\n\r\n")
            .nth(1)
            .unwrap_or_default()
            .to_owned();
        (line, body)
    };
    let long = format!("/{}.js", "a".repeat(5000));
    for path in [
        "/elsewhere/secret.txt",
        "/leak.txt",
        "/.env",
        "/.git/config",
        long.as_str(),
    ] {
        let (line, body) = status(path, "");
        assert!(
            line.starts_with("HTTP/1.1 404") && !body.contains("secret") && !body.contains("TOKEN"),
            "{path}: expected 404 without the file, got {line:?} {body:?}"
        );
    }
    let (line, body) = status("/page.js", "Accept-Encoding: br\r\n");
    assert!(
        line.starts_with("HTTP/1.1 200") && body == "plain",
        "a copy that links out of the folder is not served: {line:?} {body:?}"
    );
    let (line, _) = status("/app.js", "");
    assert!(line.starts_with("HTTP/1.1 200"), "a file inside: {line:?}");
}

/// A client that asks for a large file
/// and then reads nothing is let go once the server's write has waited
/// 10 s, so it does not hold one of the 256 connection slots for good.
/// The client, reading at last after 16 s, finds the answer cut short;
/// on a server without the write timeout it would still get every byte.
#[test]
fn a_client_that_never_reads_is_let_go() {
    let dir = site();
    // Larger than loopback's socket buffers on both sides together.
    let size = 64 << 20;
    fs::write(dir.path().join("big.bin"), vec![7u8; size]).expect("writes");
    let (_server, url) = start_file_server(dir.path());
    let address = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(address).expect("connects");
    ask(&mut stream, "/big.bin", "");
    std::thread::sleep(Duration::from_secs(16));
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("sets a timeout");
    let mut received = 0usize;
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        match stream.read(&mut chunk) {
            // The server closed the connection (or reset it).
            Ok(0) => break,
            Err(err) if err.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(err) => panic!("the server neither finished nor closed the connection: {err}"),
            Ok(n) => received += n,
        }
    }
    assert!(
        received < size,
        "expected the answer cut short (fewer than {size} bytes), got {received} bytes"
    );
    // And it goes on serving.
    let mut next = TcpStream::connect(address).expect("connects");
    ask(&mut next, "/index.html", "");
    let head = answer_head(&mut next, Duration::from_secs(5));
    assert!(
        head.as_deref()
            .is_some_and(|head| head.starts_with("http/1.1 200")),
        "a new request is answered: {head:?}"
    );
}

/// The ledger's calls run beside the thread that answers connections: a
/// delivery waiting on a lock another process holds on the ledger file
/// (SQLite's busy wait, up to 10 s) holds up no other request. With the
/// wait on that thread, an unknown path took 28.8 s to be refused.
#[test]
fn a_delivery_waiting_on_the_ledgers_lock_holds_up_no_other_request() {
    let (dir, _receiver, url) = receiver();
    let holder = rusqlite::Connection::open(dir.path().join("receiver.db")).expect("opens");
    holder
        .execute_batch("BEGIN EXCLUSIVE")
        .expect("takes the lock");
    let waiting = {
        let url = url.clone();
        std::thread::spawn(move || {
            let mut answer = (agent().post(&format!("{url}/deliveries")))
                .header("Content-Type", "application/json")
                .send(json!({"id": "snack-1", "qty": 2}).to_string())
                .expect("answers");
            let body: Value = answer.body_mut().read_json().expect("JSON");
            (answer.status().as_u16(), body)
        })
    };
    // Let the delivery reach the ledger and wait there.
    std::thread::sleep(Duration::from_millis(300));
    let impatient: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(3)))
        .build()
        .into();
    let other = impatient.get(&format!("{url}/nope")).call();
    let status = other.as_ref().map(|answer| answer.status().as_u16());
    holder.execute_batch("ROLLBACK").expect("lets go");
    check!(
        status.map_err(|err| err.to_string()),
        Ok(404),
        "an unknown path, asked while a delivery waits on the ledger's lock"
    );
    check!(
        waiting.join().expect("the delivery's thread"),
        (200, json!({"applied": true})),
        "the delivery, once the lock is let go"
    );
}
