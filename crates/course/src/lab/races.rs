//! Grading a claim written as a transaction script (the lab's
//! transaction level): two workers claim at one instant, and every
//! interleaving of their statements that the write lock allows is run on
//! the statement-level model ([`crate::mechanism::statements`]).
//!
//! **What passes.** Claims that are atomic (R6) may still run in either
//! order at one instant, so an interleaving passes when it ends exactly as
//! the queue's own claim does with the instant's claims run whole, one
//! after the other, in *some* order: the same claim for every worker, and
//! the same table. A worker that SQLite refused (`SQLITE_BUSY`, a deferred
//! `BEGIN` that read and then could not write) ends as no such order
//! does: the queue's claim waits for the lock, it is never refused.
//!
//! **What a failure shows.** The interleaving of fewest steps that ends
//! otherwise, beside the queue's claims run in the order the learner's
//! first stepped: the two runs the statement panel steps side by side,
//! with the lock lane.

use serde::Serialize;

use super::grade::{Checked, Graded, Shortest, sentence};
use crate::mechanism::Refusal;
use crate::mechanism::statements::{Actor, Machine, Op, Run};
use leasefence::error::{Error, Problem, Result};
use leasefence::model::NewJob;
use leasefence::store::{Budget, Script};

/// Every claim of the races asks for this lease.
const LEASE_MS: u64 = 1000;

/// A race: the jobs, and the workers that claim at each instant.
struct Race {
    /// Its id (the title's message key ends with it).
    id: &'static str,
    jobs: Vec<NewJob>,
    /// Each instant and the workers that claim then, in order.
    instants: Vec<(u64, Vec<&'static str>)>,
}

/// The races a script is graded on.
fn races() -> Vec<Race> {
    let job = |n: usize| NewJob::new(format!("snack-{n}"), 2, 5000);
    vec![
        // The course's race: one job, two claims at once.
        Race {
            id: "race-one-job",
            jobs: vec![job(1)],
            instants: vec![(0, vec!["A", "B"])],
        },
        // Two jobs: each worker gets one, never the same one.
        Race {
            id: "race-two-jobs",
            jobs: vec![job(1), job(2)],
            instants: vec![(0, vec!["A", "B"])],
        },
        // A's lease ends, and two workers race to reclaim the job.
        Race {
            id: "race-reclaim",
            jobs: vec![job(1)],
            instants: vec![(0, vec!["A"]), (LEASE_MS, vec!["B", "C"])],
        },
    ]
}

/// The shortest interleaving that ends as no order of whole claims does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Interleaving {
    /// The race it came from (`race-one-job`, ...).
    pub from: &'static str,
    /// The first worker whose claim differs (`None`: only the table does).
    pub worker: Option<String>,
    /// The queue's own claims, run whole in the order the learner's
    /// claims first stepped.
    pub expected: Run,
    /// The learner's script, interleaved: every step, to the end (or to
    /// the statement SQLite stopped).
    pub current: Run,
    /// The worker whose statement SQLite stopped, and why (a failed
    /// `CHECK`, too much work); in JSON, the problem's English sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
}

/// A learner's statement SQLite stopped while it ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stopped {
    /// Whose.
    pub worker: String,
    /// Why.
    #[serde(serialize_with = "sentence")]
    pub problem: Problem,
}

/// Grades `sql` as a claim script. Refused before any running when it is
/// not one ([`Script::new`]).
pub(super) fn grade(sql: &str) -> Result<Graded> {
    let script = Script::new(sql)?;
    // One allowance for every replay of every race: a slow statement run
    // once per ordering is stopped, as a statement level's is.
    let budget = Budget::default();
    let mut checked = Checked {
        scenarios: 0,
        orderings: 0,
    };
    let mut shortest: Option<Interleaving> = None;
    for race in races() {
        checked.scenarios += 1;
        let references = references(&race)?;
        let actors = actors(&race, |_| Op::ScriptClaim {
            script: script.clone(),
            lease_ms: LEASE_MS,
            owner: None,
        });
        let mut walk = Walk {
            race: &race,
            actors: &actors,
            budget: &budget,
            references: &references,
            leaves: 0,
            shortest: shortest.take(),
        };
        walk.below(&mut Vec::new())?;
        checked.orderings += walk.leaves;
        shortest = walk.shortest;
    }
    Ok(match shortest {
        None => Graded::Passed { checked },
        Some(found) => Graded::Failed {
            checked,
            shortest: Box::new(Shortest::Statements(found)),
        },
    })
}

/// The race's workers as actors, each claiming with `claim`, in the order
/// of their instants.
fn actors(race: &Race, claim: impl Fn(&str) -> Op) -> Vec<Actor> {
    (race.instants.iter())
        .flat_map(|(at, workers)| workers.iter().map(move |worker| (*at, *worker)))
        .map(|(start_ms, worker)| Actor {
            name: worker.to_owned(),
            start_ms,
            ops: vec![claim(worker)],
        })
        .collect()
}

/// The queue's own claims run whole, one after another, in every order
/// the instants allow: each order (actor indices) and its run.
fn references(race: &Race) -> Result<Vec<(Vec<usize>, Run)>> {
    let actors = actors(race, |_| Op::Claim {
        lease_ms: LEASE_MS,
        owner: None,
    });
    let mut orders: Vec<Vec<usize>> = vec![Vec::new()];
    let mut first = 0;
    for (_, workers) in &race.instants {
        let group: Vec<usize> = (first..first + workers.len()).collect();
        first += workers.len();
        orders = (orders.iter())
            .flat_map(|order| {
                permutations(&group)
                    .into_iter()
                    .map(move |tail| [order.clone(), tail].concat())
            })
            .collect();
    }
    let mut runs = Vec::new();
    for order in orders {
        let mut machine = Machine::new(&race.jobs, &actors).map_err(internal)?;
        for &actor in &order {
            while machine.ops_done(actor) == 0 {
                machine
                    .turn(actor, actors[actor].start_ms)
                    .map_err(internal)?;
            }
        }
        runs.push((order, machine.into_run().map_err(internal)?));
    }
    Ok(runs)
}

