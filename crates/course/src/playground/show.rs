//! What a playground shows beyond its timeline.
//!
//! An embed is a lesson: a course author puts one chapter (or their own
//! lesson) beside their text, and a learner who finds eleven chapters, a
//! scenario editor and five panels under it wanders off the lesson. So an
//! embed shows the timeline, its step and its rows, and the panels its
//! chapter is about; every other part is off unless the author asks for
//! it ([`Show`]), and nothing on screen leads to another chapter unless
//! the picker is shown too. The full page, which is the whole course,
//! shows them all. [`Layout`] is the decision for one screen, which the
//! page only draws.

use serde::Serialize;

use super::chapters::{self, Panel};
use leasefence::scenario::{Action, Scenario};

/// The parts an author may add to an embed; each is off unless asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Show {
    /// The course's header (its title and tagline) and the chapter picker:
    /// the learner may go to another chapter.
    pub chapters: bool,
    /// The sandbox: the workers' buttons on the lanes (stall, crash,
    /// restart) and the scenario editor, which turn the chapter into the
    /// learner's own timeline.
    pub sandbox: bool,
    /// Every panel (the boundary's sliders, the statements, the invariants
    /// and orderings, the comparison), not only those the chapter is about.
    pub tools: bool,
    /// The lab, where the learner writes the queue's SQL.
    pub lab: bool,
}

impl Show {
    /// Every part: the full page, the whole course.
    pub const EVERYTHING: Show = Show {
        chapters: true,
        sandbox: true,
        tools: true,
        lab: true,
    };

    /// The parts named by `names`, as an author writes them
    /// (`data-show="chapters tools"`, `show: "lab"`): `chapters`,
    /// `sandbox`, `tools` or `lab` each; the error is the first name that
    /// is none of them.
    pub fn read<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Show, &'a str> {
        let mut show = Show::default();
        for name in names {
            let part = match name {
                "chapters" => &mut show.chapters,
                "sandbox" => &mut show.sandbox,
                "tools" => &mut show.tools,
                "lab" => &mut show.lab,
                other => return Err(other),
            };
            *part = true;
        }
        Ok(show)
    }

    /// Whether a panel is on screen: every one with [`Show::tools`], else
    /// those the chapter (or the chapter a timeline was forked from) is
    /// about.
    pub(crate) fn panel(self, chapter: &str, panel: Panel) -> bool {
        let about = chapters::find(chapter).map_or(&[][..], |chapter| chapter.opens);
        self.tools || about.contains(&panel)
    }
}

/// What one screen shows, part by part (each `false` is hidden).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// The course's title, tagline, chapter picker, key help and footer;
    /// else the title of what is shown stands in their place.
    pub course: bool,
    /// The sandbox: the workers' buttons on the lanes and the editor.
    pub sandbox: bool,
    /// The boundary's sliders.
    pub boundary: bool,
    /// The statement panel.
    pub statements: bool,
    /// The invariants and orderings panel.
    pub invariants: bool,
    /// The comparison with a naive finish.
    pub compare: bool,
    /// The lab.
    pub lab: bool,
    /// The receiver's ledger: where the timeline sends, or may be made to.
    pub receiver: bool,
}

/// The layout of a screen showing `scenario`, a timeline of `chapter`
/// (forked from it, or the chapter itself): what `show` asks for, the
/// panels the chapter is about, the statement panel while it shows the
/// lab's race (`lab_race`), and the receiver when the timeline sends.
pub fn layout(show: Show, chapter: &str, scenario: &Scenario, lab_race: bool) -> Layout {
    let sends = (scenario.events())
        .iter()
        .any(|event| matches!(event.action, Action::Send));
    Layout {
        course: show.chapters,
        sandbox: show.sandbox,
        boundary: show.tools,
        statements: show.panel(chapter, Panel::Statements) || lab_race,
        invariants: show.panel(chapter, Panel::Invariants),
        compare: show.panel(chapter, Panel::Compare),
        lab: show.lab,
        receiver: show.sandbox || sends,
    }
}
