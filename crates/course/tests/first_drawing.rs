//! What a first drawing may do before the page's module is whole (issue
//! 22, item 9): the page's module comes in two parts, SQLite in the
//! second, and a chapter is drawn from its written timeline while that
//! part is on its way. `Start::runs_sqlite_first` tells the bootstrap which
//! playgrounds wait for it; e2e/split.test.mjs checks in the browser that
//! the others never call into it.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

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

/// A chapter that opens no panel is drawn from its written timeline; one
/// whose panels open with it replays to fill them.
#[test]
fn only_a_chapter_whose_panels_open_with_it_runs_sqlite_first() {
    for chapter in CHAPTERS {
        let expected = !chapter.opens.is_empty();
        for start in [
            self::chapter(chapter.id),
            link(&format!("#v=1&chapter={}&lang=ko&predict=0", chapter.id)),
        ] {
            assert_eq!(
                start.runs_sqlite_first(),
                expected,
                "chapter {}: expected runs_sqlite_first = {expected} (opens {:?}); current {}",
                chapter.id,
                chapter.opens,
                !expected
            );
        }
    }
    assert!(
        !Start::default().runs_sqlite_first(),
        "the first chapter, shown when nothing is asked, is drawn at once"
    );
    assert!(
        !chapter("no-such-chapter").runs_sqlite_first(),
        "an unknown chapter shows the first, drawn at once"
    );
}

/// Whatever is not a chapter's own timeline at its start may replay
/// before it is drawn: an author's lesson, a shared scenario, a place in a
/// timeline or the statement panel, the lab.
#[test]
fn a_lesson_a_shared_timeline_a_place_and_the_lab_run_sqlite_first() {
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
            start.runs_sqlite_first(),
            "{what}: expected runs_sqlite_first = true; current false"
        );
    }
}
