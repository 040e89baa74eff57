//! The verdicts drawn on the lanes stay readable where the "now" line
//! stands.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::playground::view::{self, Anchor, PositionView, Shape};
use leasefence_course::playground::{CHAPTERS, Lang};

/// Every chapter's view at every place, in both languages.
fn every_view(mut check: impl FnMut(&str, &PositionView)) {
    for chapter in CHAPTERS {
        for lang in [Lang::En, Lang::Ko] {
            let mut session = support::session(chapter.id, lang);
            for position in 0..=session.stepper.total() {
                session.stepper.seek(position);
                check(chapter.id, &view::position(&session, None, 640.0));
            }
        }
    }
}

/// A finish's verdict ("✗ rejected") stays readable where the "now" line
/// stands (a learner at 1280 px saw the line cross ✗ 거절): the verdict of
/// the finish just made sits beside the line, never across it, and every
/// verdict is drawn after the line, over it (on a halo the stylesheet
/// gives it). Words are taken at 8 px a character, wider than the
/// drawing's 13 px bold font sets these.
#[test]
fn no_verdict_on_the_lanes_is_crossed_by_the_now_line() {
    every_view(|chapter, view| {
        let shapes = &view.lanes.shapes;
        let Some((line, now)) = shapes
            .iter()
            .enumerate()
            .find_map(|(index, shape)| match shape {
                Shape::Line { from, class, .. } if *class == "lf-now" => Some((index, from.0)),
                _ => None,
            })
        else {
            return;
        };
        for (index, shape) in shapes.iter().enumerate() {
            let Shape::Text {
                at,
                text,
                anchor,
                class,
            } = shape
            else {
                continue;
            };
            if !class.contains("lf-mark") {
                continue;
            }
            check!(
                index > line,
                true,
                "{chapter} at {}: {:?} drawn before the now line, under it",
                view.position,
                text.text()
            );
            let width = text.text().chars().count() as f64 * 8.0;
            let (left, right) = match anchor {
                Anchor::Start => (at.0, at.0 + width),
                Anchor::Middle => (at.0 - width / 2.0, at.0 + width / 2.0),
                Anchor::End => (at.0 - width, at.0),
            };
            // The finish just made: its tick stands at now.
            let made_now = (at.0 - now).abs() <= 4.0;
            check!(
                made_now && (left..=right).contains(&now),
                false,
                "{chapter} at {}: {:?} spans {left:.0}..{right:.0} px; now at {now:.0} px",
                view.position,
                text.text()
            );
        }
    });
}
