//! The invariants panel, computed natively: the four
//! invariants at every step on every side (the real system, each naive variant), every ordering counted on
//! demand, and the shortest failing ordering opened as a timeline the
//! learner can step and share. The page only draws these values.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use leasefence::Scenario;
use leasefence_course::key;
use leasefence_course::mechanism::invariants::{Side, along};
use leasefence_course::mechanism::orderings::{Tally, census};
use leasefence_course::playground::assertions::Assertion;
use leasefence_course::playground::invariants::{Countable, countable};
use leasefence_course::playground::session::Session;
use leasefence_course::playground::stepper::SANDBOX;
use leasefence_course::playground::view::{self, INVARIANTS, InvariantsView};
use leasefence_course::playground::{CHAPTERS, Lang, link};
use leasefence_course::variants::Guard;
use leasefence_course::variants::Variant;
use serde_json::json;
use support::narration::{chapter, narrates, pick, replayed};
use support::session;

/// The panel at the session's place; the test fails if it is closed.
fn panel(session: &Session) -> InvariantsView {
    view::position(session, None, 640.0)
        .invariants
        .expect("the panel is open")
}

/// Per invariant, the step where it broke (None: holds), per column.
fn broke_at(panel: &InvariantsView) -> Vec<Vec<Option<usize>>> {
    let rows = panel.rows.iter();
    rows.map(|row| row.lights.iter().map(|light| light.broke_at).collect())
        .collect()
}

/// R2, R4, R5, R12: at every position of every chapter, in both
/// languages, the fenced column is green, and says so in words too.
#[test]
fn with_the_fence_every_invariant_holds_at_every_step_of_every_chapter_r2_r4_r5_r12() {
    for chapter in CHAPTERS {
        for lang in [Lang::En, Lang::Ko] {
            let mut session = session(chapter.id, lang);
            session.set_invariants_open(true).expect("checks");
            for position in 0..=session.stepper.total() {
                session.stepper.seek(position);
                let panel = panel(&session);
                check!(panel.rows.len(), INVARIANTS.len(), "{}: rows", chapter.id);
                let red: Vec<(String, String)> = panel
                    .rows
                    .iter()
                    .filter(|row| {
                        !row.lights[0].holds
                            || row.lights[0].text.text() != lang.text(key!("invariants.holds"))
                    })
                    .map(|row| (row.name.clone(), row.lights[0].text.to_string()))
                    .collect();
                check!(
                    red,
                    Vec::<(String, String)>::new(),
                    "{} ({}) at step {position}: fenced invariants not holding",
                    chapter.id,
                    lang.tag()
                );
            }
        }
    }
}

/// R4, R8, R12: on a naive side the column turns red at the step where
/// an invariant breaks (step n is the n-th event), not before, and stays
/// red after; the reason names the worker and the job. Each side changes
/// one part: a naive finish breaks the finish's invariant, the receiver
/// without its ledger the receiver's, and never the other's.
#[test]
fn without_the_fence_an_invariant_turns_red_at_the_step_where_it_breaks_r4_r8_r12() {
    // (chapter, guard, column, invariant's row, the step it breaks at, words).
    let cases = [
        (
            "fencing-off-vs-on",
            Guard::IdOnly,
            1,
            1,
            3,
            "A's finish of snack-1",
        ),
        (
            "fencing-off-vs-on",
            Guard::IdAndOwner,
            1,
            1,
            7,
            "C's finish of snack-2",
        ),
        (
            "late-delivery",
            Guard::IdOnly,
            2,
            3,
            4,
            "applied snack-1 again (B's",
        ),
        ("canonical", Guard::IdOnly, 1, 1, 3, "A's finish of snack-1"),
    ];
    for (id, guard, column, row, step, words) in cases {
        let mut session = session(id, Lang::En);
        session.set_invariants_open(true).expect("checks");
        session.set_guard(guard).expect("guards");
        for position in 0..=session.stepper.total() {
            session.stepper.seek(position);
            let panel = panel(&session);
            let others: Vec<usize> = broke_at(&panel)
                .iter()
                .enumerate()
                .filter(|(r, columns)| *r != row && columns[column].is_some())
                .map(|(r, _)| r)
                .collect();
            check!(
                others,
                Vec::<usize>::new(),
                "{id} column {column}: no other invariant breaks"
            );
            let naive = &panel.rows[row].lights[column];
            let expected = (position >= step).then_some(step);
            check!(
                naive.broke_at,
                expected,
                "{id} {guard:?} at position {position}: {}",
                panel.rows[row].name
            );
            check!(
                naive.holds,
                expected.is_none(),
                "{id} {guard:?} at {position}: holds"
            );
            if expected.is_some() {
                assert!(
                    naive
                        .text
                        .text()
                        .starts_with(&format!("✗ broken at step {step}: "))
                        && naive.text.text().contains(words),
                    "{id} {guard:?}: expected step {step} and {words:?}, got {:?}",
                    naive.text
                );
            }
        }
    }
}

