//! The two HTTP servers of the command line, on `axum` (hyper, tokio): the
//! idempotent receiver of the multi-process exercise, and the static
//! server for the playground page (`tower-http`'s `ServeDir`, which
//! answers with the precompressed copies `make web` writes).
//!
//! Why an async server: a browser keeps its connections open between
//! requests. A server that gives each connection a thread of a pool
//! leaves a new connection waiting while the pool's threads sit on idle
//! ones; `tiny_http` 0.12 did, and a course page with two playground
//! iframes waited 30 s for a module (ten connections opened at once saw
//! 24 of 200 requests unanswered after 2 s). Here every connection is a
//! task on one thread, and an idle one costs nothing.

use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{ACCEPT_ENCODING, CACHE_CONTROL, CONNECTION, CONTENT_TYPE, VARY};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use http_body_util::LengthLimitError;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use leasefence::{Error, Receiver};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::output::{Failure, invalid, print_json};
use crate::stalled::Stalled;

/// What the receiver answers, said to a request for anything else.
const ROUTES: &str = "try POST /deliveries or GET /totals";

/// Largest request body the receiver reads.
const MAX_BODY: usize = 64 * 1024;

/// One delivery, as `work` posts it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Delivery {
    id: String,
    qty: u64,
}

/// Reads a delivery from a request body: a JSON object with exactly `id`
/// and `qty`, each once. serde's derive would also take the array `["x",
/// 1]`, and serde_json says of a lone surrogate only "unexpected end of hex
/// escape", so both are said in the sender's terms; the object is then read
/// from the text itself, not from the parsed value, whose map would keep
/// only the last of two `qty` keys (two readers of one body could disagree
/// on what was delivered).
fn read_delivery(body: &[u8]) -> Result<Delivery, String> {
    const SHAPE: &str = r#"a delivery is a JSON object {"id": "...", "qty": N}"#;
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|err| {
        let hint = if err.to_string().contains("hex escape") {
            " (\\uD800-\\uDBFF must be followed by \\uDC00-\\uDFFF: an id is valid Unicode)"
        } else {
            ""
        };
        format!("body: not JSON: {err}{hint}")
    })?;
    if !value.is_object() {
        return Err(format!("body: {SHAPE}, got {}", json_kind(&value)));
    }
    serde_json::from_slice(body).map_err(|err| format!("body: {err}"))
}

/// What a JSON value is, as a sender would call it.
fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// How long a client may take to send a request's headers, and how long
/// an open connection may sit idle between requests: a client on the same
/// machine sends its headers at once, so a connection that has not is a
/// slow or idle one holding a file descriptor (600 slowloris connections
/// stayed open 40 s in a hostile test before this limit).
const HEADER_TIMEOUT: Duration = Duration::from_secs(5);

/// How long the receiver waits for a delivery's body once its headers came.
const BODY_TIMEOUT: Duration = Duration::from_secs(5);

/// Connections served at once. More wait in the kernel's queue until one
/// closes (each holds a file descriptor; a browser opens about six per
/// page, the exercise's workers one each).
const MAX_CONNECTIONS: usize = 256;

/// How long to wait before accepting again when `accept` fails: out of
/// file descriptors, a retry at once would fail again at once.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Binds `listen`, announces the bound address as one JSON line (so a
/// script or a test that asked for port 0 learns the real one), and
/// serves `app` on one thread until the process is stopped.
fn run(listen: &str, what: &str, app: Router) -> Result<(), Failure> {
    let failed = |err: std::io::Error| invalid("--listen", format!("{listen}: {err}"));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(failed)?;
    runtime.block_on(async {
        let listener = TcpListener::bind(listen).await.map_err(failed)?;
        let address = listener.local_addr().map_err(failed)?;
        print_json(&json!({ "listening": format!("http://{address}"), "serving": what }))?;
        serve(listener, app).await;
        Ok(())
    })
}

/// Accepts connections and serves each as its own task, with hyper's HTTP/1
/// directly rather than `axum::serve`, which has no header timeout and no
/// bound on connections. A client that stops reading is let go after
/// [`crate::stalled::WRITE_TIMEOUT`]. A failed `accept` (out of file descriptors) waits
/// and tries again: the server keeps running, and answers once
/// descriptors free up, as idle connections reach `HEADER_TIMEOUT`.
async fn serve(listener: TcpListener, app: Router) {
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(slot) = Arc::clone(&open).acquire_owned().await else {
            return; // the semaphore is never closed
        };
        let stream = match listener.accept().await {
            Ok((stream, _peer)) => stream,
            Err(_) => {
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(Stalled::new(stream)), service);
            // A client that went away or timed out: nothing to tell anyone.
            let _ = connection.await;
            drop(slot);
        });
    }
}

/// The receiver's ledger; one request at a time uses it.
type Ledger = Arc<Mutex<Receiver>>;

