//! What the world says of the lab's answers.

use super::*;

impl World {
    /// Whether the world holds an assertion about the lab.
    pub(super) fn lab_fact(&self, assertion: &Assertion) -> std::result::Result<(), String> {
        match assertion {
            Assertion::LabPassed {
                level,
                sql,
                scenarios,
                orderings,
            } => {
                let level = self.lab_level(level, sql)?;
                let graded = grade(&level, sql, &chapter_scenarios());
                let checked = match graded.map_err(|err| err.to_string())? {
                    Graded::Passed { checked } => (checked.scenarios, checked.orderings),
                    Graded::Failed { .. } => return Err("it fails when graded".to_owned()),
                };
                expect((*scenarios, *orderings), checked, "(scenarios, orderings)")
            }
            Assertion::LabParted {
                level,
                sql,
                scenario,
                event,
                expected,
                current,
                ..
            } => {
                let level = self.lab_level(level, sql)?;
                let scenario = Scenario::parse(scenario).map_err(|err| err.to_string())?;
                parted(&level, sql, &scenario, *event, (expected, current.as_ref()))
            }
            other => Err(format!("not {other:?}")),
        }
    }

    /// The lab's level `id`, when the lab is open on it with `sql` in its
    /// box: an answer beside another statement is a stale one.
    fn lab_level(&self, id: &str, sql: &str) -> std::result::Result<Level, String> {
        let (open, shown) = self.lab.as_ref().ok_or("no lab open")?;
        expect(id, open, "the level")?;
        expect(sql, shown.as_str(), "the statement in the box")?;
        Level::find(id).ok_or(format!("no level {id}"))
    }
}

/// Whether `scenario`, played from its start on the queue and on the
/// queue with `sql` in place of the level's statement, agrees on every
/// event before `event` and there parts as said: the queue doing
/// `expected`, the learner's `current` (`None`: SQLite stopped it).
fn parted(
    level: &Level,
    sql: &str,
    scenario: &Scenario,
    event: usize,
    (expected, current): (&Did, Option<&Did>),
) -> std::result::Result<(), String> {
    let err = |err: leasefence::error::Error| err.to_string();
    let Writes::Statement(replaces) = level.writes else {
        return Err("a script is graded on interleavings, not events".to_owned());
    };
    let outside = Outside::new(replaces, sql).map_err(err)?;
    let mut queue = Player::new(scenario.first(0)).map_err(err)?;
    let mut learner = Player::new(scenario.first(0)).map_err(err)?;
    for (index, played) in scenario.events().iter().enumerate() {
        let did = |outcome: Outcome| match outcome {
            Outcome::Finished(finish) => Did::Finish {
                accepted: finish.accepted(),
            },
            Outcome::Claimed { claim } => Did::Claim { claim },
            _ => Did::Other,
        };
        let wanted = did(queue.play(played).map_err(err)?);
        let got = match (&played.action, replaces) {
            (Action::Finish, Replaces::Finish) => match learner.held_claim(&played.worker).cloned()
            {
                Some(claim) => (learner.queue())
                    .finish_outside(&outside, &claim.stamp(), played.at)
                    .map(|(accepted, _)| Did::Finish { accepted })
                    .ok(),
                None => Some(Did::Finish { accepted: false }),
            },
            (Action::Claim { lease_ms }, Replaces::Claim) => {
                let owner = played.claim_owner();
                let claimed =
                    (learner.queue()).claim_outside(&outside, owner, played.at, *lease_ms);
                claimed.ok().map(|claim| {
                    if let Some(claim) = &claim {
                        learner.hold(&played.worker, claim.clone());
                    }
                    Did::Claim { claim }
                })
            }
            _ => Some(did(learner.play(played).map_err(err)?)),
        };
        let rows_agree = queue.rows().map_err(err)? == learner.rows().map_err(err)?;
        if index < event {
            let agreed = got.as_ref() == Some(&wanted) && rows_agree;
            expect(true, agreed, &format!("the two agree at event {index}"))?;
        } else {
            expect(expected, &wanted, "what the queue did")?;
            expect(current, got.as_ref(), "what the learner's statement did")?;
            return Ok(());
        }
    }
    Err(format!("no event {event}"))
}
