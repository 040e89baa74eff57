//! The rules stated once, held to the SQL that applies them. R4
//! (`leasefence::fence`): the guarded `UPDATE` is the list of conditions,
//! and each condition's Rust reading agrees with SQLite's on every row of a
//! grid around the boundaries, so a refusal explained from the list is the
//! refusal SQLite made. The claim (`leasefence::claimable`): its
//! statements choose exactly the rows that meet every condition and set
//! aside exactly the rows the list says, on a grid of rows around every
//! boundary (states, lease end, attempts, deadline, and `now` before, at
//! and after 1000 ms). Runs natively and in Chromium. Rule numbers refer
//! to `CONTRACT.md`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::claimable::{ClaimCondition, set_aside};
use leasefence::store::{CLAIM, EXPIRE, FINISH, JOBS_SCHEMA, QUARANTINE};
use leasefence::{Condition, Conditions, JobRow, JobState, Stamp};
use rusqlite::{Connection, ToSql};

/// R4: the statement that decides a finish is exactly the conditions,
/// joined by `AND` in their order.
#[test]
fn the_guarded_update_is_the_list_of_conditions() {
    let words = |sql: &str| sql.split_whitespace().collect::<Vec<_>>().join(" ");
    let conditions: Vec<&str> = Condition::ALL.iter().map(|c| c.sql()).collect();
    check!(
        words(FINISH),
        format!(
            "UPDATE jobs SET state = 'done' WHERE {}",
            conditions.join(" AND ")
        ),
        "R4: store::FINISH against fence::Condition::ALL"
    );
}

/// Rows around every boundary of R4: each state, owner, token, attempt,
/// lease end (none, or 1000 ms) and deadline, with `now` before, at and
/// after 1000 ms, against A's stamp for its first claim.
fn grid() -> Vec<(JobRow, Stamp, u64)> {
    let mut cases = Vec::new();
    let states = [
        JobState::Pending,
        JobState::Leased,
        JobState::Done,
        JobState::Quarantined,
        JobState::Expired,
    ];
    for stamp_id in ["snack-1", "snack-2"] {
        for owner in [None, Some("A"), Some("B")] {
            for (token, attempts) in [(1, 1), (1, 2), (2, 1), (2, 2)] {
                for state in states {
                    for lease_until in [None, Some(1000)] {
                        for deadline in [1000, 5000] {
                            for now in [999, 1000, 1001] {
                                let row = JobRow {
                                    id: "snack-1".into(),
                                    qty: 2,
                                    state,
                                    owner: owner.map(str::to_owned),
                                    token,
                                    attempts,
                                    max_attempts: 3,
                                    lease_until,
                                    deadline,
                                };
                                let stamp = Stamp {
                                    id: stamp_id.into(),
                                    owner: "A".into(),
                                    token: 1,
                                    attempt: 1,
                                };
                                cases.push((row, stamp, now));
                            }
                        }
                    }
                }
            }
        }
    }
    cases
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

/// The stamp's and the time's parameters that `sql` names.
fn bound<'a>(
    sql: &str,
    stamp: &'a Stamp,
    now: &'a i64,
    token: &'a i64,
    attempt: &'a i64,
) -> Vec<(&'static str, &'a dyn ToSql)> {
    let all: [(&'static str, &'a dyn ToSql); 5] = [
        (":id", &stamp.id),
        (":owner", &stamp.owner),
        (":token", token),
        (":attempt", attempt),
        (":now", now),
    ];
    all.into_iter()
        .filter(|(name, _)| {
            sql.match_indices(name).any(|(at, _)| {
                !sql[at + name.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            })
        })
        .collect()
}

/// R4, R5: every condition reads the row as SQLite's `WHERE` does, and the
/// whole statement changes the row exactly when no condition fails.
#[test]
fn each_condition_decides_as_sqlite_does_and_the_update_as_all_of_them() {
    let mut disagreements = Vec::new();
    let mut accepted = 0;
    for (row, stamp, now) in grid() {
        let conn = table_with(&row).expect("the row fits the schema");
        let (at, token, attempt) = (now as i64, stamp.token as i64, stamp.attempt as i64);
        for condition in Condition::ALL {
            let sql = format!(
                "SELECT count(*) FROM jobs WHERE seq = 1 AND ({})",
                condition.sql()
            );
            let params = bound(&sql, &stamp, &at, &token, &attempt);
            let sqlite: i64 = conn
                .query_row(&sql, params.as_slice(), |r| r.get(0))
                .expect("the condition runs");
            if (sqlite == 1) != condition.holds(&stamp, &row, now) {
                disagreements.push(format!(
                    "{condition:?} on {row:?} at {now}: SQLite {sqlite}"
                ));
            }
        }
        let params = bound(FINISH, &stamp, &at, &token, &attempt);
        let changed = conn
            .execute(FINISH, params.as_slice())
            .expect("the finish runs");
        let failed = Conditions::failed(&stamp, (row.id == stamp.id).then_some(&row), now);
        accepted += changed;
        if (changed == 1) != failed.is_empty() {
            disagreements.push(format!(
                "FINISH on {row:?} at {now}: {changed} changed, failed {failed:?}"
            ));
        }
    }
    check!(
        disagreements,
        Vec::<String>::new(),
        "R4: SQLite against the list"
    );
    check!(accepted > 0, true, "the grid holds finishes SQLite accepts");
}

// The claim's conditions (`leasefence::claimable`).

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

/// Every row the queue can hold, around the boundaries: a row never
/// claimed (no owner, lease, token or attempt) is pending, or expired
/// before anyone claimed it; a row that was claimed has any state after
/// `pending`, a lease that ends at 1000 ms, and attempts left or used up.
fn claim_grid() -> Vec<(JobRow, u64)> {
    let mut rows = Vec::new();
    for deadline in [1000, 5000] {
        for state in [JobState::Pending, JobState::Expired] {
            rows.push(JobRow {
                id: "snack-1".into(),
                qty: 2,
                state,
                owner: None,
                token: 0,
                attempts: 0,
                max_attempts: 1,
                lease_until: None,
                deadline,
            });
        }
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
    for (row, now) in claim_grid() {
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
