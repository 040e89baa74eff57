//! A course author's own scenario: a lesson the page shows beside the
//! chapters, with the author's title and narration in either language.
//!
//! The author writes it in the page (inline JSON, a `data-src` file, or
//! `mount`'s options). It is checked like any scenario; a broken one is
//! not shown half-way: the page says why, in the learner's language, and
//! shows the first chapter instead.

use crate::playground::Lang;
use crate::playground::chapters::{self, PageRefusal};
use leasefence::scenario::Scenario;

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
    title: Option<String>,
    narration_ko: Option<String>,
    narration_en: Option<String>,
}

impl Lesson {
    /// Checks the source's scenario as the editor would (it must parse and
    /// fit the page).
    pub fn read(source: &Source) -> Result<Lesson, PageRefusal> {
        let text = source.scenario.as_deref().unwrap_or_default();
        let scenario = chapters::read_for_the_page(text)?;
        Ok(Lesson {
            scenario,
            title: source
                .title
                .clone()
                .filter(|title| !title.trim().is_empty()),
            narration_ko: source.narration_ko.clone(),
            narration_en: source.narration_en.clone(),
        })
    }

    /// The lesson's title, or a plain one.
    pub fn title(&self, lang: Lang) -> String {
        self.title
            .clone()
            .unwrap_or_else(|| lang.text("chapter.lesson.title").to_owned())
    }

    /// The author's narration in `lang`, else in the other language, if
    /// they wrote one.
    pub fn narration(&self, lang: Lang) -> Option<&str> {
        let (mine, other) = match lang {
            Lang::Ko => (&self.narration_ko, &self.narration_en),
            Lang::En => (&self.narration_en, &self.narration_ko),
        };
        mine.as_deref()
            .or(other.as_deref())
            .filter(|text| !text.trim().is_empty())
    }
}
