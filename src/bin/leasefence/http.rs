//! The two HTTP servers of the command line, on `tiny_http`: the idempotent
//! receiver of the multi-process exercise, and the static server for the
//! playground page.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use leasefence::{Error, Receiver};
use serde::Deserialize;
use tiny_http::{Header, Method, Request, Response, Server};

use crate::output::{invalid, print_json};

/// Largest request body the receiver reads.
const MAX_BODY: u64 = 64 * 1024;

/// One delivery, as `work` posts it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Delivery {
    id: String,
    qty: u64,
}

fn bind(listen: &str) -> Result<Server, Error> {
    Server::http(listen).map_err(|err| invalid("--listen", format!("{listen}: {err}")))
}

/// Announces the bound address as one JSON line, so a script (or a test)
/// that asked for port 0 learns the real one.
fn announce(server: &Server, what: &str) -> Result<(), Error> {
    let address = server
        .server_addr()
        .to_ip()
        .map_or_else(|| "unknown".to_owned(), |addr| addr.to_string());
    print_json(&serde_json::json!({ "listening": format!("http://{address}"), "serving": what }))
}

fn json_response(status: u16, body: &serde_json::Value) -> Response<std::io::Cursor<Vec<u8>>> {
    let content_type =
        Header::from_bytes("Content-Type", "application/json").expect("static header is valid");
    Response::from_string(body.to_string())
        .with_status_code(status)
        .with_header(content_type)
}

/// Runs the receiver until the process is stopped.
///
/// * `POST /deliveries` with `{"id", "qty"}`: 200 `{"applied": true}` the
///   first time, 200 `{"applied": false}` for a repeat, 409 for another qty.
/// * `GET /totals`: what the ledger holds.
pub fn run_receiver(listen: &str, db: &Path) -> Result<(), Error> {
    let receiver = Receiver::open(db)?;
    let server = bind(listen)?;
    announce(&server, "receiver")?;
    for mut request in server.incoming_requests() {
        let (status, body) = answer_receiver(&receiver, &mut request);
        // A client that hung up is its own problem, not the receiver's.
        let _ = request.respond(json_response(status, &body));
    }
    Ok(())
}

fn answer_receiver(receiver: &Receiver, request: &mut Request) -> (u16, serde_json::Value) {
    use serde_json::json;
    let error = |status: u16, message: String| (status, json!({ "error": message }));
    match (request.method(), request.url()) {
        (Method::Get, "/totals") => match receiver.totals() {
            Ok(totals) => (200, json!(totals)),
            Err(err) => error(500, err.to_string()),
        },
        (Method::Post, "/deliveries") => {
            let mut body = Vec::new();
            if let Err(err) = request
                .as_reader()
                .take(MAX_BODY + 1)
                .read_to_end(&mut body)
            {
                return error(400, format!("body: {err}"));
            }
            if body.len() as u64 > MAX_BODY {
                return error(413, format!("body: over {MAX_BODY} bytes"));
            }
            let delivery: Delivery = match serde_json::from_slice(&body) {
                Ok(delivery) => delivery,
                Err(err) => return error(400, format!("body: {err}")),
            };
            match receiver.deliver(&delivery.id, delivery.qty) {
                Ok(applied) => (200, json!({ "applied": applied })),
                Err(err @ Error::DeliveryConflict { .. }) => error(409, err.to_string()),
                Err(err @ Error::InvalidInput { .. }) => error(400, err.to_string()),
                Err(err) => error(500, err.to_string()),
            }
        }
        _ => error(404, "try POST /deliveries or GET /totals".into()),
    }
}

/// Serves the files under `dir` until the process is stopped. Only paths
/// inside `dir` are served; `/` is `index.html`.
pub fn serve_dir(listen: &str, dir: &Path) -> Result<(), Error> {
    if !dir.join("index.html").is_file() {
        return Err(invalid(
            "--dir",
            format!(
                "{} has no index.html (run from the project folder, or `make serve`)",
                dir.display()
            ),
        ));
    }
    let server = bind(listen)?;
    announce(&server, &dir.display().to_string())?;
    for request in server.incoming_requests() {
        let response = match file_for(dir, request.url()) {
            Some(path) => match std::fs::File::open(&path) {
                Ok(file) => Response::from_file(file)
                    .with_header(content_type(&path))
                    .with_header(
                        Header::from_bytes("Cache-Control", "no-cache")
                            .expect("static header is valid"),
                    )
                    .boxed(),
                Err(_) => not_found(),
            },
            None => not_found(),
        };
        let _ = request.respond(response);
    }
    Ok(())
}

fn not_found() -> tiny_http::ResponseBox {
    Response::from_string("not found")
        .with_status_code(404)
        .boxed()
}

/// Maps a URL path to a file under `dir`, refusing anything that would
/// step outside it.
fn file_for(dir: &Path, url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let relative = Path::new(path.trim_start_matches('/'));
    if relative
        .components()
        .any(|part| !matches!(part, Component::Normal(_)))
    {
        return None;
    }
    let mut full = dir.join(relative);
    if full.is_dir() {
        full.push("index.html");
    }
    full.is_file().then_some(full)
}

/// The MIME type by extension; `application/wasm` lets browsers compile
/// the module while it streams in.
fn content_type(path: &Path) -> Header {
    let mime = match path.extension().and_then(|ext| ext.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("wasm") => "application/wasm",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ts") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    Header::from_bytes("Content-Type", mime).expect("static header is valid")
}
