//! The two designs the course turns down before it builds the queue (its
//! point #1): a claim that deletes the job leaves it only
//! in its worker's memory; a claim that leaves it visible lets the next
//! worker take it too. The queue's claim keeps the row, leased to one
//! worker (R1, R5, R11).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::Scenario;
use leasefence::model::JobState;
use leasefence_course::playground::chapters;
use leasefence_course::variants::designs::{Design, Designs, Fate};
use support::narration::replayed;
use support::words;

const CHAPTER: &str = "polling-cannot-steal";

/// Where the point stands: after A's claim and B's first (empty) one.
const AFTER_B_ASKS: usize = 2;

fn scenario() -> Scenario {
    let chapter = chapters::find(CHAPTER).expect("the chapter");
    Scenario::parse(chapter.scenario()).expect("parses")
}

/// R1, R11: after A's claim and B's at 100 ms, the queue's row is leased
/// to A and B took nothing; deleted, the row is gone while A holds the
/// job in memory; left visible, B takes the same job and both hold it.
#[test]
fn r11_only_the_leased_row_keeps_the_job_and_keeps_it_to_one_worker() {
    let doc = replayed(CHAPTER);
    let designs = Designs::at(&scenario(), AFTER_B_ASKS)
        .expect("plays")
        .expect("two claims, one takes a job");
    let job = doc["results"][0]["claim"]["id"].as_str().expect("an id");
    assert_eq!(designs.job, job, "the job A's claim took in the replay");
    /// (design, fate, the row's state if any, who holds the job, the
    /// jobs each claim took)
    type Seen<'a> = (
        Design,
        Fate,
        Option<JobState>,
        Vec<&'a str>,
        Vec<Option<&'a str>>,
    );
    let seen: Vec<Seen> = (designs.runs.iter())
        .map(|run| {
            (
                run.design,
                run.fate,
                run.row.as_ref().map(|row| row.state),
                run.holders.iter().map(String::as_str).collect(),
                (run.took.iter())
                    .map(|took| took.claim.as_ref().map(|claim| claim.id.as_str()))
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        vec![
            (
                Design::Queue,
                Fate::Kept,
                Some(JobState::Leased),
                vec!["A"],
                vec![Some(job), None]
            ),
            (
                Design::DeleteOnClaim,
                Fate::Lost,
                None,
                vec!["A"],
                vec![Some(job), None]
            ),
            (
                Design::LeaveVisible,
                Fate::Shared,
                Some(JobState::Pending),
                vec!["A", "B"],
                vec![Some(job), Some(job)]
            ),
        ],
        "(design, fate, row state, holders, what each claim took)"
    );
    // The queue's own run is the replay's.
    assert_eq!(
        doc["results"][1]["claim"],
        serde_json::Value::Null,
        "B's claim in the replay"
    );
    let queue = &designs.runs[0];
    assert_eq!(
        queue.row.as_ref().and_then(|row| row.lease_until),
        doc["results"][0]["claim"]["lease_until"].as_u64(),
        "R5: the queue's row keeps A's lease_until"
    );
}

/// The designs differ in the claim only, so they are run where every
/// event so far is a claim and one took a job: not at the start, not
/// once A has finished.
#[test]
fn designs_are_run_only_over_claims_that_took_a_job() {
    let scenario = scenario();
    let total = scenario.events().len();
    let shown: Vec<bool> = (0..=total)
        .map(|position| Designs::at(&scenario, position).expect("plays").is_some())
        .collect();
    assert_eq!(
        shown,
        vec![false, true, true, true, true, false],
        "per position: nothing claimed yet; claims only; A's finish"
    );
}

/// Each fate names the worker it is about, as the tables and the claims
/// have it: after A's claim alone, the visible job is open (pending, A
/// holds it); when B claims after A's lease has ended, the deleted job is
/// still lost with A, who took it, and the queue's is kept by B.
#[test]
fn each_fate_is_read_from_the_row_and_the_claims_even_after_a_lease_ends() {
    let fates = |designs: &Designs| -> Vec<(Fate, Vec<String>, Option<String>)> {
        (designs.runs.iter())
            .map(|run| (run.fate, run.holders.clone(), run.taker.clone()))
            .collect()
    };
    let a = || Some("A".to_owned());
    let only = |worker: &str| vec![worker.to_owned()];
    let after_a = Designs::at(&scenario(), 1)
        .expect("plays")
        .expect("A took a job");
    assert_eq!(
        fates(&after_a),
        vec![
            (Fate::Kept, only("A"), a()),
            (Fate::Lost, only("A"), a()),
            (Fate::Open, only("A"), a()),
        ],
        "after A's claim alone: (fate, holders, taker)"
    );
    let late = Scenario::parse(
        r#"{"jobs": [{"id": "snack-1", "qty": 1, "deadline": 9000}],
            "events": [{"at": 0, "worker": "A", "do": "claim", "lease_ms": 1000},
                       {"at": 1500, "worker": "B", "do": "claim", "lease_ms": 1000}]}"#,
    )
    .expect("parses");
    let after_b = Designs::at(&late, 2).expect("plays").expect("A took a job");
    assert_eq!(
        fates(&after_b),
        vec![
            (Fate::Kept, only("B"), a()),
            (Fate::Lost, vec![], a()),
            (Fate::Open, only("B"), a()),
        ],
        "B claims at 1500 ms, after A's lease: the queue reclaims, the deleted job stays lost with A"
    );
}

