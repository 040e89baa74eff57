//! The rejected designs' point in the learner's words
//! ([`crate::variants::designs`]): for the queue's claim and each design
//! the course turns down, the claims it ran, the job's row afterwards,
//! and what became of the job.

use serde::Serialize;

use super::names::variant_name;
use crate::key;
use crate::playground::Lang;
use crate::playground::assertions::{Assertion, DesignFact, Said};
use crate::playground::explain::cell;
use crate::variants::designs::{Designs, Fate, Run};

/// The row's columns a design changes or leaves: the ones that say who
/// has the job and until when.
const SHOWN: [&str; 4] = ["state", "owner", "token", "lease_until"];

/// The timeline's first events played by every design.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DesignsView {
    /// One block per design, the queue's first.
    pub runs: Vec<DesignView>,
}

/// One design's run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DesignView {
    /// The design's name: the queue's, or its variant's.
    pub name: String,
    /// Each claim and what it took.
    pub took: Vec<Said>,
    /// The job's row afterwards (`state = leased, owner = A, ...`), or
    /// when the table no longer has it, a sentence that says so.
    pub row: Said,
    /// Whether the table no longer has the row (`row` is a sentence).
    pub gone: bool,
    /// What became of the job.
    pub said: Said,
    /// `kept`, `open`, `lost` or `shared`, for styling.
    pub fate: Fate,
}

/// `designs`, played over the first `events` events, in `lang`.
pub(super) fn view(lang: Lang, events: usize, designs: &Designs) -> DesignsView {
    DesignsView {
        runs: (designs.runs.iter())
            .map(|run| design(lang, events, &designs.job, run))
            .collect(),
    }
}

fn design(lang: Lang, events: usize, job: &str, run: &Run) -> DesignView {
    let name = match run.design.variant() {
        Some(variant) => variant_name(lang, variant),
        None => lang.text(key!("designs.queue")).to_owned(),
    };
    let said = |fact| {
        let design = run.design;
        Said::of(
            lang,
            Assertion::Designed {
                events,
                design,
                fact,
            },
        )
    };
    let took = (run.took.iter())
        .map(|took| {
            said(DesignFact::Took {
                worker: took.worker.clone(),
                at: took.at,
                claim: (took.claim.as_ref()).map(|claim| (claim.id.clone(), claim.token)),
            })
        })
        .collect();
    let row = said(DesignFact::Row {
        job: job.to_owned(),
        cells: run.row.as_ref().map(|row| {
            (SHOWN.iter())
                .map(|column| ((*column).to_owned(), cell(row, column)))
                .collect()
        }),
    });
    // A lost job is in the memory of the worker that took it, whose lease
    // may have ended since; the others are said of who holds the job.
    let named = match run.fate {
        Fate::Lost => run.taker.iter().cloned().collect(),
        _ => run.holders.clone(),
    };
    let fate = said(DesignFact::Fate {
        job: job.to_owned(),
        fate: run.fate,
        named,
        until: (run.row.as_ref()).and_then(|row| row.lease_until),
    });
    DesignView {
        name,
        took,
        row,
        gone: run.row.is_none(),
        said: fate,
        fate: run.fate,
    }
}
