//! The chapters a learner walks through, in course order: one folder each
//! under `chapters/` at the repository's root (its scenario, its expected
//! replay, its title and text in each language), listed by the build
//! script (`build/chapters.rs`). The golden tests replay the same
//! scenarios, so what the page shows is exactly what they check.
//!
//! A chapter also places the course's points that no event shows by
//! itself: what a claim hands its worker, that there is no heartbeat,
//! SQS's visibility timeout, the rollback journal, a receiver that checks
//! no token, a token that is no credential. Each is attached to the place
//! in a chapter where the learner sees what it is about (its folder's
//! `chapter.json` places it, its `en.json` and `ko.json` say it), and the
//! step card shows it when they stand there: a step of the story, not a
//! footnote ([`Point`]). `tests/chapters.rs` states each point's facts
//! against the chapter's replay.

use leasefence::{Action, Claim, NewJob, Outcome, Scenario};

use crate::key;
use crate::playground::messages::Key;
use crate::timeline::Timeline;

use super::Lang;

/// One chapter: an id (also its message keys `chapter.<id>.title/.text`),
/// its scenario document, the panels it is about and its course points,
/// as its folder's files say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chapter {
    /// Stable id, used in URLs and `data-scenario`: its folder's name
    /// after the number.
    pub id: &'static str,
    /// Its title's message (`chapter.<id>.title`).
    pub title: Key,
    /// Its narration's message (`chapter.<id>.text`), a template
    /// [`Chapter::narration`] fills.
    pub text: Key,
    /// Its scenario document, without its layout.
    json: &'static str,
    /// Its timeline written down (its folder's `timeline.json`), if the
    /// folder has one: see [`Chapter::timeline`].
    written: Option<&'static str>,
    /// The panels that are the point of the chapter: they open when it
    /// loads (`chapter.json`'s `opens`).
    pub opens: &'static [Panel],
    /// Its course points, in the order of their places (`chapter.json`'s
    /// `points`).
    pub points: &'static [Point],
}

/// A panel beside the timeline that a chapter may be about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    /// The timeline replayed with a naive finish, beside the real one.
    Compare,
    /// The statement panel: claims taken apart into statements, with the
    /// write lock.
    Statements,
    /// The invariants panel, with every ordering.
    Invariants,
}

