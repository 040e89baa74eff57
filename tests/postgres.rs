//! What only a PostgreSQL queue needs proving; the rules themselves run on
//! both engines (`rules.rs`, `model.rs`, `golden.rs`). A throwaway cluster
//! serves these tests (`engines/postgres.rs`).
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#![cfg(not(target_arch = "wasm32"))]

mod engines;
mod support;

use engines::postgres::fresh_url;
use leasefence::{Error, NewJob, Queue};

/// Whether another session can lock `id`'s row at once: `NOWAIT` fails
/// instead of waiting when a transaction still holds it.
fn row_is_free(url: &str, id: &str) -> bool {
    let mut probe = postgres::Client::connect(url, postgres::NoTls).expect("connects");
    let mut tx = probe.transaction().expect("begins");
    tx.query("SELECT 1 FROM jobs WHERE id = $1 FOR UPDATE NOWAIT", &[&id])
        .is_ok()
}

/// R7: the claim commits before the job is sent, so while the worker waits
/// on the network its job's row is locked by nobody, and another
/// connection enqueues and claims at once.
#[test]
fn no_lock_is_held_while_sending() {
    let url = fresh_url();
    let worker = Queue::connect(&url).expect("connects");
    worker
        .enqueue(&NewJob::new("snack-1", 2, 5000))
        .expect("enqueues");
    // The control: the probe does see a lock a transaction holds.
    let mut holder = postgres::Client::connect(&url, postgres::NoTls).expect("connects");
    let mut held = holder.transaction().expect("begins");
    held.execute("UPDATE jobs SET qty = qty WHERE id = 'snack-1'", &[])
        .expect("locks the row");
    assert!(
        !row_is_free(&url, "snack-1"),
        "the probe misses a held lock"
    );
    held.rollback().expect("rolls back");
    let processed = worker
        .process_one(
            "A",
            1000,
            || 10,
            |claim| {
                check!(
                    row_is_free(&url, &claim.id),
                    true,
                    "R7: while {} is being sent, its row is not locked",
                    claim.id
                );
                let other = Queue::connect(&url).map_err(|err| err.to_string())?;
                other
                    .enqueue(&NewJob::new("snack-2", 1, 5000))
                    .map_err(|err| err.to_string())?;
                let second = other.claim("B", 10, 1000).map_err(|err| err.to_string())?;
                check!(
                    second.map(|claim| claim.id),
                    Some("snack-2".to_owned()),
                    "R7: while the job is being sent, another worker claims the next one"
                );
                Ok::<(), String>(())
            },
        )
        .expect("processes one job")
        .expect("a job was there");
    assert!(processed.finish.accepted(), "R4: the holder's finish");
}

/// A `jobs` table leasefence did not create is another program's: the
/// queue refuses it and writes nothing, as it refuses another program's
/// SQLite file.
#[test]
fn another_programs_jobs_table_is_refused_and_left_alone() {
    let url = fresh_url();
    let mut client = postgres::Client::connect(&url, postgres::NoTls).expect("connects");
    client
        .batch_execute("CREATE TABLE jobs (id text PRIMARY KEY, payload text)")
        .expect("creates a foreign table");
    let refused = Queue::connect(&url).map(|_| ());
    assert!(
        matches!(&refused, Err(Error::NotOurDatabase { why, .. }) if why.contains("did not create")),
        "expected NotOurDatabase, got {refused:?}"
    );
    let columns: i64 = client
        .query_one(
            "SELECT count(*) FROM information_schema.columns WHERE table_name = 'jobs' \
             AND table_schema = current_schema()",
            &[],
        )
        .expect("reads the catalog")
        .get(0);
    check!(columns, 2, "the foreign table keeps its own two columns");
}

/// A queue that must exist is not created by reading it, as
/// `Queue::open_existing` does not create a file.
#[test]
fn connecting_to_an_existing_queue_creates_nothing() {
    let url = fresh_url();
    let refused = Queue::connect_existing(&url).map(|_| ());
    assert!(
        matches!(&refused, Err(Error::NotOurDatabase { why, .. }) if why.contains("no `jobs` table")),
        "expected NotOurDatabase, got {refused:?}"
    );
    Queue::connect(&url).expect("creates the queue");
    Queue::connect_existing(&url).expect("finds it now");
}

/// The URL an error shows keeps the password out, wherever it was written.
#[test]
fn an_unreachable_server_is_named_without_its_password() {
    for url in [
        "postgresql://someone:hunter2@%2Fnonexistent/db",
        "postgresql://someone@%2Fnonexistent/db?password=hunter2",
    ] {
        let err = Queue::connect(url).expect_err("nothing listens there");
        assert!(
            matches!(err, Error::Database(_)),
            "{url}: expected a database error, got {err:?}"
        );
        let said = format!("{err} {err:?}");
        assert!(
            !said.contains("hunter2"),
            "{url}: the error shows the password: {said}"
        );
    }
}

/// Time is a parameter (CONTRACT.md): no statement of the PostgreSQL queue
/// reads the server's clock.
#[test]
fn no_statement_reads_the_servers_clock() {
    // The statements, without the Rust comments that describe them.
    let statements: String = (include_str!("../src/postgres/sql.rs").lines())
        .filter(|line| !line.trim_start().starts_with("//"))
        .map(str::to_lowercase)
        .collect();
    for clock in [
        "now()",
        "current_timestamp",
        "clock_timestamp",
        "statement_timestamp",
        "transaction_timestamp",
        "localtimestamp",
        "current_time",
    ] {
        assert!(
            !statements.contains(clock),
            "src/postgres/sql.rs calls {clock}: the queue's time is the caller's `now`"
        );
    }
}

