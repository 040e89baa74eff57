//! What the world says of the panels that play the timeline otherwise:
//! the naive finishes, the quiz's pair, the invariants, every ordering.

use super::*;

impl World {
    /// Whether the world holds an assertion about a panel.
    pub(super) fn panel_fact(&self, assertion: &Assertion) -> std::result::Result<(), String> {
        match assertion {
            Assertion::Agree { guard, position } => {
                expect(self.position, *position, "the position")?;
                for finish in &self.naive(*guard)?.finishes {
                    if finish.event >= self.position {
                        continue;
                    }
                    let fenced = self.accepted(finish.event)?;
                    expect(
                        fenced,
                        finish.accepted,
                        &format!("verdicts at {}", finish.event),
                    )?;
                }
                Ok(())
            }
            Assertion::Differ {
                guard,
                event,
                naive_accepted,
                same_row,
            } => {
                let naive = (self.naive(*guard)?.finishes.iter())
                    .find(|finish| finish.event == *event)
                    .ok_or(format!("no naive finish at {event}"))?;
                let fenced = self.applied(*event)?;
                let Outcome::Finished(fenced) = &fenced.result.outcome else {
                    return Err(format!("event {event} is no finish"));
                };
                let said = (!naive_accepted, *naive_accepted);
                expect(said, (fenced.accepted(), naive.accepted), "verdicts")?;
                expect(*same_row, naive.current == fenced.current, "rows equal")
            }
            Assertion::Tells {
                position,
                first,
                second,
                fields,
            } => expect(fields, &self.telling(*position, first, second)?, "fields"),
            Assertion::At { position, total } => expect(
                (*position, *total),
                (self.position, self.scenario.events().len()),
                "(events applied, events in the timeline)",
            ),
            Assertion::Spans { position, from, to } => {
                expect(self.position, *position, "the position")?;
                expect(true, from <= to, "the axis runs forward")?;
                // The event just applied and the one the learner meets
                // next: the two the learner's eye is on.
                let near = self.position.saturating_sub(1)..=self.position;
                let events = self.scenario.events();
                for event in near.filter_map(|index| events.get(index)) {
                    let on_axis = (*from..=*to).contains(&event.at);
                    expect(
                        true,
                        on_axis,
                        &format!("the event at {} ms on the axis", event.at),
                    )?;
                }
                Ok(())
            }
            Assertion::Carries {
                position,
                worker,
                stamp,
            } => {
                expect(self.position, *position, "the position")?;
                // A card that does not say the standing yet (the learner
                // predicts) is held to the stamp alone.
                let world = self.carried(worker).map(|mut carried| {
                    let told = stamp.as_ref().is_some_and(|said| said.standing.is_some());
                    carried.standing = carried.standing.filter(|_| told);
                    carried
                });
                expect(stamp.as_ref(), world.as_ref(), "what the worker carries")
            }
            Assertion::BothHold {
                position,
                first,
                second,
                job,
            } => {
                expect(self.position, *position, "the position")?;
                expect(true, first != second, "two workers")?;
                let held = self.held_after(*position);
                let on = |worker: &str| held.get(worker).map(|claim| claim.id.as_str());
                expect(
                    (Some(job.as_str()), Some(job.as_str())),
                    (on(first), on(second)),
                    &format!("the jobs {first} and {second} hold claims on"),
                )
            }
            Assertion::Values {
                position,
                first,
                second,
                field,
                values,
            } => {
                let held = self.held_after(*position);
                let (Some(one), Some(other)) = (held.get(first), held.get(second)) else {
                    return Err(format!("{first} and {second} do not both hold claims"));
                };
                expect(values, &[field.of(one), field.of(other)], "the values")
            }
            Assertion::Picked {
                position,
                picked,
                right,
            } => {
                let (first, second) = self.pair(*position)?;
                let fields = self.telling(*position, &first, &second)?;
                expect(*right, fields.contains(picked), "among the differing")
            }
            Assertion::Kept {
                side,
                invariant,
                position,
            } => {
                expect(self.position, *position, "the position")?;
                match self.first_broken(*side, *invariant)? {
                    Some((step, _)) if step <= self.position => {
                        Err(format!("{invariant:?} broke at step {step} on {side:?}"))
                    }
                    _ => Ok(()),
                }
            }
            Assertion::Broke {
                side,
                invariant,
                step,
                job,
                workers,
            } => {
                let first = self.first_broken(*side, *invariant)?;
                let said = Some((*step, job.clone(), workers.clone()));
                let world = first.map(|(step, broken)| (step, broken.job, broken.workers));
                expect(said, world, "the first break")?;
                expect(true, *step <= self.position, "broken by a step applied")
            }
            Assertion::Breaks {
                side,
                chapter,
                event,
            } => {
                let breaks = |id: &str| {
                    let found = CHAPTERS.iter().find(|found| found.id == id)?;
                    let scenario = Scenario::parse(found.scenario()).ok()?;
                    let checks = along(&scenario, *side).ok()?;
                    let broken = checks.iter().find(|check| !check.broken.is_empty())?;
                    Some(broken.event)
                };
                expect(Some(*event), breaks(chapter), "the first break")?;
                let sooner = CHAPTERS
                    .iter()
                    .find(|other| breaks(other.id).is_some_and(|at| at < *event));
                if let Some(sooner) = sooner {
                    return Err(format!("{} breaks sooner", sooner.id));
                }
                // "This timeline does not show it": nothing breaks here.
                let every = [
                    Invariant::OneValidHolder,
                    Invariant::FinishPresentedCurrentToken,
                    Invariant::TokensOnlyGrow,
                    Invariant::AppliedOnce,
                ];
                for invariant in every {
                    if let Some((step, _)) = self.first_broken(*side, invariant)? {
                        return Err(format!("{invariant:?} breaks here, at step {step}"));
                    }
                }
                Ok(())
            }
            Assertion::Orderings {
                actors,
                events,
                orderings,
            } => {
                let mut world: Vec<String> = Vec::new();
                for event in self.scenario.events() {
                    if !world.contains(&event.worker) {
                        world.push(event.worker.clone());
                    }
                }
                expect(actors, &world, "the actors")?;
                expect(*events, self.scenario.events().len(), "the events")?;
                expect(*orderings, self.ordering_count(), "the orderings")
            }
            Assertion::Counted {
                side,
                orderings,
                counts,
            } => {
                let world = self.every_ordering(*side)?;
                expect((*orderings, *counts), world, "(orderings, counts)")
            }
            Assertion::BreaksAtEnd { side, step } => {
                expect(self.scenario.events().len(), *step, "the last step")?;
                let checks = along(&self.scenario, *side).map_err(|err| err.to_string())?;
                let first = (checks.iter()).find(|check| !check.broken.is_empty());
                expect(
                    Some(*step),
                    first.map(|check| check.event + 1),
                    "the first break",
                )
            }
            other => Err(format!("not {other:?}")),
        }
    }

