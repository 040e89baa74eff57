//! The lanes' geometry: a time axis with one lane per worker. Lease bars
//! run from the claim to `lease_until` with their token; each finish is
//! marked with a symbol and a word (not colour alone); job deadlines are
//! dashed lines; "now" is the current step's time.
//!
//! Computed here, in CSS pixels of the width the page measured, so the
//! drawing is tested natively; the page turns each [`Shape`] into one SVG
//! element.

use serde::Serialize;
use std::ops::Range;

use crate::key;
use crate::playground::Lang;
use crate::playground::assertions::{Assertion, Said};
use crate::playground::stepper::Stepper;
use crate::playground::view::cards::{Card, cards};
use leasefence::model::Claim;
use leasefence::replay::Outcome;
use leasefence::scenario::Action;

/// Drawing width when the panel's width is not known yet.
const DEFAULT_WIDTH: f64 = 1000.0;
/// Narrowest drawing; a narrower panel scrolls sideways.
const MIN_WIDTH: f64 = 320.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 34.0;
const LANE: f64 = 52.0;
/// Most events drawn at once.
const WINDOW: usize = 40;

/// The lanes, ready to draw.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LanesView {
    /// Width of the drawing in CSS pixels.
    pub width: f64,
    /// Height of the drawing in CSS pixels.
    pub height: f64,
    /// What the drawing shows, for its title and accessible name.
    pub summary: Said,
    /// Everything drawn, back to front.
    pub shapes: Vec<Shape>,
    /// The cards' heading.
    pub cards_title: &'static str,
    /// What each worker carries, one card per lane, in the lanes' order.
    pub cards: Vec<Card>,
}

/// Where a text sits relative to its point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Anchor {
    /// Starts at the point.
    Start,
    /// Centred on the point.
    Middle,
    /// Ends at the point.
    End,
}

/// One element of the drawing; `class` names its style.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Shape {
    /// A straight line.
    Line {
        /// Start.
        from: (f64, f64),
        /// End.
        to: (f64, f64),
        /// Style.
        class: &'static str,
    },
    /// A lease bar.
    Bar {
        /// Left.
        x: f64,
        /// Top.
        y: f64,
        /// Width.
        width: f64,
        /// Style: `lf-bar`, or `lf-bar lf-ended` once the lease has run out.
        class: &'static str,
    },
    /// A label.
    Text {
        /// Where it is anchored.
        at: (f64, f64),
        /// What it says.
        text: Said,
        /// How it is anchored.
        anchor: Anchor,
        /// Style.
        class: &'static str,
    },
}

/// The time axis: the window of events shown and where a time falls.
struct Axis {
    left: f64,
    width: f64,
    start: u64,
    end: f64,
}

impl Axis {
    fn x(&self, at: u64) -> f64 {
        let span = self.end - self.start as f64;
        let at = (at as f64).clamp(self.start as f64, self.end);
        self.left + (at - self.start as f64) / span * (self.width - self.left - RIGHT)
    }

    /// Where a finish's verdict is written: just after its instant `x`,
    /// or just before it in the axis' last third, where the words would
    /// run off the end. Never centred on it: the "now" line stands at the
    /// last event's instant and would cross them.
    fn beside(&self, x: f64) -> (f64, Anchor) {
        let last_third = self.left + (self.width - self.left - RIGHT) * 2.0 / 3.0;
        if x < last_third {
            (x + 4.0, Anchor::Start)
        } else {
            (x - 4.0, Anchor::End)
        }
    }
}

/// Whether `shape` is a finish's verdict in words (`✗ rejected`).
fn is_verdict(shape: &Shape) -> bool {
    matches!(shape, Shape::Text { class, .. } if class.contains("lf-mark"))
}

fn line(from: (f64, f64), to: (f64, f64), class: &'static str) -> Shape {
    Shape::Line { from, to, class }
}

fn text(at: (f64, f64), text: Said, anchor: Anchor, class: &'static str) -> Shape {
    Shape::Text {
        at,
        text,
        anchor,
        class,
    }
}