impl Chapter {
    /// The chapter's scenario JSON.
    pub fn scenario(&self) -> &'static str {
        self.json
    }

    /// The timeline of `scenario`: for the chapter's own, read from its
    /// folder's `timeline.json` ([`Chapter::written_timeline`]), so the
    /// page draws a chapter while SQLite, in the module's second part, is
    /// still on its way; replayed for any other scenario. Also replayed if
    /// the file cannot be read back: the learner still sees what the queue
    /// does, and the course's tests fail on such a file.
    pub fn timeline(&self, scenario: &Scenario) -> leasefence::error::Result<Timeline> {
        self.written_timeline(scenario)
            .map_or_else(|| Timeline::build(scenario.clone()), Ok)
    }

    /// The chapter's timeline as its folder's `timeline.json` wrote it down
    /// (what the queue and SQLite did at each event; `make bless` writes
    /// it, and the tests compare it with a replay), when `scenario` is the
    /// chapter's own and the file reads back.
    fn written_timeline(&self, scenario: &Scenario) -> Option<Timeline> {
        let own = Scenario::parse(self.json).is_ok_and(|own| own == *scenario);
        Timeline::read(scenario, self.written.filter(|_| own)?)
    }

    /// Whether the chapter's first drawing runs no SQLite: its timeline is
    /// written down and it opens no panel (the panels replay, and play
    /// every ordering, when they open).
    pub fn drawn_without_sqlite(&self) -> bool {
        self.written.is_some() && self.opens.is_empty()
    }

    /// The chapter's text in `lang`, its placeholders filled from its own
    /// scenario and replay (its timeline's results): `{results.2.at}` is the time of the replay's
    /// third result, `{jobs.0.deadline}` the first job's deadline,
    /// `{events.0.lease_ms}` the lease the first event asks for (any path
    /// [`Chapter::facts`] lists; `{results.1.worker|가}` adds the
    /// particle). A number or
    /// a name the chapter's documents say is never typed into its text
    /// (`tests/narration_templates.rs`), so a change to the scenario
    /// cannot leave the text telling the old story.
    pub fn narration(&self, lang: Lang) -> String {
        self.fill(lang, self.text, None)
    }

    /// The message `key` in `lang` filled from [`Chapter::facts`], and
    /// `{worker}` from `worker` when given: a chapter's narration, or a
    /// course point shown in it.
    pub fn fill(&self, lang: Lang, key: Key, worker: Option<&str>) -> String {
        let facts = self.facts();
        let values: Vec<(&str, String)> = (worker.map(|worker| ("worker", worker.to_owned())))
            .into_iter()
            .chain(
                facts
                    .iter()
                    .map(|(path, value)| (path.as_str(), value.clone())),
            )
            .collect();
        lang.fill(key, &values)
    }

    /// Every number and name of the chapter's scenario (`jobs`, `events`),
    /// of its replay's `results` (each claim whole, read off its timeline) and, in a chapter
    /// about the statement panel, of its send race with the send inside the
    /// transaction (`races.send_inside`), by its path in those documents: what [`Chapter::narration`] may say. Read off
    /// the typed values rather than a JSON tree, which the page's module
    /// would carry only for this; `tests/narration_templates.rs` holds
    /// every path to the documents' JSON. Empty if the chapter did not
    /// replay (a test replays every chapter).
    pub fn facts(&self) -> Vec<(String, String)> {
        let Ok(scenario) = Scenario::parse(self.json) else {
            return Vec::new();
        };
        let Ok(timeline) = self.timeline(&scenario) else {
            return Vec::new();
        };
        let mut facts = Facts::default();
        for (index, job) in scenario.jobs().iter().enumerate() {
            facts.job(&format!("jobs.{index}"), job);
        }
        for (index, event) in scenario.events().iter().enumerate() {
            let at = format!("events.{index}");
            facts.say(&at, "at", event.at);
            facts.say(&at, "worker", &event.worker);
            if let Some(owner) = &event.owner {
                facts.say(&at, "owner", owner);
            }
            match &event.action {
                Action::Claim { lease_ms } => facts.say(&at, "lease_ms", lease_ms),
                Action::Enqueue(job) => facts.job(&format!("{at}.job"), job),
                Action::Finish | Action::Send => {}
            }
        }
        for (index, result) in timeline
            .frames
            .iter()
            .map(|frame| &frame.result)
            .enumerate()
        {
            let at = format!("results.{index}");
            facts.say(&at, "at", result.at);
            facts.say(&at, "worker", &result.worker);
            if let Outcome::Claimed { claim: Some(claim) } = &result.outcome {
                facts.claim(&format!("{at}.claim"), claim);
            }
        }
        // A chapter about the statement panel tells its send race: how
        // long each actor waited for the lock with the send inside the
        // transaction (`races.send_inside.waited_ms.producer`).
        if self.opens.contains(&Panel::Statements) {
            let inside = crate::mechanism::races::send_race(true, super::statements::SEND_MS);
            for (actor, waited) in inside.iter().flat_map(|run| &run.waited_ms) {
                facts.say("races.send_inside.waited_ms", actor, waited);
            }
        }
        facts.0
    }
}

/// The facts gathered so far: each value by its path.
#[derive(Default)]
struct Facts(Vec<(String, String)>);

impl Facts {
    fn say(&mut self, at: &str, field: &str, value: impl ToString) {
        self.0.push((format!("{at}.{field}"), value.to_string()));
    }

    fn job(&mut self, at: &str, job: &NewJob) {
        self.say(at, "id", &job.id);
        self.say(at, "qty", job.qty);
        self.say(at, "deadline", job.deadline);
        self.say(at, "max_attempts", job.max_attempts);
    }

    fn claim(&mut self, at: &str, claim: &Claim) {
        self.say(at, "id", &claim.id);
        self.say(at, "qty", claim.qty);
        self.say(at, "owner", &claim.owner);
        self.say(at, "token", claim.token);
        self.say(at, "attempt", claim.attempt);
        self.say(at, "lease_until", claim.lease_until);
    }
}

// `CHAPTERS`, written by the build script from the folders.
include!(concat!(env!("OUT_DIR"), "/chapters.rs"));

