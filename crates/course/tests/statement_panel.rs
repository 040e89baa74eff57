//! The statement panel: what
//! the page draws when a claim, a finish, an enqueue and a send are
//! stepped one statement at a time, the real queue beside the naive one,
//! computed natively from the mechanism's runs. Rule numbers refer to
//! `CONTRACT.md`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::key;
use leasefence_course::mechanism::races::{naive_claim_race, real_claim_race, send_race};
use leasefence_course::playground::assertions::{Assertion, RunFact};
use leasefence_course::playground::session::Session;
use leasefence_course::playground::statements::{Move, Race, SEND_MS};
use leasefence_course::playground::view::{self, SideView, StatementsView};
use leasefence_course::playground::{CHAPTERS, Lang};
use support::session;

/// The chapter's session with the panel on `race`, at `position`.
fn at(race: Race, position: usize, lang: Lang) -> (Session, StatementsView) {
    let mut session = session(support::statement_chapter(), lang);
    session.statements(Move::Race(race)).expect("runs");
    session.statements(Move::Reset).expect("resets");
    for _ in 0..position {
        session.statements(Move::Step).expect("steps");
    }
    let drawn = view::statements(&session).expect("the panel is open");
    (session, drawn)
}

/// Every position of both races, in both languages.
fn every_position(mut check: impl FnMut(Race, Lang, &StatementsView)) {
    for race in Race::ALL {
        for lang in [Lang::En, Lang::Ko] {
            let (session, _) = at(race, 0, lang);
            for position in 0..=session.statement_panel.total() {
                let (_, drawn) = at(race, position, lang);
                check(race, lang, &drawn);
            }
        }
    }
}

fn lane_row<'a>(side: &'a SideView, actor: &str) -> &'a [&'static str] {
    let row = side.lane.rows.iter().find(|row| row.actor == actor);
    &row.unwrap_or_else(|| panic!("{actor}'s row in {:?}", side.lane))
        .cells
}

fn line_states(side: &SideView, actor: &str) -> Vec<&'static str> {
    let found = side.actors.iter().find(|a| a.name == actor).expect("actor");
    found.lines.iter().map(|line| line.state).collect()
}

/// R6: after the last statement the naive side says one token went to two
/// workers, and both hold token 1 of snack-1; at no position does the real
/// side show a token twice.
#[test]
fn the_naive_claim_ends_with_two_token_1_claims_and_the_real_one_never_shows_one_r6() {
    let (session, end) = at(Race::Claim, 99, Lang::En);
    check!(
        end.position,
        session.statement_panel.total(),
        "End clamps to the total"
    );
    let [real, naive] = [&end.sides[0], &end.sides[1]];
    let verdicts = (
        real.verdict.as_ref().map(|v| v.harm),
        naive.verdict.as_ref().map(|v| v.harm),
    );
    check!(verdicts, (Some(false), Some(true)), "harm: real, naive");
    let claim = |worker: &str| (worker.to_owned(), "snack-1".to_owned(), 1);
    check!(
        holding(naive),
        vec![claim("A"), claim("B")],
        "who holds what on the naive side"
    );
    check!(
        holding(real),
        vec![claim("A")],
        "who holds what on the real side"
    );
    every_position(|race, lang, drawn| {
        let real = &drawn.sides[0];
        // One job's token held twice is the harm (two jobs' token 1 each,
        // as in the send race, is not).
        let held: Vec<(String, u64)> = (holding(real).into_iter())
            .map(|(_, job, token)| (job, token))
            .collect();
        let twice = (held.iter()).any(|claim| held.iter().filter(|c| *c == claim).count() > 1);
        let doubled = twice || real.verdict.as_ref().is_some_and(|v| v.harm);
        check!(
            doubled,
            false,
            "{race:?} {lang:?} at {}: the real side shows a token twice: {}",
            drawn.position,
            real.holding
        );
    });
}

/// The claims a side's memory line states: (worker, job, token).
fn holding(side: &SideView) -> Vec<(String, String, u64)> {
    match side.holding.asserts().as_slice() {
        [
            Assertion::Run {
                fact: RunFact::Holding { claims, .. },
                ..
            },
        ] => claims.clone(),
        other => panic!("the memory line states {other:?}"),
    }
}