/// The lanes for the learner's place, `measured_width` pixels wide.
pub fn draw(stepper: &Stepper, lang: Lang, measured_width: f64) -> LanesView {
    let width = if measured_width > 0.0 {
        measured_width.max(MIN_WIDTH)
    } else {
        DEFAULT_WIDTH
    };
    let workers = super::cards::workers(stepper);
    let height = TOP + workers.len().max(1) as f64 * LANE + 16.0;
    let window = window(stepper.total(), stepper.position());
    let axis = axis(stepper, window.clone(), width);
    let summary = Said::of(
        lang,
        Assertion::Spans {
            position: stepper.position(),
            from: axis.start,
            to: axis.end as u64,
        },
    );
    let lanes = Lanes {
        axis,
        workers: workers.clone(),
        height,
        lang,
    };
    let mut shapes = ticks(&lanes.axis);
    for worker in &workers {
        let y = lanes.lane_y(worker) + LANE / 2.0;
        shapes.push(line((lanes.axis.left, y), (width - RIGHT, y), "lf-lane"));
        let name = Said::plain(*worker);
        shapes.push(text((8.0, y + 4.0), name, Anchor::Start, "lf-lane-name"));
    }
    shapes.extend(lanes.deadlines(stepper));
    // The verdicts go over the "now" line, which a later event's instant
    // may put through an earlier verdict's words: drawn last, on a halo
    // of the panel's colour (the stylesheet's), the line runs under them.
    let (marks, events): (Vec<Shape>, Vec<Shape>) =
        (lanes.events(stepper, window).into_iter()).partition(is_verdict);
    shapes.extend(events);
    shapes.extend(lanes.now(stepper));
    shapes.extend(marks);
    LanesView {
        width,
        height,
        summary,
        shapes,
        cards_title: lang.text(key!("cards.title")),
        cards: cards(stepper, lang, &workers),
    }
}

/// The events drawn: a long scenario through a window of events around
/// "now", a short one whole (future included).
fn window(total: usize, position: usize) -> Range<usize> {
    if total > WINDOW {
        let first = position.saturating_sub(WINDOW * 3 / 4);
        first..(first + WINDOW).min(total)
    } else {
        0..total
    }
}

