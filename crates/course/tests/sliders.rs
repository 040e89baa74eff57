//! The boundary panel's sliders under the learner's hand: a drag while
//! predicting leaves them usable, and a value outside a slider's range is
//! refused in words, changing nothing (R5, R14).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::playground::Lang;
use leasefence_course::playground::session::Knob;
use leasefence_course::playground::status::StatusKind;
use leasefence_course::playground::view::{self, SliderView};
use support::session;

fn enabled(slider: &SliderView) -> bool {
    matches!(slider, SliderView::Enabled { .. })
}

/// A learner who answered every question and drags the finish across the
/// lease's end keeps both sliders: the timeline they made is theirs, and
/// its questions ahead are no reason to take the slider from under them.
#[test]
fn a_drag_while_predicting_leaves_both_sliders_usable() {
    let mut session = session("canonical", Lang::Ko);
    session.set_predict(true).expect("predicts");
    for _ in 0..20 {
        support::answer_or_step(&mut session);
    }
    let answered = view::position(&session, None, 640.0);
    check!(
        (enabled(&answered.finish), enabled(&answered.lease)),
        (true, true),
        "every question answered: both sliders move"
    );
    for at in [999, 1000, 1001, 500] {
        session.drag(Knob::Finish, at).expect("drags");
        let moved = view::position(&session, None, 640.0);
        check!(
            (enabled(&moved.finish), enabled(&moved.lease)),
            (true, true),
            "after moving A's finish to {at} ms"
        );
    }
}

/// R5: a lease is at least 1 ms. A 0 from the page is refused with the
/// field named; the timeline stays as it was.
#[test]
fn r5_a_lease_of_zero_from_the_page_is_refused_and_changes_nothing() {
    let mut session = session("canonical", Lang::Ko);
    session.set_predict(false).expect("shows");
    let before = session.stepper.scenario().to_json();
    session
        .drag(Knob::Lease, 0)
        .expect("a refusal is not an error");
    let status = session.editor_status.clone().expect("said");
    let text = status.message.text(Lang::Ko);
    check!(status.kind, StatusKind::Refused, "refused: {text}");
    check!(text.contains("lease_ms"), true, "names the field: {text}");
    check!(session.stepper.scenario().to_json(), before, "unchanged");
}