/// R6: A's `BEGIN IMMEDIATE` takes the write lock; B's waits, on the lane
/// and in B's statements, until A's `COMMIT`; the naive side never takes
/// the lock across its read and its write.
#[test]
fn the_real_claim_makes_b_wait_for_the_write_lock_a_holds_and_the_lane_shows_it_r6() {
    let (_, two) = at(Race::Claim, 2, Lang::En);
    let real = &two.sides[0];
    check!(
        (
            lane_row(real, "A")[..2].to_vec(),
            lane_row(real, "B")[..2].to_vec()
        ),
        (vec!["hold", "hold"], vec!["", "wait"]),
        "after A's BEGIN and B's wait: A holds, B waits"
    );
    check!(
        line_states(real, "B")[0],
        "waits",
        "B's BEGIN IMMEDIATE is marked as waiting"
    );
    check!(
        real.lane.text.text().to_owned(),
        "A holds the write lock; B waits.".to_owned(),
        "the lane in words"
    );
    let (_, end) = at(Race::Claim, 11, Lang::En);
    let real = &end.sides[0];
    let b = lane_row(real, "B");
    let waited = b.iter().filter(|cell| **cell == "wait").count();
    let commit = real.lane.times.iter().position(|t| t == "5").expect("5 ms");
    check!(
        (waited, b[commit + 1]),
        (5, "hold"),
        "B waits 5 statements, and holds the lock right after A's COMMIT"
    );
    // Each naive statement runs in a transaction of its own: a write
    // holds the lock for its own column, a read takes none, and nothing
    // is held from a read to the write after it.
    let naive = &end.sides[1];
    let held: Vec<(String, Vec<&str>)> = naive
        .lane
        .rows
        .iter()
        .map(|row| (row.actor.clone(), row.cells.clone()))
        .collect();
    // The naive side's four statements end at 3 ms; its lane goes on, on
    // the panel's one clock, as long as the real side's (to 10 ms).
    let columns = naive.lane.times.len();
    let row = |cells: [&'static str; 4]| {
        let mut row = cells.to_vec();
        row.resize(columns, "");
        row
    };
    check!(
        held,
        vec![
            ("A".to_owned(), row(["", "", "hold", ""])),
            ("B".to_owned(), row(["", "", "", "hold"])),
        ],
        "autocommit writes hold the lock for themselves alone; reads hold none"
    );
}

/// The lane's columns are moments, so a wait of
/// hundreds of ms took as few columns as one of 1 ms. Now the time between
/// two moments is on the lane too, each span with what the lock did then:
/// the producer's wait on the naive side, summed over the spans it waits
/// through, is the wait the send race measured.
#[test]
fn the_lane_shows_the_time_between_moments_so_a_long_wait_looks_long() {
    let inside = send_race(true, SEND_MS).expect("runs");
    let waited = inside.waited_ms["producer"];
    let (_, end) = at(Race::Send, 99, Lang::En);
    let naive = &end.sides[1];
    let lane = &naive.lane;
    let times: Vec<u64> = lane.times.iter().map(|t| t.parse().expect("ms")).collect();
    let spans: Vec<u64> = (times.windows(2).map(|pair| pair[1] - pair[0]))
        .chain([0])
        .collect();
    check!(
        lane.spans,
        spans,
        "each column's span is the time to the next"
    );
    let row = lane
        .rows
        .iter()
        .find(|row| row.actor == "C")
        .expect("C's row");
    let waited_on_lane: u64 = (row.between.iter().zip(&lane.spans))
        .filter(|(state, _)| **state == "wait")
        .map(|(_, span)| span)
        .sum();
    check!(
        waited_on_lane,
        waited,
        "the spans the producer waits through add up to its wait"
    );
    check!(
        lane.spans.iter().any(|&span| span > 100),
        true,
        "a long span is there to be drawn wide: {:?}",
        lane.spans
    );
}

