//! The contract's rules, one or more tests each, on an in-memory queue.
//!
//! Every test is named for the behaviour it proves and tagged with its rule.
//! This file runs natively and in headless Chromium (`wasm-pack test`), so
//! the browser build is held to the same rules by the same code.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod engines;
mod support;

use engines::{Engine, on_each_engine};

use leasefence::{
    Claim, Condition, Conditions, Error, JobState, NewJob, Queue, Reason, Stamp, Verdict,
};

type TestResult = Result<(), Error>;

/// A queue on `engine` holding one job, `snack-1`, qty 2, deadline 5000,
/// 3 attempts.
fn queue_with_snack(engine: Engine) -> Result<Queue, Error> {
    let queue = engine.open()?;
    queue.enqueue(&NewJob::new("snack-1", 2, 5000))?;
    Ok(queue)
}

fn claimed(queue: &Queue, owner: &str, now: u64, lease_ms: u64) -> Result<Claim, Error> {
    Ok(queue
        .claim(owner, now, lease_ms)?
        .unwrap_or_else(|| panic!("{owner} at {now} ms: expected a claim, got none")))
}

/// R1: claiming keeps the row in the table, marked leased, with its holder.
#[test]
fn claim_keeps_the_job_in_the_table_as_leased() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        claimed(&queue, "A", 0, 1000)?;
        let rows = queue.rows()?;
        check!(rows.len(), 1, "R1: the claimed job is still a row");
        let row = &rows[0];
        check!(
            (
                row.state,
                row.owner.as_deref(),
                row.lease_until,
                row.token,
                row.attempts
            ),
            (JobState::Leased, Some("A"), Some(1000), 1, 1),
            "R1: state, owner, lease_until, token, attempts are stored"
        );
        Ok(())
    })
}

/// R2: each claim adds one to token and attempts; tokens never repeat.
#[test]
fn each_claim_adds_one_to_token_and_attempts() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let tokens: Vec<(u64, u64)> = [0, 1000, 2000]
            .into_iter()
            .map(|now| claimed(&queue, "A", now, 1000).map(|c| (c.token, c.attempt)))
            .collect::<Result<_, _>>()?;
        check!(
            tokens,
            vec![(1, 1), (2, 2), (3, 3)],
            "R2: (token, attempt) per claim"
        );
        Ok(())
    })
}

/// R3: a claim returns id, qty, owner, token, attempt and lease_until.
#[test]
fn claim_returns_the_whole_stamp_and_lease() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let claim = claimed(&queue, "A", 0, 1000)?;
        check!(
            claim,
            Claim {
                id: "snack-1".into(),
                qty: 2,
                owner: "A".into(),
                token: 1,
                attempt: 1,
                lease_until: 1000,
            },
            "R3: claim result"
        );
        Ok(())
    })
}

/// R4: the holder of the current claim finishes, inside its lease.
#[test]
fn current_holder_finishes_inside_its_lease() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let claim = claimed(&queue, "A", 0, 1000)?;
        let finish = queue.finish(&claim.stamp(), 500)?;
        check!(
            (finish.accepted(), finish.reason()),
            (true, None),
            "R4: finish by the holder at 500 ms"
        );
        check!(
            queue.rows()?[0].state,
            JobState::Done,
            "R4: the row is done"
        );
        Ok(())
    })
}

/// R4 and the canonical timeline: A's stale stamp is refused after B's
/// reclaim, and the row stays exactly as B left it.
#[test]
fn stale_token_finish_is_rejected_after_reclaim() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let a = claimed(&queue, "A", 0, 1000)?;
        claimed(&queue, "B", 1000, 1000)?;
        let before = queue.rows()?;
        let finish = queue.finish(&a.stamp(), 1001)?;
        check!(
            finish.reason(),
            Some(Reason::TokenMismatch),
            "R4: A's finish with token=1 at 1001 ms"
        );
        check!(
            queue.rows()?,
            before,
            "R4: a rejected finish changes nothing"
        );
        Ok(())
    })
}

/// R4: each field of the stamp is checked; a forged one is refused with the
/// first reason that applies, and nothing changes.
#[test]
fn a_stamp_with_any_field_wrong_is_rejected_and_changes_nothing() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let stamp = claimed(&queue, "A", 0, 1000)?.stamp();
        let before = queue.rows()?;
        let cases = [
            (
                Stamp {
                    id: "snack-9".into(),
                    ..stamp.clone()
                },
                Reason::UnknownJob,
            ),
            (
                Stamp {
                    token: 7,
                    ..stamp.clone()
                },
                Reason::TokenMismatch,
            ),
            (
                Stamp {
                    owner: "Z".into(),
                    ..stamp.clone()
                },
                Reason::OwnerMismatch,
            ),
            (
                Stamp {
                    attempt: 7,
                    ..stamp.clone()
                },
                Reason::AttemptMismatch,
            ),
        ];
        for (forged, reason) in cases {
            let finish = queue.finish(&forged, 10)?;
            check!(finish.reason(), Some(reason), "R4: finish with {forged:?}");
            check!(
                queue.rows()?,
                before,
                "R4: rejected finish with {forged:?} changed the row"
            );
        }
        Ok(())
    })
}