/// The time axis for the events in `window`: from 0 ms (or the window's
/// first event) to a little past the last event or lease end.
fn axis(stepper: &Stepper, window: Range<usize>, width: f64) -> Axis {
    let in_window = &stepper.scenario().events()[window.clone()];
    let start = match window.start {
        0 => 0,
        _ => in_window.first().map_or(0, |event| event.at),
    };
    let last_event = in_window.iter().map(|event| event.at).max().unwrap_or(0);
    // The leases the claims ask for, not what they got: the axis must not
    // tell, before a claim is shown, whether it gets a job.
    let last_lease = in_window
        .iter()
        .filter_map(|event| match event.action {
            Action::Claim { lease_ms } => Some(event.at.saturating_add(lease_ms)),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let reach = last_event.max(last_lease.min(last_event.saturating_mul(3).max(1000)));
    Axis {
        left: (width * 0.16).clamp(56.0, 110.0),
        width,
        start,
        end: start as f64 + ((reach.saturating_sub(start)) as f64 * 1.08).max(10.0),
    }
}

/// The drawing's frame: its axis, its lanes and its words.
struct Lanes<'a> {
    axis: Axis,
    workers: Vec<&'a str>,
    height: f64,
    lang: Lang,
}

impl Lanes<'_> {
    fn lane_y(&self, worker: &str) -> f64 {
        let lane = self.workers.iter().position(|w| *w == worker);
        TOP + lane.unwrap_or(0) as f64 * LANE
    }

    /// Deadlines of the jobs that exist at this step, within the axis.
    fn deadlines(&self, stepper: &Stepper) -> Vec<Shape> {
        let mut shapes = Vec::new();
        for row in stepper.timeline().rows_after(stepper.position()) {
            if (row.deadline as f64) <= self.axis.end && row.deadline >= self.axis.start {
                let dx = self.axis.x(row.deadline);
                shapes.push(line(
                    (dx, TOP - 8.0),
                    (dx, self.height - 6.0),
                    "lf-deadline",
                ));
                let label = Assertion::Due {
                    job: row.id.clone(),
                    deadline: row.deadline,
                };
                let at = (dx - 4.0, self.height - 8.0);
                let label = Said::of(self.lang, label);
                shapes.push(text(at, label, Anchor::End, "lf-deadline-label"));
            }
        }
        shapes
    }

    /// What each applied event in the window left on its lane.
    fn events(&self, stepper: &Stepper, window: Range<usize>) -> Vec<Shape> {
        let frames = &stepper.timeline().frames;
        let applied = &frames[..stepper.position().min(frames.len())];
        let now = applied.last().map_or(0, |frame| frame.result.at);
        // Where each claim's accepted finish happened, to end its bar there.
        let finished: Vec<(&str, u64, u64)> = applied
            .iter()
            .filter_map(|frame| match &frame.result.outcome {
                Outcome::Finished(finish) if finish.accepted() => {
                    let stamp = finish.expected.as_ref()?;
                    Some((stamp.id.as_str(), stamp.token, frame.result.at))
                }
                _ => None,
            })
            .collect();
        let shown = window.start..stepper.position().max(window.start).min(window.end);
        let mut shapes = Vec::new();
        for frame in &frames[shown] {
            let (x, y) = (
                self.axis.x(frame.result.at),
                self.lane_y(&frame.result.worker),
            );
            let outcome = &frame.result.outcome;
            let event = frame.result.event;
            // The result, said with the lane's own symbol.
            let came = |mark: &str| {
                let result = outcome.label();
                let word = self
                    .lang
                    .text(crate::playground::explain::result_key(result));
                Said::worded(format!("{mark} {word}"), Assertion::Came { event, result })
            };
            match outcome {
                Outcome::Claimed { claim: Some(claim) } => {
                    let finished_at = finished
                        .iter()
                        .find(|(id, token, _)| *id == claim.id && *token == claim.token)
                        .map(|(_, _, at)| *at);
                    let worker = &frame.result.worker;
                    shapes.extend(self.bar(event, worker, claim, (x, y), finished_at, now));
                }
                // Finishes above the bars, deliveries below, so neighbours
                // in time do not write over each other.
                Outcome::Finished(finish) => {
                    let (mark, class) = if finish.accepted() {
                        ("✓", "lf-mark lf-accepted")
                    } else {
                        ("✗", "lf-mark lf-rejected")
                    };
                    shapes.push(line((x, y + 8.0), (x, y + 34.0), class));
                    let (at, anchor) = self.axis.beside(x);
                    shapes.push(text((at, y + 6.0), came(mark), anchor, class));
                }
                Outcome::Sent { reason, .. } => {
                    let mark = if reason.is_some() { "∅" } else { "↗" };
                    let at = (x, y + LANE - 4.0);
                    shapes.push(text(at, came(mark), Anchor::Middle, "lf-send"));
                }
                Outcome::Claimed { claim: None } | Outcome::Enqueued { .. } => {
                    let result = outcome.label();
                    let mark = if result == "empty" { "∅" } else { "+" };
                    let said = Said::worded(mark, Assertion::Came { event, result });
                    shapes.push(text((x, y + 9.0), said, Anchor::Middle, "lf-empty"));
                }
            }
        }
        shapes
    }

    /// A lease bar and its label. It ends where the lease ends, or earlier
    /// at its accepted finish; a lease run out by "now" is hollow.
    fn bar(
        &self,
        event: usize,
        worker: &str,
        claim: &Claim,
        (x, y): (f64, f64),
        finished_at: Option<u64>,
        now: u64,
    ) -> [Shape; 2] {
        let ends = finished_at.map_or(claim.lease_until, |f| f.min(claim.lease_until));
        let width = self.axis.x(ends).max(x + 2.0) - x;
        let ended =
            finished_at.is_none() && !leasefence::claimable::within_lease(now, claim.lease_until);
        let class = if ended { "lf-bar lf-ended" } else { "lf-bar" };
        let claimed = Assertion::Claimed {
            event,
            worker: worker.to_owned(),
            job: claim.id.clone(),
            token: claim.token,
            attempt: claim.attempt,
            until: claim.lease_until,
        };
        let label = Said::worded(bar_label(claim, width), claimed);
        [
            Shape::Bar {
                x,
                y: y + 12.0,
                width,
                class,
            },
            text((x + 4.0, y + 26.0), label, Anchor::Start, "lf-bar-label"),
        ]
    }

    /// The "now" line at the last applied event.
    fn now(&self, stepper: &Stepper) -> Vec<Shape> {
        let Some(frame) = stepper.frame() else {
            return Vec::new();
        };
        let nx = self.axis.x(frame.result.at);
        let label = Said::plain(self.lang.text(key!("lanes.now")));
        vec![
            line((nx, TOP - 10.0), (nx, self.height - 12.0), "lf-now"),
            text(
                (nx + 3.0, self.height - 2.0),
                label,
                Anchor::Start,
                "lf-now-label",
            ),
        ]
    }
}

