//! The lease's one boundary read three ways (the course's point #9, issue
//! 20 item 12): at the instant A's lease ends and B claims its job, the
//! queue lets exactly one of them work on it; a finish that reads the end
//! with `<=` lets both, a claim that reads it with `<` lets neither.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::Scenario;
use leasefence_course::playground::chapters;
use leasefence_course::variants::boundary::{Boundary, Holders, Reading};
use support::narration::replayed;
use support::words;

const CHAPTER: &str = "expiry-boundary";

fn scenario() -> Scenario {
    let chapter = chapters::find(CHAPTER).expect("the chapter");
    Scenario::parse(chapter.scenario()).expect("parses")
}

/// The chapter's own place: just after B's claim exactly at A's
/// `lease_until` (the replay's fifth result).
const AFTER_THE_RECLAIM: usize = 5;

/// R5: at A's `lease_until`, the queue refuses A's finish and B's claim
/// takes A's job: one worker. Read the end with `<=` in the finish and
/// both may; with `<` in the claim, neither: the instant is a gap.
#[test]
fn r5_one_boundary_gives_the_job_to_exactly_one_worker_and_misreadings_give_two_or_none() {
    let doc = replayed(CHAPTER);
    let boundary = Boundary::at(&scenario(), AFTER_THE_RECLAIM)
        .expect("plays")
        .expect("B's claim comes exactly as A's lease ends");
    let a_claim = &doc["results"][0]["claim"];
    assert_eq!(
        (
            boundary.at,
            boundary.job.as_str(),
            boundary.holder.as_str(),
            boundary.claimant.as_str()
        ),
        (
            a_claim["lease_until"].as_u64().expect("a time"),
            a_claim["id"].as_str().expect("an id"),
            "A",
            "B"
        ),
        "R5: the instant, the job and its two workers, as the replay has them"
    );
    /// (reading, A's finish took effect, the job B's claim took, who may work, count)
    type Seen<'a> = (Reading, bool, Option<&'a str>, Vec<&'a str>, Holders);
    let seen: Vec<Seen> = (boundary.readings.iter())
        .map(|read| {
            (
                read.reading,
                read.finished,
                read.claimed.as_ref().map(|claim| claim.id.as_str()),
                read.holders.iter().map(String::as_str).collect(),
                read.count,
            )
        })
        .collect();
    let job = boundary.job.as_str();
    assert_eq!(
        seen,
        vec![
            (Reading::Queue, false, Some(job), vec!["B"], Holders::One),
            (
                Reading::FinishAtLeaseEnd,
                true,
                Some(job),
                vec!["A", "B"],
                Holders::Two
            ),
            (
                Reading::ClaimAfterLeaseEnd,
                false,
                None,
                vec![],
                Holders::Gap
            ),
        ],
        "R5: (reading, A's finish took effect, B's claim took, who may work, count)"
    );
    // The queue's own reading agrees with the replay: A refused, B took it.
    assert_eq!(
        doc["results"][3]["accepted"], false,
        "R5: A's finish in the replay"
    );
    assert_eq!(
        doc["results"][4]["claim"]["id"], job,
        "R5: B's claim in the replay"
    );
}

/// Each reading shows the condition its statements run: the queue's are
/// R4's and the claim's own; each misreading changes exactly one of them.
#[test]
fn r5_each_misreading_changes_one_side_of_the_boundary() {
    let shown: Vec<(&str, &str)> = (Reading::ALL.into_iter())
        .map(|reading| (reading.finish_condition(), reading.claim_condition()))
        .collect();
    let queue = (
        leasefence::Condition::LeaseUntil.sql(),
        leasefence::ClaimCondition::Free.sql(),
    );
    assert_eq!(
        shown[0], queue,
        "the queue's reading is R4's and the claim's"
    );
    assert!(
        shown[1].0 != queue.0 && shown[1].1 == queue.1,
        "the misread finish changes the finish only: {:?}",
        shown[1]
    );
    assert!(
        shown[2].0 == queue.0 && shown[2].1 != queue.1,
        "the misread claim changes the claim only: {:?}",
        shown[2]
    );
}

/// Only a claim that comes exactly as another's lease on its job ends is a
/// boundary: B's empty claim before the end, the start, a finish are not.
#[test]
fn r5_no_boundary_away_from_a_lease_end() {
    let scenario = scenario();
    for position in [0, 1, 2, 3, 4, 6, 7] {
        assert_eq!(
            Boundary::at(&scenario, position).expect("plays"),
            None,
            "position {position}"
        );
    }
}

