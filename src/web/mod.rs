//! Everything browser-facing (wasm32 only), in two parts:
//!
//! * [`api`]: the queue, the receiver and `replay` for JavaScript; types in,
//!   types out, no rules;
//! * `page` (feature `page`, on by default): the playground, drawn with
//!   web-sys from the view the core computes ([`crate::playground::view`]).
//!   Without it the package is the queue alone.

pub mod api;
mod convert;
#[cfg(feature = "page")]
pub mod page;
mod words;

pub use api::{Player, Queue, Receiver, generated_scenario, replay};

/// Installs the panic hook once, so a bug shows a readable message in the
/// console instead of "unreachable executed".
#[wasm_bindgen::prelude::wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}
