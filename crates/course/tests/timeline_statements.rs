//! The timeline on screen taken apart into statements (two actors'
//! statements interleaved as the scenario says): every
//! event's statements run at the event's own time, events at one instant
//! run side by side, and the write lock lines them up. The real side must
//! decide exactly what the replay decides; the naive claim, interleaved,
//! hands one token to two workers.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::collections::BTreeMap;

use leasefence::store::{CLAIM, ENQUEUE, FINISH};
use leasefence::{Outcome, Reason, Scenario, replay};
use leasefence_course::key;
use leasefence_course::mechanism::Refusal;
use leasefence_course::mechanism::races::{TIMELINE_MAX_EVENTS, timeline};
use leasefence_course::mechanism::statements::{Run, StepKind};
use leasefence_course::playground::session::{Session, Start};
use leasefence_course::playground::statements::{Move, Race};
use leasefence_course::playground::view::{self, StatementsView};
use leasefence_course::playground::{CHAPTERS, Lang};
use leasefence_course::variants::sql::NAIVE_CLAIM_WRITE;
use proptest::prelude::*;
use proptest::strategy::ValueTree;

fn chapter(id: &str) -> Scenario {
    let found = CHAPTERS.iter().find(|c| c.id == id).expect("a chapter");
    Scenario::parse(found.scenario()).expect("parses")
}

/// What the events decided, in the order the statements ran them, with
/// the actor: a claim's job and token (or nothing), a finish accepted or
/// rejected, `no_claim`, a send, an enqueue.
fn in_order_by_statements(run: &Run) -> Vec<(String, String)> {
    let mut decided = Vec::new();
    for step in &run.steps {
        let sql = step.sql.as_ref().filter(|_| step.kind == StepKind::Ran);
        let rows = sql.map_or(0, |executed| executed.rows);
        let label = match (step.kind, sql.map(|executed| &*executed.sql)) {
            (StepKind::NoClaim, _) => "no_claim".to_owned(),
            (StepKind::SendStarts, _) => "sent".to_owned(),
            (_, Some(sql)) if sql == CLAIM.trim() || sql == NAIVE_CLAIM_WRITE.trim() => {
                match (rows, step.holding.get(&step.actor)) {
                    (1, Some(claim)) => format!("claimed {} token={}", claim.id, claim.token),
                    _ => "empty".to_owned(),
                }
            }
            (_, Some(sql)) if sql == FINISH.trim() => match rows {
                1 => "accepted".to_owned(),
                _ => "rejected".to_owned(),
            },
            (_, Some(sql)) if sql == ENQUEUE.trim() => "enqueued".to_owned(),
            _ => continue,
        };
        decided.push((step.actor.clone(), label));
    }
    decided
}

/// The same, as the replay (the contract's document) decided it, in the
/// document's order.
fn in_order_by_replay(scenario: &Scenario) -> Vec<(String, String)> {
    let played = replay(scenario.clone()).expect("replays");
    let mut decided = Vec::new();
    for result in &played.results {
        let label = match &result.outcome {
            Outcome::Claimed { claim: Some(claim) } => {
                format!("claimed {} token={}", claim.id, claim.token)
            }
            Outcome::Claimed { claim: None } => "empty".to_owned(),
            Outcome::Finished(finish) if finish.reason() == Some(Reason::NoClaim) => {
                "no_claim".to_owned()
            }
            Outcome::Finished(finish) if finish.accepted() => "accepted".to_owned(),
            Outcome::Finished(_) => "rejected".to_owned(),
            Outcome::Sent {
                reason: Some(_), ..
            } => "no_claim".to_owned(),
            Outcome::Sent { .. } => "sent".to_owned(),
            Outcome::Enqueued { .. } => "enqueued".to_owned(),
        };
        decided.push((result.worker.clone(), label));
    }
    decided
}

/// Each actor's decisions, in its own order.
fn per_actor(decided: &[(String, String)]) -> BTreeMap<String, Vec<String>> {
    let mut by_actor: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (actor, label) in decided {
        by_actor
            .entry(actor.clone())
            .or_default()
            .push(label.clone());
    }
    by_actor
}

/// What took the write lock and decided, in the order it did: claims,
/// finishes and enqueues (sends and `no_claim` steps take no lock).
fn transactions(decided: &[(String, String)]) -> Vec<(String, String)> {
    let locked = |label: &str| !matches!(label, "sent" | "no_claim");
    decided
        .iter()
        .filter(|(_, label)| locked(label))
        .cloned()
        .collect()
}