/// A claim at a lease's end that something else at the same instant came
/// before (D's claim took the job B would otherwise have taken) is not
/// read: the table just before the instant is not the one B's claim saw,
/// and its readings would tell a gap that never was.
#[test]
fn r5_no_boundary_when_an_earlier_claim_at_the_instant_changed_what_it_takes() {
    let scenario = Scenario::parse(
        r#"{"jobs": [{"id": "j1", "qty": 1, "deadline": 9000}, {"id": "j2", "qty": 1, "deadline": 9000}],
            "events": [
              {"at": 0, "worker": "A", "do": "claim", "lease_ms": 500},
              {"at": 0, "worker": "C", "do": "claim", "lease_ms": 1000},
              {"at": 1000, "worker": "D", "do": "claim", "lease_ms": 1000},
              {"at": 1000, "worker": "B", "do": "claim", "lease_ms": 1000}]}"#,
    )
    .expect("parses");
    let doc = leasefence::replay(scenario.clone()).expect("replays");
    let took: Vec<Option<&str>> = (doc.results.iter())
        .map(|result| result.outcome.job_id())
        .collect();
    assert_eq!(
        took,
        vec![Some("j1"), Some("j2"), Some("j1"), Some("j2")],
        "the replay: B takes j2 exactly as C's lease on it ends"
    );
    assert_eq!(
        Boundary::at(&scenario, 4).expect("plays"),
        None,
        "B's claim after D's at the same instant"
    );
}

/// The point in the step card, where B reclaims exactly at A's
/// `lease_until`: its text and each reading's sentences name the replay's
/// instant, job and workers, in both languages, and each reading's verdict
/// is the one its statements gave (one, two, a gap).
#[test]
fn r5_the_boundary_point_shows_each_reading_as_its_statements_ran() {
    use leasefence_course::playground::Lang;
    use leasefence_course::playground::session::Session;
    use leasefence_course::playground::view;
    let doc = replayed(CHAPTER);
    let at = doc["results"][4]["at"].to_string();
    let job = doc["results"][4]["claim"]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    let (holder, claimant) = (
        doc["results"][3]["worker"].as_str().expect("a name"),
        doc["results"][4]["worker"].as_str().expect("a name"),
    );
    for lang in [Lang::En, Lang::Ko] {
        let mut session = Session::new(lang, CHAPTER, scenario()).expect("replays");
        session.stepper.seek(AFTER_THE_RECLAIM);
        let point = (view::position(&session, None, 640.0).step)
            .and_then(|step| step.point)
            .expect("the point after B's reclaim");
        assert_eq!(point.key, "one_boundary", "{}", lang.tag());
        for said in [holder, claimant] {
            assert!(
                point.text.contains(at.as_str()) && words(&point.text).contains(&said),
                "{}: the point's text names {at} and {said}: {}",
                lang.tag(),
                point.text
            );
        }
        let readings = point.readings.expect("the readings");
        let counts: Vec<Holders> = readings.readings.iter().map(|r| r.count).collect();
        assert_eq!(
            counts,
            vec![Holders::One, Holders::Two, Holders::Gap],
            "{}: the queue's, the misread finish's, the misread claim's",
            lang.tag()
        );
        for reading in &readings.readings {
            for said in [at.as_str(), job.as_str()] {
                assert!(
                    reading.said.text().contains(said),
                    "{}: {:?} names {said}",
                    lang.tag(),
                    reading.said
                );
            }
            assert!(
                words(reading.did[0].text()).contains(&holder)
                    && words(reading.did[1].text()).contains(&claimant),
                "{}: the finish is {holder}'s, the claim {claimant}'s: {:?}",
                lang.tag(),
                reading.did
            );
        }
        let changed: Vec<[bool; 2]> = (readings.readings.iter())
            .map(|reading| reading.conditions.each_ref().map(|c| c.changed))
            .collect();
        assert_eq!(
            changed,
            vec![[false, false], [true, false], [false, true]],
            "{}: each misreading marks the one comparison it changed",
            lang.tag()
        );
        let [one, two, gap] = &readings.readings[..] else {
            panic!("three readings");
        };
        let named = |text: &str| {
            let words = words(text);
            (words.contains(&holder), words.contains(&claimant))
        };
        assert_eq!(
            [&one.said, &two.said, &gap.said].map(|text| named(text.text())),
            [(false, true), (true, true), (true, true)],
            "{}: (names {holder}, names {claimant}): the one who may, both who may, \
             both who may not",
            lang.tag()
        );
    }
}
