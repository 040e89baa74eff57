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

use leasefence::playground::explain::COLUMNS;
use leasefence::playground::session::{Knob, Session, Start};
use leasefence::playground::view::{self, PositionView, Shape, SliderView};
use leasefence::playground::{CHAPTERS, Lang};
use leasefence::replay::Outcome;
use leasefence::unfenced::Guard;
use leasefence::{Scenario, store};

fn session(chapter: &str, lang: Lang) -> Session {
    let found = CHAPTERS
        .iter()
        .find(|c| c.id == chapter)
        .expect("a chapter");
    Session::new(
        lang,
        chapter,
        Scenario::parse(found.scenario()).expect("parses"),
    )
    .expect("replays")
}

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
    let mut all = vec![view.position_text.clone(), view.narration.clone()];
    all.extend(view.marks.iter().map(|mark| mark.text.clone()));
    if let Some(asked) = &view.prompt.question {
        all.extend([asked.text.clone(), asked.yes.clone(), asked.no.clone()]);
    }
    all.extend(view.announcement.clone());
    all.extend(view.lanes.shapes.iter().filter_map(|shape| match shape {
        Shape::Text { text, .. } => Some(text.clone()),
        _ => None,
    }));
    if let Some(step) = &view.step {
        all.extend(step.summary.as_ref().map(|summary| summary.text.clone()));
        all.extend(step.verdict.as_ref().map(|verdict| verdict.words.clone()));
        all.extend(step.statements.iter().filter_map(|s| s.effect.clone()));
    }
    all.extend(view.receiver.total.clone());
    if let Some(compare) = &view.compare {
        all.push(compare.note.clone());
        for row in &compare.rows {
            all.extend([row.fenced.clone(), row.naive.clone()]);
        }
    }
    all
}