/// Runs the receiver until the process is stopped.
///
/// * `POST /deliveries` with `{"id", "qty"}`: 200 `{"applied": true}` the
///   first time, 200 `{"applied": false}` for a repeat, 409 for another qty.
/// * `GET /totals`: what the ledger holds.
pub fn run_receiver(listen: &str, receiver: Receiver) -> Result<(), Failure> {
    let ledger: Ledger = Arc::new(Mutex::new(receiver));
    let app = Router::new()
        .route("/totals", get(totals))
        .route("/deliveries", post(deliver))
        .fallback(|body: Body| refused_after(body, StatusCode::NOT_FOUND, ROUTES))
        .method_not_allowed_fallback(|body: Body| {
            refused_after(body, StatusCode::METHOD_NOT_ALLOWED, ROUTES)
        })
        .with_state(ledger);
    run(listen, "receiver", app)
}

fn refused(status: StatusCode, message: impl std::fmt::Display) -> Response {
    let body = json!({ "error": message.to_string() });
    (status, axum::Json(body)).into_response()
}

/// A refusal sent once the request's body is read. A refusal sent before
/// its body had all arrived left the connection closed without a word
/// (hyper does not wait for a body nobody reads), and a client that sent
/// its next request down it lost it ("Peer disconnected", once in a CI
/// run of `crates/cli/tests/servers.rs`). A body too long to read (over `MAX_BODY`),
/// or not sent within `BODY_TIMEOUT`, is left, and the answer says the
/// connection closes.
async fn refused_after(body: Body, status: StatusCode, message: &str) -> Response {
    let read = tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, MAX_BODY)).await;
    match read {
        Ok(Ok(_)) => refused(status, message),
        // Too long, or not sent in time: not read to its end.
        Ok(Err(_)) | Err(_) => closing(refused(status, message)),
    }
}

/// `answer` with `Connection: close`: the request's body was not read to
/// its end, so the connection cannot carry another request.
fn closing(mut answer: Response) -> Response {
    answer
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    answer
}

fn answered(body: Value) -> Response {
    (StatusCode::OK, axum::Json(body)).into_response()
}

/// Runs `f` on the ledger, on a thread of its own: a database that waits
/// (a file another process holds, a server far away) keeps the one thread
/// that answers every connection free, and the PostgreSQL client, which
/// runs its own small runtime, may not be driven from inside this one. A
/// panic while the ledger was held poisons the lock; the ledger is a
/// database, not the memory the panic left, so it is used again.
async fn with_ledger<T: Send + 'static>(
    ledger: &Ledger,
    f: impl FnOnce(&Receiver) -> leasefence::Result<T> + Send + 'static,
) -> leasefence::Result<T> {
    let ledger = Arc::clone(ledger);
    let run = tokio::task::spawn_blocking(move || {
        let guard = (ledger.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&guard)
    });
    run.await.unwrap_or_else(|panicked| {
        Err(Error::Internal {
            what: format!("the ledger's call panicked: {panicked}"),
        })
    })
}

async fn totals(State(ledger): State<Ledger>) -> Response {
    match with_ledger(&ledger, Receiver::totals).await {
        Ok(totals) => answered(json!(totals)),
        Err(err) => refused(StatusCode::INTERNAL_SERVER_ERROR, err),
    }
}

async fn deliver(State(ledger): State<Ledger>, body: Body) -> Response {
    let Ok(body) = tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, MAX_BODY)).await
    else {
        let message = format!("body: not sent within {} s", BODY_TIMEOUT.as_secs());
        return closing(refused(StatusCode::REQUEST_TIMEOUT, message));
    };
    let body = match body {
        Ok(body) => body,
        Err(err) => {
            let inner = std::error::Error::source(&err);
            if inner.is_some_and(|inner| inner.is::<LengthLimitError>()) {
                let message = format!("body: over {MAX_BODY} bytes");
                return closing(refused(StatusCode::PAYLOAD_TOO_LARGE, message));
            }
            return closing(refused(StatusCode::BAD_REQUEST, format!("body: {err}")));
        }
    };
    let delivery = match read_delivery(&body) {
        Ok(delivery) => delivery,
        Err(message) => return refused(StatusCode::BAD_REQUEST, message),
    };
    let deliver = move |receiver: &Receiver| receiver.deliver(&delivery.id, delivery.qty);
    match with_ledger(&ledger, deliver).await {
        Ok(applied) => answered(json!({ "applied": applied })),
        Err(err @ Error::DeliveryConflict { .. }) => refused(StatusCode::CONFLICT, err),
        Err(err @ Error::InvalidInput { .. }) => refused(StatusCode::BAD_REQUEST, err),
        // The ledger's file is held by another process, or its database
        // server is away for a moment (the next call connects again):
        // worth a retry.
        Err(err @ (Error::Busy | Error::Database(_))) => {
            refused(StatusCode::SERVICE_UNAVAILABLE, err)
        }
        Err(err) => refused(StatusCode::INTERNAL_SERVER_ERROR, err),
    }
}

