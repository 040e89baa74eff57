//! The `leasefence` command line: the queue on real files and real
//! processes, the idempotent receiver over HTTP, and the playground server.
//!
//! Every command prints JSON on stdout. Exit codes: 0 success, 1 a finish
//! was rejected, 2 bad input or an unusable database (one line on stderr,
//! naming the field; nothing changed), 3 `work` could not deliver.
//!
//! Rule numbers (R4, R7, R12, ...) refer to CONTRACT.md at the repository
//! root, which also lists the command line's decisions.

#[cfg(not(target_arch = "wasm32"))]
mod cli;
#[cfg(not(target_arch = "wasm32"))]
mod clock;
#[cfg(not(target_arch = "wasm32"))]
mod http;
#[cfg(not(target_arch = "wasm32"))]
mod output;
#[cfg(not(target_arch = "wasm32"))]
mod stalled;
#[cfg(not(target_arch = "wasm32"))]
mod work;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::run()
}

/// The command line needs files, processes and sockets; the browser build
/// is the library's `web` module instead.
#[cfg(target_arch = "wasm32")]
fn main() {}