/// The real side against the replay: each actor's decisions, the order in
/// which the transactions decided, and the table at the end.
fn real_side_agrees_with_the_replay(scenario: &Scenario) -> Result<(), String> {
    let run = timeline(scenario, false).map_err(|err| err.to_string())?;
    let played = replay(scenario.clone()).map_err(|err| err.to_string())?;
    let by_statements = in_order_by_statements(&run);
    let by_replay = in_order_by_replay(scenario);
    let current = (
        per_actor(&by_statements),
        transactions(&by_statements),
        run.rows,
    );
    let expected = (per_actor(&by_replay), transactions(&by_replay), played.rows);
    if current == expected {
        return Ok(());
    }
    Err(format!(
        "{}\n{}",
        scenario.to_json(),
        support::side_by_side(&expected, &current)
    ))
}

/// R6: every chapter taken apart into statements decides what its replay
/// decides, event by event, in the same order, and ends with the same
/// table: the statements at one instant are lined up by the write lock in
/// the document's order.
#[test]
fn every_chapter_taken_apart_decides_what_its_replay_decides_r6() {
    for found in CHAPTERS {
        let scenario = chapter(found.id);
        if let Err(diff) = real_side_agrees_with_the_replay(&scenario) {
            panic!("{}: statements against the replay\n{diff}", found.id);
        }
    }
}

/// R6: a send is two steps that take no lock; while an actor's send is
/// under way, its next event must not be overtaken by a later event's
/// transaction. A takes j1 at 0; at 10 A sends, then claims (nothing is
/// left), then B enqueues j2: A's claim must find nothing.
#[test]
fn a_send_in_flight_does_not_let_a_later_event_overtake_the_senders_next_r6() {
    let scenario = Scenario::parse(
        r#"{"jobs": [{"id": "j1", "qty": 1, "deadline": 5000}], "events": [
            {"at": 0, "worker": "A", "do": "claim", "lease_ms": 1000},
            {"at": 10, "worker": "A", "do": "send"},
            {"at": 10, "worker": "A", "do": "claim", "lease_ms": 1000},
            {"at": 10, "worker": "B", "do": "enqueue",
             "job": {"id": "j2", "qty": 1, "deadline": 5000}}
        ]}"#,
    )
    .expect("parses");
    if let Err(diff) = real_side_agrees_with_the_replay(&scenario) {
        panic!("statements against the replay\n{diff}");
    }
}

/// Every position of the panel on random timelines, in both languages,
/// is drawn, and no number it says is absurd (an actor's second send once
/// came out as a wait of 18446744073709551… ms).
#[test]
fn the_panel_draws_every_statement_of_random_timelines() {
    let two_sends = Scenario::parse(
        r#"{"jobs": [{"id": "j1", "qty": 1, "deadline": 5000}], "events": [
            {"at": 0, "worker": "A", "do": "claim", "lease_ms": 1000},
            {"at": 5, "worker": "A", "do": "send"},
            {"at": 10, "worker": "A", "do": "send"}
        ]}"#,
    )
    .expect("parses");
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let random = (0..24).map(|_| {
        let tree = support::random::small_scenario().new_tree(&mut runner);
        tree.expect("a scenario").current()
    });
    for scenario in std::iter::once(two_sends).chain(random) {
        for lang in [Lang::En, Lang::Ko] {
            let mut session = Session::new(lang, "sandbox", scenario.clone()).expect("a session");
            for change in [Move::Race(Race::Timeline), Move::Open(true)] {
                session.statements(change).expect("opens");
            }
            for _ in 0..panel(&session).total {
                session.statements(Move::Step).expect("steps");
                let drawn = panel(&session);
                let said: Vec<String> = drawn
                    .sides
                    .iter()
                    .filter_map(|side| side.now.as_ref().map(|now| now.said.text().to_owned()))
                    .collect();
                let absurd = said.iter().any(|text| {
                    let mut numbers = text.split(|c: char| !c.is_ascii_digit());
                    numbers.any(|number| number.len() > 9)
                });
                check!(absurd, false, "{lang:?} at {}: {said:?}", drawn.position);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// R6, R8: on random small scenarios (many events at one instant,
    /// restarts under the same name), the real side decides what the
    /// replay decides.
    #[test]
    fn a_random_timeline_taken_apart_decides_what_its_replay_decides_r6(
        scenario in support::random::small_scenario()
    ) {
        let agreed = real_side_agrees_with_the_replay(&scenario);
        prop_assert!(agreed.is_ok(), "{}", agreed.unwrap_err());
    }
}

/// (job, token) -> every worker handed that claim, in order.
fn handed_out(run: &Run) -> BTreeMap<(String, u64), Vec<String>> {
    let mut handed: BTreeMap<(String, u64), Vec<String>> = BTreeMap::new();
    for (actor, labels) in per_actor(&in_order_by_statements(run)) {
        for label in labels {
            if let Some(claim) = label.strip_prefix("claimed ") {
                let (id, token) = claim.split_once(" token=").expect("as written above");
                let key = (id.to_owned(), token.parse().expect("a number"));
                handed.entry(key).or_default().push(actor.clone());
            }
        }
    }
    handed
}

/// R6: in the write-lock chapter A and B claim at the same instant. Taken
/// apart, the real claims hand token 1 to A alone and B waits for the
/// lock; the naive read-then-write hands token 1 of snack-1 to both.
#[test]
fn two_claims_at_one_instant_share_a_token_only_without_begin_immediate_r6() {
    let scenario = chapter(support::statement_chapter());
    let real = timeline(&scenario, false).expect("runs");
    let naive = timeline(&scenario, true).expect("runs");
    let twice = |run: &Run| {
        handed_out(run)
            .into_iter()
            .filter(|(_, workers)| workers.len() > 1)
            .collect::<Vec<_>>()
    };
    check!(
        twice(&real),
        vec![],
        "real claims: no token handed out twice"
    );
    check!(
        twice(&naive),
        vec![(
            ("snack-1".to_owned(), 1),
            vec!["A".to_owned(), "B".to_owned()]
        )],
        "naive claims: token 1 of snack-1 to A and to B"
    );
    let b_waits = real
        .steps
        .iter()
        .any(|step| step.actor == "B" && step.kind == StepKind::Waits && step.at == 0);
    check!(b_waits, true, "B waits for the lock at 0 ms");
}

/// R3, R12: a finish and a send by a worker that holds no claim run no
/// statement: a step of their own, as the replay's `no_claim`.
#[test]
fn a_finish_or_send_without_a_claim_runs_no_statement_r3() {
    let scenario = Scenario::parse(
        r#"{"jobs": [], "events": [
            {"at": 0, "worker": "A", "do": "claim", "lease_ms": 100},
            {"at": 5, "worker": "A", "do": "send"},
            {"at": 9, "worker": "A", "do": "finish"}
        ]}"#,
    )
    .expect("parses");
    let run = timeline(&scenario, false).expect("runs");
    let after_claim: Vec<(StepKind, bool)> = run
        .steps
        .iter()
        .filter(|step| step.at > 0)
        .map(|step| (step.kind, step.sql.is_some()))
        .collect();
    check!(
        after_claim,
        vec![(StepKind::NoClaim, false), (StepKind::NoClaim, false)],
        "the send and the finish of a worker whose claim found nothing"
    );
}

