//! What the page draws, computed natively: the view of every chapter at
//! every position, in both languages, agrees with the replay it comes from.
//! The page only turns these values into elements, so these tests are the
//! page's behaviour short of the browser. Rule numbers refer to
//! `CONTRACT.md`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use support::session;

use leasefence::replay::Outcome;
use leasefence::{Scenario, store};
use leasefence_course::key;
use leasefence_course::playground::assertions::Assertion;
use leasefence_course::playground::explain::COLUMNS;
use leasefence_course::playground::messages::Key;
use leasefence_course::playground::session::Session;
use leasefence_course::playground::view::{self, PositionView, Shape};
use leasefence_course::playground::{CHAPTERS, Lang};
use leasefence_course::variants::Guard;

/// Every position of every chapter, in both languages, with the view drawn
/// fresh at each.
fn every_view(mut check: impl FnMut(&str, &Session, &PositionView)) {
    for chapter in CHAPTERS {
        for lang in [Lang::En, Lang::Ko] {
            let mut session = session(chapter.id, lang);
            for position in 0..=session.stepper.total() {
                session.stepper.seek(position);
                let view = view::position(&session, None, 640.0);
                check(chapter.id, &session, &view);
            }
        }
    }
}

/// Every text a view shows.
fn texts(view: &PositionView) -> Vec<String> {
    let mut all = vec![view.position_text.to_string(), view.narration.to_string()];
    all.extend(view.marks.iter().map(|mark| mark.text.to_string()));
    if let Some(asked) = &view.prompt.question {
        all.push(asked.text.to_string());
        all.extend(asked.answers.iter().map(|answer| answer.label.clone()));
    }
    all.extend(view.announcement.as_ref().map(ToString::to_string));
    all.extend(view.lanes.shapes.iter().filter_map(|shape| match shape {
        Shape::Text { text, .. } => Some(text.to_string()),
        _ => None,
    }));
    if let Some(step) = &view.step {
        all.extend(
            step.summary
                .as_ref()
                .map(|summary| summary.text.to_string()),
        );
        all.extend(
            step.verdict
                .as_ref()
                .map(|verdict| verdict.words.to_string()),
        );
        all.extend(step.statements.iter().filter_map(|s| s.effect.clone()));
        all.extend(step.no_sql.clone());
        all.extend(
            step.point
                .iter()
                .flat_map(|p| [p.title.clone(), p.text.clone()]),
        );
    }
    all.extend(view.receiver.total.clone());
    if let Some(compare) = &view.compare {
        all.push(compare.note.to_string());
        for row in &compare.rows {
            all.extend([row.fenced.to_string(), row.naive.to_string()]);
        }
    }
    all
}

#[test]
fn every_text_of_every_view_is_filled_in() {
    every_view(|chapter, session, view| {
        for text in texts(view) {
            let unfilled = text.contains('{') && text.contains('}');
            // A message with no text shows as a gap: ⋯.
            let gap = text.contains('⋯');
            assert!(
                !unfilled && !gap,
                "{chapter} at {} ({}): {text:?}",
                view.position,
                session.lang.tag()
            );
        }
    });
}

#[test]
fn the_event_list_marks_exactly_the_applied_events_and_the_current_one() {
    every_view(|chapter, session, view| {
        let labels: Vec<_> = view.marks.iter().map(|mark| mark.result).collect();
        let expected: Vec<_> = session.stepper.timeline().frames[..view.position]
            .iter()
            .map(|frame| Some(frame.result.outcome.label()))
            .collect();
        check!(labels, expected, "{chapter} at {}: marks", view.position);
        let current: Vec<_> = view
            .marks
            .iter()
            .filter(|m| m.current)
            .map(|m| m.event)
            .collect();
        let expected: Vec<usize> = view.position.checked_sub(1).into_iter().collect();
        check!(current, expected, "{chapter} at {}: current", view.position);
    });
}