/// R12 with deliveries at once from several connections: each id counts
/// once, and each row's running total counts every row before it (a
/// delivery reads the last total and adds to it, so two may not interleave
/// there).
#[test]
fn concurrent_deliveries_count_once_and_keep_running_totals() {
    let url = fresh_url();
    leasefence::Receiver::connect(&url).expect("creates the ledger");
    std::thread::scope(|scope| {
        for sender in 0..8u64 {
            let url = &url;
            scope.spawn(move || {
                let receiver = leasefence::Receiver::connect(url).expect("connects");
                for n in 0..30u64 {
                    // Every sender delivers the shared ids too: repeats.
                    let id = if n % 3 == 0 {
                        format!("shared-{n}")
                    } else {
                        format!("own-{sender}-{n}")
                    };
                    receiver.deliver(&id, n + 1).expect("delivers");
                }
            });
        }
    });
    let totals = leasefence::Receiver::connect(&url)
        .expect("connects")
        .totals()
        .expect("totals");
    // 10 shared ids, each delivered 8 times; 20 own ids per sender.
    check!(
        (totals.jobs, totals.repeats),
        (10 + 8 * 20, 7 * 10),
        "R12: (jobs, repeats) after 8 senders"
    );
    let mut client = postgres::Client::connect(&url, postgres::NoTls).expect("connects");
    let rows = client
        .query("SELECT qty, total FROM deliveries ORDER BY seq", &[])
        .expect("reads the ledger");
    let mut sum = 0i64;
    for (index, row) in rows.iter().enumerate() {
        sum += row.get::<_, i64>(0);
        check!(
            row.get::<_, i64>(1),
            sum,
            "the running total of row {index}"
        );
    }
    check!(sum as u64, totals.qty, "the last running total is the sum");
}

/// A session the server ends (an administrator's `pg_terminate_backend`, a
/// restart) fails at most the call it was in; the next call connects
/// again, and the queue is as it was.
#[test]
fn a_session_the_server_ends_fails_one_call_and_the_next_connects_again() {
    let url = format!("{}&application_name=ended-session", fresh_url());
    let queue = Queue::connect(&url).expect("connects");
    queue
        .enqueue(&NewJob::new("snack-1", 2, 5000))
        .expect("enqueues");
    let before = queue.rows().expect("rows");
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).expect("connects");
    let ended: i64 = admin
        .query_one(
            // The timeout makes the call wait until the session has ended:
            // without it the signal may land after the next call has
            // already been answered, and the call cut off is a later one.
            "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity \
             WHERE application_name = 'ended-session' AND pid <> pg_backend_pid()",
            &[],
        )
        .expect("ends the queue's session")
        .get(0);
    check!(ended, 1, "sessions ended (the queue's one)");
    let first = queue.rows();
    assert!(
        matches!(&first, Ok(rows) if *rows == before) || matches!(&first, Err(Error::Database(_))),
        "the call cut off: expected the rows or a database error, got {first:?}"
    );
    check!(
        queue.rows().expect("connects again"),
        before,
        "the rows after"
    );
    let claim = queue
        .claim("A", 0, 1000)
        .expect("claims after reconnecting");
    check!(
        claim.map(|claim| claim.token),
        Some(1),
        "R2: the first token"
    );
}

/// What the popular PostgreSQL queues check when a worker completes a job
/// (README, "What other queues check"): the id, or the id and that the job
/// is running. Played on the canonical race (A claims at 0 ms with a
/// 1000 ms lease, its job is rescued and B claims it at 1000 ms, A's
/// finish arrives at 1001 ms), both accept A's stale finish over B's
/// claim; leasefence's refuses it and leaves the job B's.
#[test]
fn a_rescued_workers_late_finish_is_accepted_by_id_checks_and_refused_by_the_fence() {
    let completions = [
        (
            "the id only",
            Some("UPDATE jobs SET state = 'done' WHERE id = $1"),
        ),
        (
            "the id and the state",
            Some("UPDATE jobs SET state = 'done' WHERE id = $1 AND state = 'leased'"),
        ),
        ("leasefence's fence", None),
    ];
    let mut accepted = Vec::new();
    for (name, completion) in completions {
        let url = fresh_url();
        let queue = Queue::connect(&url).expect("connects");
        queue
            .enqueue(&NewJob::new("snack-1", 2, 5000))
            .expect("enqueues");
        let a = queue.claim("A", 0, 1000).expect("claims").expect("a job");
        let b = queue
            .claim("B", 1000, 1000)
            .expect("claims")
            .expect("rescued");
        check!(b.token, 2, "{name}: B's claim is the job's second");
        let took = match completion {
            Some(sql) => {
                let mut client =
                    postgres::Client::connect(&url, postgres::NoTls).expect("connects");
                client.execute(sql, &[&a.id]).expect("completes") == 1
            }
            None => queue.finish(&a.stamp(), 1001).expect("finishes").accepted(),
        };
        accepted.push((name, took));
    }
    check!(
        accepted,
        vec![
            ("the id only", true),
            ("the id and the state", true),
            ("leasefence's fence", false),
        ],
        "R4, R8: whose completion accepts A's stale finish over B's claim"
    );
}