/// R4: a job that is done cannot be finished again, not even by its holder.
#[test]
fn a_second_finish_of_a_done_job_is_not_leased() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let stamp = claimed(&queue, "A", 0, 1000)?.stamp();
        queue.finish(&stamp, 10)?;
        check!(
            queue.finish(&stamp, 20)?.reason(),
            Some(Reason::NotLeased),
            "R4: finish twice"
        );
        Ok(())
    })
}

/// R8: a worker restarted under the same name gets a new token; its old
/// claim is refused although the owner name matches.
#[test]
fn a_restart_under_the_same_name_fences_the_old_claim() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let before_restart = claimed(&queue, "A", 0, 1000)?;
        let after_restart = claimed(&queue, "A", 1000, 1000)?;
        check!(after_restart.owner, before_restart.owner, "R8: same name");
        let stale = queue.finish(&before_restart.stamp(), 1001)?;
        check!(
            stale.reason(),
            Some(Reason::TokenMismatch),
            "R8: the old run's finish"
        );
        check!(
            queue.finish(&after_restart.stamp(), 1002)?.reason(),
            None,
            "R8: the new run's finish"
        );
        Ok(())
    })
}

/// R9: the contract's example, deadline=100, now=0, lease_ms=1000.
#[test]
fn lease_is_capped_by_the_job_deadline() -> TestResult {
    on_each_engine(|engine| {
        let queue = engine.open()?;
        queue.enqueue(&NewJob::new("snack-1", 1, 100))?;
        check!(
            claimed(&queue, "A", 0, 1000)?.lease_until,
            100,
            "R9: min(now + lease_ms, deadline)"
        );
        Ok(())
    })
}

/// A job at or past its deadline is never claimed; the claim ends it.
#[test]
fn a_job_past_its_deadline_is_expired_not_claimed() -> TestResult {
    on_each_engine(|engine| {
        let queue = engine.open()?;
        queue.enqueue(&NewJob::new("snack-1", 1, 100))?;
        check!(queue.claim("A", 100, 1000)?, None, "claim at the deadline");
        check!(
            queue.rows()?[0].state,
            JobState::Expired,
            "the row is expired"
        );
        Ok(())
    })
}

/// R10: with attempts used up and the lease over, the job is quarantined
/// before any new token is issued, and never claimed again.
#[test]
fn used_up_attempts_quarantine_the_job_before_a_new_token() -> TestResult {
    on_each_engine(|engine| {
        let queue = engine.open()?;
        queue.enqueue(&NewJob {
            max_attempts: 2,
            ..NewJob::new("snack-1", 1, 10_000)
        })?;
        claimed(&queue, "A", 0, 100)?;
        claimed(&queue, "B", 100, 100)?;
        check!(queue.claim("C", 200, 100)?, None, "R10: third claim");
        let row = &queue.rows()?[0];
        check!(
            (row.state, row.token),
            (JobState::Quarantined, 2),
            "R10: quarantined with no new token"
        );
        check!(
            queue.claim("C", 9_000, 100)?,
            None,
            "R10: never claimed again"
        );
        Ok(())
    })
}

/// R11: polling during a valid lease never hands the job over.
#[test]
fn polling_cannot_take_a_valid_lease() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let a = claimed(&queue, "A", 0, 1000)?;
        for now in (0..1000).step_by(37) {
            check!(
                queue.claim("B", now, 1000)?,
                None,
                "R11: B polls at {now} ms"
            );
        }
        check!(
            queue.finish(&a.stamp(), 999)?.accepted(),
            true,
            "R11: A still finishes"
        );
        Ok(())
    })
}

/// R14: a rejection carries what was presented and what the row holds.
#[test]
fn rejection_shows_expected_and_current_side_by_side() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let a = claimed(&queue, "A", 0, 1000)?;
        claimed(&queue, "B", 1000, 1000)?;
        let finish = queue.finish(&a.stamp(), 1001)?;
        check!(
            finish.expected,
            Some(a.stamp()),
            "R14: expected is A's stamp"
        );
        check!(
            finish.current,
            queue.row("snack-1")?,
            "R14: current is the row as stored"
        );
        Ok(())
    })
}

