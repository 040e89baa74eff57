//! The statement-level model of `leasefence_course::mechanism`: the
//! naive claim hands one token to two workers, the real claim makes the
//! second wait for the write lock, and a send held inside the claim's
//! transaction makes the producer's enqueue wait it out.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.
//!
//! Native only: the page's statement panel is tested on the view it
//! draws (`tests/statement_panel.rs`) and in Chromium
//! (`e2e/statements.test.mjs`).

#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::collections::BTreeMap;

use leasefence::NewJob;
use leasefence::store::CLAIM;
use leasefence_course::mechanism::Refusal;
use leasefence_course::mechanism::invariants::{Invariant, along_statements};
use leasefence_course::mechanism::races::LEASE_MS;
use leasefence_course::mechanism::races::{self, CLAIMER_STARTS_MS, PRODUCER_STARTS_MS};
use leasefence_course::mechanism::statements::{Actor, Machine, Op, Run, StepKind};
use leasefence_course::variants::sql::{NAIVE_CLAIM_READ, NAIVE_CLAIM_WRITE};

/// Who ran which statement (first line), step by step.
fn script(run: &Run) -> Vec<(String, StepKind, String)> {
    run.steps
        .iter()
        .map(|step| {
            let sql = step.sql.as_ref().map_or("", |sql| &sql.sql);
            let first = sql.lines().next().unwrap_or("").to_owned();
            (step.actor.clone(), step.kind, first)
        })
        .collect()
}

/// Actor -> (job, token) of the claim it ended with.
fn ended_with(run: &Run) -> BTreeMap<String, Option<(String, u64)>> {
    run.claims
        .iter()
        .map(|(actor, claim)| {
            let held = claim.as_ref().map(|claim| (claim.id.clone(), claim.token));
            (actor.clone(), held)
        })
        .collect()
}

fn first_line(sql: &str) -> String {
    sql.trim().lines().next().unwrap_or("").to_owned()
}

/// R6: read first, write later, and two workers leave with token 1.
#[test]
fn a_naive_claim_read_before_either_write_hands_token_1_to_both_workers_r6() {
    let run = races::naive_claim_race().expect("runs");
    let (read, write) = (first_line(NAIVE_CLAIM_READ), first_line(NAIVE_CLAIM_WRITE));
    let expected: Vec<_> = [("A", &read), ("B", &read), ("A", &write), ("B", &write)]
        .into_iter()
        .map(|(actor, sql)| (actor.to_owned(), StepKind::Ran, sql.clone()))
        .collect();
    check!(
        script(&run),
        expected,
        "A reads, B reads, A writes, B writes"
    );
    let one = Some(("snack-1".to_owned(), 1));
    let both = BTreeMap::from([("A".to_owned(), one.clone()), ("B".to_owned(), one)]);
    check!(ended_with(&run), both, "both hold token 1 of snack-1");
    let b_read = &run.steps[1].sql.as_ref().expect("B's read").params;
    check!(
        format!("{b_read:?}"),
        r#"[(":now", Int(1))]"#.to_owned(),
        "B's read is bound to its own instant"
    );
}

/// R6, R2: the same race broken down by the invariants: at B's write two
/// workers hold valid leases and token 1 is handed out again.
#[test]
fn the_invariants_turn_red_at_the_naive_claims_second_write_r2_r6() {
    let run = races::naive_claim_race().expect("runs");
    let broken: Vec<(usize, Vec<Invariant>)> = along_statements(&run)
        .into_iter()
        .filter(|check| !check.broken.is_empty())
        .map(|check| {
            let kinds = check.broken.iter().map(|b| b.invariant).collect();
            (check.event, kinds)
        })
        .collect();
    let expected = vec![(
        3,
        vec![Invariant::OneValidHolder, Invariant::TokensOnlyGrow],
    )];
    check!(broken, expected, "only B's write (step 3) breaks anything");
    let real = races::real_claim_race(2).expect("runs");
    let red = along_statements(&real)
        .into_iter()
        .filter(|c| !c.broken.is_empty());
    check!(red.count(), 0, "the real claims break nothing");
}

