//! Reads the chapters, one folder each (`chapters/<NN>-<id>/` at the
//! repository's root), in the order of their numbers:
//!
//! * `scenario.json`, its timeline, written to `OUT_DIR/chapters/<id>.json`
//!   without its layout (laid out for people, only parsed by the page, so
//!   the module learners download carries the compact text);
//! * `en.json` and `ko.json`, its `title` and `text` in each language,
//!   which become the messages `chapter.<id>.title` and `.text`;
//! * `chapter.json`, if there is one: `{"compare": true}` when the fencing
//!   off/on comparison is the point of the chapter.
//!
//! `expected.json`, its expected replay, is the golden tests' (`make
//! bless` writes it). The list of chapters becomes `OUT_DIR/chapters.rs`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The folder of chapters, seen from this crate's own folder.
const FOLDER: &str = "../../chapters";

/// One chapter folder, read.
pub struct Folder {
    /// The id: the folder's name after its number.
    pub id: String,
    /// Its title and text in each language (`en`, `ko`).
    pub texts: BTreeMap<&'static str, (String, String)>,
}

/// Writes the compact scenarios and the list; returns the folders in
/// order. Panics (failing the build) on a folder that lacks a file, a file
/// that is not JSON, or a key the chapter files do not know.
pub fn generate() -> Vec<Folder> {
    println!("cargo::rerun-if-changed={FOLDER}");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::create_dir_all(out.join("chapters")).expect("OUT_DIR is writable");
    let mut names: Vec<String> = std::fs::read_dir(FOLDER)
        .expect("chapters/ exists")
        .flatten()
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut list = String::from(
        "/// Every chapter, in the order the course tells the story.\npub const CHAPTERS: &[Chapter] = &[\n",
    );
    let mut folders = Vec::new();
    for name in names {
        let dir = Path::new(FOLDER).join(&name);
        let id = match name.split_once('-') {
            Some((number, id))
                if number.len() == 2 && number.bytes().all(|b| b.is_ascii_digit()) =>
            {
                id
            }
            _ => panic!(
                "chapters/{name}: a chapter folder is named NN-id (two digits, a dash, its id)"
            ),
        };
        let scenario = json(&dir.join("scenario.json"));
        std::fs::write(
            out.join("chapters").join(format!("{id}.json")),
            scenario.to_string(),
        )
        .expect("OUT_DIR is writable");
        let compare = match dir.join("chapter.json").exists() {
            true => {
                let settings = json(&dir.join("chapter.json"));
                let object = settings
                    .as_object()
                    .unwrap_or_else(|| panic!("chapters/{name}/chapter.json: an object"));
                for key in object.keys() {
                    assert!(
                        key == "compare",
                        "chapters/{name}/chapter.json: unknown key {key:?} (known: compare)"
                    );
                }
                object
                    .get("compare")
                    .and_then(serde_json::Value::as_bool)
                    .unwrap_or(false)
            }
            false => false,
        };
        let mut texts = BTreeMap::new();
        for lang in ["en", "ko"] {
            let path = dir.join(format!("{lang}.json"));
            let value = json(&path);
            let text = |key: &str| -> String {
                value
                    .get(key)
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or_else(|| panic!("{}: needs a string {key:?}", path.display()))
                    .to_owned()
            };
            if let Some(object) = value.as_object() {
                for key in object.keys() {
                    assert!(
                        key == "title" || key == "text",
                        "{}: unknown key {key:?} (known: title, text)",
                        path.display()
                    );
                }
            }
            texts.insert(lang, (text("title"), text("text")));
        }
        let _ = writeln!(
            list,
            "    Chapter {{ id: {id:?}, json: include_str!(concat!(env!(\"OUT_DIR\"), \"/chapters/{id}.json\")), compare: {compare} }},"
        );
        folders.push(Folder {
            id: id.to_owned(),
            texts,
        });
    }
    list.push_str("];\n");
    std::fs::write(out.join("chapters.rs"), list).expect("OUT_DIR is writable");
    folders
}

fn json(path: &Path) -> serde_json::Value {
    println!("cargo::rerun-if-changed={}", path.display());
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}
