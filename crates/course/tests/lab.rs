//! The lab: the queue's own statement passes every level, each
//! level's starting version fails with a counterexample that shows the
//! failure the level is about, and a statement SQLite stops is a
//! disagreement, not a crash.

mod support;

use leasefence::Problem;
use leasefence_course::lab::{
    Current, Did, Disagreement, Graded, LEVELS, Level, Shortest, Writes, grade,
};
use leasefence_course::playground::chapter_scenarios;

/// A statement level's counterexample: an ordering of events.
fn events(shortest: &Shortest) -> &Disagreement {
    match shortest {
        Shortest::Events(disagreement) => disagreement,
        Shortest::Statements(race) => panic!("a statement's counterexample, got {race:#?}"),
    }
}

fn level(id: &str) -> Level {
    Level::find(id).unwrap_or_else(|| panic!("a level {id}"))
}

#[test]
fn the_queues_own_statement_passes_every_level() {
    for level in LEVELS {
        let graded = grade(&level, level.reference, &chapter_scenarios()).expect("grades");
        let Graded::Passed { checked } = graded else {
            panic!("{}: the reference must pass, got {graded:#?}", level.id);
        };
        // A statement plays every chapter and the lab's own scenarios; a
        // claim script plays the lab's three races.
        let scenarios = match level.writes {
            Writes::Statement(_) => checked.scenarios > 11,
            Writes::ClaimScript => checked.scenarios == 3,
        };
        assert!(
            scenarios && checked.orderings > checked.scenarios,
            "{}: every scenario, in every ordering: {checked:?}",
            level.id
        );
    }
}

/// The id-only finish lets a late worker's stale "done" land on the new
/// holder's claim: the reference refuses that finish, the learner's
/// accepts it.
#[test]
fn the_finish_levels_start_accepts_a_stale_finish_the_reference_refuses() {
    let level = level("finish");
    let Graded::Failed { shortest, .. } =
        grade(&level, level.start, &chapter_scenarios()).expect("grades")
    else {
        panic!("the id-only finish must fail");
    };
    let shortest = events(&shortest);
    check!(
        shortest.expected.did.clone(),
        Did::Finish { accepted: false },
        "the reference refuses"
    );
    let Current::Observed(current) = &shortest.current else {
        panic!("the learner's statement ran: {:?}", shortest.current);
    };
    check!(
        current.did.clone(),
        Did::Finish { accepted: true },
        "the id-only finish accepts"
    );
    check!(
        shortest.event + 1,
        shortest.scenario.events().len(),
        "the counterexample stops at the disagreement"
    );
}

/// With `<=` the old holder's finish passes at the very instant its
/// lease ends, when another worker may claim the job (R5).
#[test]
fn the_boundary_levels_start_accepts_a_finish_at_the_instant_the_lease_ends() {
    let level = level("boundary");
    let Graded::Failed { shortest, .. } =
        grade(&level, level.start, &chapter_scenarios()).expect("grades")
    else {
        panic!("the <= finish must fail");
    };
    let shortest = events(&shortest);
    let finish = &shortest.scenario.events()[shortest.event];
    let lease_end = shortest
        .expected
        .rows
        .iter()
        .find_map(|row| row.lease_until)
        .expect("the job was leased");
    check!(finish.at, lease_end, "the finish stands on the lease's end");
    check!(
        shortest.expected.did.clone(),
        Did::Finish { accepted: false },
        "the reference refuses"
    );
}

/// The claim side of the lease's end: with `lease_until < :now`, a claim
/// at the very instant the lease ends finds nothing, though the old
/// holder's finish is already refused there (R5): a gap, which the
/// reference does not leave (it gives the job to the new claimant).
#[test]
fn the_reclaim_levels_start_leaves_a_gap_at_the_instant_the_lease_ends() {
    let level = level("reclaim");
    let Graded::Failed { shortest, .. } =
        grade(&level, level.start, &chapter_scenarios()).expect("grades")
    else {
        panic!("the < claim must fail");
    };
    let shortest = events(&shortest);
    let claim = &shortest.scenario.events()[shortest.event];
    check!(claim.action.name(), "claim", "the parting is a claim");
    let Current::Observed(current) = &shortest.current else {
        panic!("the learner's statement ran: {:?}", shortest.current);
    };
    let Did::Claim { claim: Some(taken) } = &shortest.expected.did else {
        panic!("the reference gives the job: {:?}", shortest.expected.did);
    };
    check!(
        current.did.clone(),
        Did::Claim { claim: None },
        "the learner's claim finds nothing"
    );
    let lease_end = current
        .rows
        .iter()
        .find(|row| row.id == taken.id)
        .and_then(|row| row.lease_until)
        .expect("the job is still leased on the learner's side");
    check!(claim.at, lease_end, "the claim stands on the lease's end");
}

