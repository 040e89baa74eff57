//! A broken design is never shown as safe (R4, R8): where the timeline on
//! screen does not break a naive finish, the panels that compare it name
//! the chapter where it does break, and the learner can open it.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::mechanism::invariants::Side;
use leasefence_course::playground::Lang;
use leasefence_course::playground::assertions::Assertion;
use leasefence_course::playground::view::{self, BreakLink};
use leasefence_course::variants::Guard;
use support::session;

fn breaks(link: Option<&BreakLink>) -> Option<(&'static str, Vec<Assertion>)> {
    link.map(|link| {
        (
            link.opens.expect("the whole course opens it"),
            link.said.asserts().into_iter().cloned().collect::<Vec<_>>(),
        )
    })
}

/// R8: on the first chapter the id-and-owner finish agrees with the fenced
/// one to the end; the comparison then names the restart under the same
/// name, where it accepts the stale finish.
#[test]
fn r8_an_agreeing_comparison_names_where_the_owner_check_breaks() {
    let mut session = session("canonical", Lang::Ko);
    session.set_predict(false).expect("shows");
    session.set_compare_open(true).expect("opens");
    session.set_guard(Guard::IdAndOwner).expect("guards");
    session.stepper.seek(1);
    let early = view::position(&session, None, 640.0).compare.expect("open");
    check!(breaks(early.breaks.as_ref()), None, "not before the end");
    session.stepper.seek(session.stepper.total());
    let end = view::position(&session, None, 640.0).compare.expect("open");
    let side = Side::Unfenced(Guard::IdAndOwner);
    let expected = Assertion::Breaks {
        side,
        chapter: "restart-same-name",
        event: 2,
    };
    check!(
        breaks(end.breaks.as_ref()),
        Some(("restart-same-name", vec![expected])),
        "at the end, agreeing: where it breaks"
    );
    // The id-only finish breaks here already: no link.
    session.set_guard(Guard::IdOnly).expect("guards");
    let harmed = view::position(&session, None, 640.0).compare.expect("open");
    check!(
        breaks(harmed.breaks.as_ref()),
        None,
        "id only breaks on screen"
    );
}

/// R4: where every ordering of a timeline holds on a naive side, the
/// counts' ✓ 0 comes with the chapter where that side breaks.
#[test]
fn r4_a_naive_side_no_ordering_breaks_is_named_where_it_breaks() {
    let mut session = session("canonical", Lang::En);
    session.set_predict(false).expect("shows");
    session.set_guard(Guard::IdAndOwner).expect("guards");
    session.stepper.seek(session.stepper.total());
    session.set_invariants_open(true).expect("opens");
    session.count_orderings().expect("counts");
    let view = view::position(&session, None, 640.0);
    let table = view
        .invariants
        .expect("open")
        .orderings
        .table
        .expect("counted");
    let named: Vec<&str> = table.breaks.iter().filter_map(|link| link.opens).collect();
    check!(
        named,
        vec!["restart-same-name"],
        "id and owner holds on every ordering of the first chapter: {table:#?}"
    );
}

#[cfg(not(target_arch = "wasm32"))]
mod generated {
    use leasefence::Scenario;
    use leasefence_course::mechanism::invariants::{Side, along};
    use leasefence_course::playground::breaks;
    use leasefence_course::variants::Guard;
    use proptest::prelude::*;

    use super::support::random::small_scenario;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

        /// The chapter a link names is the shortest known break: no
        /// generated timeline breaks the same naive side in fewer steps.
        #[test]
        fn no_generated_timeline_breaks_a_naive_side_sooner_than_the_chapter_named(
            scenario in small_scenario()
        ) {
            let scenario = Scenario::parse(&scenario.to_json()).expect("parses");
            let sides = [
                Side::Unfenced(Guard::IdOnly),
                Side::Unfenced(Guard::IdAndOwner),
                Side::ReceiverWithoutLedger,
            ];
            for side in sides {
                let named = breaks::shortest(side).expect("some chapter breaks it");
                let checks = along(&scenario, side).expect("plays");
                let first = checks.iter().find(|check| !check.broken.is_empty());
                if let Some(first) = first {
                    prop_assert!(
                        first.event >= named.event,
                        "{side:?}: expected no break before step {} (chapter {}), \
                         current: a break at step {} of {}",
                        named.event + 1,
                        named.chapter,
                        first.event + 1,
                        scenario.to_json()
                    );
                }
            }
        }
    }
}