/// A timeline longer than the panel takes apart is refused by the
/// mechanism with its numbers; the panel takes apart its first events
/// and says so.
#[test]
fn a_long_timeline_is_taken_apart_up_to_the_bound_and_the_panel_says_so() {
    let long = Scenario::generated(TIMELINE_MAX_EVENTS + 3);
    let got = long.events().len();
    match timeline(&long, false) {
        Err(Refusal::TimelineTooLong { got: said, max }) => {
            check!(
                (said, max),
                (got, TIMELINE_MAX_EVENTS),
                "the refusal's numbers"
            )
        }
        other => panic!("a refusal, got {other:?}"),
    }
    let mut session = Session::new(Lang::Ko, "sandbox", long).expect("a session");
    for change in [Move::Race(Race::Timeline), Move::Open(true)] {
        session.statements(change).expect("the panel opens");
    }
    let drawn = view::statements(&session).expect("open");
    let cut = drawn
        .cut
        .expect("the panel says it took part of the timeline");
    let numbers = [TIMELINE_MAX_EVENTS.to_string(), got.to_string()];
    check!(
        numbers.iter().all(|n| cut.text().contains(n.as_str())),
        true,
        "{cut:?} states {numbers:?}"
    );
}

fn panel(session: &Session) -> StatementsView {
    view::statements(session).expect("the panel is open")
}

/// The timeline race follows the timeline: a changed timeline starts the
/// panel over on the new one, and a copied link brings back the race and
/// the place.
#[test]
fn the_timeline_race_follows_the_timeline_and_travels_in_a_link() {
    let mut session = support::session("canonical", Lang::En);
    for change in [Move::Race(Race::Timeline), Move::Open(true), Move::End] {
        session.statements(change).expect("moves");
    }
    let canonical = panel(&session);
    check!(canonical.position, canonical.total, "at the end");
    session
        .load_chapter(support::statement_chapter())
        .expect("loads");
    let write_lock = panel(&session);
    let expected = timeline(&chapter(support::statement_chapter()), false)
        .expect("runs")
        .steps
        .len();
    check!(
        (write_lock.position, write_lock.sides[0].lane.times.len()),
        (0, expected),
        "the write-lock chapter's statements, from the first"
    );
    session.statements(Move::Seek(7)).expect("seeks");
    let link = session.link(true);
    check!(
        link.ends_with("&stmt=timeline.7"),
        true,
        "the copied link {link:?} carries the panel's place"
    );
    let back = Session::start(&Start {
        hash: Some(format!("#{link}")),
        ..Start::default()
    })
    .expect("starts from the link");
    check!(panel(&back), panel(&session), "the panel from the link");
}

