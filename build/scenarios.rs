//! Writes each shipped scenario (`scenarios/<name>.json`, not the expected
//! replays) to `OUT_DIR/scenarios/` without its layout: the files are laid
//! out for people, the page only parses them, so the module learners
//! download carries the compact text.

use std::path::Path;

/// Writes the compact copies; panics (failing the build) on a file that is
/// not JSON.
pub fn generate() {
    println!("cargo::rerun-if-changed=scenarios");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("scenarios");
    std::fs::create_dir_all(&out).expect("OUT_DIR is writable");
    let entries = std::fs::read_dir("scenarios").expect("scenarios/ exists");
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if !name.ends_with(".json") || name.ends_with(".expected.json") {
            continue;
        }
        println!("cargo::rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{name}: {err}"));
        let value: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|err| panic!("{name}: {err}"));
        std::fs::write(out.join(name), value.to_string()).expect("OUT_DIR is writable");
    }
}