    /// How many orderings this world's timeline has: events! over each
    /// worker's events!, as the counting of them would find.
    fn ordering_count(&self) -> usize {
        let factorial = |n: usize| (1..=n).product::<usize>();
        let mut lanes: BTreeMap<&str, usize> = BTreeMap::new();
        for event in self.scenario.events() {
            *lanes.entry(&event.worker).or_default() += 1;
        }
        let below: usize = lanes.values().map(|n| factorial(*n)).product();
        factorial(self.scenario.events().len()) / below
    }

    /// Every ordering of this world's timeline (each worker's events in
    /// their order, the k-th event at the timeline's k-th time), played
    /// one by one on `side`: how many there are, and how many broke any
    /// invariant, then each of the four (a stale finish accepted, a job
    /// applied twice, two valid holders, a token handed out again).
    fn every_ordering(&self, side: Side) -> std::result::Result<(usize, [usize; 5]), String> {
        fn orders(lanes: &mut [Vec<usize>], prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if lanes.iter().all(Vec::is_empty) {
                out.push(prefix.clone());
            }
            for lane in 0..lanes.len() {
                if lanes[lane].is_empty() {
                    continue;
                }
                let event = lanes[lane].remove(0);
                prefix.push(event);
                orders(lanes, prefix, out);
                prefix.pop();
                lanes[lane].insert(0, event);
            }
        }
        let events = self.scenario.events();
        let mut lanes: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (index, event) in events.iter().enumerate() {
            lanes.entry(&event.worker).or_default().push(index);
        }
        let mut all = Vec::new();
        orders(
            &mut lanes.into_values().collect::<Vec<_>>(),
            &mut Vec::new(),
            &mut all,
        );
        let mut counts = [0; 5];
        let kinds = [
            Invariant::FinishPresentedCurrentToken,
            Invariant::AppliedOnce,
            Invariant::OneValidHolder,
            Invariant::TokensOnlyGrow,
        ];
        for order in &all {
            let reordered = (order.iter().zip(events))
                .map(|(&index, slot)| Event {
                    at: slot.at,
                    ..events[index].clone()
                })
                .collect();
            let scenario = Scenario::new(self.scenario.jobs().to_vec(), reordered)
                .map_err(|err| err.to_string())?;
            let checks = along(&scenario, side).map_err(|err| err.to_string())?;
            let broken: Vec<Invariant> = (checks.iter())
                .flat_map(|check| check.broken.iter().map(|broken| broken.invariant))
                .collect();
            counts[0] += usize::from(!broken.is_empty());
            for (kind, invariant) in kinds.iter().enumerate() {
                counts[kind + 1] += usize::from(broken.contains(invariant));
            }
        }
        Ok((all.len(), counts))
    }

