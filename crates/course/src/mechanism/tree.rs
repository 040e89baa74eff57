//! The tree of every ordering, walked depth first: how
//! [`super::orderings::census`] counts thousands of orderings in a
//! fraction of a second, with the same counts as replaying each one.
//!
//! The orderings of a scenario form a tree: its root is the start, each
//! node one more event of one actor, each leaf one whole ordering. Two
//! things make walking it cheap.
//!
//! * **Shared prefixes are played once.** A node's event runs on the
//!   queue once, whatever the number of orderings below it. To try the
//!   node's next child, the walk goes back to the node: the rows that
//!   changed below it are put back and the deliveries made below it taken
//!   back (a statement or two), instead of replaying from the start.
//! * **Equal states are counted once.** Below a node, what happens depends
//!   only on the node's state: the table, the receiver's ledger, the claim
//!   each actor remembers, what the invariants remember (the highest token
//!   of each job, each job's deliveries) and which events are left, at
//!   which instants. Two prefixes that reach the same state (A's claim that
//!   found nothing, then B's; or B's, then A's) have the same subtree, so
//!   the second takes the first one's counts. A lease that is over by the
//!   next instant is over for every later event alike, so two states that
//!   differ only in when such a lease ended count as one
//!   ([`Node::seen_from`]).
//!
//! Counts stay exact: a subtree's summary keeps, for its leaves, how many
//! broke each combination of invariants below its root, and the shortest
//! cut below it. A prefix that already broke something adds its own
//! invariants to every leaf below it.

use std::collections::BTreeMap;

use super::Refusal;
use super::invariants::{Broken, Checker, Invariant, Side, play};
use leasefence::model::JobRow;
use leasefence::replay::Player;
use leasefence::scenario::{Action, Event, Scenario};

/// A point of the walk: everything the events below it depend on, apart
/// from which events are left. The actors' memories are the checker's
/// (the claims held after the last step).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Node {
    rows: Vec<JobRow>,
    checker: Checker,
    /// The job ids in the receiver's ledger.
    ledger: Vec<String>,
}

impl Node {
    /// What the events from `at` on can tell of this node. They compare
    /// a lease's end only with their own instants (a claim takes a job
    /// whose `lease_until <= now`, a finish needs `now < lease_until`, a
    /// holder is valid while `at < lease_until`), so every lease that has
    /// ended by `at` looks the same to them: its end reads `at`. Two
    /// prefixes that differ only there have the same orderings below.
    fn seen_from(&self, at: u64) -> Node {
        let mut seen = self.clone();
        for row in &mut seen.rows {
            if let Some(until) = &mut row.lease_until {
                *until = (*until).max(at);
            }
        }
        seen.checker.see_from(at);
        seen
    }
}

/// The invariants as bits of a set, one per [`Invariant`].
pub(super) fn bit(invariant: Invariant) -> usize {
    match invariant {
        Invariant::OneValidHolder => 1,
        Invariant::FinishPresentedCurrentToken => 2,
        Invariant::TokensOnlyGrow => 4,
        Invariant::AppliedOnce => 8,
    }
}

/// What the orderings below a node add up to.
#[derive(Debug, Clone, Default)]
pub(super) struct Subtree {
    /// Orderings (leaves) by the set of invariants broken below the root.
    pub by_kinds: [usize; 16],
    /// The shortest failing cut below the root: the events after it, up to
    /// and including the first broken step, and what broke there. The
    /// first in enumeration order among equals.
    pub shortest: Option<(Vec<usize>, Vec<Broken>)>,
}

impl Subtree {
    /// Adds the child reached by event `index`, which broke `broken`, and
    /// the orderings below it. Children come in enumeration order.
    fn add(&mut self, index: usize, broken: Vec<Broken>, below: &Subtree) {
        let kinds = broken.iter().fold(0, |set, b| set | bit(b.invariant));
        for (set, count) in below.by_kinds.iter().enumerate() {
            self.by_kinds[set | kinds] += count;
        }
        let candidate = if broken.is_empty() {
            below.shortest.as_ref().map(|(path, broken)| {
                let path = std::iter::once(index).chain(path.iter().copied());
                (path.collect(), broken.clone())
            })
        } else {
            Some((vec![index], broken))
        };
        let Some(candidate) = candidate else { return };
        let shorter = self
            .shortest
            .as_ref()
            .is_none_or(|(known, _)| candidate.0.len() < known.len());
        if shorter {
            self.shortest = Some(candidate);
        }
    }
}

