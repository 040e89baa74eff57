//! The preset timelines a learner walks through, in course order. Each is
//! one of the shipped scenarios ([`crate::scenarios`]), which the golden
//! tests replay too, so what the page shows is exactly what they check.

/// One preset: an id (also its message keys `chapter.<id>.title/.text`) and
/// its scenario document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chapter {
    /// Stable id, used in URLs and `data-scenario`.
    pub id: &'static str,
    /// The name of its shipped scenario.
    pub scenario_name: &'static str,
    /// Whether the fencing off/on comparison is the point of the chapter.
    pub compare: bool,
}

impl Chapter {
    /// The chapter's scenario JSON (empty, and so refused by the parser,
    /// if its name were not shipped; a test replays every chapter).
    pub fn scenario(&self) -> &'static str {
        crate::scenarios::find(self.scenario_name).map_or("", |shipped| shipped.json)
    }
}

macro_rules! chapter {
    ($id:literal, $name:literal, $compare:literal) => {
        Chapter {
            id: $id,
            scenario_name: $name,
            compare: $compare,
        }
    };
}

/// Every chapter, in the order the course tells the story.
pub const CHAPTERS: &[Chapter] = &[
    chapter!("canonical", "canonical", false),
    chapter!("expiry-boundary", "expiry-boundary", false),
    chapter!("deadline-caps-lease", "deadline-caps-lease", false),
    chapter!("quarantine", "quarantine", false),
    chapter!("polling-cannot-steal", "polling-cannot-steal", false),
    chapter!("restart-same-name", "restart-same-name", false),
    chapter!("late-delivery", "late-delivery", false),
    chapter!("deadline-expired", "deadline-expired", false),
    chapter!("fencing-off-vs-on", "fencing-off-vs-on", true),
    chapter!("write-lock", "write-lock", false),
    chapter!("every-ordering", "every-ordering", false),
];

/// The most `jobs × events` the page replays into frames: each frame may
/// copy the table, so a hostile link with 10,000 jobs and 20,000 events
/// would exhaust the tab. `leasefence replay` takes any size.
pub const PAGE_LIMIT: usize = 2_000_000;

/// Whether the page can show `scenario`; the refusal names the sizes.
pub fn fits_the_page(scenario: &crate::Scenario) -> crate::Result<()> {
    let enqueued = scenario
        .events
        .iter()
        .filter(|event| matches!(event.action, crate::Action::Enqueue(_)))
        .count();
    let jobs = scenario.jobs.len() + enqueued;
    let cost = jobs.max(1).saturating_mul(scenario.events.len());
    if cost > PAGE_LIMIT {
        return Err(crate::Error::Scenario {
            path: "(document)".into(),
            problem: crate::Problem::TooLargeForThePage {
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