/// In both languages the naive side of the write-lock chapter's timeline
/// ends harmful, naming token 1 and both workers; the real side does not.
#[test]
fn the_timeline_verdicts_name_the_shared_token_in_both_languages() {
    for lang in [Lang::En, Lang::Ko] {
        let mut session = support::session(support::statement_chapter(), lang);
        for change in [Move::Race(Race::Timeline), Move::End] {
            session.statements(change).expect("moves");
        }
        let drawn = panel(&session);
        let verdicts: Vec<(bool, bool)> = drawn
            .sides
            .iter()
            .map(|side| {
                let verdict = side.verdict.as_ref().expect("at the end");
                let named = ["token=1", "A", "B"]
                    .iter()
                    .all(|w| verdict.text.text().contains(w));
                (verdict.harm, named)
            })
            .collect();
        check!(
            verdicts,
            vec![(false, false), (true, true)],
            "{lang:?}: (harm, names token 1, A and B) for the real and the naive side"
        );
    }
}

/// R4: at the end of the canonical chapter taken apart, each side names
/// the finish the fence refused (A's, at 1001 ms, with token 1), and the
/// naive side, which did no harm here, says why, in both languages.
#[test]
fn the_timeline_verdict_names_the_refused_finish_and_why_the_naive_side_agreed_r4() {
    for lang in [Lang::En, Lang::Ko] {
        let mut session = support::session("canonical", lang);
        for change in [Move::Race(Race::Timeline), Move::Open(true), Move::End] {
            session.statements(change).expect("moves");
        }
        let drawn = panel(&session);
        let said: Vec<(bool, bool, bool)> = drawn
            .sides
            .iter()
            .map(|side| {
                let verdict = side.verdict.as_ref().expect("at the end");
                let refused = ["1001", "A", "token=1"]
                    .iter()
                    .all(|w| verdict.text.text().contains(w));
                let why = verdict
                    .text
                    .text()
                    .contains(lang.text(key!("stmt.no_overlap")));
                (verdict.harm, refused, why)
            })
            .collect();
        check!(
            said,
            vec![(false, true, false), (false, true, true)],
            "{lang:?}: (harm, names A's refused finish, says why the naive side agreed), real then naive"
        );
    }
}

/// A side whose statements end first on the panel's clock says so from
/// its last statement until the panel's end (where both have their
/// verdicts), counting its SQL statements; the other side never does.
#[test]
fn a_side_that_ends_first_says_so_while_the_other_goes_on() {
    let mut session = support::session(support::statement_chapter(), Lang::Ko);
    session
        .statements(Move::Race(Race::Timeline))
        .expect("moves");
    let opened = panel(&session);
    let runs = session.statement_panel.runs().expect("open").clone();
    let lengths: Vec<usize> = runs.iter().map(|run| run.steps.len()).collect();
    let (real, naive) = (lengths[0], lengths[1]);
    check!(
        naive < real,
        true,
        "the naive side is the shorter: {lengths:?}"
    );
    // The naive side's last statement, as a moment of the panel's clock:
    // its time, and how many of its statements ran at that time before it.
    let last = runs[1].steps.last().expect("statements");
    let rank = runs[1]
        .steps
        .iter()
        .filter(|step| step.at == last.at)
        .count()
        - 1;
    let clock = session.statement_panel.clock();
    let ended = 1 + clock
        .iter()
        .position(|&tick| tick == (last.at, rank))
        .expect("on the clock");
    for position in 0..=opened.total {
        session.statements(Move::Seek(position)).expect("seeks");
        let drawn = panel(&session);
        let said: Vec<bool> = drawn.sides.iter().map(|side| side.done.is_some()).collect();
        let expected = vec![false, position >= ended && position < opened.total];
        check!(
            said,
            expected,
            "at step {position} of {}: which sides say they ended",
            opened.total
        );
        if let Some(done) = &drawn.sides[1].done {
            // Its SQL statements: a send or a wait is a step, not one.
            let sql = runs[1]
                .steps
                .iter()
                .filter(|step| step.sql.is_some() && step.kind == StepKind::Ran);
            let sql = sql.count();
            check!(
                done.text().contains(&format!("SQL 문장 {sql}개")),
                true,
                "{done:?} counts the naive side's statements"
            );
        }
    }
}
