//! Every ordering of a chapter's actors, and the invariants checked at
//! every step (`leasefence_course::mechanism`): with the fence, no
//! ordering of any chapter goes wrong; without it, the counterexample
//! chapters have orderings that do, and the shortest opens as a timeline.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.
//!
//! Native only: the page's invariants panel, which calls the mechanism, is
//! tested on its view (`tests/invariants_panel.rs`) and in Chromium
//! (`e2e/invariants.test.mjs`).

#![cfg(not(target_arch = "wasm32"))]

mod support;

use leasefence::Scenario;
use leasefence_course::Timeline;
use leasefence_course::mechanism::Refusal;
use leasefence_course::mechanism::invariants::{Invariant, Side, StepCheck, along, along_timeline};
use leasefence_course::mechanism::orderings::{
    Census, Failing, Tally, census, interleavings, lanes, ordered, sides, within_bound,
};
use leasefence_course::playground::CHAPTERS;
use leasefence_course::variants::Guard;
use proptest::prelude::*;

fn chapter(id: &str) -> Scenario {
    let found = CHAPTERS.iter().find(|c| c.id == id).expect("a chapter");
    Scenario::parse(found.scenario()).expect("parses")
}

/// `scenario` with its events' workers named in turn by `names`.
fn renamed(scenario: &Scenario, names: &[&str]) -> Scenario {
    let mut events = scenario.events().to_vec();
    for (event, name) in events.iter_mut().zip(names) {
        event.worker = (*name).into();
    }
    Scenario::new(scenario.jobs().to_vec(), events).expect("a valid timeline")
}

/// `scenario` with its last event given once more at the end: one event
/// over a bound its events were within.
fn with_last_again(scenario: &Scenario) -> Scenario {
    let mut events = scenario.events().to_vec();
    events.extend(events.last().cloned());
    Scenario::new(scenario.jobs().to_vec(), events).expect("a valid timeline")
}

/// (bad, stale finish, applied twice, two holders, token reused) of a side.
fn counts(census: &Census, side: Side) -> [usize; 5] {
    let tally = census
        .sides
        .iter()
        .find(|t| t.side == side)
        .expect("a side");
    [
        tally.bad,
        tally.stale_finish,
        tally.applied_twice,
        tally.two_holders,
        tally.token_reused,
    ]
}

/// Event index -> the invariants broken there, for the steps that broke.
fn red(checks: &[StepCheck]) -> Vec<(usize, Vec<Invariant>)> {
    checks
        .iter()
        .filter(|check| !check.broken.is_empty())
        .map(|check| {
            let kinds = check.broken.iter().map(|b| b.invariant).collect();
            (check.event, kinds)
        })
        .collect()
}

/// R4, R5, R11, R12: the real queue and receiver, in every order the
/// chapter's actors could run in.
#[test]
fn with_the_fence_no_ordering_of_any_chapter_breaks_an_invariant_r4_r5_r12() {
    for chapter in CHAPTERS {
        let scenario = Scenario::parse(chapter.scenario()).expect("parses");
        let census = census(&scenario).expect("within the bound");
        check!(
            counts(&census, Side::Fenced),
            [0; 5],
            "{}: bad, stale, twice, holders, tokens over {} orderings",
            chapter.id,
            census.orderings
        );
    }
}

/// R4, R8, R12: each naive side goes wrong in some ordering of each
/// counterexample chapter, and only in its own part: a naive finish
/// accepts a stale finish and never applies a delivery twice (the
/// receiver keeps its ledger), a receiver without its ledger the reverse.
#[test]
fn without_the_fence_the_counterexample_chapters_have_bad_orderings_r4_r8_r12() {
    let (stale, twice) = (true, false);
    let cases = [
        ("canonical", Side::Unfenced(Guard::IdOnly), stale),
        (
            "restart-same-name",
            Side::Unfenced(Guard::IdAndOwner),
            stale,
        ),
        ("fencing-off-vs-on", Side::Unfenced(Guard::IdOnly), stale),
        (
            "fencing-off-vs-on",
            Side::Unfenced(Guard::IdAndOwner),
            stale,
        ),
        ("late-delivery", Side::Unfenced(Guard::IdOnly), stale),
        ("late-delivery", Side::ReceiverWithoutLedger, twice),
        ("every-ordering", Side::ReceiverWithoutLedger, twice),
    ];
    for (id, side, finish_is_wrong) in cases {
        let census = census(&chapter(id)).expect("within the bound");
        let [bad, stale_finish, applied_twice, ..] = counts(&census, side);
        check!(
            (bad > 0, stale_finish > 0, applied_twice > 0),
            (true, finish_is_wrong, !finish_is_wrong),
            "{id} with {side:?}: {bad} bad, {stale_finish} stale, {applied_twice} applied twice of {}",
            census.orderings
        );
    }
}