/// R7: the send held inside the transaction keeps the producer's enqueue
/// and B's claim waiting the rest of the send; after `COMMIT` both go
/// through at once.
#[test]
fn a_send_inside_the_transaction_makes_the_enqueue_wait_and_after_commit_it_does_not_r7() {
    let inside = send_race(true, SEND_MS).expect("runs");
    let (waited, claim_waited) = (inside.waited_ms["producer"], inside.waited_ms["B"]);
    let (_, end) = at(Race::Send, 99, Lang::En);
    let [real, naive] = [&end.sides[0], &end.sides[1]];
    let harm = |side: &SideView| {
        let verdict = side.verdict.as_ref()?;
        Some((
            verdict.harm,
            verdict
                .text
                .asserts()
                .into_iter()
                .cloned()
                .collect::<Vec<_>>(),
        ))
    };
    let waits = |naive: bool, enqueue_ms: u64, claim_ms: u64| {
        vec![Assertion::Run {
            race: Race::Send,
            naive,
            fact: RunFact::Waited {
                enqueue_ms,
                claim_ms,
            },
        }]
    };
    check!(
        harm(naive),
        Some((true, waits(true, waited, claim_waited))),
        "the naive verdict states the enqueue's {waited} ms wait and B's claim's {claim_waited} ms"
    );
    check!(
        harm(real),
        Some((false, waits(false, 0, 0))),
        "the real verdict: no wait"
    );
    check!(
        lane_row(real, "C").contains(&"wait"),
        false,
        "the real producer never waits"
    );
    let times = &naive.lane.times;
    let waiting: Vec<&str> = lane_row(naive, "C")
        .iter()
        .zip(times)
        .filter(|(cell, _)| **cell == "wait")
        .map(|(_, at)| at.as_str())
        .collect();
    check!(
        (waiting.first().copied(), waiting.last().copied()),
        (Some("10"), Some("305")),
        "the producer waits from 10 ms until A's COMMIT"
    );
}

/// Every position: a column of the lane has at most one holder, nothing
/// after the position is filled in, at most one statement per side is
/// marked as just run (none before the first), and after the first some
/// side ran a statement or waits.
#[test]
fn at_every_position_the_lane_has_one_holder_and_each_side_at_most_one_statement_just_ran() {
    every_position(|race, lang, drawn| {
        let mut acted = 0;
        for side in &drawn.sides {
            let applied = side.lane.applied;
            let columns = side.lane.times.len();
            for column in 0..columns {
                let cells: Vec<&str> = side.lane.rows.iter().map(|r| r.cells[column]).collect();
                let holders = cells.iter().filter(|c| **c == "hold").count();
                let filled = cells.iter().any(|c| !c.is_empty());
                check!(
                    (holders <= 1, column >= applied && filled),
                    (true, false),
                    "{race:?} {lang:?} {} at {}: column {column} {cells:?}",
                    side.kind,
                    drawn.position
                );
            }
            let count = |state: &str| {
                let lines = side.actors.iter().flat_map(|actor| &actor.lines);
                lines.filter(|line| line.state == state).count()
            };
            let (now, waits) = (count("now"), count("waits"));
            acted += now + waits;
            check!(
                (now <= 1, applied > 0 || now == 0),
                (true, true),
                "{race:?} {lang:?} {} at {}: {now} statements just ran",
                side.kind,
                drawn.position
            );
        }
        check!(
            drawn.position == 0 || acted >= 1,
            true,
            "{race:?} {lang:?} at {}: a side ran a statement or waits",
            drawn.position
        );
    });
}

/// One step goes to the next millisecond at which either
/// side runs a statement, and both sides stand at that time: each has run
/// exactly its statements up to then. (The two races' statements take
/// 1 ms each, so no side runs two at one time.)
#[test]
fn both_sides_of_a_race_stand_at_the_same_millisecond() {
    for (race, runs) in [
        (Race::Claim, [real_claim_race(1), naive_claim_race()]),
        (
            Race::Send,
            [send_race(false, SEND_MS), send_race(true, SEND_MS)],
        ),
    ] {
        let runs = runs.map(|run| run.expect("runs"));
        let clock: std::collections::BTreeSet<u64> = runs
            .iter()
            .flat_map(|run| run.steps.iter().map(|step| step.at))
            .collect();
        let (session, end) = at(race, 99, Lang::En);
        check!(
            session.statement_panel.total(),
            clock.len(),
            "{race:?}: one step per millisecond used"
        );
        let headed: Vec<Vec<u64>> = (end.sides.iter())
            .map(|side| {
                side.lane
                    .times
                    .iter()
                    .map(|t| t.parse().expect("ms"))
                    .collect()
            })
            .collect();
        let every: Vec<u64> = clock.iter().copied().collect();
        check!(
            headed,
            vec![every.clone(), every],
            "{race:?}: both lanes, a column per millisecond used"
        );
        for (position, &ms) in (1..).zip(&clock) {
            let (_, drawn) = at(race, position, Lang::En);
            let shown: Vec<usize> = drawn
                .sides
                .iter()
                .map(|side| {
                    let lines = side.actors.iter().flat_map(|actor| &actor.lines);
                    lines
                        .filter(|line| matches!(line.state, "done" | "now"))
                        .count()
                })
                .collect();
            let expected: Vec<usize> = runs
                .iter()
                .map(|run| {
                    let ran = run.steps.iter().filter(|step| step.at <= ms);
                    ran.filter(|step| {
                        step.kind != leasefence_course::mechanism::statements::StepKind::Waits
                    })
                    .count()
                })
                .collect();
            check!(
                (
                    shown,
                    drawn.position_text.text().ends_with(&format!("at {ms} ms"))
                ),
                (expected, true),
                "{race:?} step {position}: statements run on each side by {ms} ms"
            );
        }
    }
}

