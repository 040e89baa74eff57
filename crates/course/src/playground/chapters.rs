//! The chapters a learner walks through, in course order: one folder each
//! under `chapters/` at the repository's root (its scenario, its expected
//! replay, its title and text in each language), listed by the build
//! script (`build/chapters.rs`). The golden tests replay the same
//! scenarios, so what the page shows is exactly what they check.

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
