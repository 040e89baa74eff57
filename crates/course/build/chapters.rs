//! Reads the chapters, one folder each (`chapters/<NN>-<id>/` at the
//! repository's root), in the order of their numbers:
//!
//! * `scenario.json`, its timeline, written to `OUT_DIR/chapters/<id>.json`
//!   without its layout (laid out for people, only parsed by the page, so
//!   the module learners download carries the compact text);
//! * `en.json` and `ko.json`, its `title` and `text` in each language,
//!   which become the messages `chapter.<id>.title` and `.text`, and the
//!   `title` and `text` of each of its course points (`points`, by key),
//!   which become `point.<key>.title` and `.text`;
//! * `chapter.json`, if there is one: the panels the chapter is about,
//!   which open when it loads (`"opens": ["compare", "invariants"]`), and
//!   its course points, each shown at a place in its timeline
//!   (`"points": [{"position": 2, "key": "no_heartbeat"}]`: once two
//!   events are applied).
//!
//! * `timeline.json`, if there is one: its timeline written down (what the
//!   queue and SQLite did at each event), embedded without its layout, so
//!   the page draws the chapter without SQLite (`timeline::written`).
//!
//! `expected.json`, its expected replay, is the golden tests' (`make
//! bless` writes it and `timeline.json`). The list of chapters becomes `OUT_DIR/chapters.rs`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The folder of chapters, seen from this crate's own folder.
const FOLDER: &str = "../../chapters";

/// One chapter folder, read.
pub struct Folder {
    /// The id: the folder's name after its number.
    pub id: String,
    /// Its texts in each language (`en`, `ko`).
    pub texts: BTreeMap<&'static str, Texts>,
}

/// A chapter's texts in one language.
pub struct Texts {
    /// Its title.
    pub title: String,
    /// Its narration.
    pub text: String,
    /// Each of its points' key, title and text.
    pub points: Vec<(String, String, String)>,
}

/// The panels a chapter may open, as `chapter.json` names them, and the
/// variant of `playground::chapters::Panel` each becomes.
const PANELS: [(&str, &str); 3] = [
    ("compare", "Compare"),
    ("statements", "Statements"),
    ("invariants", "Invariants"),
];

/// What a chapter's `chapter.json` says (nothing, without one).
#[derive(Default)]
struct Settings {
    /// The panels it opens, as `Panel` variants.
    opens: Vec<&'static str>,
    /// Its points: how many events are applied when each shows, and its key.
    points: Vec<(u64, String)>,
}

impl Settings {
    fn read(path: &Path, name: &str) -> Settings {
        if !path.exists() {
            return Settings::default();
        }
        let value = json(path);
        let object = value
            .as_object()
            .unwrap_or_else(|| panic!("chapters/{name}/chapter.json: an object"));
        let mut settings = Settings::default();
        for (key, value) in object {
            match key.as_str() {
                "opens" => {
                    for panel in strings(value, name, "opens") {
                        let known = PANELS.iter().find(|(written, _)| *written == panel);
                        settings.opens.push(known.map(|(_, variant)| *variant).unwrap_or_else(
                            || panic!("chapters/{name}/chapter.json: opens {panel:?}, not a panel (known: compare, statements, invariants)"),
                        ));
                    }
                }
                "points" => {
                    let points = value.as_array().unwrap_or_else(|| {
                        panic!("chapters/{name}/chapter.json: points is a list")
                    });
                    for point in points {
                        let position = point.get("position").and_then(serde_json::Value::as_u64);
                        let key = point.get("key").and_then(serde_json::Value::as_str);
                        let (Some(position), Some(key), Some(2)) =
                            (position, key, point.as_object().map(|o| o.len()))
                        else {
                            panic!(
                                "chapters/{name}/chapter.json: a point is {{\"position\": n, \"key\": \"...\"}}, got {point}"
                            );
                        };
                        assert!(
                            settings
                                .points
                                .iter()
                                .all(|(at, known)| *at != position && known != key),
                            "chapters/{name}/chapter.json: two points at {position} or named {key:?}"
                        );
                        settings.points.push((position, key.to_owned()));
                    }
                }
                other => panic!(
                    "chapters/{name}/chapter.json: unknown key {other:?} (known: opens, points)"
                ),
            }
        }
        settings
    }
}