/// The most `jobs × events` the page replays into frames: each frame may
/// copy the table, so a hostile link with 10,000 jobs and 20,000 events
/// would exhaust the tab. `leasefence replay` takes any size.
pub const PAGE_LIMIT: usize = 2_000_000;

/// Why the page will not show a timeline: the queue refused it, or it is
/// too large to step through. The second is the page's own limit, so it is
/// the course's problem, not the queue's.
#[derive(Debug)]
pub enum PageRefusal {
    /// The scenario parser or the queue refused it.
    Scenario(leasefence::Error),
    /// More `jobs × events` than [`PAGE_LIMIT`].
    TooLarge {
        /// Jobs, from the start and enqueued.
        jobs: usize,
        /// Events.
        events: usize,
    },
}

impl From<leasefence::Error> for PageRefusal {
    fn from(err: leasefence::Error) -> Self {
        PageRefusal::Scenario(err)
    }
}

/// In English, as the command line and the console say it.
impl std::fmt::Display for PageRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PageRefusal::Scenario(err) => err.fmt(f),
            PageRefusal::TooLarge { jobs, events } => write!(
                f,
                "scenario: (document): {jobs} jobs × {events} events is too large for the playground (at most {PAGE_LIMIT}); replay it with `leasefence replay`"
            ),
        }
    }
}

impl PageRefusal {
    /// The refusal in the learner's language: where, then what.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            PageRefusal::Scenario(err) => super::explain::error_text(lang, err),
            PageRefusal::TooLarge { jobs, events } => {
                let n = |value: &usize| value.to_string();
                let problem = lang.fill(
                    key!("problem.too_large_for_the_page"),
                    &[
                        ("jobs", n(jobs)),
                        ("events", n(events)),
                        ("max", n(&PAGE_LIMIT)),
                    ],
                );
                super::explain::placed(lang, "(document)", problem)
            }
        }
    }
}

/// The scenario in `text`, if the page can show it: it parses, and fits.
pub fn read_for_the_page(text: &str) -> Result<leasefence::Scenario, PageRefusal> {
    let scenario = leasefence::Scenario::parse(text)?;
    fits_the_page(&scenario)?;
    Ok(scenario)
}

/// Whether the page can show `scenario`; the refusal names the sizes.
pub fn fits_the_page(scenario: &leasefence::Scenario) -> Result<(), PageRefusal> {
    let enqueued = scenario
        .events()
        .iter()
        .filter(|event| matches!(event.action, leasefence::Action::Enqueue(_)))
        .count();
    let jobs = scenario.jobs().len() + enqueued;
    let cost = jobs.max(1).saturating_mul(scenario.events().len());
    if cost > PAGE_LIMIT {
        return Err(PageRefusal::TooLarge {
            jobs,
            events: scenario.events().len(),
        });
    }
    Ok(())
}

/// The chapter with this id.
pub fn find(id: &str) -> Option<&'static Chapter> {
    CHAPTERS.iter().find(|chapter| chapter.id == id)
}

/// The timeline of `scenario` shown as the chapter `id` (or another
/// timeline: a lesson, the sandbox): read where the chapter wrote it down
/// when it is the chapter's own ([`Chapter::timeline`]), else replayed.
pub fn timeline_of(id: &str, scenario: &Scenario) -> leasefence::error::Result<Timeline> {
    find(id).map_or_else(
        || Timeline::build(scenario.clone()),
        |chapter| chapter.timeline(scenario),
    )
}

/// Every chapter's id and scenario JSON, in course order: what the lab
/// grades a learner's statement on ([`crate::lab::grade`]).
pub fn chapter_scenarios() -> Vec<(&'static str, &'static str)> {
    CHAPTERS
        .iter()
        .map(|chapter| (chapter.id, chapter.scenario()))
        .collect()
}

/// A course point, at a position of its chapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// How many events are applied when it is shown.
    pub position: usize,
    /// Which point it is: its messages are `point.<key>.title` and
    /// `point.<key>.text`.
    pub key: &'static str,
    /// Its heading's message.
    pub title: Key,
    /// Its text's message, a template [`Point::text`] fills.
    pub text: Key,
}

/// The point that shows the claim itself, as the contract's JSON.
pub const CLAIM_RESULT: &str = "claim_result";

/// The point that runs the lease's end read every way
/// ([`crate::variants::boundary`]).
pub const ONE_BOUNDARY: &str = "one_boundary";