/// One side's walk over the tree.
struct Walk<'a> {
    scenario: &'a Scenario,
    lanes: &'a [Vec<usize>],
    side: Side,
    player: &'a mut Player,
    /// What the databases hold now (the last node played): its rows and
    /// its ledger.
    played: (Vec<JobRow>, Vec<String>),
    /// Summaries of the states already counted (as the events left can
    /// tell them), with the events taken from each lane.
    counted: BTreeMap<(Vec<usize>, Node), Subtree>,
}

/// Counts every interleaving of `lanes` (event indices of `scenario`, one
/// list per actor) on `side`, on a `player` at the scenario's start.
pub(super) fn count(
    scenario: &Scenario,
    lanes: &[Vec<usize>],
    side: Side,
    player: &mut Player,
) -> Result<Subtree, Refusal> {
    let root = Node {
        rows: player.rows()?,
        checker: Checker::default(),
        ledger: Vec::new(),
    };
    let mut walk = Walk {
        scenario,
        lanes,
        side,
        played: (root.rows.clone(), Vec::new()),
        player,
        counted: BTreeMap::new(),
    };
    let subtree = walk.below(&root, &mut vec![0; lanes.len()])?;
    walk.go_back_to(&root)?;
    Ok(subtree)
}

impl Walk<'_> {
    /// The orderings below `node`, where `taken` events of each lane have
    /// been played.
    fn below(&mut self, node: &Node, taken: &mut [usize]) -> Result<Subtree, Refusal> {
        let depth: usize = taken.iter().sum();
        let mut subtree = Subtree::default();
        let mut leaf = true;
        for lane in 0..self.lanes.len() {
            let Some(&index) = self.lanes[lane].get(taken[lane]) else {
                continue;
            };
            leaf = false;
            self.go_back_to(node)?;
            let (child, broken) = self.step(node, depth, index)?;
            taken[lane] += 1;
            let next = self.scenario.events().get(depth + 1).map(|event| event.at);
            let key = (taken.to_vec(), child.seen_from(next.unwrap_or(0)));
            let below = match self.counted.get(&key) {
                Some(known) => known.clone(),
                None => {
                    let below = self.below(&child, taken)?;
                    self.counted.insert(key, below.clone());
                    below
                }
            };
            taken[lane] -= 1;
            subtree.add(index, broken, &below);
        }
        if leaf {
            subtree.by_kinds[0] = 1;
        }
        Ok(subtree)
    }

    /// Plays event `index` as the `depth`-th of an ordering (at the
    /// scenario's `depth`-th time) from `node`, where the databases are.
    fn step(
        &mut self,
        node: &Node,
        depth: usize,
        index: usize,
    ) -> Result<(Node, Vec<Broken>), Refusal> {
        let event = Event {
            at: self.scenario.events()[depth].at,
            ..self.scenario.events()[index].clone()
        };
        let mut child = node.clone();
        let broken = play(
            self.player,
            &mut child.checker,
            &mut child.rows,
            self.side,
            (depth, &event),
        )?;
        if event.action == Action::Send {
            child.ledger = self.player.receiver()?.into_keys().collect();
        }
        self.played.0.clone_from(&child.rows);
        self.played.1.clone_from(&child.ledger);
        Ok((child, broken))
    }

    /// Puts the databases and the actors' memories back to `node`, an
    /// ancestor of the node played last (or that node itself).
    fn go_back_to(&mut self, node: &Node) -> Result<(), Refusal> {
        let (rows, ledger) = &self.played;
        let delivered: Vec<String> = (ledger.iter())
            .filter(|id| !node.ledger.contains(id))
            .cloned()
            .collect();
        let tables = (rows.as_slice(), node.rows.as_slice());
        self.player
            .go_back(node.checker.held(), tables, &delivered)?;
        self.played.0.clone_from(&node.rows);
        self.played.1.clone_from(&node.ledger);
        Ok(())
    }
}
