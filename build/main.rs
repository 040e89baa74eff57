//! The build script, in two parts:
//!
//! * [`sqlite_flags`]: a wasm build stops when SQLite's parser and its C
//!   code were made with different grammar-level options;
//! * [`messages`]: the Korean and English message files become tables in
//!   the code, checked to have the same keys;
//! * [`scenarios`]: the shipped scenarios are embedded without their layout.

mod messages;
mod scenarios;
mod sqlite_flags;

fn main() {
    println!("cargo::rerun-if-changed=build");
    sqlite_flags::check();
    messages::generate();
    scenarios::generate();
}
