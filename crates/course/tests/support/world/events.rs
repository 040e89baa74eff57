//! What the world says of the events: what each did, what it saw, why.

use super::*;

impl World {
    /// Whether the world holds an assertion about one event.
    pub(super) fn event_fact(&self, assertion: &Assertion) -> std::result::Result<(), String> {
        match assertion {
            Assertion::Guess {
                event,
                finish,
                yes,
                right,
            } => {
                let seen = self.applied(*event)?;
                let happened = match (&seen.result.outcome, finish) {
                    (Outcome::Finished(done), true) => done.accepted(),
                    (Outcome::Claimed { claim }, false) => claim.is_some(),
                    (other, _) => return Err(format!("event {event} is {other:?}")),
                };
                expect(yes == right, happened, "what happened")
            }
            // The boundary panel tells of its finish wherever the learner
            // stands: a verdict is the timeline's, applied yet or not.
            Assertion::Finish {
                event,
                at,
                accepted,
            } => {
                let seen = self.seen(*event)?;
                let Outcome::Finished(done) = &seen.result.outcome else {
                    return Err(format!("event {event} is no finish"));
                };
                expect(*at, seen.result.at, "its time")?;
                expect(*accepted, done.accepted(), "accepted")
            }
            Assertion::Condition { .. } => self.condition(assertion),
            Assertion::Failed { event, conditions } => {
                let seen = self.applied(*event)?;
                let stamp = (seen.held.get(&seen.result.worker))
                    .ok_or(format!("{} holds no claim", seen.result.worker))?
                    .stamp();
                let row = seen.rows.iter().find(|row| row.id == stamp.id);
                let world: Vec<Condition> = match row {
                    None => vec![Condition::Id],
                    Some(row) => (Condition::ALL.into_iter())
                        .filter(|condition| !r4(*condition, &stamp, row, seen.result.at).0)
                        .collect(),
                };
                expect(conditions, &world, "the conditions failed")
            }
            Assertion::NoStamp { event, worker } => {
                let seen = self.seen(*event)?;
                expect(worker, &seen.result.worker, "its worker")?;
                expect(false, seen.held.contains_key(worker), "holds a claim")
            }
            Assertion::Sends { event, worker } => {
                let seen = self.seen(*event)?;
                expect(worker, &seen.result.worker, "its worker")?;
                expect("finish", seen.result.action, "its action")?;
                expect(true, seen.held.contains_key(worker), "holds a claim")
            }
            Assertion::Reclaimed {
                event,
                job,
                holder,
                until,
                at,
            }
            | Assertion::Held {
                event,
                job,
                holder,
                until,
                at,
            } => {
                // R5 read off the row the claim found: a lease over when
                // `lease_until <= now`, and only then may the claim take it.
                let seen = self.applied(*event)?;
                expect("claim", seen.result.action, "its action")?;
                expect(*at, seen.result.at, "its time")?;
                let before = row(seen, job)?;
                expect("leased", before.state.as_str(), "its state before")?;
                expect(Some(holder), before.owner.as_ref(), "the owner before")?;
                expect(Some(*until), before.lease_until, "lease_until before")?;
                let over = until <= at;
                let said_over = matches!(assertion, Assertion::Reclaimed { .. });
                expect(said_over, over, "lease_until <= now")?;
                expect(said_over, claimed(seen) == Some(job), "the claim took it")
            }
            Assertion::TookPending { event, job } => {
                let seen = self.applied(*event)?;
                expect(Some(job), claimed(seen), "the job claimed")?;
                expect(
                    "pending",
                    row(seen, job)?.state.as_str(),
                    "its state before",
                )
            }
            Assertion::Came { event, result } => {
                let seen = self.applied(*event)?;
                // Read off the outcome here, not with the queue's own
                // `Outcome::label`, which the page's words are made with.
                let world = match &seen.result.outcome {
                    Outcome::Claimed { claim: Some(_) } => "claimed",
                    Outcome::Claimed { claim: None } => "empty",
                    Outcome::Finished(done) if done.accepted() => "accepted",
                    Outcome::Finished(_) => "rejected",
                    Outcome::Sent {
                        reason: Some(_), ..
                    } => "no_claim",
                    Outcome::Sent { applied: true, .. } => "applied",
                    Outcome::Sent { .. } => "duplicate",
                    Outcome::Enqueued { .. } => "enqueued",
                };
                expect(*result, world, "its result")
            }
            Assertion::Holds {
                event,
                worker,
                job,
                token,
            } => {
                let seen = self.seen(*event)?;
                expect(worker, &seen.result.worker, "its worker")?;
                let held = seen.held.get(worker).map(|claim| (&claim.id, claim.token));
                expect(Some((job, *token)), held, "(job, token) held")
            }
            Assertion::FoundNothing { event } => {
                let seen = self.applied(*event)?;
                expect(None, claimed(seen), "the job claimed")
            }
            Assertion::Claimed {
                event,
                worker,
                job,
                token,
                attempt,
                until,
            } => {
                let seen = self.applied(*event)?;
                let Outcome::Claimed { claim: Some(claim) } = &seen.result.outcome else {
                    return Err(format!("event {event} took no job"));
                };
                expect(worker, &seen.result.worker, "its worker")?;
                let said = (job, *token, *attempt, *until);
                let world = (&claim.id, claim.token, claim.attempt, claim.lease_until);
                expect(said, world, "(job, token, attempt, lease_until)")?;
                // Said as a reclaim: someone held it, and that lease ended.
                let before = row(seen, job)?;
                let held_before = before.lease_until.is_some_and(|end| end <= seen.result.at);
                expect(*token > 1, held_before, "a lease on it ended before")
            }
            Assertion::Completed { event, worker, job } => {
                let seen = self.applied(*event)?;
                expect(worker, &seen.result.worker, "its worker")?;
                expect(true, self.accepted(*event)?, "accepted")?;
                let after = self.rows_after(*event);
                let state = after.iter().find(|row| &row.id == job).map(|row| row.state);
                expect(Some(JobState::Done), state, "its state after")
            }
            Assertion::Delivered {
                event,
                worker,
                job,
                qty,
                applied,
            } => {
                let seen = self.applied(*event)?;
                let Outcome::Sent {
                    applied: world,
                    reason: None,
                } = &seen.result.outcome
                else {
                    return Err(format!("event {event} sent nothing"));
                };
                expect(worker, &seen.result.worker, "its worker")?;
                let held = seen
                    .held
                    .get(worker)
                    .ok_or(format!("{worker} holds nothing"))?;
                expect((job, *qty), (&held.id, held.qty), "(job, qty) sent")?;
                expect(applied, world, "applied")
            }
            Assertion::Enqueued {
                event,
                worker,
                job,
                qty,
                deadline,
            } => {
                let seen = self.applied(*event)?;
                expect(worker, &seen.result.worker, "its worker")?;
                expect(
                    false,
                    seen.rows.iter().any(|row| &row.id == job),
                    "there before",
                )?;
                let after = self.rows_after(*event);
                let added = after.iter().find(|row| &row.id == job);
                let world = added.map(|row| (row.qty, row.deadline, row.state));
                let said = Some((*qty, *deadline, JobState::Pending));
                expect(said, world, "(qty, deadline, state) after")
            }
            Assertion::Due { job, deadline } => {
                let rows =
                    (self.seen.get(self.position)).map_or(&self.rows_at_end, |seen| &seen.rows);
                let row = rows.iter().find(|row| &row.id == job);
                let world = row.map(|row| row.deadline);
                expect(
                    Some(*deadline),
                    world,
                    "the deadline in the table on screen",
                )
            }
            Assertion::Swept {
                event,
                state,
                count,
            } => {
                let seen = self.applied(*event)?;
                let after = self.rows_after(*event);
                let moved = (after.iter())
                    .filter(|row| row.state == *state)
                    .filter(|row| {
                        (seen.rows.iter()).any(|old| old.id == row.id && old.state != *state)
                    })
                    .count();
                expect(*count, moved, "jobs moved")
            }
            Assertion::Judged {
                event,
                guard,
                accepted,
                row,
            } => {
                let seen = self.applied(*event)?;
                let (world, after) = match guard {
                    None => {
                        let stamp = seen.held.get(&seen.result.worker).map(|claim| &claim.id);
                        let after = self.rows_after(*event);
                        let row = stamp.and_then(|id| after.iter().find(|row| &row.id == id));
                        (self.accepted(*event)?, row.cloned())
                    }
                    Some(guard) => {
                        let naive = (self.naive(*guard)?.finishes.iter())
                            .find(|finish| finish.event == *event)
                            .ok_or(format!("no naive finish at {event}"))?;
                        (naive.accepted, naive.current.clone())
                    }
                };
                let after = after.map(|row| {
                    let owner = row.owner.clone().unwrap_or_else(|| "null".to_owned());
                    (row.state.as_str().to_owned(), owner, row.token)
                });
                expect(
                    (*accepted, row),
                    (world, &after),
                    "(accepted, the row after)",
                )
            }
            Assertion::Blocks {
                claim,
                worker,
                at,
                until,
            } => {
                let seen = self.seen(*claim)?;
                let lease = lease_of(seen).ok_or(format!("event {claim} got no claim"))?;
                expect(worker, &seen.result.worker, "its worker")?;
                expect(*at, seen.result.at, "its time")?;
                expect(*until, lease, "lease_until")
            }
            Assertion::Leased {
                claim,
                lease_ms,
                until,
                capped,
            } => {
                let seen = self.seen(*claim)?;
                let event = &self.scenario.events()[*claim];
                let Action::Claim { lease_ms: asked } = event.action else {
                    return Err(format!("event {claim} is no claim"));
                };
                expect(*lease_ms, asked, "the lease asked for")?;
                let world = lease_of(seen).ok_or(format!("event {claim} got no claim"))?;
                expect(*until, world, "lease_until")?;
                let cut = world < seen.result.at + asked;
                expect(*capped, cut, "cut short by the deadline")?;
                // A lease cut short ends at the job's deadline (R9), as
                // the sentence says.
                let job = claimed(seen).ok_or(format!("event {claim} got no claim"))?;
                let deadline = row(seen, job)?.deadline;
                if cut {
                    expect(deadline, world, "lease_until, the job's deadline")?;
                }
                Ok(())
            }
            Assertion::EndsFirst {
                claim,
                finish,
                worker,
                at,
                until,
            } => {
                let lease =
                    lease_of(self.seen(*claim)?).ok_or(format!("event {claim} got no claim"))?;
                let later = self.seen(*finish)?;
                expect(*until, lease, "lease_until")?;
                expect(worker, &later.result.worker, "the finish's worker")?;
                expect(*at, later.result.at, "the finish's time")?;
                expect(true, until <= at, "lease_until <= the finish's time")
            }
            other => Err(format!("not {other:?}")),
        }
    }

