//! The course's timings, native: the page's frames of a long scenario,
//! every ordering of each chapter, and the lab's grader. `cargo bench -p
//! leasefence-course` prints three tables (copied into BENCHMARKS.md);
//! `-- frames`, `-- census` or `-- grade` runs one.

use std::time::Instant;

use leasefence::Scenario;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let filter = args.iter().skip(1).find(|arg| !arg.starts_with("--"));
    let wanted = |name: &str| filter.is_none_or(|word| name.contains(word.as_str()));
    if wanted("frames") {
        frames_speed();
    }
    if wanted("census") {
        census_speed();
    }
    if wanted("grade") {
        grade_speed();
    }
}

/// The lab's grader on each level's reference statement (a pass: every
/// ordering of every scenario played on both queues) and on its starting
/// statement (a failure: the walk stops early). Median of `RUNS`.
fn grade_speed() {
    use leasefence_course::lab::{Graded, LEVELS, grade};
    use leasefence_course::playground::chapter_scenarios;
    const RUNS: usize = 5;
    println!("## The lab's grader, native (median of {RUNS})\n");
    println!(
        "| level | statement | scenarios | orderings | ms |\n| --- | --- | ---: | ---: | ---: |"
    );
    for level in LEVELS {
        for (which, sql) in [("reference", level.reference), ("start", level.start)] {
            let mut times = Vec::new();
            let mut checked = None;
            for _ in 0..RUNS {
                let started = Instant::now();
                let graded = grade(&level, sql, &chapter_scenarios()).expect("grades");
                times.push(started.elapsed().as_secs_f64());
                checked = Some(match graded {
                    Graded::Passed { checked } | Graded::Failed { checked, .. } => checked,
                });
            }
            times.sort_by(f64::total_cmp);
            let checked = checked.expect("ran");
            println!(
                "| {} | {which} | {} | {} | {:.0} |",
                level.id,
                checked.scenarios,
                checked.orderings,
                times[RUNS / 2] * 1000.0
            );
        }
    }
    println!();
}

/// The playground's frames of the generated 10,000-event scenario (the
/// queue's bench times `replay` of the same scenario): events per second.
fn frames_speed() {
    const EVENTS: usize = 10_000;
    const RUNS: usize = 5;
    let json = Scenario::generated(EVENTS).to_json();
    let median = |mut times: Vec<f64>| {
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    };
    let frames = median(
        (0..RUNS)
            .map(|_| {
                let started = Instant::now();
                let scenario = Scenario::parse(&json).expect("valid");
                leasefence_course::Timeline::build(scenario).expect("builds");
                started.elapsed().as_secs_f64()
            })
            .collect(),
    );
    println!(
        "## The page's frames of the generated {EVENTS}-event scenario, native (median of {RUNS})\n"
    );
    println!("| what | ms | events/s |\n| --- | ---: | ---: |");
    println!(
        "| `Timeline::build` (page frames) | {:.1} | {:.0} |\n",
        frames * 1000.0,
        EVENTS as f64 / frames
    );
}

/// Every ordering of every chapter, enumerated and replayed on the three
/// sides (fenced and both naive guards): what the page's "every ordering"
/// panel computes. The panel's budget is 1 s in the browser for the largest
/// chapter; this is the native figure (`e2e/budgets.mjs` measures the
/// browser's). Median of `RUNS` per chapter.
fn census_speed() {
    use leasefence_course::mechanism::orderings::{MAX_ACTORS, MAX_EVENTS, census, sides};
    const RUNS: usize = 5;
    println!(
        "## Every ordering of each chapter, native (bound {MAX_EVENTS} events, {MAX_ACTORS} actors; median of {RUNS})\n"
    );
    println!(
        "| chapter | events | orderings | replays | ms | µs per replay |\n| --- | ---: | ---: | ---: | ---: | ---: |"
    );
    for chapter in leasefence_course::playground::CHAPTERS {
        let scenario = Scenario::parse(chapter.scenario()).expect("parses");
        let mut orderings = 0;
        let mut times: Vec<f64> = (0..RUNS)
            .map(|_| {
                let started = Instant::now();
                let counted = census(&scenario).expect("within the bound");
                let elapsed = started.elapsed().as_secs_f64();
                assert_eq!(counted.sides[0].bad, 0, "no bad ordering with the fence");
                orderings = counted.orderings;
                elapsed
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let median = times[RUNS / 2];
        let replays = orderings * sides(&scenario).len();
        println!(
            "| {} | {} | {orderings} | {replays} | {:.1} | {:.1} |",
            chapter.id,
            scenario.events().len(),
            median * 1000.0,
            median * 1e6 / replays as f64
        );
    }
    println!();
}
