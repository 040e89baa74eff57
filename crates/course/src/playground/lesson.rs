//! A course author's own scenario: a lesson the page shows beside the
//! chapters, with the author's title and narration in either language.
//!
//! The author writes it in the page (inline JSON, a `data-src` file, or
//! `mount`'s options), or a link carries it (`#v=1&scenario=...`, an
//! iframe's address). It is checked like any scenario; a broken one is
//! not shown half-way: the page says why, in the learner's language, and
//! shows the first chapter instead.
//!
//! A lesson document is a scenario document that may also hold `title`
//! and `narration`, each a text for both languages or `{"ko": ...,
//! "en": ...}`. It is read in one pass with the scenario's own reader
//! ([`leasefence::scenario::read_document`]), so a mistake anywhere in it
//! is placed by path, line and column, as in a scenario.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::key;
use crate::playground::Lang;
use crate::playground::chapters::{self, PageRefusal};
use leasefence::NewJob;
use leasefence::scenario::{Scenario, WrittenEvent};

/// The chapter id of the author's lesson.
pub const LESSON: &str = "lesson";

/// What an author gave for their lesson; every part optional but the
/// scenario.
#[derive(Debug, Clone)]
pub struct Source {
    /// The scenario as JSON text, or why it could not be fetched.
    pub scenario: std::result::Result<String, String>,
    /// The lesson's title.
    pub title: Option<String>,
    /// The narration in Korean.
    pub narration_ko: Option<String>,
    /// The narration in English.
    pub narration_en: Option<String>,
}

impl Default for Source {
    fn default() -> Source {
        Source {
            scenario: Ok(String::new()),
            title: None,
            narration_ko: None,
            narration_en: None,
        }
    }
}

/// An author's lesson, checked.
#[derive(Debug, Clone)]
pub struct Lesson {
    /// The timeline.
    pub scenario: Scenario,
    title: Texts,
    narration: Texts,
}

/// A lesson document as written: the scenario's keys and the author's.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrittenLesson {
    #[serde(default)]
    title: Texts,
    #[serde(default)]
    narration: Texts,
    #[serde(default)]
    jobs: Vec<NewJob>,
    events: Vec<WrittenEvent>,
}

/// An author's text in each language; an empty or blank one is none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
struct Texts {
    #[serde(skip_serializing_if = "Option::is_none")]
    ko: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    en: Option<String>,
}

impl Texts {
    /// The same text in both languages.
    fn both(text: Option<&str>) -> Texts {
        Texts {
            ko: text.map(str::to_owned),
            en: text.map(str::to_owned),
        }
        .written()
    }

    /// Without the blank ones.
    fn written(self) -> Texts {
        let keep = |text: Option<String>| text.filter(|text| !text.trim().is_empty());
        Texts {
            ko: keep(self.ko),
            en: keep(self.en),
        }
    }

    /// Each language from `self`, else from `fallback`.
    fn or(self, fallback: Texts) -> Texts {
        Texts {
            ko: self.ko.or(fallback.ko),
            en: self.en.or(fallback.en),
        }
    }

    /// The text in `lang`, else in the other language.
    fn in_lang(&self, lang: Lang) -> Option<&str> {
        let (mine, other) = match lang {
            Lang::Ko => (&self.ko, &self.en),
            Lang::En => (&self.en, &self.ko),
        };
        mine.as_deref().or(other.as_deref())
    }

    fn is_empty(&self) -> bool {
        self.ko.is_none() && self.en.is_none()
    }
}

/// `"one text"` (both languages) or `{"ko": "...", "en": "..."}`, read
/// where they stand in the document, so a mistake keeps its line and
/// column.
impl<'de> Deserialize<'de> for Texts {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Texts, D::Error> {
        struct TextsVisitor;
        impl<'de> Visitor<'de> for TextsVisitor {
            type Value = Texts;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string, or an object with `ko` and `en` strings")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Texts, E> {
                Ok(Texts::both(Some(text)))
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Texts, M::Error> {
                let mut texts = Texts::default();
                while let Some(key) = map.next_key::<String>()? {
                    let slot = match key.as_str() {
                        "ko" => &mut texts.ko,
                        "en" => &mut texts.en,
                        other => return Err(de::Error::unknown_field(other, &["ko", "en"])),
                    };
                    *slot = Some(map.next_value()?);
                }
                Ok(texts.written())
            }
        }
        deserializer.deserialize_any(TextsVisitor)
    }
}

