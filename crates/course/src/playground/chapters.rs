//! The chapters a learner walks through, in course order: one folder each
//! under `chapters/` at the repository's root (its scenario, its expected
//! replay, its title and text in each language), listed by the build
//! script (`build/chapters.rs`). The golden tests replay the same
//! scenarios, so what the page shows is exactly what they check.

use super::Lang;

/// One chapter: an id (also its message keys `chapter.<id>.title/.text`)
/// and its scenario document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chapter {
    /// Stable id, used in URLs and `data-scenario`: its folder's name
    /// after the number.
    pub id: &'static str,
    /// Its scenario document, without its layout.
    json: &'static str,
    /// Whether the fencing off/on comparison is the point of the chapter.
    pub compare: bool,
}

impl Chapter {
    /// The chapter's scenario JSON.
    pub fn scenario(&self) -> &'static str {
        self.json
    }

    /// The chapter's text in `lang`, its placeholders filled from its own
    /// scenario and replay: `{results.2.at}` is the time of the replay's
    /// third result, `{jobs.0.deadline}` the first job's deadline,
    /// `{events.0.lease_ms}` the lease the first event asks for (any path
    /// into the scenario's `jobs` and `events` or the replay's `results`
    /// and `rows`; `{results.1.worker|가}` adds the particle). A number or
    /// a name the chapter's documents say is never typed into its text
    /// (`tests/narration_templates.rs`), so a change to the scenario
    /// cannot leave the text telling the old story.
    pub fn narration(&self, lang: Lang) -> String {
        let key = format!("chapter.{}.text", self.id);
        let facts = self.facts();
        let values: Vec<(&str, String)> = (facts.iter())
            .map(|(path, value)| (path.as_str(), value.clone()))
            .collect();
        lang.fill(&key, &values)
    }

    /// Every number and string of the chapter's scenario as written
    /// (`jobs`, `events`) and of its replay (`results`, `rows`), by its path: what
    /// [`Chapter::narration`] may say. Empty if the chapter did not replay
    /// (a test replays every chapter).
    pub fn facts(&self) -> Vec<(String, String)> {
        let written = serde_json::from_str::<serde_json::Value>(self.json);
        let replayed = leasefence::replay_json(self.json).map(serde_json::to_value);
        let (Ok(scenario), Ok(Ok(replay))) = (written, replayed) else {
            return Vec::new();
        };
        let mut facts = Vec::new();
        for (name, document) in [
            ("jobs", &scenario),
            ("events", &scenario),
            ("results", &replay),
            ("rows", &replay),
        ] {
            flatten(name, &document[name], &mut facts);
        }
        facts
    }
}

/// The leaves of `value` under `path` (`results.0.claim.token`), as text.
fn flatten(path: &str, value: &serde_json::Value, into: &mut Vec<(String, String)>) {
    use serde_json::Value;
    match value {
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                flatten(&format!("{path}.{index}"), item, into);
            }
        }
        Value::Object(fields) => {
            for (name, item) in fields {
                flatten(&format!("{path}.{name}"), item, into);
            }
        }
        Value::Number(number) => into.push((path.to_owned(), number.to_string())),
        Value::String(text) => into.push((path.to_owned(), text.clone())),
        Value::Bool(_) | Value::Null => {}
    }
}

// `CHAPTERS`, written by the build script from the folders.
include!(concat!(env!("OUT_DIR"), "/chapters.rs"));

/// The most `jobs × events` the page replays into frames: each frame may
/// copy the table, so a hostile link with 10,000 jobs and 20,000 events
/// would exhaust the tab. `leasefence replay` takes any size.
pub const PAGE_LIMIT: usize = 2_000_000;

/// Whether the page can show `scenario`; the refusal names the sizes.
pub fn fits_the_page(scenario: &leasefence::Scenario) -> leasefence::Result<()> {
    let enqueued = scenario
        .events
        .iter()
        .filter(|event| matches!(event.action, leasefence::Action::Enqueue(_)))
        .count();
    let jobs = scenario.jobs.len() + enqueued;
    let cost = jobs.max(1).saturating_mul(scenario.events.len());
    if cost > PAGE_LIMIT {
        return Err(leasefence::Error::Scenario {
            path: "(document)".into(),
            problem: leasefence::Problem::TooLargeForThePage {
                jobs,
                events: scenario.events.len(),
                max: PAGE_LIMIT,
            },
        });
    }
    Ok(())
}

/// The chapter with this id.
pub fn find(id: &str) -> Option<&'static Chapter> {
    CHAPTERS.iter().find(|chapter| chapter.id == id)
}
