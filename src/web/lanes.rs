//! The lanes: an SVG time axis with one lane per worker. Lease bars run
//! from the claim to `lease_until` with their token; each finish is marked
//! with a symbol and a word (not colour alone); job deadlines are dashed
//! lines; "now" is the current step's time.

use wasm_bindgen::JsValue;
use web_sys::{Document, Element};

use super::dom::{El, replace_children};
use crate::playground::Lang;
use crate::replay::Outcome;
use crate::scenario::Scenario;
use crate::timeline::Timeline;

/// Drawing width when the container's cannot be read (not laid out yet).
const DEFAULT_WIDTH: f64 = 1000.0;
/// Narrowest drawing; a narrower container scrolls sideways.
const MIN_WIDTH: f64 = 320.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 34.0;
const LANE: f64 = 52.0;
/// Most events drawn at once.
const WINDOW: usize = 40;

/// Redraws the lanes for the first `position` events, `measured_width`
/// CSS pixels wide.
pub fn draw(
    doc: &Document,
    container: &Element,
    scenario: &Scenario,
    timeline: &Timeline,
    position: usize,
    lang: Lang,
    measured_width: f64,
) -> Result<(), JsValue> {
    // Draw in the container's own pixels (measured by the page on build and
    // resize, not here: reading a width forces layout on every step), so
    // text stays 12-13 px on a phone as on a desktop.
    let width = if measured_width > 0.0 {
        measured_width.max(MIN_WIDTH)
    } else {
        DEFAULT_WIDTH
    };
    let left = (width * 0.16).clamp(56.0, 110.0);
    // Lanes in order of first appearance; the set keeps this linear.
    let mut workers: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for event in &scenario.events {
        if seen.insert(event.worker.as_str()) {
            workers.push(&event.worker);
        }
    }
    // A long scenario is shown through a window of events around "now";
    // a short one whole, from 0 ms, future included.
    let total = scenario.events.len();
    let window = if total > WINDOW {
        let first = position.saturating_sub(WINDOW * 3 / 4);
        first..(first + WINDOW).min(total)
    } else {
        0..total
    };
    let in_window = &scenario.events[window.clone()];
    let start = if window.start == 0 {
        0
    } else {
        in_window.first().map_or(0, |event| event.at)
    };
    let last_event = in_window.iter().map(|event| event.at).max().unwrap_or(0);
    let last_lease = timeline.frames[window.clone()]
        .iter()
        .filter_map(|frame| match &frame.result.outcome {
            Outcome::Claimed { claim: Some(claim) } => Some(claim.lease_until),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let reach = last_event.max(last_lease.min(last_event.saturating_mul(3).max(1000)));
    let end = start as f64 + ((reach.saturating_sub(start)) as f64 * 1.08).max(10.0);
    let span = end - start as f64;
    let x = |at: u64| {
        left + ((at as f64).clamp(start as f64, end) - start as f64) / span * (width - left - RIGHT)
    };
    let lane_of: std::collections::HashMap<&str, usize> = workers
        .iter()
        .enumerate()
        .map(|(lane, worker)| (*worker, lane))
        .collect();
    let lane_y = |worker: &str| TOP + lane_of.get(worker).copied().unwrap_or(0) as f64 * LANE;
    let height = TOP + workers.len().max(1) as f64 * LANE + 16.0;

    let summary = lang.fill(
        "lanes.summary",
        &[
            ("from", start.to_string()),
            ("to", (end as u64).to_string()),
        ],
    );
    let mut shapes = vec![El::svg(doc, "title")?.text(&summary)];
    // Axis with five ticks.
    shapes.push(line(
        doc,
        left,
        TOP - 14.0,
        width - RIGHT,
        TOP - 14.0,
        "lf-axis",
    )?);
    // Ticks on round numbers (100, 250, 500, 1000, ... ms apart), so the
    // moments the chapters talk about (1000 ms) sit on the axis.
    let step = [
        1u64, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000,
    ]
    .into_iter()
    .find(|step| span / *step as f64 <= 6.0)
    .unwrap_or_else(|| (span / 5.0).ceil() as u64);
    let mut at = start.div_ceil(step) * step;
    while (at as f64) <= end {
        shapes.push(line(doc, x(at), TOP - 18.0, x(at), TOP - 10.0, "lf-axis")?);
        shapes.push(text(
            doc,
            x(at),
            TOP - 22.0,
            &format!("{at} ms"),
            "lf-tick",
        )?);
        at += step;
    }
    for worker in &workers {
        let y = lane_y(worker);
        shapes.push(line(
            doc,
            left,
            y + LANE / 2.0,
            width - RIGHT,
            y + LANE / 2.0,
            "lf-lane",
        )?);
        shapes.push(
            text(doc, 8.0, y + LANE / 2.0 + 4.0, worker, "lf-lane-name")?
                .attr("text-anchor", "start")?,
        );
    }
    // Deadlines of the jobs that exist at this step, within the axis.
    for row in timeline.rows_after(position) {
        if (row.deadline as f64) <= end && row.deadline >= start {
            let dx = x(row.deadline);
            shapes.push(line(doc, dx, TOP - 8.0, dx, height - 6.0, "lf-deadline")?);
            let label = lang.fill("lanes.deadline", &[("id", row.id.clone())]);
            shapes.push(
                text(doc, dx - 4.0, height - 8.0, &label, "lf-deadline-label")?
                    .attr("text-anchor", "end")?,
            );
        }
    }
    let shown = &timeline.frames[window.start..position.max(window.start).min(window.end)];
    let now = position
        .checked_sub(1)
        .and_then(|i| timeline.frames.get(i))
        .map_or(0, |frame| frame.result.at);
    let finishes: std::collections::HashMap<(&str, u64), u64> = timeline.frames
        [..position.min(timeline.frames.len())]
        .iter()
        .filter_map(|frame| match &frame.result.outcome {
            Outcome::Finished(finish) if finish.accepted => {
                let stamp = finish.expected.as_ref()?;
                Some(((stamp.id.as_str(), stamp.token), frame.result.at))
            }
            _ => None,
        })
        .collect();
    for frame in shown {
        let result = &frame.result;
        let y = lane_y(&result.worker);
        match &result.outcome {
            Outcome::Claimed { claim: Some(claim) } => {
                // A bar ends where the lease ends, or earlier at its accepted
                // finish; a lease that has run out by "now" is drawn hollow.
                let finished_at = finishes.get(&(claim.id.as_str(), claim.token)).copied();
                let ends = finished_at
                    .unwrap_or(claim.lease_until)
                    .min(claim.lease_until);
                let (from, to) = (x(result.at), x(ends).max(x(result.at) + 2.0));
                let ended = finished_at.is_none() && claim.lease_until <= now;
                let class = if ended { "lf-bar lf-ended" } else { "lf-bar" };
                shapes.push(
                    El::svg(doc, "rect")?
                        .attr("x", &format!("{from:.1}"))?
                        .attr("y", &format!("{:.1}", y + 12.0))?
                        .attr("width", &format!("{:.1}", to - from))?
                        .attr("height", "20")?
                        .attr("rx", "4")?
                        .class(class)?,
                );
                let label = bar_label(claim, to - from);
                shapes.push(
                    text(doc, from + 4.0, y + 26.0, &label, "lf-bar-label")?
                        .attr("text-anchor", "start")?,
                );
            }
            // Finishes above the bars, deliveries below, so neighbours
            // in time do not write over each other.
            Outcome::Finished(finish) => {
                let (mark, class) = if finish.accepted {
                    (
                        format!("✓ {}", lang.text("result.accepted")),
                        "lf-mark lf-accepted",
                    )
                } else {
                    (
                        format!("✗ {}", lang.text("result.rejected")),
                        "lf-mark lf-rejected",
                    )
                };
                shapes.push(line(
                    doc,
                    x(result.at),
                    y + 8.0,
                    x(result.at),
                    y + 34.0,
                    class,
                )?);
                shapes.push(text(doc, x(result.at), y + 6.0, &mark, class)?);
            }
            Outcome::Sent { applied, reason } => {
                let (mark, key) = match (reason, applied) {
                    (Some(_), _) => ("∅", "result.no_claim"),
                    (None, true) => ("↗", "result.applied"),
                    (None, false) => ("↗", "result.duplicate"),
                };
                let label = format!("{mark} {}", lang.text(key));
                shapes.push(text(doc, x(result.at), y + LANE - 4.0, &label, "lf-send")?);
            }
            Outcome::Claimed { claim: None } => {
                shapes.push(text(doc, x(result.at), y + 9.0, "∅", "lf-empty")?);
            }
            Outcome::Enqueued { .. } => {
                shapes.push(text(doc, x(result.at), y + 9.0, "+", "lf-empty")?);
            }
        }
    }
    if let Some(frame) = position.checked_sub(1).and_then(|i| timeline.frames.get(i)) {
        let nx = x(frame.result.at);
        shapes.push(line(doc, nx, TOP - 10.0, nx, height - 12.0, "lf-now")?);
        shapes.push(
            text(
                doc,
                nx + 3.0,
                height - 2.0,
                lang.text("lanes.now"),
                "lf-now-label",
            )?
            .attr("text-anchor", "start")?,
        );
    }
    let svg = El::svg(doc, "svg")?
        .attr("viewBox", &format!("0 0 {width:.0} {height:.0}"))?
        .attr("role", "img")?
        .attr("aria-label", &summary)?
        .class("lf-svg")?
        .children(shapes)?;
    replace_children(container, [svg])
}

/// The longest of a bar's labels that fits inside it (on a phone a short
/// lease is a few pixels wide): `id · token=t → lease_until`, then
/// `token=t`, then `t`. Widths are estimated at 6.5 px a character, the bar
/// label's font size (11 px) with room to spare.
fn bar_label(claim: &crate::Claim, bar_width: f64) -> String {
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

fn line(doc: &Document, x1: f64, y1: f64, x2: f64, y2: f64, class: &str) -> Result<El, JsValue> {
    El::svg(doc, "line")?
        .attr("x1", &format!("{x1:.1}"))?
        .attr("y1", &format!("{y1:.1}"))?
        .attr("x2", &format!("{x2:.1}"))?
        .attr("y2", &format!("{y2:.1}"))?
        .class(class)
}

fn text(doc: &Document, x: f64, y: f64, content: &str, class: &str) -> Result<El, JsValue> {
    Ok(El::svg(doc, "text")?
        .attr("x", &format!("{x:.1}"))?
        .attr("y", &format!("{y:.1}"))?
        .attr("text-anchor", "middle")?
        .class(class)?
        .text(content))
}