/// R9: the claim's lease is capped at the job's deadline. The uncapped
/// claim asks for a lease past the deadline at the first claim of the
/// deadline chapter, where the reference ends the lease at the deadline;
/// the schema's own `CHECK` stops it there, in SQLite's words.
#[test]
fn the_claim_levels_start_is_stopped_by_the_schemas_deadline_check() {
    let level = level("claim");
    let Graded::Failed { shortest, .. } =
        grade(&level, level.start, &chapter_scenarios()).expect("grades")
    else {
        panic!("the uncapped claim must fail");
    };
    let shortest = events(&shortest);
    let Did::Claim {
        claim: Some(expected),
    } = &shortest.expected.did
    else {
        panic!("the reference claimed: {shortest:#?}");
    };
    let deadline = (shortest.expected.rows.iter())
        .find(|row| row.id == expected.id)
        .map(|row| row.deadline)
        .expect("the job's row");
    check!(
        expected.lease_until,
        deadline,
        "the reference's lease ends at the deadline"
    );
    assert!(
        matches!(&shortest.current, Current::Stopped(Problem::Sqlite(said)) if said.contains("lease_until <= deadline")),
        "the schema's CHECK stops the uncapped lease: {:?}",
        shortest.current
    );
}

/// A claim that takes a live lease: where the reference claims the next
/// pending job (or nothing), the learner's takes back A's job while A's
/// lease runs; the panel says both claims in words taken from them.
#[test]
fn a_claim_that_takes_a_live_lease_is_told_claim_beside_claim() {
    use leasefence_course::playground::session::Session;
    use leasefence_course::playground::view::lab;
    use leasefence_course::playground::{CHAPTERS, Lang};

    let steals = "UPDATE jobs SET state = 'leased', owner = :owner, token = token + 1, \
                  attempts = attempts + 1, lease_until = MIN(:now_plus_lease, deadline) \
                  WHERE seq = (SELECT seq FROM jobs WHERE state IN ('pending', 'leased') \
                  ORDER BY seq LIMIT 1) \
                  RETURNING id, qty, owner, token, attempts, lease_until";
    let level = level("claim");
    let Graded::Failed { shortest, .. } =
        grade(&level, steals, &chapter_scenarios()).expect("grades")
    else {
        panic!("it must fail");
    };
    let shortest = events(&shortest);
    let Current::Observed(current) = &shortest.current else {
        panic!("it ran: {:?}", shortest.current);
    };
    let (Did::Claim { claim: wanted }, Did::Claim { claim: taken }) =
        (&shortest.expected.did, &current.did)
    else {
        panic!("both sides claim: {shortest:#?}");
    };
    assert!(wanted != taken, "the claims differ: {shortest:#?}");
    let words = |claim: &Option<leasefence::Claim>| match claim {
        Some(claim) => format!(
            "claims {} (token {}, lease until {} ms)",
            claim.id, claim.token, claim.lease_until
        ),
        None => "claims nothing".to_owned(),
    };
    let scenario = leasefence::Scenario::parse(CHAPTERS[0].scenario()).expect("a chapter");
    let mut session = Session::new(Lang::En, CHAPTERS[0].id, scenario).expect("a session");
    assert!(session.open_lab("claim"), "the level exists");
    session.grade_lab(steals).expect("grades");
    let answer = lab(&session).expect("open").answer.expect("an answer");
    let lines: Vec<String> = answer.lines.iter().map(ToString::to_string).collect();
    let said = format!(
        "The queue's statement {}; yours {}.",
        words(wanted),
        words(taken)
    );
    assert!(lines.contains(&said), "{lines:?} holds {said:?}");
}