/// The strings of the array `value` (the chapter.json key `key`).
fn strings(value: &serde_json::Value, name: &str, key: &str) -> Vec<String> {
    value
        .as_array()
        .and_then(|items| {
            items
                .iter()
                .map(|item| item.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_else(|| panic!("chapters/{name}/chapter.json: {key} is a list of names"))
}

impl Texts {
    /// Reads `en.json` or `ko.json`: a title, a text, and a title and text
    /// for each point `settings` places, and nothing else.
    fn read(path: &Path, settings: &Settings) -> Texts {
        let value = json(path);
        let string = |value: &serde_json::Value, key: &str, of: &str| -> String {
            value
                .get(key)
                .and_then(serde_json::Value::as_str)
                .unwrap_or_else(|| panic!("{}: {of}needs a string {key:?}", path.display()))
                .to_owned()
        };
        for key in value
            .as_object()
            .into_iter()
            .flat_map(|object| object.keys())
        {
            assert!(
                ["title", "text", "points"].contains(&key.as_str()),
                "{}: unknown key {key:?} (known: title, text, points)",
                path.display()
            );
        }
        let written = value.get("points").and_then(serde_json::Value::as_object);
        let placed: Vec<&str> = settings
            .points
            .iter()
            .map(|(_, key)| key.as_str())
            .collect();
        for key in written.into_iter().flat_map(|points| points.keys()) {
            assert!(
                placed.contains(&key.as_str()),
                "{}: point {key:?} is not placed by chapter.json's points",
                path.display()
            );
        }
        let points = placed
            .iter()
            .map(|key| {
                let point = written
                    .and_then(|points| points.get(*key))
                    .unwrap_or_else(|| {
                        panic!(
                            "{}: points needs {key:?}, which chapter.json places",
                            path.display()
                        )
                    });
                let of = format!("points.{key} ");
                (
                    (*key).to_owned(),
                    string(point, "title", &of),
                    string(point, "text", &of),
                )
            })
            .collect();
        Texts {
            title: string(&value, "title", ""),
            text: string(&value, "text", ""),
            points,
        }
    }
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
        // A file that is not JSON (a merge conflict) is left out rather than
        // stopping the build, so that `make bless` can write it again; the
        // course's tests fail until it does.
        let timeline = dir.join("timeline.json");
        if timeline.exists() {
            println!("cargo::rerun-if-changed={}", timeline.display());
        }
        let written = match std::fs::read_to_string(&timeline)
            .ok()
            .map(|text| serde_json::from_str::<serde_json::Value>(&text))
        {
            Some(Ok(value)) => {
                std::fs::write(
                    out.join("chapters").join(format!("{id}.timeline.json")),
                    value.to_string(),
                )
                .expect("OUT_DIR is writable");
                format!(
                    "Some(include_str!(concat!(env!(\"OUT_DIR\"), \"/chapters/{id}.timeline.json\")))"
                )
            }
            Some(Err(err)) => {
                println!("cargo::warning=chapters/{name}/timeline.json: {err}; run `make bless`");
                "None".to_owned()
            }
            None => "None".to_owned(),
        };
        let settings = Settings::read(&dir.join("chapter.json"), &name);
        let mut texts = BTreeMap::new();
        for lang in ["en", "ko"] {
            texts.insert(
                lang,
                Texts::read(&dir.join(format!("{lang}.json")), &settings),
            );
        }
        let _ = writeln!(
            list,
            "    Chapter {{ id: {id:?}, title: crate::key!(\"chapter.{id}.title\"), text: crate::key!(\"chapter.{id}.text\"), json: include_str!(concat!(env!(\"OUT_DIR\"), \"/chapters/{id}.json\")), written: {written}, opens: &[{opens}], points: &[{points}] }},",
            opens = settings
                .opens
                .iter()
                .map(|panel| format!("Panel::{panel}"))
                .collect::<Vec<_>>()
                .join(", "),
            points = settings
                .points
                .iter()
                .map(|(position, key)| {
                    format!(
                        "Point {{ position: {position}, key: {key:?}, title: crate::key!(\"point.{key}.title\"), text: crate::key!(\"point.{key}.text\") }}"
                    )
                })
                .collect::<Vec<_>>()
                .join(", "),
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
