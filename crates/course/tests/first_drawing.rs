//! What a first drawing may do before the page's module is whole (issue
//! 22, item 9): the page's module comes in two parts, SQLite in the
//! second, and a chapter is drawn from its written timeline while that
//! part is on its way. `Start::draws_without_sqlite` tells the bootstrap
//! which playgrounds need not wait for it; tests/no_sqlite_before_drawing.rs
//! checks natively that those run no SQLite, and e2e/split.test.mjs that
//! they never call into the second part.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use leasefence::scenario::Scenario;
use leasefence_course::Timeline;
use leasefence_course::playground::CHAPTERS;
use leasefence_course::playground::lesson::Source;
use leasefence_course::playground::session::Start;

fn chapter(id: &str) -> Start {
    Start {
        chapter: Some(id.to_owned()),
        ..Start::default()
    }
}

fn link(hash: &str) -> Start {
    Start {
        hash: Some(hash.to_owned()),
        ..Start::default()
    }
}

/// Each chapter's written timeline is what this target's SQLite plays:
/// natively the bundled SQLite, in the browser the module's own build
/// (the files are written natively, by `make bless`).
#[test]
fn each_chapter_is_drawn_as_this_targets_sqlite_plays_it() {
    for chapter in CHAPTERS {
        let own = Scenario::parse(chapter.scenario()).expect("a chapter parses");
        let drawn = chapter.timeline(&own).expect("a chapter's timeline");
        let played = Timeline::build(own).expect("a chapter replays");
        assert!(
            drawn == played,
            "chapter {}: expected its written timeline to be the replay of this target; it differs",
            chapter.id
        );
    }
}

/// A chapter that opens no panel is drawn from its written timeline; one
/// whose panels open with it replays to fill them.
#[test]
fn only_a_chapter_whose_panels_open_with_it_waits_for_sqlite() {
    for chapter in CHAPTERS {
        let expected = chapter.opens.is_empty();
        for start in [
            self::chapter(chapter.id),
            link(&format!("#v=1&chapter={}&lang=ko&predict=0", chapter.id)),
        ] {
            assert_eq!(
                start.draws_without_sqlite(),
                expected,
                "chapter {}: expected draws_without_sqlite = {expected} (opens {:?}); current {}",
                chapter.id,
                chapter.opens,
                !expected
            );
        }
    }
    assert!(
        Start::default().draws_without_sqlite(),
        "the first chapter, shown when nothing is asked, is drawn at once"
    );
    assert!(
        chapter("no-such-chapter").draws_without_sqlite(),
        "an unknown chapter shows the first, drawn at once"
    );
}

/// Whatever is not a chapter's own timeline at its start may replay
/// before it is drawn: an author's lesson, a shared scenario, a place in a
/// timeline or the statement panel, the lab.
#[test]
fn a_lesson_a_shared_timeline_a_place_and_the_lab_wait_for_sqlite() {
    let lesson = Start {
        lesson: Some(Source {
            scenario: Ok("{}".to_owned()),
            ..Source::default()
        }),
        ..Start::default()
    };
    let lab = Start {
        lab: Some("finish".to_owned()),
        ..Start::default()
    };
    for (what, start) in [
        ("an author's lesson", lesson),
        ("the lab", lab),
        ("a shared scenario", link("#v=1&scenario=e30")),
        (
            "a place in a timeline",
            link("#v=1&chapter=expiry-boundary&step=5"),
        ),
        (
            "the statement panel",
            link("#v=1&chapter=canonical&stmt=timeline.2"),
        ),
        ("the lab by a link", link("#v=1&lab=finish")),
    ] {
        assert!(
            !start.draws_without_sqlite(),
            "{what}: expected draws_without_sqlite = false; current true"
        );
    }
}