    /// A condition of the finish at `event`, as the stamp its worker held
    /// and the row as it was just before it compare in this world, by
    /// R4's own words (not the queue's code): the assertion must be
    /// exactly that comparison, sides and holder too.
    fn condition(&self, said: &Assertion) -> std::result::Result<(), String> {
        let Assertion::Condition {
            event,
            condition,
            held,
            stamp: stamp_side,
            row: row_side,
            holder,
        } = said
        else {
            return Err("not a condition".to_owned());
        };
        let seen = self.seen(*event)?;
        let stamp = (seen.held.get(&seen.result.worker))
            .ok_or(format!("{} holds no claim", seen.result.worker))?
            .stamp();
        let now = seen.result.at;
        let said = (*condition, *held, stamp_side.as_str(), row_side.as_str());
        // No row with the stamp's id: only the id can be compared.
        let Some(row) = seen.rows.iter().find(|row| row.id == stamp.id) else {
            return expect(
                said,
                (Condition::Id, false, &stamp.id, ""),
                "the comparison",
            );
        };
        let (world, stamp_world, row_world) = r4(*condition, &stamp, row, now);
        let world = (*condition, world, stamp_world.as_str(), row_world.as_str());
        expect(said, world, "the comparison")?;
        // A lease met is the current row's: its holder is named.
        let named = (*held && *condition == Condition::LeaseUntil).then(|| row.owner.clone());
        expect(holder.clone(), named.flatten(), "whose lease")
    }
}