/// Every order of `items`.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
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

/// The interleavings of one race, walked depth first: at each node, each
/// worker whose next statement may run now is a branch. A worker whose
/// statement must wait for a lock says so at once (a step of its own, not
/// a branch), so the orderings counted are the orders of statements the
/// locks allow. The model cannot be copied (it holds a database), so each
/// node is replayed from the start: a race has a few dozen interleavings
/// of a few statements each.
struct Walk<'a> {
    race: &'a Race,
    actors: &'a [Actor],
    budget: &'a Budget,
    references: &'a [(Vec<usize>, Run)],
    leaves: usize,
    shortest: Option<Interleaving>,
}

/// A replayed node: the model there, or the statement SQLite stopped.
enum Node {
    Going(Machine),
    Stopped(Machine, Stopped),
}

impl Walk<'_> {
    /// Every interleaving that begins with `path` (actor indices, a turn
    /// each).
    fn below(&mut self, path: &mut Vec<usize>) -> Result<()> {
        let machine = match self.replay(path)? {
            Node::Stopped(machine, stopped) => {
                self.leaves += 1;
                let current = machine.into_run().map_err(internal)?;
                return self.found(current, Some(stopped));
            }
            Node::Going(machine) => machine,
        };
        let choices = self.choices(&machine);
        if choices.is_empty() {
            if !machine.done() {
                return Err(internal(Refusal::NothingLeft {
                    actor: "every worker waits for another".into(),
                }));
            }
            self.leaves += 1;
            let current = machine.into_run().map_err(internal)?;
            if self.matches(&current) {
                return Ok(());
            }
            return self.found(current, None);
        }
        drop(machine);
        for actor in choices {
            path.push(actor);
            self.below(path)?;
            path.pop();
        }
        Ok(())
    }

    /// The model after the turns of `path`, each followed by the waits
    /// it causes.
    fn replay(&self, path: &[usize]) -> Result<Node> {
        let mut machine =
            Machine::bounded(&self.race.jobs, self.actors, self.budget).map_err(internal)?;
        let mut turns = path.iter().copied();
        loop {
            // Every worker of the instant whose statement must wait says
            // so, once.
            let waits = (self.instant(&machine).into_iter())
                .find(|&actor| !machine.runnable().contains(&actor) && !machine.asleep(actor));
            let Some(actor) = waits.or_else(|| turns.next()) else {
                return Ok(Node::Going(machine));
            };
            match machine.turn(actor, self.actors[actor].start_ms) {
                Ok(()) => {}
                Err(Refusal::Queue(Error::InvalidInput { problem, .. })) => {
                    let worker = self.actors[actor].name.clone();
                    return Ok(Node::Stopped(machine, Stopped { worker, problem }));
                }
                Err(other) => return Err(internal(other)),
            }
        }
    }

    /// The workers of the first instant not yet over that have a
    /// statement left.
    fn instant(&self, machine: &Machine) -> Vec<usize> {
        let pending = |actor: &usize| machine.ops_done(*actor) == 0;
        let all: Vec<usize> = (0..self.actors.len()).filter(pending).collect();
        let Some(first) = all.first() else {
            return Vec::new();
        };
        let now = self.actors[*first].start_ms;
        (all.into_iter())
            .filter(|&actor| self.actors[actor].start_ms == now)
            .collect()
    }

    /// The workers whose next statement may run now: the branches.
    fn choices(&self, machine: &Machine) -> Vec<usize> {
        let runnable = machine.runnable();
        (self.instant(machine).into_iter())
            .filter(|actor| runnable.contains(actor))
            .collect()
    }

    /// Whether `run` ends as one of the references does.
    fn matches(&self, run: &Run) -> bool {
        run.busy.is_empty()
            && (self.references.iter())
                .any(|(_, reference)| reference.claims == run.claims && reference.rows == run.rows)
    }

    /// Keeps `current` as the shortest failing interleaving if it is.
    fn found(&mut self, current: Run, stopped: Option<Stopped>) -> Result<()> {
        if (self.shortest.as_ref())
            .is_some_and(|known| known.current.steps.len() <= current.steps.len())
        {
            return Ok(());
        }
        // The order the learner's claims first stepped in.
        let mut order: Vec<usize> = Vec::new();
        for step in &current.steps {
            let actor = (self.actors.iter()).position(|actor| actor.name == step.actor);
            if let Some(actor) = actor.filter(|actor| !order.contains(actor)) {
                order.push(actor);
            }
        }
        let expected = (self.references.iter())
            .find(|(reference, _)| order.iter().zip(reference).all(|(a, b)| a == b))
            .or(self.references.first())
            .map(|(_, run)| run.clone())
            .ok_or_else(|| internal("a race with no reference"))?;
        let worker = (self.actors.iter())
            .map(|actor| &actor.name)
            .find(|name| {
                expected.claims.get(*name) != current.claims.get(*name)
                    || current.busy.contains(name)
            })
            .cloned();
        self.shortest = Some(Interleaving {
            from: self.race.id,
            worker,
            expected,
            current,
            stopped,
        });
        Ok(())
    }
}

fn internal(what: impl std::fmt::Display) -> Error {
    Error::Internal {
        what: format!("the lab's race: {what}"),
    }
}
