//! R4 stated once (`leasefence::fence`): the guarded `UPDATE` is the list
//! of conditions, and each condition's Rust reading agrees with SQLite's
//! on every row of a grid around the boundaries, so a refusal explained
//! from the list is the refusal SQLite made. Runs natively and in Chromium.
//! Rule numbers refer to `CONTRACT.md`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::store::{FINISH, JOBS_SCHEMA};
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