/// The claim's seam holds a learner's claim to the claim's shape, and a
/// claim that returns nothing usable is stopped, not a crash.
#[test]
fn a_claim_must_return_the_claims_columns_and_its_values_must_be_a_claims() {
    let level = level("claim");
    let refused = grade(
        &level,
        "UPDATE jobs SET state = 'leased' WHERE seq = 1 RETURNING id, token",
        &chapter_scenarios(),
    );
    assert!(
        matches!(
            &refused,
            Err(leasefence::Error::InvalidInput {
                problem: Problem::ReturnsOtherColumns { .. },
                ..
            })
        ),
        "got {refused:?}"
    );
    let graded = grade(
        &level,
        "UPDATE jobs SET state = 'leased', owner = :owner WHERE seq = 1 \
         RETURNING id, qty, owner, NULL AS token, attempts, lease_until",
        &chapter_scenarios(),
    )
    .expect("grades");
    let Graded::Failed { shortest, .. } = graded else {
        panic!("it must fail");
    };
    let shortest = events(&shortest);
    assert!(
        matches!(&shortest.current, Current::Stopped(Problem::Sqlite(_))),
        "a NULL token is SQLite's complaint: {:?}",
        shortest.current
    );
}

/// A statement that breaks the schema's `CHECK` is stopped by SQLite at
/// its first finish: the counterexample carries SQLite's words.
#[test]
fn a_statement_sqlite_stops_is_a_counterexample_with_sqlites_words() {
    let level = level("finish");
    let graded = grade(
        &level,
        "UPDATE jobs SET state = 'finished' WHERE id = :id",
        &chapter_scenarios(),
    )
    .expect("grades");
    let Graded::Failed { shortest, .. } = graded else {
        panic!("it must fail");
    };
    let shortest = events(&shortest);
    assert!(
        matches!(&shortest.current, Current::Stopped(Problem::Sqlite(said)) if said.contains("CHECK")),
        "got {:?}",
        shortest.current
    );
}

#[test]
fn a_statement_the_seam_refuses_is_refused_before_any_playing() {
    let level = level("finish");
    let refused = grade(
        &level,
        "DELETE FROM jobs; DELETE FROM jobs",
        &chapter_scenarios(),
    );
    assert!(
        matches!(
            refused,
            Err(leasefence::Error::InvalidInput {
                problem: Problem::NotOneStatement,
                ..
            })
        ),
        "got {refused:?}"
    );
}

/// A finish that checks only the token and the lease is the queue's in
/// every ordering but one: a finish sent twice, which the queue refuses
/// the second time (the job is no longer leased).
#[test]
fn a_finish_without_the_state_check_fails_on_a_finish_sent_twice() {
    let level = level("finish");
    let sql =
        "UPDATE jobs SET state = 'done' WHERE id = :id AND token = :token AND :now < lease_until";
    let Graded::Failed { shortest, .. } = grade(&level, sql, &chapter_scenarios()).expect("grades")
    else {
        panic!("it must fail");
    };
    let shortest = events(&shortest);
    check!(
        shortest.from,
        "finish-twice",
        "the scenario that tells them apart"
    );
}

/// The panel says what the grading found, in numbers taken from it: the
/// counts checked, the event where the two part and its time, the
/// ordering's events (the last the one where they part), and the two
/// verdicts; a pass marks the level.
#[test]
fn the_lab_panel_says_the_grading_in_its_own_numbers() {
    use leasefence::Scenario;
    use leasefence_course::playground::session::Session;
    use leasefence_course::playground::view::lab;
    use leasefence_course::playground::{CHAPTERS, Lang};

    let scenario = Scenario::parse(CHAPTERS[0].scenario()).expect("a chapter");
    let mut session = Session::new(Lang::En, CHAPTERS[0].id, scenario).expect("a session");
    assert!(session.open_lab("finish"), "the level exists");
    session.grade_lab(level("finish").start).expect("grades");
    let Some(leasefence_course::lab::Answer::Graded(Graded::Failed { checked, shortest })) =
        session.lab().and_then(|bench| bench.answer.clone())
    else {
        panic!("the start fails");
    };
    let shortest = events(&shortest);
    let view = lab(&session).expect("the lab is open");
    let answer = view.answer.expect("an answer");
    let event = &shortest.scenario.events()[shortest.event];
    let said = format!(
        "at event {} ({} finishes at {} ms)",
        shortest.event + 1,
        event.worker,
        event.at
    );
    assert!(
        answer.headline.text().contains(&said),
        "{:?} names {said:?}",
        answer.headline
    );
    check!(
        answer.events.len(),
        shortest.event + 1,
        "one line per event of the ordering"
    );
    let lines: Vec<String> = answer.lines.iter().map(ToString::to_string).collect();
    let counts = format!(
        "Checked: {} orderings of {} scenarios.",
        checked.orderings, checked.scenarios
    );
    assert!(lines.contains(&counts), "{lines:?} holds {counts:?}");
    assert!(
        lines.iter().any(|line| line
            == "The queue's statement refuses it (nothing changes); yours accepts it (the job is done)."),
        "the two verdicts: {lines:?}"
    );
    session
        .grade_lab(level("finish").reference)
        .expect("grades");
    let view = lab(&session).expect("the lab is open");
    check!(
        view.levels[0].label.clone(),
        "The finish ✓".to_owned(),
        "the passed level is marked"
    );
    check!(
        session.labs_passed().to_vec(),
        vec!["finish"],
        "the levels passed"
    );
}

