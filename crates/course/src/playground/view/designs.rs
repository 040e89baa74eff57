//! The rejected designs' point in the learner's words
//! ([`crate::variants::designs`]): for the queue's claim and each design
//! the course turns down, the claims it ran, the job's row afterwards,
//! and what became of the job.

use serde::Serialize;

use super::names::variant_name;
use crate::playground::Lang;
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
    pub took: Vec<String>,
    /// The job's row afterwards (`state = leased, owner = A, ...`), or
    /// when the table no longer has it, a sentence that says so.
    pub row: String,
    /// Whether the table no longer has the row (`row` is a sentence).
    pub gone: bool,
    /// What became of the job.
    pub said: String,
    /// `kept`, `open`, `lost` or `shared`, for styling.
    pub fate: Fate,
}

/// `designs` in `lang`.
pub(super) fn view(lang: Lang, designs: &Designs) -> DesignsView {
    DesignsView {
        runs: (designs.runs.iter())
            .map(|run| design(lang, &designs.job, run))
            .collect(),
    }
}

fn design(lang: Lang, job: &str, run: &Run) -> DesignView {
    let name = match run.design.variant() {
        Some(variant) => variant_name(lang, variant),
        None => lang.text("designs.queue").to_owned(),
    };
    let took = (run.took.iter())
        .map(|took| {
            let (worker, at) = (("worker", took.worker.clone()), ("at", took.at.to_string()));
            match &took.claim {
                Some(claim) => lang.fill(
                    "designs.took",
                    &[
                        worker,
                        at,
                        ("id", claim.id.clone()),
                        ("token", claim.token.to_string()),
                    ],
                ),
                None => lang.fill("designs.took_nothing", &[worker, at]),
            }
        })
        .collect();
    let row = match &run.row {
        Some(row) => (SHOWN.iter())
            .map(|column| format!("{column} = {}", cell(row, column)))
            .collect::<Vec<_>>()
            .join(", "),
        None => lang.fill("designs.no_row", &[("id", job.to_owned())]),
    };
    let mut values = vec![("id", job.to_owned())];
    // A lost job is in the memory of the worker that took it, whose lease
    // may have ended since; the others are said of who holds the job.
    let named = match run.fate {
        Fate::Lost => run.taker.iter().cloned().collect(),
        _ => run.holders.clone(),
    };
    for (name, worker) in ["first", "second"].into_iter().zip(named) {
        values.push((name, worker));
    }
    if let Some(until) = (run.row.as_ref()).and_then(|row| row.lease_until) {
        values.push(("until", until.to_string()));
    }
    let key = match run.fate {
        Fate::Kept => "designs.kept",
        Fate::Open => "designs.open",
        Fate::Lost => "designs.lost",
        Fate::Shared => "designs.shared",
    };
    DesignView {
        name,
        took,
        row,
        gone: run.row.is_none(),
        said: lang.fill(key, &values),
        fate: run.fate,
    }
}
