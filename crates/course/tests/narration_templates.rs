//! A chapter's text is a template filled from its own scenario and
//! replay (`Chapter::narration`): each number or name the chapter's
//! documents hold is a placeholder, never typed, so changing a scenario
//! cannot leave its text telling the old story.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use leasefence_course::mechanism::races::send_race;
use leasefence_course::playground::chapters;
use leasefence_course::playground::statements::SEND_MS;
use leasefence_course::playground::{CHAPTERS, Lang};

/// `text` without its `{placeholders}`.
fn outside_placeholders(text: &str) -> String {
    let mut kept = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        kept.push_str(&rest[..open]);
        rest = rest[open..].split_once('}').map_or("", |(_, after)| after);
    }
    kept + rest
}

/// The runs of digits in `text`.
fn numbers(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_chapter_text_fills_every_placeholder_in_both_languages() {
    for chapter in CHAPTERS {
        assert!(!chapter.facts().is_empty(), "{}: replays", chapter.id);
        for lang in [Lang::En, Lang::Ko] {
            let told = chapter.narration(lang);
            assert!(
                !told.contains('{') && !told.contains('}'),
                "{} ({}): a placeholder names nothing in the chapter's documents: {told}",
                chapter.id,
                lang.tag()
            );
        }
    }
}

#[test]
fn no_chapter_text_types_a_number_its_documents_hold() {
    for chapter in CHAPTERS {
        let facts = chapter.facts();
        for lang in [Lang::En, Lang::Ko] {
            let template = lang.text(chapter.text);
            let typed: Vec<(String, Vec<&str>)> = numbers(&outside_placeholders(template))
                .into_iter()
                .filter_map(|number| {
                    let paths: Vec<&str> = (facts.iter())
                        .filter(|(_, value)| *value == number)
                        .map(|(path, _)| path.as_str())
                        .take(3)
                        .collect();
                    (!paths.is_empty()).then_some((number, paths))
                })
                .collect();
            assert!(
                typed.is_empty(),
                "{} ({}): typed numbers the replay or scenario holds (write a placeholder, e.g. {{{}}}): {typed:?}",
                chapter.id,
                lang.tag(),
                typed.first().map_or("", |(_, paths)| paths[0])
            );
        }
    }
}

/// The value at `path` (`results.0.claim.token`) in `document`, as text.
fn at_path(document: &serde_json::Value, path: &str) -> Option<String> {
    let value = path
        .split('.')
        .try_fold(document, |value, step| match step.parse::<usize>() {
            Ok(index) => value.get(index),
            Err(_) => value.get(step),
        })?;
    Some(match value {
        serde_json::Value::String(text) => text.clone(),
        other => other.to_string(),
    })
}

#[test]
fn every_fact_is_the_value_at_its_path_in_the_scenario_or_the_replay() {
    for chapter in CHAPTERS {
        let scenario: serde_json::Value = serde_json::from_str(chapter.scenario()).expect("JSON");
        let replay = leasefence::replay_json(chapter.scenario()).expect("replays");
        let replay = serde_json::to_value(replay).expect("serializes");
        let races =
            serde_json::json!({"races": {"send_inside": send_race(true, SEND_MS).expect("runs")}});
        for (path, value) in chapter.facts() {
            let document = match path.split('.').next() {
                Some("jobs" | "events") => &scenario,
                Some("races") => &races,
                _ => &replay,
            };
            let found = at_path(document, &path).or_else(|| {
                // A job's max_attempts may be left out of the scenario as
                // written; the parser supplies its default.
                path.ends_with(".max_attempts").then(|| value.clone())
            });
            assert_eq!(
                found.as_deref(),
                Some(value.as_str()),
                "{}: the fact {path} (left: the document's value at that path, right: the fact)",
                chapter.id
            );
        }
    }
}

/// The course points shown at places of a chapter follow the same rule as
/// its narration: filled from the chapter's documents, nothing typed.
#[test]
fn every_course_point_fills_from_its_chapter_and_types_no_number_it_holds() {
    for (chapter, point) in chapters::points() {
        let facts = chapter.facts();
        for lang in [Lang::En, Lang::Ko] {
            let told = point.text(chapter, lang, "A");
            assert!(
                !told.contains('{') && !told.contains('}'),
                "{} ({}): a placeholder names nothing: {told}",
                point.key,
                lang.tag()
            );
            let typed: Vec<String> = numbers(&outside_placeholders(lang.text(point.text)))
                .into_iter()
                .filter(|number| facts.iter().any(|(_, value)| value == number))
                .collect();
            assert!(
                typed.is_empty(),
                "{} ({}): typed numbers its chapter's documents hold: {typed:?}",
                point.key,
                lang.tag()
            );
        }
    }
}