/// The shortest failing ordering is a scenario that opens as a timeline
/// and breaks at its last step; for the canonical chapter it is the
/// chapter itself.
#[test]
fn the_shortest_failing_ordering_opens_as_a_timeline_and_breaks_at_its_last_step_r4() {
    let census = census(&chapter("canonical")).expect("within the bound");
    let tally = &census.sides[1];
    let failing = tally.shortest.as_ref().expect("a failing ordering");
    check!(
        failing.scenario.to_json(),
        chapter("canonical").to_json(),
        "the shortest ordering"
    );
    let reopened = Scenario::parse(&failing.scenario.to_json()).expect("parses as a document");
    Timeline::build(reopened.clone()).expect("opens as a timeline");
    let checks = along(&reopened, tally.side).expect("replays");
    check!(
        red(&checks),
        vec![(2, vec![Invariant::FinishPresentedCurrentToken])],
        "broken only at the last step"
    );
    let json = serde_json::to_value(&census).expect("serialises");
    check!(
        json["sides"][1]["shortest"]["scenario"]["events"][2]["do"].clone(),
        serde_json::json!("finish"),
        "the scenario in the census's JSON is a document"
    );
}

/// How orderings are made: each actor's order kept, the scenario's times
/// kept in place, every interleaving once.
#[test]
fn orderings_keep_each_actors_order_and_the_scenarios_instants() {
    let scenario = chapter("canonical");
    let actors = lanes(&scenario).expect("within the bound");
    check!(
        actors.clone(),
        vec![("A".to_owned(), vec![0, 2]), ("B".to_owned(), vec![1])],
        "actors and their events"
    );
    let events: Vec<Vec<usize>> = actors.into_iter().map(|(_, events)| events).collect();
    let orders = interleavings(&events);
    check!(
        orders.clone(),
        vec![vec![0, 2, 1], vec![0, 1, 2], vec![1, 0, 2]],
        "the orderings"
    );
    let first = ordered(&scenario, &orders[0]).expect("a valid timeline");
    let times: Vec<u64> = first.events().iter().map(|e| e.at).collect();
    let who: Vec<&str> = first.events().iter().map(|e| e.worker.as_str()).collect();
    check!(
        (times, who),
        (vec![0, 1000, 1001], vec!["A", "A", "B"]),
        "A finishes at 1000, B claims at 1001"
    );
    let big = lanes(&chapter("fencing-off-vs-on")).expect("within the bound");
    let big: Vec<Vec<usize>> = big.into_iter().map(|(_, events)| events).collect();
    check!(
        interleavings(&big).len(),
        2520,
        "8 events of 4 actors, 2 each: 8!/(2!^4)"
    );
}

/// A scenario over the bound is refused, by type, before anything runs.
#[test]
fn a_scenario_over_the_bound_is_refused_before_anything_runs() {
    let long = with_last_again(&chapter("fencing-off-vs-on"));
    let refused = census(&long).map(|c| c.orderings);
    check!(
        format!("{refused:?}"),
        "Err(TooManyEvents { got: 9, max: 8 })".to_owned(),
        "nine events"
    );
    let crowded = renamed(&chapter("expiry-boundary"), &["A", "B", "C", "D", "E"]);
    let refused = census(&crowded).map(|c| c.orderings);
    check!(
        matches!(refused, Err(Refusal::TooManyActors { got: 5, max: 4 })),
        true,
        "five actors: {refused:?}"
    );
}

/// R2, R4, R5, R12: every step of every chapter is green with the fence,
/// read from the page's timeline and from a fresh replay alike.
#[test]
fn every_step_of_every_chapter_is_green_with_the_fence_r2_r4_r5_r12() {
    for chapter in CHAPTERS {
        let scenario = Scenario::parse(chapter.scenario()).expect("parses");
        let timeline = Timeline::build(scenario.clone()).expect("builds");
        let from_frames = along_timeline(&timeline);
        let replayed = along(&scenario, Side::Fenced).expect("replays");
        check!(
            from_frames.len(),
            scenario.events().len(),
            "{}: one check per step",
            chapter.id
        );
        check!(
            red(&from_frames),
            vec![],
            "{}: broken steps (timeline)",
            chapter.id
        );
        check!(
            from_frames,
            replayed,
            "{}: timeline and replay agree",
            chapter.id
        );
    }
}

/// R4, R8: without the fence the invariants break at the step where the
/// stale finish lands, and nowhere before.
#[test]
fn without_the_fence_an_invariant_breaks_at_the_step_of_the_stale_finish_r4_r8() {
    let stale = || vec![Invariant::FinishPresentedCurrentToken];
    let cases = [
        ("canonical", Guard::IdOnly, vec![(2, stale())]),
        ("canonical", Guard::IdAndOwner, vec![]),
        (
            "fencing-off-vs-on",
            Guard::IdOnly,
            vec![(2, stale()), (6, stale())],
        ),
        ("fencing-off-vs-on", Guard::IdAndOwner, vec![(6, stale())]),
    ];
    for (id, guard, expected) in cases {
        let checks = along(&chapter(id), Side::Unfenced(guard)).expect("replays");
        check!(red(&checks), expected, "{id} with {guard:?}: broken steps");
    }
}

