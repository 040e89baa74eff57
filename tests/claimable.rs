//! The claim's conditions stated once (`leasefence::claimable`): the
//! claim's statements choose exactly the rows that meet every condition,
//! and set aside exactly the rows the list says, on a grid of rows around
//! every boundary (states, lease end, attempts, deadline, and `now` before,
//! at and after 1000 ms). Runs natively and in Chromium. Rule numbers refer
//! to `CONTRACT.md`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::claimable::{ClaimCondition, set_aside};
use leasefence::store::{CLAIM, EXPIRE, JOBS_SCHEMA, QUARANTINE};
use leasefence::{JobRow, JobState};
use rusqlite::Connection;

/// R5, R11: the claim chooses among rows meeting the first two conditions,
/// written as the list writes them.
#[test]
fn the_claim_chooses_among_live_and_free_rows_as_the_list_writes_them() {
    let words = |sql: &str| sql.split_whitespace().collect::<Vec<_>>().join(" ");
    let chooses = format!(
        "WHERE {} AND {} ORDER BY seq LIMIT 1",
        ClaimCondition::Live.sql(),
        ClaimCondition::Free.sql()
    );
    check!(
        words(CLAIM).contains(&chooses),
        true,
        "R5, R11: store::CLAIM chooses with `{chooses}`; it is `{}`",
        words(CLAIM)
    );
}

/// Every row the queue can hold, around the boundaries: a pending row has
/// never been claimed (no owner, lease, token or attempt); a row that was
/// claimed has any state after `pending`, a lease that ends at 1000 ms, and
/// attempts left or used up.
fn grid() -> Vec<(JobRow, u64)> {
    let mut rows = Vec::new();
    for deadline in [1000, 5000] {
        rows.push(JobRow {
            id: "snack-1".into(),
            qty: 2,
            state: JobState::Pending,
            owner: None,
            token: 0,
            attempts: 0,
            max_attempts: 1,
            lease_until: None,
            deadline,
        });
        for state in [
            JobState::Leased,
            JobState::Done,
            JobState::Quarantined,
            JobState::Expired,
        ] {
            for (attempts, max_attempts) in [(1, 1), (1, 3), (3, 3)] {
                rows.push(JobRow {
                    id: "snack-1".into(),
                    qty: 2,
                    state,
                    owner: Some("A".into()),
                    token: attempts,
                    attempts,
                    max_attempts,
                    lease_until: Some(1000),
                    deadline,
                });
            }
        }
    }
    rows.into_iter()
        .flat_map(|row| [999, 1000, 1001].map(|now| (row.clone(), now)))
        .collect()
}

fn table_with(row: &JobRow) -> rusqlite::Result<Connection> {
    let conn = Connection::open_in_memory()?;
    conn.execute_batch(JOBS_SCHEMA)?;
    conn.execute(
        "INSERT INTO jobs (id, qty, state, owner, lease_until, token, attempts, max_attempts, deadline)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        rusqlite::params![
            row.id,
            row.qty as i64,
            row.state.as_str(),
            row.owner,
            row.lease_until.map(|v| v as i64),
            row.token as i64,
            row.attempts as i64,
            row.max_attempts as i64,
            row.deadline as i64,
        ],
    )?;
    Ok(conn)
}

/// What the claim's three statements, run in the queue's order at `now`,
/// did to the one row: whether it was taken, and the state it was left in
/// by the sweeps before the choice.
fn claimed(conn: &Connection, now: u64) -> rusqlite::Result<(bool, String)> {
    let now = now as i64;
    for sweep in [QUARANTINE, EXPIRE] {
        let mut statement = conn.prepare(sweep)?;
        let mut rows = statement.query(rusqlite::named_params! {":now": now})?;
        while rows.next()?.is_some() {}
    }
    let swept: String = conn.query_row("SELECT state FROM jobs", [], |row| row.get(0))?;
    let mut statement = conn.prepare(CLAIM)?;
    let taken = statement
        .query(rusqlite::named_params! {
            ":owner": "B",
            ":now": now,
            ":now_plus_lease": now + 1000,
        })?
        .next()?
        .is_some();
    Ok((taken, swept))
}

/// R5, R9, R10, R11: each condition reads a row as SQLite does, a claim
/// takes a row exactly when no condition fails, and sets aside exactly the
/// rows `claimable::set_aside` names.
#[test]
fn each_claim_condition_decides_as_sqlite_does_and_the_claim_as_all_of_them() {
    let mut disagreements = Vec::new();
    let mut taken_rows = 0;
    for (row, now) in grid() {
        let case = format!(
            "{:?} lease_until {:?} attempts {}/{} deadline {} at {now}",
            row.state, row.lease_until, row.attempts, row.max_attempts, row.deadline
        );
        let conn = table_with(&row).expect("the row fits the schema");
        for condition in ClaimCondition::ALL {
            let sql = format!("SELECT count(*) FROM jobs WHERE {}", condition.sql());
            let mut statement = conn.prepare(&sql).expect("the condition parses");
            let at = now as i64;
            let named: Vec<(&str, &dyn rusqlite::ToSql)> = if sql.contains(":now") {
                vec![(":now", &at)]
            } else {
                Vec::new()
            };
            let count: i64 = statement
                .query_row(named.as_slice(), |r| r.get(0))
                .expect("the condition runs");
            if (count == 1) != condition.holds(&row, now) {
                disagreements.push(format!(
                    "{case}: {condition:?}: SQLite {}, Rust {}",
                    count == 1,
                    condition.holds(&row, now)
                ));
            }
        }
        let (taken, swept) = claimed(&conn, now).expect("the claim runs");
        let failed = ClaimCondition::failed(&row, now);
        if taken != failed.is_empty() {
            disagreements.push(format!(
                "{case}: taken by SQLite {taken}, failed by the list {failed:?}"
            ));
        }
        let expected = set_aside(&row, now).unwrap_or(row.state);
        if swept != expected.as_str() {
            disagreements.push(format!(
                "{case}: set aside to {swept} by SQLite, to {} by the list",
                expected.as_str()
            ));
        }
        taken_rows += usize::from(taken);
    }
    check!(
        disagreements,
        Vec::<String>::new(),
        "R5, R9, R10, R11: the claim's statements against claimable::ClaimCondition"
    );
    // The grid reaches both sides: rows taken and rows refused.
    check!(taken_rows > 0, true, "some rows of the grid are taken");
}