/// R15: the token is a small counter and the owner a readable name, so a
/// stamp can be guessed, and a guessed one passes the fence. The token
/// fences stale writes inside the queue; it is not a credential, and
/// nothing may use it as one.
#[test]
fn a_guessed_stamp_passes_so_the_token_is_no_credential() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        claimed(&queue, "A", 0, 1000)?;
        let guess = Stamp {
            id: "snack-1".into(),
            owner: "A".into(),
            token: 1,
            attempt: 1,
        };
        check!(
            queue.finish(&guess, 10)?.accepted(),
            true,
            "R15: a stamp built by guessing, not received"
        );
        Ok(())
    })
}

/// R4 when several conditions fail at once: the verdict lists every one
/// that failed (one `WHERE` clause checks them together), and the document
/// names one of them by the contract's naming order.
#[test]
fn a_refusal_lists_every_failed_condition_and_names_one() -> TestResult {
    on_each_engine(|engine| {
        use Condition::*;
        let queue = queue_with_snack(engine)?;
        let a = claimed(&queue, "A", 0, 1000)?.stamp();
        let cases = [
            (
                Stamp {
                    owner: "Z".into(),
                    ..a.clone()
                },
                1000,
                vec![Owner, LeaseUntil],
                Reason::OwnerMismatch,
            ),
            (
                Stamp {
                    owner: "Z".into(),
                    token: 9,
                    ..a.clone()
                },
                10,
                vec![Owner, Token],
                Reason::TokenMismatch,
            ),
            (
                Stamp {
                    attempt: 9,
                    ..a.clone()
                },
                5000,
                vec![Attempt, LeaseUntil, Deadline],
                Reason::AttemptMismatch,
            ),
        ];
        for (stamp, now, failed, reason) in cases {
            let finish = queue.finish(&stamp, now)?;
            check!(
                (finish.verdict, finish.reason()),
                (Verdict::Refused(Conditions::of(&failed)), Some(reason)),
                "R4: {stamp:?} at {now} ms"
            );
        }
        queue.finish(&a, 10)?;
        let stale = Stamp { token: 7, ..a };
        let finish = queue.finish(&stale, 2000)?;
        check!(
            (finish.verdict, finish.reason()),
            (
                Verdict::Refused(Conditions::of(&[Token, State, LeaseUntil])),
                Some(Reason::NotLeased)
            ),
            "R4: a done row, stale token, late"
        );
        Ok(())
    })
}

/// Bad input is refused with the field named, and changes nothing.
#[test]
fn bad_input_names_the_field_and_changes_nothing() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let before = queue.rows()?;
        let too_big = leasefence::MAX_INT + 1;
        let refusals = [
            ("qty", queue.enqueue(&NewJob::new("x", 0, 10)).map(drop)),
            (
                "qty",
                queue.enqueue(&NewJob::new("x", too_big, 10)).map(drop),
            ),
            ("id", queue.enqueue(&NewJob::new("", 1, 10)).map(drop)),
            (
                "id",
                queue.enqueue(&NewJob::new("snack-1", 1, 10)).map(drop),
            ),
            (
                "max_attempts",
                queue
                    .enqueue(&NewJob {
                        max_attempts: 0,
                        ..NewJob::new("x", 1, 10)
                    })
                    .map(drop),
            ),
            ("lease_ms", queue.claim("A", 0, 0).map(drop)),
            ("now", queue.claim("A", too_big, 10).map(drop)),
            ("owner", queue.claim("", 0, 10).map(drop)),
            ("owner", queue.claim("A\u{0}", 0, 10).map(drop)),
            (
                "token",
                queue
                    .finish(
                        &Stamp {
                            id: "snack-1".into(),
                            owner: "A".into(),
                            token: 0,
                            attempt: 1,
                        },
                        0,
                    )
                    .map(drop),
            ),
        ];
        for (field, refused) in refusals {
            let message = match refused {
                Ok(()) => panic!("{field}: bad input was accepted"),
                Err(err) => err.to_string(),
            };
            assert!(
                message.starts_with(field),
                "message must start with {field:?}: {message}"
            );
        }
        check!(queue.rows()?, before, "bad input changed the table");
        Ok(())
    })
}

/// Names are text, kept exactly: HTML in a worker name is not special here
/// (the page renders it as text).
#[test]
fn hostile_names_are_stored_verbatim() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let owner = "<img src=x onerror=alert(1)>";
        check!(
            claimed(&queue, owner, 0, 10)?.owner,
            owner.to_owned(),
            "owner round trip"
        );
        Ok(())
    })
}