    /// The first step (1 is the first event) at which `invariant` broke on
    /// `side`, playing the whole scenario afresh, and what broke.
    fn first_broken(
        &self,
        side: Side,
        invariant: Invariant,
    ) -> std::result::Result<Option<(usize, Broken)>, String> {
        let mut played = self.invariants.borrow_mut();
        if !played.iter().any(|(played, _)| *played == side) {
            let checks = along(&self.scenario, side).map_err(|err| err.to_string())?;
            played.push((side, checks));
        }
        let checks = (played.iter().find(|(played, _)| *played == side))
            .map(|(_, checks)| checks)
            .into_iter()
            .flatten();
        Ok(checks.into_iter().find_map(|check| {
            let broken = check.broken.iter().find(|b| b.invariant == invariant)?;
            Some((check.event + 1, broken.clone()))
        }))
    }
}

impl World {
    /// The stamp `worker` carries at this screen's place, its last
    /// claim's, and how the row stands against it: a later claim raised
    /// the row's token (stale), or the row is done, quarantined, expired,
    /// or leased with its lease running or over (R5: over when
    /// `lease_until <= now`, now the time of the last event applied).
    fn carried(&self, worker: &str) -> Option<Carried> {
        let claim = self.held_after(self.position).get(worker)?;
        let row = self
            .rows_at(self.position)
            .iter()
            .find(|row| row.id == claim.id)?;
        let now = self
            .position
            .checked_sub(1)
            .map_or(0, |last| self.scenario.events()[last].at);
        let standing = if row.token != claim.token {
            Some(Standing::Stale { token: row.token })
        } else {
            Some(match (row.state, row.lease_until) {
                (JobState::Done, _) => Standing::Done,
                (JobState::Quarantined, _) => Standing::Quarantined,
                (JobState::Expired, _) => Standing::Expired,
                (_, Some(until)) if now < until => Standing::Current { until },
                (_, until) => Standing::Ended {
                    until: until.unwrap_or(claim.lease_until),
                },
            })
        };
        Some(Carried {
            job: claim.id.clone(),
            token: claim.token,
            attempt: claim.attempt,
            standing,
        })
    }
}