/// Stepping stops at both ends; a new race starts at its first statement.
#[test]
fn stepping_stops_at_both_ends_and_a_new_race_starts_from_its_first_statement() {
    let mut session = session(support::statement_chapter(), Lang::En);
    session.statements(Move::Back).expect("back");
    let races = &session.statement_panel;
    // The real claim's 11 statements run at 0-10 ms, the naive one's 4 at
    // 0-3 ms: 11 moments in all.
    check!(
        (races.position, races.total()),
        (0, 11),
        "back at the start, and every millisecond either side uses"
    );
    session.statements(Move::End).expect("end");
    session.statements(Move::Step).expect("step");
    let races = &session.statement_panel;
    check!(races.position, races.total(), "a step at the end");
    session
        .statements(Move::Race(Race::Send))
        .expect("send race");
    let races = &session.statement_panel;
    check!(
        (races.race, races.position),
        (Race::Send, 0),
        "the send race from its start"
    );
}

/// The panel opens by itself in its chapter; elsewhere it stays closed
/// (and computes nothing) until the learner opens it.
#[test]
fn the_panel_is_open_in_its_chapter_and_opens_on_request_elsewhere() {
    for chapter in CHAPTERS {
        let mut session = session(chapter.id, Lang::En);
        let open = view::statements(&session).is_some();
        check!(
            open,
            chapter.id == support::statement_chapter(),
            "{}: open at load",
            chapter.id
        );
        session.statements(Move::Open(true)).expect("opens");
        let opened = view::statements(&session).map(|v| v.sides.len());
        check!(opened, Some(2), "{}: opened by the learner", chapter.id);
    }
}

/// R6 told true: the naive claim's `UPDATE` runs in a transaction of its
/// own, so SQLite holds the write lock for that one statement; what the
/// naive claim lacks is a lock held *across* its read and its write. Where
/// a naive write has just run, its worker's lane cell holds the lock, the
/// cell of its read before does not, and the words do not say that nobody
/// holds the lock.
#[test]
fn the_naive_claims_write_holds_the_write_lock_for_that_statement_alone() {
    let write_first_line = leasefence_course::variants::sql::NAIVE_CLAIM_WRITE
        .trim()
        .lines()
        .next()
        .expect("a first line");
    let (session, _) = at(Race::Claim, 0, Lang::En);
    let mut writes = std::collections::BTreeSet::new();
    for position in 1..=session.statement_panel.total() {
        for lang in [Lang::En, Lang::Ko] {
            let (_, drawn) = at(Race::Claim, position, lang);
            let naive = &drawn.sides[1];
            let writer = naive.actors.iter().find(|actor| {
                actor
                    .lines
                    .iter()
                    .any(|line| line.state == "now" && line.sql == write_first_line)
            });
            let Some(writer) = writer else { continue };
            writes.insert((writer.name.clone(), naive.lane.applied));
            let cells = lane_row(naive, &writer.name);
            let column = naive.lane.applied - 1;
            check!(
                (
                    cells[column],
                    cells.iter().filter(|cell| **cell == "hold").count()
                ),
                ("hold", 1),
                "{lang:?} at {position}: {}'s write holds the lock, nothing before it does: {cells:?}",
                writer.name
            );
            check!(
                naive.lane.text.text() == lang.text(key!("stmt.lock.free")),
                false,
                "{lang:?} at {position}: the lane says nobody holds the lock while {}'s write runs: {}",
                writer.name,
                naive.lane.text
            );
        }
    }
    check!(writes.len(), 2, "both naive writes (A's and B's) were seen");
}