#[test]
fn every_text_of_every_view_is_filled_in() {
    every_view(|chapter, session, view| {
        for text in texts(view) {
            let unfilled = text.contains('{') && text.contains('}');
            let raw_key = text.starts_with("chapter.") || text.starts_with("result.");
            assert!(
                !unfilled && !raw_key,
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
        let expected: Vec<_> = session.stepper.timeline.frames[..view.position]
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
            Outcome::Finished(finish) if !finish.accepted && finish.expected.is_some() => {
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
            Outcome::Finished(finish) if finish.accepted => {
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

#[test]
fn the_table_and_the_receiver_are_the_replays_at_that_position() {
    every_view(|chapter, session, view| {
        let rows = session.stepper.timeline.rows_after(view.position);
        let ids: Vec<_> = view.table.iter().map(|row| row.cells[0].clone()).collect();
        let expected: Vec<_> = rows.iter().map(|row| row.id.clone()).collect();
        check!(ids, expected, "{chapter} at {}: table", view.position);
        let ledger = session.stepper.timeline.receiver_after(view.position).len();
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
        let claims = session.stepper.timeline.frames[..view.position]
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
        .map(|row| (row.harm, row.naive.clone()))
        .collect();
    check!(
        rows,
        vec![
            (false, "✓ accepted (done, owner B, token 2)".to_owned()),
            (false, "✓ accepted (done, owner B, token 2)".to_owned())
        ],
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

#[test]
fn a_drag_rewrites_the_sliders_and_says_the_timeline_is_now_the_learners() {
    let mut session = session("canonical", Lang::En);
    let readout = |session: &Session| match view::scenario(session).finish {
        SliderView::Enabled { readout, value, .. } => (value, readout),
        SliderView::Disabled { why } => panic!("disabled: {why}"),
    };
    let (at, before) = readout(&session);
    check!(at, 1001, "the slider starts on A's late finish");
    check!(
        before.contains("Rejected"),
        true,
        "refused at 1001: {before}"
    );
    session.drag(Knob::Finish, 999).expect("moves");
    let (at, after) = readout(&session);
    check!(at, 999, "moved");
    check!(after.contains("Accepted"), true, "accepted at 999: {after}");
    let scenario = view::scenario(&session);
    check!(
        scenario.chapter,
        "sandbox".to_owned(),
        "now the learner's own"
    );
    check!(
        scenario.editor_status.map(|s| s.ok),
        Some(true),
        "a note, not an error"
    );
}

#[test]
fn a_refused_edit_changes_nothing_and_says_where() {
    let mut session = session("canonical", Lang::Ko);
    let before = session.stepper.scenario.to_json();
    session
        .apply_editor(r#"{"jobs": [], "events": [{"at": 0}]}"#)
        .expect("runs");
    check!(
        session.stepper.scenario.to_json(),
        before,
        "nothing applied"
    );
    let status = view::scenario(&session).editor_status.expect("a status");
    check!(status.ok, false, "refused");
    check!(
        status.text.contains("events[0]"),
        true,
        "the place: {}",
        status.text
    );
    let added = session.add_to_editor("{\"jobs\": [], \"events\": []}", "claim");
    check!(
        added.is_some_and(|text| text.contains("\"claim\"")),
        true,
        "a claim template"
    );
    check!(
        session.add_to_editor("not json", "job"),
        None,
        "broken text is left alone"
    );
}

#[test]
fn a_session_starts_from_the_link_then_the_options_then_the_browser() {
    let start = |hash: Option<&str>, lang: Option<&str>, browser: &str| {
        Session::start(&Start {
            lang: lang.map(str::to_owned),
            chapter: Some("late-delivery".into()),
            hash: hash.map(str::to_owned),
            host_lang: None,
            browser_lang: Some(browser.into()),
        })
        .expect("starts")
    };
    let plain = start(None, None, "ko-KR");
    check!(
        (plain.lang, plain.stepper.chapter.as_str()),
        (Lang::Ko, "late-delivery"),
        "options"
    );
    let linked = start(
        Some("#v=1&chapter=quarantine&lang=en&step=2"),
        None,
        "ko-KR",
    );
    check!(
        (
            linked.lang,
            linked.stepper.chapter.as_str(),
            linked.stepper.position
        ),
        (Lang::En, "quarantine", 2),
        "the link wins"
    );
    let typo = Session::start(&Start {
        chapter: Some("canonicall".into()),
        ..Start::default()
    })
    .expect("starts");
    check!(
        typo.unknown_chapter.as_deref(),
        Some("canonicall"),
        "remembered, to warn"
    );
    check!(
        typo.stepper.chapter.as_str(),
        CHAPTERS[0].id,
        "the first chapter instead"
    );
    let broken = start(Some("#v=1&scenario=%%%"), Some("en"), "en");
    check!(
        broken.editor_status.map(|s| s.ok),
        Some(false),
        "a broken link says so"
    );
}

/// Predicting hides what would give the answers away, and only that long:
/// the narration until the last question is answered, the boundary
/// finish's verdict until it is revealed.
#[test]
fn predicting_hides_the_verdicts_until_the_last_answer() {
    let mut session = session("canonical", Lang::En);
    session.set_predict(true);
    let narration = |session: &Session| view::position(session, None, 640.0).narration;
    let finish_readout = |session: &Session| match view::scenario(session).finish {
        SliderView::Enabled { readout, .. } => readout,
        SliderView::Disabled { why } => panic!("disabled: {why}"),
    };
    let hidden = Lang::En.text("predict.narration_hidden").to_owned();
    for answer in [true, true] {
        session.stepper.step();
        check!(narration(&session), hidden.clone(), "a question waits");
        session.stepper.guess(answer);
    }
    check!(
        finish_readout(&session).contains("Rejected"),
        false,
        "A's finish is still to be predicted: {}",
        finish_readout(&session)
    );
    session.stepper.step();
    session.stepper.guess(false);
    check!(
        narration(&session),
        Lang::En.text("chapter.canonical.text").to_owned(),
        "answered the last question: the chapter's story"
    );
    check!(
        finish_readout(&session).contains("Rejected"),
        true,
        "revealed"
    );
}

/// After a drag the narration tells the new verdicts, not the chapter's.
#[test]
fn a_drag_rewrites_the_narration_from_the_new_verdicts() {
    let mut session = session("canonical", Lang::En);
    session.drag(Knob::Finish, 999).expect("moves");
    let told = view::position(&session, None, 640.0).narration;
    check!(
        told.contains("finish at 999 ms is accepted"),
        true,
        "{told}"
    );
    check!(
        told.contains("refused"),
        false,
        "the old verdict is gone: {told}"
    );
    session.drag(Knob::Finish, 1000).expect("moves");
    let told = view::position(&session, None, 640.0).narration;
    check!(
        told.contains("finish at 1000 ms is refused"),
        true,
        "R5: at lease_until it has ended: {told}"
    );
}

/// The lease slider shows both sides of the trade: a longer lease saves a
/// slow finish, and a crashed worker's job waits that much longer.
#[test]
fn the_lease_slider_shows_what_a_longer_lease_costs() {
    let mut session = session("canonical", Lang::En);
    session.drag(Knob::Lease, 2000).expect("lengthens");
    let SliderView::Enabled { readout, cost, .. } = view::scenario(&session).lease else {
        panic!("the lease slider is enabled");
    };
    check!(readout.contains("Accepted"), true, "saved: {readout}");
    let cost = cost.expect("a cost is said");
    check!(
        cost.contains("wait 2000 ms, until 2000 ms"),
        true,
        "the wait a crash would cost: {cost}"
    );
}

/// At the end of a chapter the prompt offers the next one, and the chapter
/// counts as finished (once); the picker marks what the learner finished,
/// also after a reload that restores the saved ids.
#[test]
fn the_end_of_a_chapter_leads_to_the_next_and_is_remembered() {
    let mut session = session("canonical", Lang::En);
    check!(session.note_progress(), false, "not at the end yet");
    check!(
        view::position(&session, None, 640.0).prompt.next.is_none(),
        true,
        "no way on yet"
    );
    session.stepper.seek(session.stepper.total());
    let next = view::position(&session, None, 640.0)
        .prompt
        .next
        .expect("a next chapter");
    check!(next.id, CHAPTERS[1].id, "course order");
    check!(session.note_progress(), true, "finished");
    check!(session.note_progress(), false, "only once");
    let label = |session: &Session| view::scenario(session).chapters[0].label.clone();
    check!(
        label(&session).starts_with('✓'),
        true,
        "marked: {}",
        label(&session)
    );
    let mut reloaded = self::session("quarantine", Lang::Ko);
    reloaded.restore_progress(["no-such-chapter", "quarantine", "canonical"]);
    check!(
        reloaded.progress().to_vec(),
        vec!["canonical", "quarantine"],
        "restored in course order, unknown ids left out"
    );
    check!(
        label(&reloaded).starts_with('✓'),
        true,
        "marked after a reload"
    );
    let last = CHAPTERS.last().expect("chapters").id;
    let mut end = self::session(last, Lang::En);
    end.stepper.seek(end.stepper.total());
    check!(
        view::position(&end, None, 640.0).prompt.next.is_none(),
        true,
        "the last chapter"
    );
}

/// On the lanes a learner stalls, crashes or restarts a worker from where
/// they stand; the past stays, the future is replayed by the same core.
#[test]
fn a_worker_can_be_stalled_crashed_or_restarted_from_here_on() {
    use leasefence::playground::twist::Twist;
    let outcome = |twist: Twist| {
        let mut session = session("canonical", Lang::En);
        session.stepper.seek(1);
        session.twist("A", twist).expect("replays");
        let stepper = &session.stepper;
        let events: Vec<String> = stepper
            .scenario
            .events
            .iter()
            .zip(&stepper.timeline.frames)
            .map(|(e, f)| format!("{} {} {}", e.at, e.worker, f.result.outcome.label()))
            .collect();
        (stepper.chapter.clone(), stepper.position, events)
    };
    check!(
        outcome(Twist::Crash),
        (
            "sandbox".to_owned(),
            1,
            vec!["0 A claimed".to_owned(), "1000 B claimed".to_owned()]
        ),
        "A never finishes; its job was reclaimed anyway"
    );
    check!(
        outcome(Twist::Stall).2,
        vec!["0 A claimed", "1000 B claimed", "2001 A rejected"],
        "A comes back a second later, still refused"
    );
    check!(
        outcome(Twist::Restart).2,
        vec![
            "0 A claimed",
            "0 A-restarted empty",
            "1000 B claimed",
            "1001 A rejected"
        ],
        "the restarted run finds A's job still leased"
    );
}