/// The point in the step card after B's first claim: each design's run in
/// both languages names the job and the workers the replay has, and the
/// row line shows the row's own values.
#[test]
fn the_designs_point_says_what_each_design_did_in_both_languages() {
    use leasefence_course::playground::Lang;
    use leasefence_course::playground::session::Session;
    use leasefence_course::playground::view;
    let doc = replayed(CHAPTER);
    let job = doc["results"][0]["claim"]["id"].as_str().expect("an id");
    let until = doc["results"][0]["claim"]["lease_until"].to_string();
    for lang in [Lang::En, Lang::Ko] {
        let mut session = Session::new(lang, CHAPTER, scenario()).expect("replays");
        session.stepper.seek(AFTER_B_ASKS);
        let point = (view::position(&session, None, 640.0).step)
            .and_then(|step| step.point)
            .expect("the point after B's first claim");
        assert_eq!(point.key, "why_leased", "{}", lang.tag());
        for event in 0..AFTER_B_ASKS {
            let result = &doc["results"][event];
            let (at, worker) = (result["at"].to_string(), result["worker"].as_str());
            assert!(
                [format!("{at}ms"), format!("{at} ms")]
                    .iter()
                    .any(|time| point.text.contains(time.as_str()))
                    && worker.is_some_and(|worker| words(&point.text).contains(&worker)),
                "{}: the point's text names event {event} ({at} ms, {worker:?}): {}",
                lang.tag(),
                point.text
            );
        }
        let designs = point.designs.expect("the designs");
        let fates: Vec<(Fate, bool)> = designs.runs.iter().map(|r| (r.fate, r.gone)).collect();
        assert_eq!(
            fates,
            vec![
                (Fate::Kept, false),
                (Fate::Lost, true),
                (Fate::Shared, false)
            ],
            "{}: (fate, row gone)",
            lang.tag()
        );
        let [kept, lost, shared] = &designs.runs[..] else {
            panic!("three designs");
        };
        assert!(
            kept.row.text().contains("state = leased")
                && kept.row.text().contains("owner = A")
                && kept.row.text().contains(&format!("lease_until = {until}")),
            "{}: the queue's row as stored: {}",
            lang.tag(),
            kept.row
        );
        assert!(
            shared.row.text().contains("state = pending")
                && shared.row.text().contains("token = 2"),
            "{}: left visible, the row stays pending and counts both claims: {}",
            lang.tag(),
            shared.row
        );
        for (run, names) in [
            (kept, vec!["A"]),
            (lost, vec!["A"]),
            (shared, vec!["A", "B"]),
        ] {
            let said = words(run.said.text());
            assert!(
                said.contains(&job) && names.iter().all(|name| said.contains(name)),
                "{}: {:?} names {job} and {names:?}",
                lang.tag(),
                run.said
            );
            assert_eq!(run.took.len(), 2, "{}: A's claim and B's", lang.tag());
        }
        assert!(
            words(lost.row.text()).contains(&job),
            "{}: the missing row is named: {}",
            lang.tag(),
            lost.row
        );
    }
}

/// The names the page styles a run by (`data-fate`, `data-count`) are the
/// ones the view serialises, one name per concept.
#[test]
fn fates_and_counts_are_named_as_serialised() {
    use leasefence_course::variants::boundary::Holders;
    let fates = [Fate::Kept, Fate::Open, Fate::Lost, Fate::Shared];
    let counts = [Holders::One, Holders::Two, Holders::Gap];
    let names = |named: Vec<(&str, serde_json::Value)>| {
        named
            .into_iter()
            .map(|(name, json)| (name.to_owned(), json.as_str().map(str::to_owned)))
            .collect::<Vec<_>>()
    };
    for (name, json) in names(fates.map(|f| (f.name(), serde_json::json!(f))).into())
        .into_iter()
        .chain(names(
            counts.map(|c| (c.name(), serde_json::json!(c))).into(),
        ))
    {
        assert_eq!(Some(name), json, "the page's name and the view's");
    }
}
