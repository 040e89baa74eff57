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

pub use api::{Player, Queue, Receiver, replay};

/// Installs a panic hook, so a bug shows its message and place in the
/// console instead of "unreachable executed". (The message is enough to
/// find the bug; a JavaScript stack of the wasm frames adds little.)
#[wasm_bindgen::prelude::wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("leasefence: {info}").into());
    }));
}
