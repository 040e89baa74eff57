//! What the teaching variants a point runs did, in words: the lease's
//! end read every way, and the designs the course turns down.

use crate::key;
use crate::playground::Lang;
use crate::playground::assertions::{DesignFact, ReadFact};
use crate::variants::boundary::Holders;
use crate::variants::designs::Fate;

/// What a reading of the lease's end gave at the instant `at`.
pub(super) fn read_words(lang: Lang, at: u64, fact: &ReadFact) -> String {
    match fact {
        ReadFact::Finish { worker, accepted } => lang.fill(
            match accepted {
                true => key!("readings.finish_accepted"),
                false => key!("readings.finish_refused"),
            },
            &[("worker", worker.clone())],
        ),
        ReadFact::Claim { worker, job } => match job {
            Some(job) => lang.fill(
                key!("readings.claim_took"),
                &[("worker", worker.clone()), ("id", job.clone())],
            ),
            None => lang.fill(
                key!("readings.claim_nothing"),
                &[("worker", worker.clone())],
            ),
        },
        ReadFact::Holders {
            job,
            holder,
            claimant,
            holders,
            count,
        } => {
            let mut values = vec![
                ("at", at.to_string()),
                ("id", job.clone()),
                ("holder", holder.clone()),
                ("claimant", claimant.clone()),
            ];
            for (name, worker) in ["first", "second"].into_iter().zip(holders) {
                values.push((name, worker.clone()));
            }
            let key = match count {
                Holders::One => key!("readings.one"),
                Holders::Two => key!("readings.two"),
                Holders::Gap => key!("readings.gap"),
            };
            lang.fill(key, &values)
        }
    }
}

/// What a design did with the timeline's first claims.
pub(super) fn design_words(lang: Lang, fact: &DesignFact) -> String {
    match fact {
        DesignFact::Took { worker, at, claim } => {
            let (worker, at) = (("worker", worker.clone()), ("at", at.to_string()));
            match claim {
                Some((job, token)) => lang.fill(
                    key!("designs.took"),
                    &[
                        worker,
                        at,
                        ("id", job.clone()),
                        ("token", token.to_string()),
                    ],
                ),
                None => lang.fill(key!("designs.took_nothing"), &[worker, at]),
            }
        }
        DesignFact::Row {
            cells: Some(cells), ..
        } => (cells.iter())
            .map(|(column, value)| format!("{column} = {value}"))
            .collect::<Vec<_>>()
            .join(", "),
        DesignFact::Row { job, cells: None } => {
            lang.fill(key!("designs.no_row"), &[("id", job.clone())])
        }
        DesignFact::Fate {
            job,
            fate,
            named,
            until,
        } => {
            let mut values = vec![("id", job.clone())];
            for (name, worker) in ["first", "second"].into_iter().zip(named) {
                values.push((name, worker.clone()));
            }
            if let Some(until) = until {
                values.push(("until", until.to_string()));
            }
            let key = match fate {
                Fate::Kept => key!("designs.kept"),
                Fate::Open => key!("designs.open"),
                Fate::Lost => key!("designs.lost"),
                Fate::Shared => key!("designs.shared"),
            };
            lang.fill(key, &values)
        }
    }
}
