//! The helpers of the queue's own tests (`tests/support` at the
//! repository's root: side-by-side failures, R14, the chapters' scenarios
//! and expected replays), and the course's: its message files, a session
//! on a chapter, the narration tests' helpers.

#![allow(dead_code)] // each test file uses a different part of this module

#[macro_use]
#[path = "../../../../tests/support/mod.rs"]
mod shared;

pub use shared::*;

/// A language's message file as written (the product carries its texts as
/// tables made by the build script, not the file).
pub fn message_file(lang: leasefence_course::playground::Lang) -> &'static str {
    match lang {
        leasefence_course::playground::Lang::En => {
            include_str!("../../src/playground/messages/en.json")
        }
        leasefence_course::playground::Lang::Ko => {
            include_str!("../../src/playground/messages/ko.json")
        }
    }
}

/// A session on a chapter, at its start.
pub fn session(
    chapter: &str,
    lang: leasefence_course::playground::Lang,
) -> leasefence_course::playground::session::Session {
    let found = leasefence_course::playground::CHAPTERS
        .iter()
        .find(|c| c.id == chapter)
        .expect("a chapter");
    let scenario = leasefence::Scenario::parse(found.scenario()).expect("parses");
    leasefence_course::playground::session::Session::new(lang, chapter, scenario).expect("replays")
}

/// One move on, as a predicting learner makes it: the question asked
/// answered (yes to a verdict, `token` to a refusal's condition), or a
/// step when none is asked.
pub fn answer_or_step(session: &mut leasefence_course::playground::session::Session) {
    use leasefence_course::playground::stepper::Question;
    match session.stepper.question() {
        Some(Question::Field) => {
            session.stepper.answer_field("token");
        }
        Some(_) => {
            session.stepper.guess(true);
        }
        None => {
            session.stepper.step();
        }
    }
}

/// The narration tests' shared helpers.
pub mod narration;

/// The world of a screen, against which `tests/screens.rs` checks what
/// the screen's sentences assert.
#[cfg(not(target_arch = "wasm32"))]
pub mod world;

/// The Korean messages as written, keyed: the message file's, and each
/// chapter's title, text and points (from its folder, as the product
/// carries them).
pub fn korean_messages() -> Vec<(String, String)> {
    use leasefence_course::playground::{CHAPTERS, Lang};
    let table: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(message_file(Lang::Ko)).expect("ko.json parses");
    let mut messages: Vec<(String, String)> = table
        .into_iter()
        .map(|(key, value)| (key, value.as_str().unwrap_or_default().to_owned()))
        .collect();
    for chapter in CHAPTERS {
        let points = (chapter.points.iter())
            .map(|point| (format!("point.{}", point.key), [point.title, point.text]));
        let own = (
            format!("chapter.{}", chapter.id),
            [chapter.title, chapter.text],
        );
        for (owner, [title, text]) in std::iter::once(own).chain(points) {
            for (part, key) in [("title", title), ("text", text)] {
                messages.push((format!("{owner}.{part}"), Lang::Ko.text(key).to_owned()));
            }
        }
    }
    messages
}

/// The chapter about the statement panel: the one whose `chapter.json`
/// opens it.
pub fn statement_chapter() -> &'static str {
    use leasefence_course::playground::{CHAPTERS, chapters::Panel};
    CHAPTERS
        .iter()
        .find(|chapter| chapter.opens.contains(&Panel::Statements))
        .expect("a chapter opens the statement panel")
        .id
}

/// The names and numbers in `text`: runs of ASCII letters, digits and
/// dashes (a Korean particle after a name is not part of it), so a test
/// can ask whether a sentence names a worker or a job.
pub fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|word| !word.is_empty())
        .collect()
}