/// R4, R12: the panel's counts are the census's, for every chapter the
/// page can count; with the fence every count is 0, and the note says so.
#[test]
fn counting_every_ordering_finds_no_bad_fenced_ordering_in_any_chapter_r4_r12() {
    for chapter in CHAPTERS {
        let mut session = session(chapter.id, Lang::En);
        session.set_invariants_open(true).expect("checks");
        let before = panel(&session).orderings;
        let scenario = session.stepper.scenario().clone();
        // Every chapter is within the census's bound, the largest
        // (fencing-off-vs-on, 2,520 orderings) included.
        let Countable::Yes { orderings, .. } = countable(&scenario) else {
            panic!("{}: not countable on the page", chapter.id);
        };
        check!(
            before.count.as_deref(),
            Some("Count every ordering"),
            "{}: the button before counting",
            chapter.id
        );
        let said = before
            .summary
            .asserts()
            .first()
            .map(|assertion| match assertion {
                Assertion::Orderings { orderings, .. } => *orderings,
                other => panic!("the summary states {other:?}"),
            });
        check!(
            said,
            Some(orderings),
            "{}: the orderings stated",
            chapter.id
        );
        session.count_orderings().expect("counts");
        let table = panel(&session).orderings.table.expect("counted");
        let native = census(&scenario).expect("within the bound");
        let kinds: [fn(&Tally) -> usize; 5] = [
            |t| t.bad,
            |t| t.stale_finish,
            |t| t.applied_twice,
            |t| t.two_holders,
            |t| t.token_reused,
        ];
        let expected: Vec<Vec<String>> = kinds
            .iter()
            .map(|count| {
                native
                    .sides
                    .iter()
                    .map(|tally| {
                        let n = count(tally);
                        format!("{} {n}", if n == 0 { '✓' } else { '✗' })
                    })
                    .collect()
            })
            .collect();
        let shown: Vec<Vec<String>> = table.rows.iter().map(|r| r.cells.clone()).collect();
        check!(shown, expected, "{}: the counts", chapter.id);
        let fenced: Vec<bool> = table.rows.iter().map(|row| row.zero[0]).collect();
        check!(fenced, vec![true; 5], "{}: fenced column", chapter.id);
        let said = table
            .note
            .asserts()
            .first()
            .map(|assertion| match assertion {
                Assertion::Counted {
                    side,
                    orderings,
                    counts,
                } => (*side, *orderings, counts[0]),
                other => panic!("the note states {other:?}"),
            });
        check!(
            said,
            Some((Side::Fenced, orderings, 0)),
            "{}: the note states the fenced count",
            chapter.id
        );
    }
}

/// The chapter about it opens the panel with the button; counting finds
/// bad naive orderings; a click opens the shortest as the learner's own
/// timeline, which breaks at its last step only, and travels in a link.
#[test]
fn the_shortest_failing_ordering_opens_as_a_timeline_that_breaks_at_its_last_step_r4() {
    let mut session = session("every-ordering", Lang::En);
    let scenario = session.stepper.scenario().clone();
    assert!(session.invariants_open(), "the chapter opens the panel");
    session.count_orderings().expect("counts");
    let table = panel(&session).orderings.table.expect("counted");
    let buttons: Vec<Option<&str>> = table
        .open
        .iter()
        .map(|b| b.as_ref().map(|b| b.id))
        .collect();
    check!(
        buttons,
        // The id + owner finish fails in no ordering here: every stale
        // finish meets another owner. The double delivery some orderings
        // make is the receiver's, and only its own column says so.
        vec![None, Some("id_only"), None, Some("without_ledger")],
        "an open button per failing naive side, the receiver's too (the chapter sends)"
    );
    let native = census(&scenario).expect("within the bound");
    let tally = &native.sides[1];
    check!(tally.side, Side::Unfenced(Guard::IdOnly), "the side");
    let failing = tally.shortest.clone().expect("fails without the fence");

    session.open_shortest(Variant::IdOnlyFinish).expect("opens");
    check!(
        (
            session.stepper.chapter(),
            session.stepper.position(),
            session.guard()
        ),
        (SANDBOX, 0, Guard::IdOnly),
        "the learner's own timeline, at its start, on the failing guard"
    );
    check!(
        session.stepper.scenario().to_json(),
        failing.scenario.to_json(),
        "the shortest failing ordering"
    );
    let opened = panel(&session).orderings.opened.expect("said");
    let last = failing.scenario.events().len();
    check!(
        opened.asserts().into_iter().cloned().collect::<Vec<_>>(),
        vec![Assertion::BreaksAtEnd {
            side: tally.side,
            step: last,
        }],
        "what the opened ordering's note states"
    );
    assert!(opened.text().contains("“Every ordering”"), "{opened:?}");
    for position in 0..=last {
        session.stepper.seek(position);
        let red: Vec<usize> = broke_at(&panel(&session))
            .into_iter()
            .filter_map(|columns| columns.into_iter().flatten().next())
            .collect();
        let expected = if position == last {
            vec![last; failing.broken.len()]
        } else {
            vec![]
        };
        check!(red, expected, "invariants broken at position {position}");
    }
    // Opening changed nothing of the chapter: the narration says where the
    // ordering came from, not "You changed “Every ordering”".
    session.stepper.seek(last);
    let narration = view::position(&session, None, 640.0).narration.to_string();
    let variant = Lang::En.text(key!("variant.id_only"));
    check!(
        narration.starts_with(&format!(
            "An ordering of “Every ordering” that fails with the {variant}, opened"
        )),
        true,
        "{narration}"
    );
    let shared = session.link(true);
    let params = link::params(&shared);
    let encoded = link::param(&params, "scenario").expect("a sandbox travels whole");
    check!(
        link::decode(encoded).map(|lesson| lesson.scenario.to_json()),
        Ok(failing.scenario.to_json()),
        "the link carries the ordering"
    );
}