/// The list is redrawn only where a move changes it: from any drawn
/// position to any other, the list drawn fresh at the first and then
/// updated with the move's marks equals the list drawn fresh at the second.
#[test]
fn a_move_updates_the_event_list_to_exactly_what_a_fresh_drawing_shows() {
    type Row = (Option<&'static str>, String, bool);
    let apply = |rows: &mut Vec<Row>, view: &PositionView| {
        for mark in &view.marks {
            rows[mark.event] = (mark.result, mark.text.to_string(), mark.current);
        }
    };
    for chapter in CHAPTERS {
        let mut session = session(chapter.id, Lang::En);
        let total = session.stepper.total();
        let fresh = |session: &mut Session, at: usize| {
            session.stepper.seek(at);
            let mut rows: Vec<Row> = vec![(None, String::new(), false); total];
            apply(&mut rows, &view::position(session, None, 640.0));
            rows
        };
        for from in 0..=total {
            for to in 0..=total {
                let mut rows = fresh(&mut session, from);
                session.stepper.seek(to);
                apply(&mut rows, &view::position(&session, Some(from), 640.0));
                let expected = fresh(&mut session, to);
                check!(
                    rows,
                    expected,
                    "{}: drawn at {from}, moved to {to}",
                    chapter.id
                );
            }
        }
    }
}

#[test]
fn a_step_moves_only_the_marks_it_changes() {
    let mut session = session("canonical", Lang::En);
    session.stepper.seek(1);
    session.stepper.step();
    let view = view::position(&session, Some(1), 640.0);
    let events: Vec<_> = view
        .marks
        .iter()
        .map(|mark| (mark.event, mark.current))
        .collect();
    check!(
        events,
        vec![(0, false), (1, true)],
        "from 1 to 2: the old and the new current"
    );
    check!(view.announcement.is_some(), true, "a move is announced");
    check!(
        view::position(&session, Some(2), 640.0).announcement,
        None,
        "a redraw in place says nothing"
    );
}

/// R4, R14: a refused finish with a stamp shows the fenced UPDATE that
/// changed 0 rows as the refusal, and a condition that failed; an accepted
/// one marks nothing failed; a finish with no claim runs no SQL.
#[test]
fn the_step_card_names_the_refusal_statement_and_the_failed_condition() {
    every_view(|chapter, session, view| {
        let (Some(step), Some(frame)) = (&view.step, session.stepper.frame()) else {
            check!(view.position, 0, "{chapter}: only position 0 has no step");
            return;
        };
        let refusals: Vec<_> = step.statements.iter().filter(|s| s.refusal).collect();
        let place = format!("{chapter} at {} ({})", view.position, session.lang.tag());
        match &frame.result.outcome {
            Outcome::Finished(finish) if !finish.accepted() && finish.expected.is_some() => {
                check!(refusals.len(), 1, "{place}: one refusal statement");
                check!(
                    refusals[0].sql,
                    store::FINISH.trim(),
                    "{place}: it is R4's UPDATE"
                );
                let failed = step.conditions.iter().filter(|c| c.differs).count();
                check!(failed >= 1, true, "{place}: a failed condition is marked");
                check!(
                    step.verdict.as_ref().map(|v| v.accepted),
                    Some(false),
                    "{place}"
                );
            }
            Outcome::Finished(finish) if finish.accepted() => {
                check!(refusals.len(), 0, "{place}: no refusal");
                check!(
                    step.conditions.iter().any(|c| c.differs),
                    false,
                    "{place}: all held"
                );
            }
            Outcome::Finished(_) => check!(step.statements.len(), 0, "{place}: no claim, no SQL"),
            _ => {
                check!(refusals.len(), 0, "{place}: only finishes refuse");
                check!(step.summary.is_some(), true, "{place}: a sentence");
            }
        }
        for change in &step.changes {
            check!(change.before.len(), COLUMNS.len(), "{place}: whole rows");
            check!(change.after.len(), COLUMNS.len(), "{place}: whole rows");
        }
    });
}

/// An event that ran no SQL says why, from its own outcome: a delivery
/// goes to the receiver; an actor holding no claim asks nothing of anyone
/// (a finish by one is no delivery). Every other event shows its SQL.
#[test]
fn an_event_without_sql_says_why_from_its_outcome() {
    let mut seen = std::collections::BTreeSet::new();
    every_view(|chapter, session, view| {
        let (Some(step), Some(frame)) = (&view.step, session.stepper.frame()) else {
            return;
        };
        let why = match &frame.result.outcome {
            _ if !frame.sql.is_empty() => None,
            Outcome::Sent { reason: None, .. } => Some(key!("sql.none_send")),
            Outcome::Sent { .. } | Outcome::Finished(_) => Some(key!("sql.none_no_claim")),
            other => panic!("{chapter}: {other:?} ran no SQL"),
        };
        check!(
            step.no_sql.as_deref(),
            why.map(|key| session.lang.text(key)),
            "{chapter} at {}: {:?}",
            session.stepper.position(),
            frame.result.outcome
        );
        seen.extend(why.map(|key| Lang::En.text(key)));
    });
    check!(
        seen.into_iter().collect::<Vec<_>>(),
        std::collections::BTreeSet::from([
            Lang::En.text(key!("sql.none_no_claim")),
            Lang::En.text(key!("sql.none_send"))
        ])
        .into_iter()
        .collect::<Vec<_>>(),
        "the chapters show both"
    );
}

#[test]
fn the_table_and_the_receiver_are_the_replays_at_that_position() {
    every_view(|chapter, session, view| {
        let rows = session.stepper.timeline().rows_after(view.position);
        let ids: Vec<_> = view.table.iter().map(|row| row.cells[0].clone()).collect();
        let expected: Vec<_> = rows.iter().map(|row| row.id.clone()).collect();
        check!(ids, expected, "{chapter} at {}: table", view.position);
        let ledger = session
            .stepper
            .timeline()
            .receiver_after(view.position)
            .len();
        check!(
            view.receiver.items.len(),
            ledger,
            "{chapter} at {}: receiver",
            view.position
        );
        check!(
            view.receiver.total.is_some(),
            ledger > 0,
            "{chapter}: a total once applied"
        );
    });
}

#[test]
fn the_lanes_stay_inside_their_drawing_and_draw_one_bar_per_claim_made() {
    every_view(|chapter, session, view| {
        let lanes = &view.lanes;
        let inside = |(x, y): (f64, f64)| {
            (0.0..=lanes.width).contains(&x) && (0.0..=lanes.height).contains(&y)
        };
        for shape in &lanes.shapes {
            let corners = match shape {
                Shape::Line { from, to, .. } => vec![*from, *to],
                Shape::Bar { x, y, width, .. } => vec![(*x, *y), (x + width, *y)],
                Shape::Text { at, .. } => vec![*at],
            };
            assert!(
                corners.into_iter().all(inside),
                "{chapter} at {}: {shape:?} outside",
                view.position
            );
        }
        let bars = lanes
            .shapes
            .iter()
            .filter(|s| matches!(s, Shape::Bar { .. }))
            .count();
        let claims = session.stepper.timeline().frames[..view.position]
            .iter()
            .filter(|f| matches!(f.result.outcome, Outcome::Claimed { claim: Some(_) }))
            .count();
        check!(bars, claims, "{chapter} at {}: bars", view.position);
    });
}

/// The comparison flags harm only where the naive queue's row differs from
/// the fenced one: the id-only guard overwrites B's claim in the canonical
/// timeline; the id + owner guard lets the old run of a restarted worker
/// through; accepting a finish on a row already done is no harm.
#[test]
fn the_comparison_flags_harm_only_where_the_naive_row_differs() {
    let harms = |chapter: &str, guard: Guard| {
        let mut session = session(chapter, Lang::En);
        session.set_guard(guard).expect("replays");
        session.set_compare_open(true).expect("replays");
        session.stepper.seek(session.stepper.total());
        let compare = view::position(&session, None, 640.0).compare.expect("open");
        compare.rows.iter().map(|row| row.harm).collect::<Vec<_>>()
    };
    check!(
        harms("canonical", Guard::IdOnly),
        vec![true],
        "A's late finish overwrites B's claim"
    );
    check!(
        harms("fencing-off-vs-on", Guard::IdOnly),
        vec![true, false, true, false],
        "its chapter, id only: A's and C's old run's finishes both overwrite"
    );
    check!(
        harms("fencing-off-vs-on", Guard::IdAndOwner),
        vec![false, false, true, false],
        "its chapter, id + owner: A is refused, C's old run still overwrites"
    );
    check!(
        harms("restart-same-name", Guard::IdAndOwner),
        vec![true, false],
        "the old run harms; the new run's accepted finish does not"
    );
    check!(
        harms("canonical", Guard::IdAndOwner),
        vec![false],
        "the owner differs: refused by both"
    );
    // B finishes first; A's late finish then lands on a row already done.
    let done_first = Scenario::parse(
        r#"{"jobs": [{"id": "j", "qty": 1, "deadline": 5000}], "events": [
            {"at": 0, "worker": "A", "do": "claim", "lease_ms": 1000},
            {"at": 1000, "worker": "B", "do": "claim", "lease_ms": 1000},
            {"at": 1100, "worker": "B", "do": "finish"},
            {"at": 1200, "worker": "A", "do": "finish"}]}"#,
    )
    .expect("parses");
    let mut learner = Session::new(Lang::En, "sandbox", done_first).expect("replays");
    learner.set_compare_open(true).expect("replays");
    learner.stepper.seek(4);
    let compare = view::position(&learner, None, 640.0).compare.expect("open");
    let rows: Vec<_> = compare
        .rows
        .iter()
        .map(|row| {
            (
                row.harm,
                row.naive.asserts().into_iter().cloned().collect::<Vec<_>>(),
            )
        })
        .collect();
    let accepted_on_done = |event: usize| {
        vec![Assertion::Judged {
            event,
            guard: Some(Guard::IdOnly),
            accepted: true,
            row: Some(("done".to_owned(), "B".to_owned(), 2)),
        }]
    };
    check!(
        rows,
        vec![(false, accepted_on_done(2)), (false, accepted_on_done(3))],
        "the naive queue accepts A's finish on a done row: nothing changes, no harm"
    );
    check!(compare.harm, false, "no harm note");
    let mut closed = session("canonical", Lang::En);
    closed.stepper.seek(3);
    check!(
        view::position(&closed, None, 640.0).compare.is_none(),
        true,
        "closed: nothing computed"
    );
    check!(
        session("fencing-off-vs-on", Lang::En).compare_open(),
        true,
        "its chapter opens it"
    );
}

