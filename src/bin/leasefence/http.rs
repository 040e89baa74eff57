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
/// inside `dir` are served; `/` is `index.html`. A file with a precompressed
/// copy beside it (`NAME.br`, `NAME.gz`, written by `make web`) is answered
/// with the smallest copy the client accepts, see [`encoded`].
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
            Some(path) => {
                let accepted = request
                    .headers()
                    .iter()
                    .filter(|header| header.field.equiv("Accept-Encoding"))
                    .map(|header| header.value.as_str())
                    .collect::<Vec<_>>()
                    .join(",");
                let (body, encoding) = encoded(&path, &accepted);
                match std::fs::File::open(&body) {
                    Ok(file) => {
                        let mut response = Response::from_file(file)
                            .with_header(content_type(&path))
                            .with_header(header("Cache-Control", "no-cache"));
                        if has_copies(&path) {
                            // Caches must keep one answer per encoding.
                            response.add_header(header("Vary", "Accept-Encoding"));
                        }
                        if let Some(encoding) = encoding {
                            response.add_header(header("Content-Encoding", encoding.token));
                        }
                        response.boxed()
                    }
                    Err(_) => not_found(),
                }
            }
            None => not_found(),
        };
        let _ = request.respond(response);
    }
    Ok(())
}

fn header(field: &str, value: &str) -> Header {
    Header::from_bytes(field, value).expect("static header is valid")
}

/// A precompressed copy `make web` may write beside a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Encoding {
    /// The `Content-Encoding` / `Accept-Encoding` token.
    token: &'static str,
    /// The copy's file name suffix.
    suffix: &'static str,
}

/// In order of preference: brotli (quality 11) is smaller than gzip -9 for
/// every file the page loads (`make sizes`).
const ENCODINGS: [Encoding; 2] = [
    Encoding {
        token: "br",
        suffix: "br",
    },
    Encoding {
        token: "gzip",
        suffix: "gz",
    },
];

/// `path` with `.suffix` added to its name (`x.wasm` -> `x.wasm.br`).
fn copy_of(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(suffix);
    PathBuf::from(name)
}

/// A copy counts only if it is at least as new as the file, so a file
/// edited after `make web` is never answered with its stale copy.
fn fresh_copy(path: &Path, suffix: &str) -> Option<PathBuf> {
    let copy = copy_of(path, suffix);
    let modified = |file: &Path| {
        std::fs::metadata(file)
            .and_then(|meta| meta.modified())
            .ok()
    };
    (modified(&copy)? >= modified(path)?).then_some(copy)
}

fn has_copies(path: &Path) -> bool {
    ENCODINGS
        .iter()
        .any(|encoding| fresh_copy(path, encoding.suffix).is_some())
}

/// The file to send for `path` given the request's `Accept-Encoding`, and
/// its encoding (`None`: the file itself). A coding counts as accepted when
/// listed (or `*` is) without `q=0` (RFC 9110, 12.5.3).
fn encoded(path: &Path, accept_encoding: &str) -> (PathBuf, Option<Encoding>) {
    for encoding in ENCODINGS {
        if accepts(accept_encoding, encoding.token)
            && let Some(copy) = fresh_copy(path, encoding.suffix)
        {
            return (copy, Some(encoding));
        }
    }
    (path.to_owned(), None)
}

/// Whether an `Accept-Encoding` value accepts `token`: its own entry's
/// weight if listed, else that of `*`, else no.
fn accepts(accept_encoding: &str, token: &str) -> bool {
    let weight = |name: &str| {
        accept_encoding.split(',').find_map(|entry| {
            let mut parts = entry.split(';').map(str::trim);
            if !parts.next()?.eq_ignore_ascii_case(name) {
                return None;
            }
            let q = parts
                .filter_map(|param| param.strip_prefix("q=").or(param.strip_prefix("Q=")))
                .next_back()
                .map_or(1.0, |q| q.parse::<f32>().unwrap_or(0.0));
            Some(q)
        })
    };
    weight(token)
        .or_else(|| weight("*"))
        .is_some_and(|q| q > 0.0)
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

#[cfg(test)]
mod tests {
    use super::accepts;

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        for (header, token, expected) in [
            ("gzip, deflate, br, zstd", "br", true),
            ("gzip, deflate, br, zstd", "gzip", true),
            ("gzip", "br", false),
            ("", "gzip", false),
            ("br;q=0, gzip", "br", false),
            ("br;q=0, gzip", "gzip", true),
            ("BR ; q=0.5", "br", true),
            ("*", "br", true),
            ("*;q=0", "gzip", false),
            ("gzip;q=1, *;q=0", "gzip", true),
            ("gzip;q=1, *;q=0", "br", false),
            ("identity", "gzip", false),
        ] {
            assert_eq!(accepts(header, token), expected, "{token} in {header:?}");
        }
    }
}