/// R4 in its own words: whether `stamp` meets `condition` against `row` at
/// `now`, with the two sides a sentence shows (the stamp's value or the
/// time, and the row's).
fn r4(condition: Condition, stamp: &Stamp, row: &JobRow, now: u64) -> (bool, String, String) {
    let null = |value: Option<String>| value.unwrap_or_else(|| "null".to_owned());
    match condition {
        Condition::Id => (row.id == stamp.id, stamp.id.clone(), row.id.clone()),
        Condition::Owner => (
            row.owner.as_ref() == Some(&stamp.owner),
            stamp.owner.clone(),
            null(row.owner.clone()),
        ),
        Condition::Token => (
            row.token == stamp.token,
            stamp.token.to_string(),
            row.token.to_string(),
        ),
        Condition::Attempt => (
            row.attempts == stamp.attempt,
            stamp.attempt.to_string(),
            row.attempts.to_string(),
        ),
        Condition::State => (
            row.state == JobState::Leased,
            String::new(),
            row.state.as_str().to_owned(),
        ),
        Condition::LeaseUntil => (
            row.lease_until.is_some_and(|until| now < until),
            now.to_string(),
            null(row.lease_until.map(|until| until.to_string())),
        ),
        Condition::Deadline => (
            now < row.deadline,
            now.to_string(),
            row.deadline.to_string(),
        ),
    }
}