/// A timeline over the census's bound is said with its numbers, and
/// asking to count it changes nothing.
#[test]
fn a_timeline_over_the_census_bound_is_not_counted_and_says_its_numbers() {
    let canonical = Scenario::parse(CHAPTERS[0].scenario()).expect("parses");
    let mut events = canonical.events().to_vec();
    for n in 0..6 {
        let mut again = events[1].clone();
        again.at += 1 + n;
        events.push(again);
    }
    let long = Scenario::new(canonical.jobs().to_vec(), events).expect("a valid timeline");
    let mut session = session("canonical", Lang::En);
    session.set_invariants_open(true).expect("checks");
    session.load(SANDBOX, long, 0).expect("loads");
    session.count_orderings().expect("nothing to refuse");
    let said = panel(&session).orderings;
    check!(
        (said.summary.to_string(), said.count, said.table.is_none()),
        (
            "9 events and 2 workers: orderings are counted for at most 8 events and 4 workers."
                .to_owned(),
            None,
            true
        ),
        "over the census's bound"
    );
}

/// The panel is the learner's choice: closed, nothing is computed or
/// drawn; a count belongs to its timeline, so a changed timeline shows
/// the button again.
#[test]
fn a_closed_panel_shows_nothing_and_a_count_belongs_to_its_timeline() {
    let mut session = session("canonical", Lang::En);
    check!(
        (session.invariants_open(), session.checks().is_none()),
        (false, true),
        "closed in an ordinary chapter, nothing checked"
    );
    check!(
        view::position(&session, None, 640.0).invariants,
        None,
        "nothing drawn"
    );
    session.set_invariants_open(true).expect("checks");
    session.count_orderings().expect("counts");
    assert!(panel(&session).orderings.table.is_some(), "counted");
    session.load_chapter("late-delivery").expect("loads");
    let said = panel(&session).orderings;
    check!(
        (said.table.is_none(), said.count.is_some()),
        (true, true),
        "another timeline: not counted yet"
    );
}

/// "On screen nothing goes wrong, even without the fence: A finishes at
/// 500 ms, C takes snack-2 at 1000 ms, B finds nothing at 1010 ms. There
/// are 140 orderings; with the fence none breaks an invariant, without it
/// some accept A's stale finish and some deliver snack-1 twice."
#[test]
fn every_ordering_the_order_on_screen_is_fine_but_some_orderings_are_not() {
    let scenario = Scenario::parse(chapter("every-ordering")).expect("parses");
    let doc = replayed("every-ordering");
    let counted = census(&scenario).expect("within the bound");
    let orderings = json!(counted.orderings);
    narrates(
        "every-ordering",
        &[
            &doc["results"][2]["at"],
            &doc["results"][3]["at"],
            &doc["results"][4]["at"],
            &orderings,
        ],
    );
    check!(
        [
            pick(&doc, 2, &["worker", "accepted"]),
            pick(&doc, 3, &["worker", "claim.id"]),
            pick(&doc, 4, &["worker", "claim"]),
        ],
        [
            json!({"worker": "A", "accepted": true}),
            json!({"worker": "C", "claim.id": "snack-2"}),
            json!({"worker": "B", "claim": null}),
        ],
        "R4, R5: A in time, C on snack-2, B finds nothing"
    );
    for side in [
        Side::Unfenced(Guard::IdOnly),
        Side::Unfenced(Guard::IdAndOwner),
        Side::ReceiverWithoutLedger,
    ] {
        let on_screen = along(&scenario, side).expect("replays");
        let broken: usize = on_screen.iter().map(|check| check.broken.len()).sum();
        check!(broken, 0, "{side:?}: the order on screen breaks nothing");
    }
    let tally = |side| {
        counted
            .sides
            .iter()
            .find(|t| t.side == side)
            .expect("a side")
    };
    let naive = tally(Side::Unfenced(Guard::IdOnly));
    let no_ledger = tally(Side::ReceiverWithoutLedger);
    check!(
        (
            tally(Side::Fenced).bad,
            (naive.stale_finish > 0, naive.applied_twice),
            (no_ledger.stale_finish, no_ledger.applied_twice > 0),
        ),
        (0, (true, 0), (0, true)),
        "R4, R12 over {} orderings: fenced bad; the id-only finish accepts a stale \
         finish and applies nothing twice; the receiver without its ledger the reverse",
        counted.orderings
    );
}
