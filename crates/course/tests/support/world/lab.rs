//! What the world says of the lab's answers.

use super::*;

use leasefence::Queue;
use leasefence::model::NewJob;
use leasefence::store::Script;
use leasefence_course::mechanism::statements::{Actor, Machine, Op};
use leasefence_course::playground::assertions::{RaceEnd, Turn, Turned};

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
            Assertion::LabRaced {
                level,
                sql,
                from,
                turns,
                worker,
                expected,
                current,
            } => {
                self.lab_level(level, sql)?;
                let race = race(from)?;
                let workers = workers(turns);
                let (run, stopped) = interleaved(&race, sql, &workers, stops(current))?;
                expect(turns, &turned(&run), "the steps, as the run took them")?;
                raced(
                    &race,
                    &run,
                    stopped,
                    &workers,
                    (worker, expected.as_ref(), current),
                )
            }
            Assertion::LabTables {
                of,
                expected,
                current,
            } => {
                let (queue, learner) = self.lab_tables(of)?;
                expect(
                    (expected, current),
                    (&queue, &learner),
                    "(the queue's table, the learner's)",
                )
            }
            Assertion::LabEvents { of, events } => {
                let Assertion::LabParted {
                    scenario, event, ..
                } = &**of
                else {
                    return Err(format!("events of {of:?}, which plays no ordering"));
                };
                let scenario = Scenario::parse(scenario).map_err(|err| err.to_string())?;
                expect(
                    events.as_slice(),
                    scenario.events(),
                    "the ordering's events",
                )?;
                expect(
                    Some(*event),
                    events.len().checked_sub(1),
                    "the last event, where the two part",
                )
            }
            Assertion::Because { scenario, reason } => {
                // The reason is the open level's: on its scenario the
                // statement in the box parts from the queue's at the event
                // the reason is about, its last.
                let (open, sql) = self.lab.as_ref().ok_or("no lab open")?;
                let level = self.lab_level(open, sql)?;
                let scenario = Scenario::parse(scenario).map_err(|err| err.to_string())?;
                let last = scenario.events().len().checked_sub(1).ok_or("no events")?;
                expect(Some(last), about(reason), "the event it is about")?;
                let (queue, learner, _) = parting(&level, sql, &scenario, last)?;
                expect(true, learner.as_ref() != Some(&queue), "the two part there")?;
                let world = World::of(&scenario, last + 1, &[]).map_err(|err| err.to_string())?;
                world.judge(reason)
            }
            other => Err(format!("not {other:?}")),
        }
    }

    /// The two tables the lab's answer `of` leaves, played afresh: the
    /// queue's and the learner's, after the event where they part, or at
    /// the end of the race.
    fn lab_tables(&self, of: &Assertion) -> std::result::Result<Tables, String> {
        match of {
            Assertion::LabParted {
                level,
                sql,
                scenario,
                event,
                ..
            } => {
                let level = self.lab_level(level, sql)?;
                let scenario = Scenario::parse(scenario).map_err(|err| err.to_string())?;
                Ok(parting(&level, sql, &scenario, *event)?.2)
            }
            Assertion::LabRaced {
                level,
                sql,
                from,
                turns,
                current,
                ..
            } => {
                self.lab_level(level, sql)?;
                let race = race(from)?;
                let workers = workers(turns);
                let (run, _) = interleaved(&race, sql, &workers, stops(current))?;
                let (_, queue) = serial(&race, &first_order(&race, &workers)?)?;
                Ok((queue, run.rows))
            }
            other => Err(format!("tables of {other:?}, which leaves none")),
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

/// The event a reason is about, for the kinds of assertion a reason is
/// made of; `None` for any other kind.
fn about(reason: &Assertion) -> Option<usize> {
    match reason {
        Assertion::Condition { event, .. }
        | Assertion::NoStamp { event, .. }
        | Assertion::FoundNothing { event }
        | Assertion::TookPending { event, .. }
        | Assertion::Held { event, .. }
        | Assertion::Reclaimed { event, .. } => Some(*event),
        Assertion::Leased { claim, .. } => Some(*claim),
        _ => None,
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
    let (wanted, got, _) = parting(level, sql, scenario, event)?;
    expect(expected, &wanted, "what the queue did")?;
    expect(current, got.as_ref(), "what the learner's statement did")
}

/// Whose statement each of `turns` is.
fn workers(turns: &[Turn]) -> Vec<String> {
    turns.iter().map(|turn| turn.worker.clone()).collect()
}

/// The steps of `run` as a race's answer lists them: when, whose, and
/// the statement's first line, or that it waited or SQLite refused it.
fn turned(run: &Run) -> Vec<Turn> {
    (run.steps.iter())
        .map(|step| Turn {
            at: step.at,
            worker: step.actor.clone(),
            did: match (step.kind, step.does, &step.sql) {
                (StepKind::Waits, Does::Commit, _) => Turned::CommitWaits,
                (StepKind::Waits, _, _) => Turned::Waits,
                (StepKind::Busy, _, _) => Turned::Busy,
                (_, _, sql) => Turned::Ran(
                    (sql.iter().flat_map(|executed| executed.sql.lines()))
                        .next()
                        .unwrap_or_default()
                        .to_owned(),
                ),
            },
        })
        .collect()
}

/// The worker whose statement SQLite stopped, when a race ends so.
fn stops(ends: &RaceEnd) -> Option<&str> {
    match ends {
        RaceEnd::Stopped { worker, .. } => Some(worker.as_str()),
        _ => None,
    }
}

/// The queue's table and the learner's.
type Tables = (Vec<JobRow>, Vec<JobRow>);

/// What the queue and the learner's statement did at `event` of
/// `scenario`, played from its start, once both agreed on every event
/// before it (`None`: SQLite stopped the learner's), and the two tables
/// after it.
fn parting(
    level: &Level,
    sql: &str,
    scenario: &Scenario,
    event: usize,
) -> std::result::Result<(Did, Option<Did>, Tables), String> {
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
        let tables = (queue.rows().map_err(err)?, learner.rows().map_err(err)?);
        if index < event {
            let agreed = got.as_ref() == Some(&wanted) && tables.0 == tables.1;
            expect(true, agreed, &format!("the two agree at event {index}"))?;
        } else {
            return Ok((wanted, got, tables));
        }
    }
    Err(format!("no event {event}"))
}

/// A race of the lab's transaction level, as the world knows it: the jobs
/// (`snack-1`, ... each of 2 attempts, deadline 5000 ms) and the workers
/// that claim at each instant, each asking for a lease of 1000 ms.
struct LabRace {
    jobs: Vec<NewJob>,
    instants: Vec<(u64, Vec<&'static str>)>,
}

/// Every claim of the lab's races asks for this lease.
const RACE_LEASE_MS: u64 = 1000;

fn race(id: &str) -> std::result::Result<LabRace, String> {
    let jobs = |n: usize| {
        (1..=n)
            .map(|n| NewJob::new(format!("snack-{n}"), 2, 5000))
            .collect()
    };
    match id {
        "race-one-job" => Ok(LabRace {
            jobs: jobs(1),
            instants: vec![(0, vec!["A", "B"])],
        }),
        "race-two-jobs" => Ok(LabRace {
            jobs: jobs(2),
            instants: vec![(0, vec!["A", "B"])],
        }),
        "race-reclaim" => Ok(LabRace {
            jobs: jobs(1),
            instants: vec![(0, vec!["A"]), (RACE_LEASE_MS, vec!["B", "C"])],
        }),
        other => Err(format!("no race {other}")),
    }
}

/// The learner's script run on the statement model with its statements in
/// the order `turns`, then, when `stops` names a worker, that worker's
/// next statement, which SQLite must stop: the run, and the stopped
/// statement's worker.
fn interleaved(
    race: &LabRace,
    sql: &str,
    turns: &[String],
    stops: Option<&str>,
) -> std::result::Result<(Run, Option<String>), String> {
    let script = Script::new(sql).map_err(|err| err.to_string())?;
    let actors: Vec<Actor> = (race.instants.iter())
        .flat_map(|(at, workers)| workers.iter().map(move |worker| (*at, *worker)))
        .map(|(start_ms, worker)| Actor {
            name: worker.to_owned(),
            start_ms,
            ops: vec![Op::ScriptClaim {
                script: script.clone(),
                lease_ms: RACE_LEASE_MS,
                owner: None,
            }],
        })
        .collect();
    let mut machine = Machine::new(&race.jobs, &actors).map_err(|err| err.to_string())?;
    let index = |name: &str| {
        (actors.iter())
            .position(|actor| actor.name == name)
            .ok_or(format!("no worker {name} in the race"))
    };
    for (turn, name) in turns.iter().enumerate() {
        let actor = index(name)?;
        (machine.turn(actor, actors[actor].start_ms))
            .map_err(|err| format!("turn {turn} of {name}: {err:?}"))?;
    }
    // A statement SQLite stopped leaves no step: the run ends before it.
    let mut stopped = None;
    if let Some(name) = stops {
        let actor = index(name)?;
        match machine.turn(actor, actors[actor].start_ms) {
            Err(Refusal::Queue(leasefence::error::Error::InvalidInput { .. })) => {
                stopped = Some(name.to_owned());
            }
            other => return Err(format!("{name}'s next statement is not stopped: {other:?}")),
        }
    }
    let run = machine.into_run().map_err(|err| format!("{err:?}"))?;
    let stepped: Vec<&String> = run.steps.iter().map(|step| &step.actor).collect();
    expect(
        turns.iter().collect::<Vec<_>>(),
        stepped,
        "the steps' workers",
    )?;
    let ended = (actors.iter()).all(|actor| run.claims.contains_key(&actor.name));
    if stopped.is_none() && !ended {
        return Err("the interleaving stops before every claim ends".to_owned());
    }
    Ok((run, stopped))
}

/// How a race ends: each worker's claim, and the table.
type Ended = (BTreeMap<String, Option<Claim>>, Vec<JobRow>);

/// The queue itself, its claims run whole in `order`: each worker's claim
/// and the table at the end.
fn serial(race: &LabRace, order: &[&str]) -> std::result::Result<Ended, String> {
    let err = |err: leasefence::error::Error| err.to_string();
    let queue = Queue::open_in_memory().map_err(err)?;
    for job in &race.jobs {
        queue.enqueue(job).map_err(err)?;
    }
    let at = |worker: &str| {
        (race.instants.iter())
            .find(|(_, workers)| workers.contains(&worker))
            .map(|(at, _)| *at)
            .unwrap_or_default()
    };
    let mut claims = BTreeMap::new();
    for worker in order {
        let claim = queue
            .claim(worker, at(worker), RACE_LEASE_MS)
            .map_err(err)?;
        claims.insert((*worker).to_owned(), claim);
    }
    Ok((claims, queue.rows().map_err(err)?))
}

/// Every order of whole claims the race's instants allow.
fn serial_orders(race: &LabRace) -> Vec<Vec<&'static str>> {
    let mut orders: Vec<Vec<&'static str>> = vec![Vec::new()];
    for (_, workers) in &race.instants {
        let mut next = Vec::new();
        for order in &orders {
            for tail in permutations(workers) {
                next.push([order.clone(), tail].concat());
            }
        }
        orders = next;
    }
    orders
}

fn permutations(items: &[&'static str]) -> Vec<Vec<&'static str>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    (0..items.len())
        .flat_map(|at| {
            let mut rest = items.to_vec();
            let head = rest.remove(at);
            permutations(&rest)
                .into_iter()
                .map(move |tail| [vec![head], tail].concat())
        })
        .collect()
}

/// The order of whole claims that begins as the workers first stepped in
/// `turns`.
fn first_order(race: &LabRace, turns: &[String]) -> std::result::Result<Vec<&'static str>, String> {
    let mut first: Vec<&str> = Vec::new();
    for turn in turns {
        if !first.contains(&turn.as_str()) {
            first.push(turn);
        }
    }
    (serial_orders(race).into_iter())
        .find(|order| order.iter().zip(&first).all(|(a, b)| a == b))
        .ok_or_else(|| "no order of whole claims begins as the steps do".to_owned())
}

/// Whether the script's `run` ends as said: as no order of whole claims
/// does (or SQLite stopped it), `worker` the first worker (in the race's
/// order) whose claim differs from the queue's run in the order the
/// workers first stepped, with the queue's claim `expected` and the
/// script's `current`.
fn raced(
    race: &LabRace,
    run: &Run,
    stopped: Option<String>,
    turns: &[String],
    (worker, expected, current): (&Option<String>, Option<&Claim>, &RaceEnd),
) -> std::result::Result<(), String> {
    let (claims, _) = serial(race, &first_order(race, turns)?)?;
    if stopped.is_none() {
        for order in serial_orders(race) {
            let ends = serial(race, &order)?;
            let same = run.busy.is_empty() && ends.0 == run.claims && ends.1 == run.rows;
            expect(false, same, &format!("the run ends as the order {order:?}"))?;
        }
    }
    let differs = (race.instants.iter())
        .flat_map(|(_, workers)| workers.iter())
        .find(|name| {
            let name = name.to_string();
            claims.get(&name) != run.claims.get(&name) || run.busy.contains(&name)
        })
        .map(|name| name.to_string());
    expect(worker, &differs, "the first worker whose claim differs")?;
    let said_for = |claims: &BTreeMap<String, Option<Claim>>| {
        (worker.as_ref()).and_then(|worker| claims.get(worker).cloned().flatten())
    };
    expect(expected.cloned(), said_for(&claims), "the queue's claim")?;
    let world = match stopped {
        Some(worker) => RaceEnd::Stopped { worker },
        None if (worker.as_ref()).is_some_and(|worker| run.busy.contains(worker)) => RaceEnd::Busy,
        None => RaceEnd::Claimed {
            claim: said_for(&run.claims),
        },
    };
    expect(current, &world, "how the script's run ends")
}