/// R6: `BEGIN IMMEDIATE` takes the write lock before anything is read; B
/// waits for A's commit and then finds nothing to claim.
#[test]
fn the_real_claim_makes_the_second_worker_wait_for_the_lock_and_take_nothing_r6() {
    let run = races::real_claim_race(1).expect("runs");
    let b_waits = &run.steps[1];
    check!(
        (
            b_waits.actor.as_str(),
            b_waits.kind,
            b_waits.lock.as_deref()
        ),
        ("B", StepKind::Waits, Some("A")),
        "B's BEGIN IMMEDIATE at step 1"
    );
    check!(
        b_waits.waiting.clone(),
        vec!["B".to_owned()],
        "the waiting list"
    );
    let a_commit = run
        .steps
        .iter()
        .position(|step| step.actor == "A" && step.sql.as_ref().is_some_and(|s| s.sql == "COMMIT"))
        .expect("A commits");
    let b_ran_before_commit = run.steps[..a_commit]
        .iter()
        .any(|step| step.actor == "B" && step.kind == StepKind::Ran);
    check!(
        b_ran_before_commit,
        false,
        "B runs nothing while A holds the lock"
    );
    let expected = BTreeMap::from([
        ("A".to_owned(), Some(("snack-1".to_owned(), 1))),
        ("B".to_owned(), None),
    ]);
    check!(ended_with(&run), expected, "A has token 1, B nothing");
    let b_claim = run
        .steps
        .iter()
        .rev()
        .find(|step| step.sql.as_ref().is_some_and(|s| s.sql == CLAIM.trim()))
        .expect("B's claim ran");
    check!(
        (b_claim.actor.as_str(), b_claim.sql.as_ref().map(|s| s.rows)),
        ("B", Some(0)),
        "B's UPDATE returned no row"
    );
    check!(
        run.waited_ms["B"],
        5,
        "B waited A's four statements after its BEGIN (1 ms each)"
    );
}

/// R6: with a second job the worker that waited takes it.
#[test]
fn with_a_second_job_the_worker_that_waited_takes_the_next_one_r6() {
    let run = races::real_claim_race(2).expect("runs");
    let expected = BTreeMap::from([
        ("A".to_owned(), Some(("snack-1".to_owned(), 1))),
        ("B".to_owned(), Some(("snack-2".to_owned(), 1))),
    ]);
    check!(ended_with(&run), expected, "one job each, token 1 each");
}

/// The machine after running `turns` (actor indices, 1 ms apart).
fn after(jobs: &[NewJob], actors: &[Actor], turns: &[usize]) -> Machine {
    let mut machine = Machine::new(jobs, actors).expect("opens");
    for (at, &actor) in turns.iter().enumerate() {
        machine
            .turn(actor, at as u64)
            .expect("a runnable actor's turn");
    }
    machine
}

/// Every run of `actors`: at each point, any actor whose next statement
/// would run rather than wait goes next.
fn every_run(jobs: &[NewJob], actors: &[Actor]) -> Vec<Run> {
    fn explore(jobs: &[NewJob], actors: &[Actor], turns: &mut Vec<usize>, runs: &mut Vec<Run>) {
        let machine = after(jobs, actors, turns);
        if machine.done() {
            runs.push(machine.into_run().expect("reads the table"));
            return;
        }
        for actor in machine.runnable() {
            turns.push(actor);
            explore(jobs, actors, turns, runs);
            turns.pop();
        }
    }
    let mut runs = Vec::new();
    explore(jobs, actors, &mut Vec::new(), &mut runs);
    runs
}

fn claimers(op: Op) -> Vec<Actor> {
    ["A", "B", "C"]
        .into_iter()
        .map(|name| Actor {
            name: name.into(),
            start_ms: 0,
            ops: vec![op.clone()],
        })
        .collect()
}

/// R6, R2: over every interleaving of three workers' statements, the real
/// claim hands one job's token 1 out once; the naive claim, run through
/// the same enumeration, hands it out more than once (the control).
#[test]
fn no_interleaving_of_real_claims_hands_a_token_out_twice_and_naive_ones_do_r2_r6() {
    let jobs = [NewJob::new("snack-1", 2, 5000)];
    let tokens_out = |runs: &[Run]| -> Vec<usize> {
        runs.iter()
            .map(|run| run.claims.values().filter(|claim| claim.is_some()).count())
            .collect()
    };
    let real = every_run(
        &jobs,
        &claimers(Op::Claim {
            lease_ms: LEASE_MS,
            owner: None,
        }),
    );
    check!(
        tokens_out(&real),
        vec![1; real.len()],
        "claims per run, real claim ({} runs)",
        real.len()
    );
    let naive = every_run(
        &jobs,
        &claimers(Op::NaiveClaim {
            lease_ms: LEASE_MS,
            owner: None,
        }),
    );
    let doubled = tokens_out(&naive).into_iter().filter(|&n| n > 1).count();
    check!(
        doubled > 0,
        true,
        "naive runs with token 1 held twice: {doubled} of {}",
        naive.len()
    );
}

