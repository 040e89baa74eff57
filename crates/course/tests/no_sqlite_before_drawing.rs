//! A playground that `Start::draws_without_sqlite` says is drawn without
//! SQLite runs none before its first drawing: the page's module has SQLite
//! in its second part, and the bootstrap mounts such a playground before
//! that part is in. Native only: SQLite's own memory
//! statistics say whether anything in this process ever ran it, so this
//! file holds one test, alone in its process.

#![cfg(not(target_arch = "wasm32"))]

use leasefence_course::playground::session::{Session, Start};
use leasefence_course::playground::{CHAPTERS, view};

/// Whether SQLite ever held memory in this process: every connection
/// does, from its opening.
fn sqlite_ran() -> bool {
    // SAFETY: reads SQLite's statistics; no connection or pointer involved.
    unsafe { rusqlite::ffi::sqlite3_memory_highwater(0) > 0 }
}

#[test]
fn a_playground_drawn_without_sqlite_runs_none_before_its_first_drawing() {
    assert!(!sqlite_ran(), "expected no SQLite before the test; it ran");
    let mut drawn = 0;
    for chapter in CHAPTERS {
        for lang in ["en", "ko"] {
            for predict in [None, Some(false), Some(true)] {
                let by_host = Start {
                    chapter: Some(chapter.id.to_owned()),
                    lang: Some(lang.to_owned()),
                    predict,
                    ..Start::default()
                };
                let by_link = Start {
                    hash: Some(format!("#v=1&chapter={}&lang={lang}", chapter.id)),
                    predict,
                    ..Start::default()
                };
                for start in [by_host, by_link] {
                    if !start.draws_without_sqlite() {
                        continue;
                    }
                    // What the page computes for its first drawing.
                    let session = Session::start(&start).expect("a chapter starts");
                    let _ = view::scenario(&session);
                    let _ = view::statements(&session);
                    let _ = view::position(&session, None, 1280.0);
                    let _ = view::lanes(&session, 1280.0);
                    let _ = view::lab(&session);
                    assert!(
                        !sqlite_ran(),
                        "chapter {} ({lang}, predict {predict:?}, {start:?}): expected no SQLite \
                         before the first drawing; current: it ran",
                        chapter.id
                    );
                    drawn += 1;
                }
            }
        }
    }
    assert!(
        drawn >= 8 * 2 * 3 * 2,
        "expected most chapters drawn at once; current {drawn} drawings"
    );
    // The check sees SQLite when it runs: a chapter whose panels open with it replays.
    let panels = CHAPTERS
        .iter()
        .find(|chapter| !chapter.opens.is_empty())
        .expect("a chapter opens panels");
    let start = Start {
        chapter: Some(panels.id.to_owned()),
        ..Start::default()
    };
    Session::start(&start).expect("a chapter starts");
    assert!(
        sqlite_ran(),
        "expected SQLite seen when {}'s panels replay",
        panels.id
    );
}
