//! The build script: a wasm build stops when SQLite's parser and its C
//! code were made with different grammar-level options
//! ([`sqlite_flags`]).

mod sqlite_flags;

fn main() {
    println!("cargo::rerun-if-changed=build");
    sqlite_flags::check();
}
