//! Stops a wasm build whose SQLite parser and SQLite C code were made with
//! different grammar-level `SQLITE_OMIT_*` options.
//!
//! The browser build compiles `vendor/sqlite/sqlite3.c`, whose parser was
//! generated under the options in `vendor/sqlite/regen/grammar-flags.txt`
//! (the amalgamation ends with a marker naming them). The C compiler gets
//! `SQLITE_WASM_RS_FLAGS` from `.cargo/config.toml`. If the two sets differ,
//! SQLite still builds but the parser produces code for features the C side
//! left out (or the reverse), which fails only at run time, or silently, so
//! the mismatch must fail here. Native builds use rusqlite's bundled SQLite
//! and are not checked.
//!
//! The check lives in the web crate, beside the other size measures, since
//! the trimmed SQLite exists for the browser package's bytes. The `[env]`
//! of `.cargo/config.toml` gives every wasm build of the workspace the same
//! SQLite, so the queue's own browser tests run on what the package ships;
//! a build of the queue alone is still guarded by the `#error` lines at the
//! top of the vendored `sqlite3.c` (vendor/sqlite/README.md).

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

const FLAGS_ENV: &str = "SQLITE_WASM_RS_FLAGS";
const SOURCE_DIR_ENV: &str = "SQLITE_WASM_RS_SOURCE_DIR";
/// Every grammar-level option, from the workspace root's `vendor/sqlite/`
/// (a build script runs in its package's folder).
const GRAMMAR_OPTIONS: &str = "../../vendor/sqlite/grammar-options.txt";
/// The last line `scripts/regen-sqlite.sh` appends to the amalgamation.
const MARKER: &str = "/* OMIT flags baked into the parser:";

/// Panics (failing the build) when the two sets of options differ.
pub fn check() {
    println!("cargo::rerun-if-changed={GRAMMAR_OPTIONS}");
    println!("cargo::rerun-if-env-changed={FLAGS_ENV}");
    println!("cargo::rerun-if-env-changed={SOURCE_DIR_ENV}");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("wasm32") {
        return;
    }
    let options = std::fs::read_to_string(GRAMMAR_OPTIONS)
        .expect("vendor/sqlite/grammar-options.txt (written by scripts/regen-sqlite.sh)");
    let grammar: BTreeSet<&str> = options
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .collect();

    // What the C compiler gets, in order: a later -U undoes an earlier -D.
    let flags = std::env::var(FLAGS_ENV).unwrap_or_default();
    let mut compiled = BTreeSet::new();
    for flag in flags.split_whitespace() {
        let (define, name) = match flag.strip_prefix("-U") {
            Some(name) => (false, name),
            None => (true, flag.strip_prefix("-D").unwrap_or(flag)),
        };
        let name = name.split('=').next().unwrap_or(name);
        if let Some(&option) = grammar.get(name) {
            if define {
                compiled.insert(option.to_owned());
            } else {
                compiled.remove(option);
            }
        }
    }

    // What the parser was generated with: none for sqlite-wasm-rs's own
    // amalgamation, else the marker at the end of the one we point it at.
    let parsed = match std::env::var_os(SOURCE_DIR_ENV) {
        None => BTreeSet::new(),
        Some(dir) => {
            let source = Path::new(&dir).join("sqlite3.c");
            println!("cargo::rerun-if-changed={}", source.display());
            baked(&source)
        }
    };

    if compiled != parsed {
        let list = |set: &BTreeSet<String>| set.iter().cloned().collect::<Vec<_>>().join(" ");
        panic!(
            "SQLite's parser and its C code disagree on grammar-level options.\n  \
             parser ({SOURCE_DIR_ENV}/sqlite3.c): {}\n  \
             compiler ({FLAGS_ENV}): {}\n  \
             only in the parser: {}\n  only in the compiler: {}\n\
             Make them equal: edit vendor/sqlite/regen/grammar-flags.txt and run \
             scripts/regen-sqlite.sh, or change SQLITE_WASM_RS_FLAGS in .cargo/config.toml.",
            list(&parsed),
            list(&compiled),
            list(&parsed.difference(&compiled).cloned().collect()),
            list(&compiled.difference(&parsed).cloned().collect()),
        );
    }
}

/// The options named by the marker line at the end of an amalgamation; none
/// when it has no marker (an amalgamation as SQLite ships it).
fn baked(source: &Path) -> BTreeSet<String> {
    let mut file = File::open(source)
        .unwrap_or_else(|err| panic!("{}: {err} (check {SOURCE_DIR_ENV})", source.display()));
    let length = file.metadata().map(|meta| meta.len()).unwrap_or(0);
    let mut tail = Vec::new();
    file.seek(SeekFrom::Start(length.saturating_sub(4096)))
        .and_then(|_| file.read_to_end(&mut tail))
        .unwrap_or_else(|err| panic!("{}: {err}", source.display()));
    let tail = String::from_utf8_lossy(&tail);
    let Some(line) = tail.lines().rev().find(|line| line.starts_with(MARKER)) else {
        return BTreeSet::new();
    };
    line[MARKER.len()..]
        .trim_end_matches("*/")
        .split_whitespace()
        .map(|flag| flag.trim_start_matches("-D").to_owned())
        .collect()
}