/// Beside a refusal whose token failed, the step card
/// says why the token, not the owner, is the check, from the set of failed
/// conditions: in the late worker's chapter the owner differs too but
/// proves nothing; after a restart under the same name the owner is the
/// same; and a different attempt is the token's own fact (R2). Nothing of
/// it shows while the field question is open.
#[test]
fn a_refused_token_is_told_apart_from_the_owner_and_the_attempt() {
    let notes = |chapter: &str, at: usize| {
        let mut session = session(chapter, Lang::En);
        session.stepper.seek(at);
        view::position(&session, None, 640.0)
            .step
            .map(|step| step.fence_notes)
            .unwrap_or_default()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    let said = |keys: &[Key]| -> Vec<String> {
        keys.iter()
            .map(|&key| Lang::En.text(key).to_owned())
            .collect()
    };
    // Canonical: A's finish at 1001 ms after B's reclaim.
    check!(
        notes("canonical", 3),
        said(&[key!("fence.owner_too"), key!("fence.attempt_with_token")]),
        "owner, token and attempt all differ"
    );
    // Restart under the same name: A's old run finishes after A-restarted.
    check!(
        notes("restart-same-name", 3),
        said(&[key!("fence.owner_same"), key!("fence.attempt_with_token")]),
        "only token and attempt differ"
    );
    check!(
        notes("canonical", 2),
        Vec::<String>::new(),
        "a claim has no such note"
    );
    let mut asking = session("canonical", Lang::En);
    asking.set_predict(true).expect("sets predicting");
    for answer in [true, true, false] {
        asking.stepper.step();
        asking.stepper.guess(answer);
    }
    check!(
        format!("{:?}", asking.stepper.question()),
        "Some(Field)".to_owned(),
        "control: the field question is open"
    );
    let step = view::position(&asking, None, 640.0).step.expect("a step");
    check!(
        step.fence_notes.len(),
        0,
        "hidden while the field question waits"
    );
}

/// A claim's sweeps that changed
/// nothing fold behind one line that names them, so chapter 1's claim
/// shows its claim; where a sweep changes a row (the quarantine chapter)
/// it is shown, not folded.
#[test]
fn sweeps_that_changed_nothing_fold_and_one_that_changed_a_row_shows() {
    let folded = |chapter: &str, at: usize| {
        let mut session = session(chapter, Lang::En);
        session.stepper.seek(at);
        let step = view::position(&session, None, 640.0).step.expect("a step");
        let folded: Vec<bool> = step.statements.iter().map(|s| s.folded).collect();
        (folded, step.folded_note)
    };
    check!(
        folded("canonical", 1),
        (
            vec![false, true, true, false, false],
            Some(Lang::En.fill(key!("sql.folded"), &[("n", "2".to_owned())]))
        ),
        "A's claim: BEGIN, two idle sweeps folded, the claim, COMMIT"
    );
    // Every step of every chapter: a folded statement is a sweep that
    // changed nothing, and no other is folded.
    let mut shown_sweeps = 0;
    every_view(|chapter, session, view| {
        let Some(step) = &view.step else { return };
        let none = session
            .lang
            .fill(key!("sql.changed"), &[("n", "0".to_owned())]);
        for line in &step.statements {
            let sweep =
                [store::QUARANTINE.trim(), store::EXPIRE.trim()].contains(&line.sql.as_str());
            let idle = line.effect.as_deref() == Some(none.as_str());
            check!(
                line.folded,
                sweep && idle,
                "{chapter}: folded exactly when a sweep changed nothing: {}",
                line.sql
            );
            shown_sweeps += usize::from(sweep && !idle);
        }
    });
    assert!(
        shown_sweeps > 0,
        "control: some chapter's sweep changes a row (quarantine, expiry)"
    );
}

/// R9 at its boundary: a finish sent exactly at the deadline fails the
/// deadline condition, and its words say the deadline and the time it was
/// sent, both 100 ms in the deadline chapter, not that the deadline "has
/// passed" (the field question's feedback lists it among the failed ones).
#[test]
fn a_finish_at_the_deadline_is_told_with_the_deadline_and_the_time() {
    use leasefence::fence::Condition;
    use leasefence_course::playground::assertions::{Assertion, Said};
    let session = session("deadline-caps-lease", Lang::En);
    let timeline = &session.stepper.timeline();
    let (frame, finish) = (timeline.frames.iter())
        .find_map(|frame| match &frame.result.outcome {
            Outcome::Finished(finish) => Some((frame, finish)),
            _ => None,
        })
        .expect("a finish");
    check!(
        frame.result.at,
        100,
        "control: the finish is sent at the deadline"
    );
    let stamp = finish.expected.as_ref().expect("a stamp");
    let compared = Assertion::compared(
        frame.result.event,
        Condition::Deadline,
        stamp,
        finish.current.as_ref(),
        frame.result.at,
    );
    check!(
        Said::of(Lang::En, compared).to_string(),
        Lang::En.fill(
            key!("reason.deadline_passed"),
            &[("deadline", "100".to_owned()), ("at", "100".to_owned())],
        ),
        "the deadline's words"
    );
}