/// R7, its control: a worker that sends before `COMMIT` holds the write
/// lock through the send, and the producer's enqueue waits it out.
#[test]
fn a_send_inside_the_transaction_makes_the_enqueue_wait_out_the_send_r7() {
    let send_ms = 300;
    let run = races::send_race(true, send_ms).expect("runs");
    let at = |actor: &str, kind: StepKind, sql: &str| {
        run.steps
            .iter()
            .position(|s| {
                s.actor == actor && s.kind == kind && s.sql.as_ref().is_none_or(|e| e.sql == sql)
            })
            .unwrap_or(usize::MAX)
    };
    let returns = at("A", StepKind::SendReturns, "");
    let commit = at("A", StepKind::Ran, "COMMIT");
    let producer_begins = at("producer", StepKind::Ran, "BEGIN IMMEDIATE");
    check!(
        (returns < commit, commit < producer_begins),
        (true, true),
        "send returns, then A commits, then the producer's BEGIN runs (steps {returns}, {commit}, {producer_begins})"
    );
    let waited = run.waited_ms["producer"];
    check!(
        waited >= send_ms - PRODUCER_STARTS_MS,
        true,
        "the producer waited {waited} ms, the rest of a {send_ms} ms send"
    );
}

/// R7: the real worker commits before sending, so the enqueue made during
/// the send goes through at once.
#[test]
fn after_commit_the_enqueue_goes_through_while_the_send_is_in_flight_r7() {
    let run = races::send_race(false, 300).expect("runs");
    check!(run.waited_ms["producer"], 0, "the producer's wait");
    let order: Vec<_> = script(&run)
        .into_iter()
        .filter(|(actor, kind, _)| actor == "producer" || *kind == StepKind::SendReturns)
        .collect();
    let expected = vec![
        (
            "producer".to_owned(),
            StepKind::Ran,
            "BEGIN IMMEDIATE".to_owned(),
        ),
        (
            "producer".to_owned(),
            StepKind::Ran,
            first_line(leasefence::store::ENQUEUE),
        ),
        ("producer".to_owned(), StepKind::Ran, "COMMIT".to_owned()),
        ("A".to_owned(), StepKind::SendReturns, String::new()),
    ];
    check!(
        order,
        expected,
        "the enqueue commits before the send returns"
    );
    check!(run.rows.len(), 2, "both jobs are in the table");
}

/// R7: the write lock a send inside the transaction holds keeps out every
/// writer, not only the producer: another worker's claim made during the
/// send waits it out too (the course: "새 접수와 다른 작업자의 선점도
/// 막힙니다"). After `COMMIT` the same claim takes the job just enqueued,
/// at once.
#[test]
fn a_send_inside_the_transaction_makes_another_workers_claim_wait_too_r7() {
    let send_ms = 300;
    let [after, inside] =
        [false, true].map(|inside| races::send_race(inside, send_ms).expect("runs"));
    let seen = |run: &Run| (run.waited_ms.get("B").copied(), ended_with(run).remove("B"));
    check!(
        seen(&after),
        (Some(0), Some(Some(("snack-2".to_owned(), 1)))),
        "after COMMIT: (B's wait, B's claim)"
    );
    let (waited, claim) = seen(&inside);
    check!(
        (
            waited.is_some_and(|ms| ms >= send_ms - CLAIMER_STARTS_MS),
            claim
        ),
        (true, Some(Some(("snack-2".to_owned(), 1)))),
        "inside: B waited {waited:?} ms, the rest of a {send_ms} ms send, then claimed"
    );
}

/// A run is a document the page can draw: steps with the lock and the
/// waiting actors.
#[test]
fn a_run_serialises_with_statements_bound_values_and_the_lock() {
    let run = races::real_claim_race(1).expect("runs");
    let json = serde_json::to_value(&run).expect("serialises");
    let expected = serde_json::json!({
        "at": 1, "actor": "B", "kind": "waits", "does": "begin",
        "sql": {"sql": "BEGIN IMMEDIATE", "params": [], "write": true, "rows": 0},
        "lock": "A", "waiting": ["B"], "holding": {}
    });
    check!(json["steps"][1], expected, "B's wait as JSON");
    check!(
        json["waited_ms"]["B"],
        serde_json::json!(5),
        "B's wait in ms"
    );
}

/// A turn the script cannot take is refused by type.
#[test]
fn turns_for_a_finished_actor_or_back_in_time_are_refused() {
    let actors = claimers(Op::NaiveClaim {
        lease_ms: LEASE_MS,
        owner: None,
    });
    let mut machine = after(&[], &actors, &[0]);
    let nothing = machine.turn(0, 5);
    check!(
        format!("{nothing:?}"),
        r#"Err(NothingLeft { actor: "A" })"#.to_owned(),
        "A read nothing, so it has nothing to write"
    );
    machine.turn(1, 5).expect("B reads at 5 ms");
    let back = machine.turn(2, 4).map_err(|refusal| {
        matches!(
            refusal,
            Refusal::Queue(leasefence::Error::InvalidInput {
                problem: leasefence::Problem::TimeGoesBack { at: 4, previous: 5 },
                ..
            })
        )
    });
    check!(back, Err(true), "a turn before the last step");
}