/// R4, R5, R12: every chapter gets counts, a chapter over the bound on
/// its longest prefix within it (COURSE.md), and with the
/// fence none of them has a bad ordering.
#[test]
fn with_the_fence_every_chapter_counted_within_the_bound_has_no_bad_ordering_r4_r5_r12() {
    for chapter in CHAPTERS {
        let scenario = Scenario::parse(chapter.scenario()).expect("parses");
        let counted = within_bound(&scenario);
        let census = census(&counted).expect("a prefix within the bound");
        check!(
            (census.sides.len(), counts(&census, Side::Fenced)),
            (sides(&counted).len(), [0; 5]),
            "{}: sides, and the fenced side's bad, stale, twice, holders, tokens over {} orderings of {} of its {} events",
            chapter.id,
            census.orderings,
            counted.events().len(),
            scenario.events().len()
        );
    }
}

/// What the census covers of a scenario over the bound: its first events,
/// in its own order, up to 8 events by 4 actors, with all its jobs; a
/// scenario within the bound whole.
#[test]
fn a_scenario_over_the_bound_is_counted_on_its_longest_prefix_within_it() {
    let whole = chapter("fencing-off-vs-on");
    check!(
        within_bound(&whole).to_json(),
        whole.to_json(),
        "within the bound: whole"
    );
    let long = with_last_again(&whole);
    check!(
        within_bound(&long).to_json(),
        whole.to_json(),
        "nine events: the first eight"
    );
    let crowded = renamed(&chapter("expiry-boundary"), &["A", "B", "C", "D", "E", "A"]);
    let workers: Vec<String> = (within_bound(&crowded).events().iter())
        .map(|event| event.worker.clone())
        .collect();
    check!(
        workers,
        vec!["A", "B", "C", "D"],
        "a fifth actor ends the prefix, though A comes back after it"
    );
    let counted = census(&within_bound(&crowded)).expect("within the bound");
    check!(counted.orderings, 24, "four actors, one event each: 4!");
}

/// The census as the contract describes it, written the plain way: every
/// ordering replayed on its own from the start ([`along`]) and counted by
/// the invariants it broke anywhere; the shortest failing ordering is the
/// first, in enumeration order, of those cut shortest after their first
/// broken step. The census itself walks the orderings as a tree and must
/// agree with this exactly.
fn census_one_ordering_at_a_time(scenario: &Scenario) -> Census {
    let (actors, lanes): (Vec<String>, Vec<Vec<usize>>) = lanes(scenario)
        .expect("within the bound")
        .into_iter()
        .unzip();
    let orders = interleavings(&lanes);
    let sides = sides(scenario).into_iter().map(|side| {
        let mut tally = Tally {
            side,
            bad: 0,
            stale_finish: 0,
            applied_twice: 0,
            two_holders: 0,
            token_reused: 0,
            shortest: None,
        };
        for order in &orders {
            let ordering = ordered(scenario, order).expect("a valid timeline");
            let checks = along(&ordering, side).expect("replays");
            let Some(first) = checks.iter().find(|check| !check.broken.is_empty()) else {
                continue;
            };
            let broke = |invariant| {
                let anywhere = checks.iter().flat_map(|check| &check.broken);
                usize::from(anywhere.into_iter().any(|b| b.invariant == invariant))
            };
            tally.bad += 1;
            tally.stale_finish += broke(Invariant::FinishPresentedCurrentToken);
            tally.applied_twice += broke(Invariant::AppliedOnce);
            tally.two_holders += broke(Invariant::OneValidHolder);
            tally.token_reused += broke(Invariant::TokensOnlyGrow);
            let length = first.event + 1;
            let shorter = (tally.shortest.as_ref())
                .is_none_or(|known| length < known.scenario.events().len());
            if shorter {
                let cut = ordering.first(length);
                let broken = first.broken.clone();
                tally.shortest = Some(Failing {
                    scenario: cut,
                    broken,
                });
            }
        }
        tally
    });
    Census {
        actors,
        orderings: orders.len(),
        sides: sides.collect(),
    }
}

/// R4, R5, R12: the census's counts and shortest orderings are exactly
/// those of replaying every ordering of every chapter on its own.
#[test]
fn the_census_of_every_chapter_equals_replaying_each_ordering_alone() {
    for chapter in CHAPTERS {
        let scenario = Scenario::parse(chapter.scenario()).expect("parses");
        check!(
            census(&scenario).expect("within the bound"),
            census_one_ordering_at_a_time(&scenario),
            "{}: the census against one ordering at a time",
            chapter.id
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// R2, R4, R5, R12: on random small scenarios the census counts and
    /// picks exactly what replaying every ordering on its own does.
    #[test]
    fn the_census_of_a_random_scenario_equals_replaying_each_ordering_alone(
        scenario in support::random::small_scenario()
    ) {
        let fast = census(&scenario).expect("within the bound");
        let plain = census_one_ordering_at_a_time(&scenario);
        prop_assert!(
            fast == plain,
            "the census against one ordering at a time, for {}\n{}",
            scenario.to_json(),
            support::side_by_side(&plain, &fast)
        );
    }
}
