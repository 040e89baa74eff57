//! The boundary panel: two sliders, the finish's time and the length of the
//! lease it presents, each with its readout (from the core's
//! [`SliderView`]), and the course's warning about long leases.

use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlInputElement};

use super::dom::El;
use leasefence_course::key;
use leasefence_course::playground::Lang;
use leasefence_course::playground::view::{PositionView, SliderView};

/// A range input with its label, its live readout, and what the value
/// costs besides (empty when nothing).
pub(super) struct Slider {
    label: Element,
    input: HtmlInputElement,
    value: Element,
    cost: Element,
}

impl Slider {
    /// A slider the page maps to `action`; also returns its four elements,
    /// in order, for the panel to hold.
    fn new(doc: &Document, action: &str) -> (Slider, [El; 4]) {
        let label = El::new(doc, "label").class(&format!("lf-{action}-label"));
        let input = El::new(doc, "input")
            .attr("type", "range")
            .attr("data-action", action)
            .class(&format!("lf-{action}-range"));
        let value = El::new(doc, "output")
            .class(&format!("lf-{action}-value"))
            .attr("aria-live", "polite");
        let cost = El::new(doc, "p").class(&format!("lf-{action}-cost"));
        let slider = Slider {
            label: label.0.clone(),
            input: input.0.clone().unchecked_into(),
            value: value.0.clone(),
            cost: cost.0.clone(),
        };
        (slider, [label, input, value, cost])
    }

    fn show(&self, view: &SliderView) {
        // A slider with nothing to move shows only why: a disabled knob
        // would sit at an old value, and its old readout (a verdict the
        // learner has yet to predict) would stay in `aria-valuetext`.
        let waiting = matches!(view, SliderView::Waiting {});
        let enabled = matches!(view, SliderView::Enabled { .. });
        let _ = self.label.toggle_attribute_with_force("hidden", waiting);
        let input: &Element = &self.input;
        for part in [input, &self.value, &self.cost] {
            let _ = part.toggle_attribute_with_force("hidden", !enabled);
        }
        match view {
            SliderView::Enabled {
                label,
                min,
                max,
                value,
                readout,
                cost,
            } => {
                self.input.set_min(&min.to_string());
                self.input.set_max(&max.to_string());
                self.input.set_value(&value.to_string());
                self.input.set_disabled(false);
                self.label.set_text_content(Some(label));
                let _ = self.input.set_attribute("aria-label", label);
                self.value.set_text_content(Some(readout.text()));
                self.cost
                    .set_text_content(cost.as_ref().map(|cost| cost.text()));
                let _ = self.input.set_attribute("aria-valuetext", readout.text());
            }
            SliderView::Disabled { why } => {
                self.input.set_disabled(true);
                let _ = self.input.remove_attribute("aria-valuetext");
                let _ = self.input.remove_attribute("aria-label");
                self.label.set_text_content(Some(why));
                self.value.set_text_content(None);
                self.cost.set_text_content(None);
            }
            SliderView::Waiting {} => {}
        }
    }
}

/// The panel, closed, and its two sliders.
pub(super) fn build(doc: &Document, lang: Lang) -> (El, Slider, Slider) {
    let (finish, finish_els) = Slider::new(doc, "boundary");
    // The lease of the claim that finish presents: the other way across
    // the same boundary, with the course's warning beside it.
    let (lease, lease_els) = Slider::new(doc, "lease");
    let panel = El::new(doc, "details")
        .class("lf-panel lf-boundary")
        .child(El::new(doc, "summary").text(lang.text(key!("boundary.title"))))
        .children(finish_els)
        .children(lease_els)
        .child(
            El::new(doc, "p")
                .class("lf-lease-note")
                .text(lang.text(key!("lease.note"))),
        );
    (panel, finish, lease)
}

/// Both sliders, for the learner's place.
pub(super) fn draw((finish, lease): (&Slider, &Slider), view: &PositionView) {
    finish.show(&view.finish);
    lease.show(&view.lease)
}

/// Keeps the dragged knob where the learner is looking: the panels above
/// it change height with the step.
pub(super) fn keep_in_view(slider: &Slider) {
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
    slider
        .input
        .scroll_into_view_with_scroll_into_view_options(&options);
}
