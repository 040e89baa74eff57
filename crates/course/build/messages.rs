//! Turns `src/playground/messages/{en,ko}.json` into tables in
//! `OUT_DIR/messages.rs`: the keys' hashes, sorted, and each language's
//! texts in the same order, each table one string with the ends of its
//! entries (one run of text compresses better than many literals). The
//! code finds a message's place while it is compiled, by a binary search of
//! its key's hash (`Key`), so the module learners download holds no key's
//! text, no JSON parser and no hash map for them. A key
//! missing from either file stops the build here, naming it. Each
//! chapter's title and text (its folder's `en.json` and `ko.json`) join
//! the tables as `chapter.<id>.title` and `chapter.<id>.text`, and its
//! points' as `point.<key>.title` and `point.<key>.text`.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::chapters::Folder;

include!("../src/playground/messages/key_hash.rs");

/// Each table's name, its language's code in the chapter folders, and its
/// message file.
const FILES: [(&str, &str, &str); 2] = [
    ("EN", "en", "src/playground/messages/en.json"),
    ("KO", "ko", "src/playground/messages/ko.json"),
];

/// Writes the tables; panics (failing the build) on a broken file or a key
/// only one language has.
pub fn generate(chapters: &[Folder]) {
    let tables: Vec<(&str, BTreeMap<String, String>)> = FILES
        .iter()
        .map(|(name, lang, path)| {
            println!("cargo::rerun-if-changed={path}");
            let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"));
            let mut table: BTreeMap<String, String> =
                serde_json::from_str(&text).unwrap_or_else(|err| panic!("{path}: {err}"));
            for chapter in chapters {
                let texts = &chapter.texts[lang];
                let id = &chapter.id;
                let own = [
                    (format!("chapter.{id}.title"), &texts.title),
                    (format!("chapter.{id}.text"), &texts.text),
                ];
                let points = texts.points.iter().flat_map(|(key, title, text)| {
                    [
                        (format!("point.{key}.title"), title),
                        (format!("point.{key}.text"), text),
                    ]
                });
                for (key, value) in own.into_iter().chain(points) {
                    if table.insert(key.clone(), value.clone()).is_some() {
                        panic!("{path}: {key} is said twice (it belongs in one chapter's folder)");
                    }
                }
            }
            // `⋯` is what the page shows for a message it has no text
            // for (`GAP` in src/playground/messages.rs): no text may use it.
            if let Some((key, _)) = table.iter().find(|(_, text)| text.contains('⋯')) {
                panic!("{path}: {key} uses ⋯, which marks a message with no text");
            }
            (*name, table)
        })
        .collect();
    let keys: Vec<&String> = tables[0].1.keys().collect();
    for (name, table) in &tables[1..] {
        let other: Vec<&String> = table.keys().collect();
        if other != keys {
            let only = |a: &[&String], b: &[&String]| -> Vec<String> {
                a.iter()
                    .filter(|key| !b.contains(key))
                    .map(|key| key.to_string())
                    .collect()
            };
            panic!(
                "message files differ: only in {}: {:?}; only in {name}: {:?}",
                tables[0].0,
                only(&keys, &other),
                only(&other, &keys)
            );
        }
    }
    // The keys in the order of their hashes, which the page searches.
    let mut hashed: Vec<(u32, &String)> = keys.iter().map(|key| (key_hash(key), *key)).collect();
    hashed.sort();
    for pair in hashed.windows(2) {
        if pair[0].0 == pair[1].0 {
            panic!(
                "message keys {} and {} share a hash: rename one",
                pair[0].1, pair[1].1
            );
        }
    }
    // `Key` is the place in the tables as a `u16`, `u16::MAX` meaning none.
    assert!(
        hashed.len() < usize::from(u16::MAX),
        "{} message keys: widen Key",
        hashed.len()
    );
    let mut code = String::new();
    let hashes: Vec<u32> = hashed.iter().map(|(hash, _)| *hash).collect();
    let _ = writeln!(code, "const HASHES: &[u32] = &{hashes:?};");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    // Each language's texts as a file of their own (`messages.<lang>.json`,
    // in the order of HASHES), which `make web` copies beside the page's
    // module: with the `fetched-messages` feature the module carries no
    // text and fetches its learner's language alone. The fingerprint ties
    // a file to the HASHES it was written for, so a file left from another
    // build is refused rather than read out of order.
    let fingerprint = hashes
        .iter()
        .flat_map(|hash| hash.to_le_bytes())
        .fold(0x811c_9dc5_u32, |hash, byte| {
            (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
        });
    for ((_, lang, _), (_, texts)) in FILES.iter().zip(&tables) {
        let ordered: Vec<&String> = hashed.iter().map(|(_, key)| &texts[*key]).collect();
        let file = serde_json::json!({ "fingerprint": fingerprint, "texts": ordered });
        std::fs::write(format!("{out}/messages.{lang}.json"), file.to_string())
            .expect("OUT_DIR is writable");
    }
    if std::env::var_os("CARGO_FEATURE_FETCHED_MESSAGES").is_some() {
        let _ = writeln!(code, "const FINGERPRINT: u32 = {fingerprint};");
        std::fs::write(format!("{out}/messages.rs"), code).expect("OUT_DIR is writable");
        return;
    }
    let mut table = |name: &str, items: &mut dyn Iterator<Item = &String>| {
        let (mut text, mut ends) = (String::new(), Vec::new());
        for item in items {
            text.push_str(item);
            // Two bytes an end: half the table of `usize`s, and every
            // language's texts fit (the build stops the day one does not).
            let end = u16::try_from(text.len())
                .unwrap_or_else(|_| panic!("{name} passed 65,535 bytes: widen Table::ends"));
            ends.push(end);
        }
        let _ = writeln!(
            code,
            "const {name}: Table = Table {{ text: {text:?}, ends: &{ends:?} }};"
        );
    };
    for (name, texts) in &tables {
        table(name, &mut hashed.iter().map(|(_, key)| &texts[*key]));
    }
    std::fs::write(format!("{out}/messages.rs"), code).expect("OUT_DIR is writable");
}
