//! What the narration tests share (`tests/chapters.rs`, `tests/invariants_panel.rs`):
//! a chapter's scenario and replay, one result's fields picked out of the
//! replay, and the check that a text says the replay's numbers in both
//! languages. A narration is checked against the replay, never against a
//! copy of its wording.

use leasefence_course::playground::{CHAPTERS, Lang};
use serde_json::Value;

/// The chapter's scenario JSON.
pub fn chapter(id: &str) -> &'static str {
    CHAPTERS
        .iter()
        .find(|chapter| chapter.id == id)
        .expect("a chapter")
        .scenario()
}

/// The chapter's replay document, as JSON values.
pub fn replayed(id: &str) -> Value {
    let document = leasefence::replay_json(chapter(id)).expect("replays");
    serde_json::to_value(document).expect("serializes")
}

/// Result `n`'s fields named in `fields` (`claim.id` reaches one level
/// in), as one object.
pub fn pick(doc: &Value, n: usize, fields: &[&str]) -> Value {
    let result = &doc["results"][n];
    let picked = fields.iter().map(|field| {
        let value = match field.split_once('.') {
            Some((head, tail)) => &result[head][tail],
            None => &result[*field],
        };
        ((*field).to_owned(), value.clone())
    });
    Value::Object(picked.collect())
}

/// The text `text_of` gives in each language says each of `numbers`;
/// `what` names the text in the failure.
pub fn says_numbers(what: &str, text_of: impl Fn(Lang) -> String, numbers: &[&Value]) {
    for lang in [Lang::En, Lang::Ko] {
        let text = text_of(lang);
        let missing: Vec<String> = numbers
            .iter()
            .map(|number| number.to_string())
            .filter(|number| !text.contains(number.as_str()))
            .collect();
        check!(
            missing,
            Vec::<String>::new(),
            "{what} ({}): numbers it should say",
            lang.tag()
        );
    }
}

/// The chapter's narration, filled from its own replay as the page shows
/// it, says each of `numbers`, in both languages.
pub fn narrates(id: &str, numbers: &[&Value]) {
    let chapter = CHAPTERS
        .iter()
        .find(|chapter| chapter.id == id)
        .expect("a chapter");
    says_numbers(id, |lang| chapter.narration(lang), numbers);
}