/// The axis line and ticks on round numbers (100, 250, 500, 1000, ... ms
/// apart), so the moments the chapters talk about (1000 ms) sit on it.
fn ticks(axis: &Axis) -> Vec<Shape> {
    let span = axis.end - axis.start as f64;
    let y = TOP - 14.0;
    let mut shapes = vec![line((axis.left, y), (axis.width - RIGHT, y), "lf-axis")];
    let step = [
        1u64, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000,
    ]
    .into_iter()
    .find(|step| span / *step as f64 <= 6.0)
    .unwrap_or_else(|| (span / 5.0).ceil() as u64);
    let mut at = axis.start.div_ceil(step) * step;
    while (at as f64) <= axis.end {
        let x = axis.x(at);
        shapes.push(line((x, TOP - 18.0), (x, TOP - 10.0), "lf-axis"));
        shapes.push(text(
            (x, TOP - 22.0),
            Said::plain(format!("{at} ms")),
            Anchor::Middle,
            "lf-tick",
        ));
        at += step;
    }
    shapes
}

/// The longest of a bar's labels that fits inside it (on a phone a short
/// lease is a few pixels wide): `id · token=t → lease_until`, then
/// `token=t`, then `t`. Widths are estimated at 6.5 px a character, the bar
/// label's font size (11 px) with room to spare.
fn bar_label(claim: &Claim, bar_width: f64) -> String {
    let labels = [
        format!(
            "{} · token={} → {}",
            claim.id, claim.token, claim.lease_until
        ),
        format!("token={}", claim.token),
    ];
    let fits = |label: &String| label.chars().count() as f64 * 6.5 + 8.0 <= bar_width;
    labels
        .into_iter()
        .find(fits)
        .unwrap_or_else(|| claim.token.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playground::CHAPTERS;
    use leasefence::scenario::Scenario;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn canonical_at(position: usize) -> Stepper {
        let scenario = Scenario::parse(CHAPTERS[0].scenario()).expect("parses");
        Stepper::new("canonical", scenario, position).expect("replays")
    }

    fn bars(view: &LanesView) -> Vec<(f64, f64, &'static str)> {
        view.shapes
            .iter()
            .filter_map(|shape| match shape {
                Shape::Bar {
                    x, width, class, ..
                } => Some((*x, *width, *class)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_lease_bar_runs_from_its_claim_to_lease_until_and_is_hollow_once_ended() {
        let view = draw(&canonical_at(2), Lang::En, 1000.0);
        let [a, b] = bars(&view)[..] else {
            panic!("two claims, two bars: {:?}", bars(&view));
        };
        // A's lease ran 0..1000, B's starts at 1000: they meet, never overlap.
        assert!(
            (a.0 + a.1 - b.0).abs() < 0.01,
            "A ends where B starts: {a:?} {b:?}"
        );
        assert_eq!((a.2, b.2), ("lf-bar lf-ended", "lf-bar"));
    }

    #[test]
    fn nothing_is_drawn_past_the_learners_place() {
        assert!(bars(&draw(&canonical_at(0), Lang::En, 400.0)).is_empty());
        let narrow = draw(&canonical_at(3), Lang::En, 100.0);
        assert_eq!(
            narrow.width, MIN_WIDTH,
            "a phone's panel scrolls past the minimum"
        );
    }
}
