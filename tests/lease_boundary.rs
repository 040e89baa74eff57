//! R5, one boundary: a lease ends exactly at `lease_until`, for the
//! holder's finish and for another's claim, before, at and after it, on
//! every engine. The other rules are in `rules.rs`; this file runs
//! natively and in headless Chromium, as it does.
//!
//! Rule numbers (R1-R15) refer to CONTRACT.md at the repository root.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod engines;
mod support;

use engines::{Engine, on_each_engine};

use leasefence::{Claim, Error, JobState, NewJob, Queue, Reason};

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

/// R5: one millisecond before the lease ends, the holder may still finish.
#[test]
fn finish_one_ms_before_lease_end_is_accepted() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let claim = claimed(&queue, "A", 0, 1000)?;
        check!(
            queue.finish(&claim.stamp(), 999)?.reason(),
            None,
            "R5: finish at lease_until - 1"
        );
        Ok(())
    })
}

/// R5: at exactly `lease_until` the lease has ended.
#[test]
fn finish_at_exact_lease_end_is_rejected() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let claim = claimed(&queue, "A", 0, 1000)?;
        let finish = queue.finish(&claim.stamp(), 1000)?;
        check!(
            finish.reason(),
            Some(Reason::LeaseExpired),
            "R5: finish at lease_until"
        );
        check!(
            queue.rows()?[0].state,
            JobState::Leased,
            "R5: the row is unchanged"
        );
        Ok(())
    })
}

/// R5: after the lease ended, even with nobody reclaiming, finish is refused.
#[test]
fn finish_one_ms_after_lease_end_is_rejected() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        let claim = claimed(&queue, "A", 0, 1000)?;
        check!(
            queue.finish(&claim.stamp(), 1001)?.reason(),
            Some(Reason::LeaseExpired),
            "R5: finish at lease_until + 1"
        );
        Ok(())
    })
}

/// R5, R11: one millisecond before the lease ends, nobody else may claim.
#[test]
fn claim_one_ms_before_lease_end_finds_nothing() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        claimed(&queue, "A", 0, 1000)?;
        check!(
            queue.claim("B", 999, 1000)?,
            None,
            "R5: claim at lease_until - 1"
        );
        Ok(())
    })
}

/// R5: at exactly `lease_until` another worker may claim: no gap, no overlap.
#[test]
fn claim_at_exact_lease_end_takes_the_job() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        claimed(&queue, "A", 0, 1000)?;
        let b = claimed(&queue, "B", 1000, 1000)?;
        check!(
            (b.token, b.lease_until),
            (2, 2000),
            "R5: claim at lease_until"
        );
        Ok(())
    })
}

/// R5: after the lease ended, another worker may claim.
#[test]
fn claim_one_ms_after_lease_end_takes_the_job() -> TestResult {
    on_each_engine(|engine| {
        let queue = queue_with_snack(engine)?;
        claimed(&queue, "A", 0, 1000)?;
        check!(
            claimed(&queue, "B", 1001, 1000)?.token,
            2,
            "R5: claim at lease_until + 1"
        );
        Ok(())
    })
}

/// R5: at every instant around the boundary, exactly one of "A may finish"
/// and "B may claim" holds: never both, never neither. (Between expiry and
/// a reclaim nobody *holds* the job; anyone may take it.)
#[test]
fn at_every_instant_either_the_holder_may_finish_or_another_may_claim() -> TestResult {
    on_each_engine(|engine| {
        for now in 995..=1005 {
            let queue = queue_with_snack(engine)?;
            let a = claimed(&queue, "A", 0, 1000)?;
            // Ask each question on its own fresh copy of the same history.
            let a_may_finish = queue.finish(&a.stamp(), now)?.accepted();
            let other = queue_with_snack(engine)?;
            claimed(&other, "A", 0, 1000)?;
            let b_may_claim = other.claim("B", now, 1000)?.is_some();
            check!(
                a_may_finish ^ b_may_claim,
                true,
                "R5 at {now} ms: A finishes={a_may_finish}, B claims={b_may_claim}"
            );
        }
        Ok(())
    })
}