/// What `leasefence check FILE` prints and the package's `check(text)`
/// returns: `{ok: true, jobs, events}` (and the `title` and `narration`
/// the document gives, each `{ko, en}`), or `{ok: false, error}` with the
/// refusal in English, naming the key, its line and column.
pub fn check(text: &str) -> serde_json::Value {
    let source = Source {
        scenario: Ok(text.to_owned()),
        ..Source::default()
    };
    match Lesson::read(&source) {
        Ok(lesson) => {
            let mut answer = serde_json::json!({
                "ok": true,
                "jobs": lesson.scenario.jobs().len(),
                "events": lesson.scenario.events().len(),
            });
            for (key, texts) in [("title", &lesson.title), ("narration", &lesson.narration)] {
                if !texts.is_empty() {
                    answer[key] = serde_json::json!(texts);
                }
            }
            answer
        }
        Err(refused) => serde_json::json!({ "ok": false, "error": refused.to_string() }),
    }
}

impl Lesson {
    /// Reads the source's lesson document as the editor reads a scenario
    /// (it must parse and fit the page). The source's own title and
    /// narration (the element's attributes, `mount`'s options) come before
    /// the document's.
    pub fn read(source: &Source) -> Result<Lesson, PageRefusal> {
        let text = source.scenario.as_deref().unwrap_or_default();
        let written: WrittenLesson = leasefence::scenario::read_document(text)?;
        let scenario = Scenario::from_written(written.jobs, written.events)?;
        chapters::fits_the_page(&scenario)?;
        let narration = Texts {
            ko: source.narration_ko.clone(),
            en: source.narration_en.clone(),
        };
        Ok(Lesson {
            scenario,
            title: Texts::both(source.title.as_deref()).or(written.title),
            narration: narration.written().or(written.narration),
        })
    }

    /// Whether the author gave a title or a narration (a link's scenario
    /// without either is the learner's own timeline, not a lesson).
    pub fn has_words(&self) -> bool {
        !(self.title.is_empty() && self.narration.is_empty())
    }

    /// The lesson's title, or a plain one.
    pub fn title(&self, lang: Lang) -> String {
        (self.title.in_lang(lang))
            .unwrap_or_else(|| lang.text(key!("chapter.lesson.title")))
            .to_owned()
    }

    /// The author's narration in `lang`, else in the other language, if
    /// they wrote one.
    pub fn narration(&self, lang: Lang) -> Option<&str> {
        self.narration.in_lang(lang)
    }

    /// The lesson as a lesson document (what [`Lesson::read`] reads): the
    /// scenario's keys, and the title and narration the author gave.
    pub fn to_json(&self) -> String {
        // The author's keys first, then the scenario's document (always
        // an object: `{"jobs":...,"events":...}`) without its `{`.
        let scenario = self.scenario.to_json();
        let mut document = String::from("{");
        for (key, texts) in [("title", &self.title), ("narration", &self.narration)] {
            if let (false, Ok(texts)) = (texts.is_empty(), serde_json::to_string(texts)) {
                document.push_str(&format!("\"{key}\":{texts},"));
            }
        }
        document.push_str(scenario.strip_prefix('{').unwrap_or(&scenario));
        document
    }
}

/// The message of the title of `id`: a chapter's, an author's lesson's
/// (which shows its own when it has one: [`Lesson::title`]) or the
/// sandbox's.
pub fn title_key(id: &str) -> crate::playground::messages::Key {
    match chapters::find(id) {
        Some(chapter) => chapter.title,
        None if id == LESSON => key!("chapter.lesson.title"),
        None => key!("chapter.sandbox.title"),
    }
}