/// The point that runs the designs the course turns down, a claim that
/// deletes its job and one that leaves it visible
/// ([`crate::variants::designs`]).
pub const WHY_LEASED: &str = "why_leased";

impl Point {
    /// The point's text in `lang`, said of `worker` (the one who acts at
    /// its place), its other numbers and names filled from `chapter`'s
    /// scenario and replay ([`Chapter::facts`]).
    pub fn text(&self, chapter: &Chapter, lang: Lang, worker: &str) -> String {
        chapter.fill(lang, self.text, Some(worker))
    }
}

/// Every course point with its chapter, in course order.
pub fn points() -> impl Iterator<Item = (&'static Chapter, &'static Point)> {
    CHAPTERS
        .iter()
        .flat_map(|chapter| chapter.points.iter().map(move |point| (chapter, point)))
}

/// The point shown at `position` of the chapter with id `chapter`, with
/// that chapter.
pub fn point_at(chapter: &str, position: usize) -> Option<(&'static Chapter, &'static Point)> {
    points().find(|(found, point)| found.id == chapter && point.position == position)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The folder of the chapter `id`, as the build script names it
    /// (`chapters/<NN>-<id>`).
    fn folder(id: &str) -> PathBuf {
        let chapters = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../chapters");
        std::fs::read_dir(&chapters)
            .expect("chapters/ exists")
            .flatten()
            .map(|entry| entry.path())
            .find(|path| {
                path.file_name()
                    .and_then(|name| name.to_str())
                    .and_then(|name| name.split_once('-'))
                    .is_some_and(|(_, named)| named == id)
            })
            .unwrap_or_else(|| panic!("no folder chapters/NN-{id}"))
    }

    /// The page draws a chapter from its folder's `timeline.json`: each
    /// must read back as, event for event, what the queue on SQLite plays
    /// now (R14: both printed, the file's and the replay's). `BLESS=1`
    /// (`make bless`) writes them again.
    #[test]
    fn each_chapter_is_drawn_from_the_timeline_the_queue_plays() {
        let bless = std::env::var_os("BLESS").is_some();
        for chapter in CHAPTERS {
            let scenario = Scenario::parse(chapter.json).expect("a chapter's scenario parses");
            let played = Timeline::build(scenario.clone()).expect("a chapter replays");
            let path = folder(chapter.id).join("timeline.json");
            if bless {
                let value: serde_json::Value =
                    serde_json::from_str(&played.written()).expect("written as JSON");
                let text = serde_json::to_string_pretty(&value).expect("JSON") + "\n";
                if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                    std::fs::write(&path, text).expect("the chapter folder is writable");
                    println!("wrote {}", path.display());
                }
                continue;
            }
            let kept = chapter.written_timeline(&scenario);
            assert!(
                kept.as_ref() == Some(&played),
                "{}: expected the timeline the queue plays now:\n{}\ncurrent (read back from the file):\n{:?}\n\
                 run `make bless` to write it again",
                path.display(),
                played.written(),
                kept.map(|timeline| timeline.written()),
            );
        }
    }

    /// A scenario other than the chapter's own is replayed, not read from
    /// the chapter's file, even with as many events.
    #[test]
    fn a_changed_scenario_is_replayed_not_read() {
        let chapter = &CHAPTERS[0];
        let own = Scenario::parse(chapter.json).expect("parses");
        let mut changed: serde_json::Value = serde_json::from_str(chapter.json).expect("JSON");
        let last = changed["events"]
            .as_array_mut()
            .and_then(|events| events.last_mut())
            .expect("a chapter has events");
        last["at"] = (last["at"].as_u64().expect("a time") + 1).into();
        let changed = Scenario::parse(&changed.to_string()).expect("parses");
        assert_eq!(changed.events().len(), own.events().len());
        assert!(chapter.written_timeline(&changed).is_none());
        let timeline = chapter.timeline(&changed).expect("replays");
        let last_at = timeline.frames.last().map(|frame| frame.result.at);
        assert_eq!(
            last_at,
            changed.events().last().map(|event| event.at),
            "expected the changed scenario's last time; current {last_at:?}"
        );
        assert!(timeline == Timeline::build(changed).expect("replays"));
    }
}