/// The first event where `sql` and the queue part on `scenario`, each
/// played from its start on a fresh queue (as the learner will step it).
fn first_parting(sql: &str, scenario: &leasefence::Scenario) -> Option<usize> {
    use leasefence::replay::{Outcome, Player};
    use leasefence::scenario::Action;
    use leasefence::store::{Outside, Replaces};
    let outside = Outside::new(Replaces::Finish, sql).expect("a statement the seam takes");
    let start = scenario.first(0);
    let (mut reference, mut learner) = (
        Player::new(start.clone()).expect("plays"),
        Player::new(start).expect("plays"),
    );
    for (index, event) in scenario.events().iter().enumerate() {
        let expected = match reference.play(event).expect("plays") {
            Outcome::Finished(finish) => Some(finish.accepted()),
            _ => None,
        };
        let current = if event.action == Action::Finish {
            match learner.held_claim(&event.worker).cloned() {
                Some(claim) => {
                    match learner
                        .queue()
                        .finish_outside(&outside, &claim.stamp(), event.at)
                    {
                        Ok((accepted, _)) => Some(accepted),
                        Err(_) => return Some(index),
                    }
                }
                None => Some(false),
            }
        } else {
            learner.play(event).expect("plays");
            None
        };
        if expected != current || reference.rows().ok() != learner.rows().ok() {
            return Some(index);
        }
    }
    None
}

/// The counterexample replays: played from scratch, the learner's
/// statement and the queue part exactly at its last event, and not
/// before, even for statements that change what going back restores (a
/// row deleted, renamed, its deadline moved).
#[test]
fn every_counterexample_replays_from_its_start_to_the_same_parting() {
    let level = level("finish");
    for sql in [
        level.start,
        "DELETE FROM jobs WHERE id = :id AND token = :token",
        "UPDATE jobs SET id = id || '-done', state = 'done' WHERE id = :id AND token = :token",
        "UPDATE jobs SET deadline = 1, lease_until = 1, state = 'done' WHERE id = :id AND token = :token",
        leasefence_course::variants::sql::NAIVE_FINISH_AT_LEASE_END,
    ] {
        let Graded::Failed { shortest, .. } =
            grade(&level, sql, &chapter_scenarios()).expect("grades")
        else {
            panic!("{sql}: expected a failure");
        };
        let shortest = events(&shortest);
        check!(
            first_parting(sql, &shortest.scenario),
            Some(shortest.event),
            "{sql}: where the counterexample parts, played from its start"
        );
    }
}

/// A correct finish that also builds a 10 MB value takes few of SQLite's
/// steps but long ones (it passed after 182 s): a string or blob past the
/// queue's bound stops the statement at its first finish, a
/// counterexample with SQLite's words, not a pass. Natively only: the
/// browser's SQLite has neither `zeroblob` nor `hex` (its length limit is
/// the same, src/store/outside.rs).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_statement_that_builds_a_huge_value_is_stopped_at_its_first_run() {
    let level = level("finish");
    let sql = format!(
        "{} AND length(hex(zeroblob(10000000))) > 0",
        leasefence::store::FINISH.trim()
    );
    let graded = grade(&level, &sql, &chapter_scenarios()).expect("grades");
    let Graded::Failed { shortest, .. } = graded else {
        panic!("it must fail, got {graded:#?}");
    };
    let shortest = events(&shortest);
    assert!(
        matches!(&shortest.current, Current::Stopped(Problem::Sqlite(said)) if said.contains("too big")),
        "expected SQLite's \"string or blob too big\", got {:?}",
        shortest.current
    );
}