/// Serves the files under `dir` until the process is stopped; `/` is
/// `index.html`. A file with a precompressed copy beside it (`NAME.br`,
/// `NAME.gz`, written by `make web`) is answered with the copy the client
/// accepts, brotli first (it is the smaller for every file the page
/// loads, `make sizes`), with `Vary: Accept-Encoding`. Every answer is
/// `Cache-Control: no-cache`: a rebuilt page is seen on the next load.
pub fn serve_dir(listen: &str, dir: &Path) -> Result<(), Failure> {
    if !dir.join("index.html").is_file() {
        return Err(invalid(
            "--dir",
            format!(
                "{} has no index.html (run from the project folder, or `make serve`)",
                dir.display()
            ),
        ));
    }
    let files = ServeDir::new(dir).precompressed_br().precompressed_gzip();
    let root = dir
        .canonicalize()
        .map_err(|err| invalid("--dir", format!("{}: {err}", dir.display())))?;
    let root = Arc::new(root);
    let app = Router::new()
        .fallback_service(files)
        .layer(axum::middleware::map_request_with_state(
            root.clone(),
            no_stale_copies,
        ))
        .layer(axum::middleware::from_fn_with_state(root, inside_only))
        .layer(axum::middleware::map_response(utf8_text))
        .layer(SetResponseHeaderLayer::overriding(
            CACHE_CONTROL,
            HeaderValue::from_static("no-cache"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            VARY,
            HeaderValue::from_static("Accept-Encoding"),
        ));
    run(listen, &dir.display().to_string(), app)
}

/// Only files inside the folder are served: a path whose file,
/// once its links are resolved, lies outside it, a dotfile or a dot
/// folder (`.git`, `.env`), and a name the file system refuses (too long)
/// are all answered 404, as a file that does not exist.
async fn inside_only(State(root): State<Arc<PathBuf>>, request: Request, next: Next) -> Response {
    let file = file_under(&root, request.uri().path());
    let allowed = file.is_some_and(|file| {
        let dotted = (file.strip_prefix(root.as_path()).ok()).is_some_and(|relative| {
            relative
                .components()
                .any(|part| part.as_os_str().to_string_lossy().starts_with('.'))
        });
        !dotted && inside(&root, &file)
    });
    if !allowed {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    }
    next.run(request).await
}

/// Whether `file` exists and, its links resolved, lies in `root` (itself
/// resolved).
fn inside(root: &Path, file: &Path) -> bool {
    file.canonicalize().is_ok_and(|real| real.starts_with(root))
}

/// A copy counts only if it is at least as new as the file, so a file
/// edited after `make web` is never answered with its stale copy: for such
/// a file the request is served as if it accepted no encoding. A copy that
/// is a link out of the folder never counts either.
async fn no_stale_copies(State(root): State<Arc<PathBuf>>, mut request: Request) -> Request {
    let stale = file_under(&root, request.uri().path()).is_some_and(|file| {
        let modified = |file: &Path| {
            std::fs::metadata(file)
                .and_then(|meta| meta.modified())
                .ok()
        };
        ["br", "gz"].iter().any(|suffix| {
            let mut copy = file.clone().into_os_string();
            copy.push(format!(".{suffix}"));
            let copy = Path::new(&copy);
            let times = (modified(copy), modified(&file));
            let outside = copy.exists() && !inside(&root, copy);
            outside || matches!(times, (Some(copy), Some(file)) if copy < file)
        })
    });
    if stale {
        request.headers_mut().remove(ACCEPT_ENCODING);
    }
    request
}

/// The file under `root` a URL path names, as `ServeDir` reads it
/// (percent-decoded; a folder means its `index.html`); `None` for a path
/// that is not plain names, which `ServeDir` refuses anyway.
fn file_under(root: &Path, url_path: &str) -> Option<PathBuf> {
    let decoded = percent_encoding::percent_decode_str(url_path)
        .decode_utf8()
        .ok()?;
    let relative = Path::new(decoded.trim_start_matches('/'));
    let plain = relative
        .components()
        .all(|part| matches!(part, Component::Normal(_)));
    let mut file = root.join(relative);
    if plain && file.is_dir() {
        file.push("index.html");
    }
    plain.then_some(file)
}

/// Text is UTF-8 here (the page, its scripts and styles), and says so: a
/// host page in another encoding still reads the styles right.
async fn utf8_text(mut response: Response) -> Response {
    let text = response.headers().get(CONTENT_TYPE).and_then(|value| {
        let value = value.to_str().ok()?;
        let textual = value.starts_with("text/") && !value.contains("charset");
        textual.then(|| format!("{value}; charset=utf-8"))
    });
    if let Some(value) = text.and_then(|text| HeaderValue::from_str(&text).ok()) {
        response.headers_mut().insert(CONTENT_TYPE, value);
    }
    response
}
