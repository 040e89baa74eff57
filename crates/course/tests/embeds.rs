//! An embed is a lesson: it shows its chapter (or the author's lesson)
//! and the panels that chapter is about, and every other part only when
//! the author asks for it; the full page shows them all.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use leasefence_course::playground::session::{Session, Start};
use leasefence_course::playground::show::{Layout, Show};
use leasefence_course::playground::view;

/// The layout of a playground started on `chapter` showing `show`.
fn layout(chapter: &str, show: Show) -> Layout {
    let start = Start {
        chapter: Some(chapter.to_owned()),
        lang: Some("ko".to_owned()),
        show,
        ..Start::default()
    };
    let session = Session::start(&start).expect("starts");
    view::scenario(&session).layout
}

/// Only the chapter: the lanes, the events, the step and its rows.
const BARE: Layout = Layout {
    course: false,
    twists: false,
    editor: false,
    boundary: false,
    statements: false,
    invariants: false,
    compare: false,
    lab: false,
    receiver: false,
};

#[test]
fn an_embed_shows_its_chapter_and_nothing_the_author_did_not_ask_for() {
    let shown = layout("canonical", Show::default());
    assert_eq!(BARE, shown, "expected (left) vs current (right)");
}

#[test]
fn an_embed_shows_the_panels_its_chapter_is_about() {
    for (chapter, expected) in [
        (
            "fencing-off-vs-on",
            Layout {
                compare: true,
                invariants: true,
                ..BARE
            },
        ),
        // Its workers send inside the transaction: the receiver too.
        (
            "write-lock",
            Layout {
                statements: true,
                receiver: true,
                ..BARE
            },
        ),
        (
            "every-ordering",
            Layout {
                invariants: true,
                receiver: true,
                ..BARE
            },
        ),
        // A chapter whose workers deliver shows where they deliver to.
        (
            "late-delivery",
            Layout {
                receiver: true,
                ..BARE
            },
        ),
    ] {
        let shown = layout(chapter, Show::default());
        assert_eq!(
            expected, shown,
            "{chapter}: expected (left) vs current (right)"
        );
    }
}

#[test]
fn each_part_an_author_names_is_shown() {
    let cases = [
        (
            "chapters",
            Layout {
                course: true,
                ..BARE
            },
        ),
        (
            "sandbox",
            Layout {
                twists: true,
                editor: true,
                receiver: true,
                ..BARE
            },
        ),
        (
            "tools",
            Layout {
                boundary: true,
                statements: true,
                invariants: true,
                compare: true,
                ..BARE
            },
        ),
        ("lab", Layout { lab: true, ..BARE }),
    ];
    for (name, expected) in cases {
        let show = Show::read([name]).expect("a part");
        let shown = layout("canonical", show);
        assert_eq!(
            expected, shown,
            "{name}: expected (left) vs current (right)"
        );
    }
}

#[test]
fn the_full_page_shows_every_part() {
    let shown = layout("canonical", Show::EVERYTHING);
    let every = Layout {
        course: true,
        twists: true,
        editor: true,
        boundary: true,
        statements: true,
        invariants: true,
        compare: true,
        lab: true,
        receiver: true,
    };
    assert_eq!(every, shown, "expected (left) vs current (right)");
}

#[test]
fn a_lab_the_author_opens_is_shown_without_being_named() {
    let start = Start {
        lab: Some("finish".to_owned()),
        ..Start::default()
    };
    let session = Session::start(&start).expect("starts");
    assert!(view::scenario(&session).layout.lab, "the lab is on screen");
    let linked = Start {
        hash: Some("#v=1&lab=finish".to_owned()),
        ..Start::default()
    };
    let session = Session::start(&linked).expect("starts");
    assert!(view::scenario(&session).layout.lab, "a link's lab too");
}

#[test]
fn an_unknown_part_is_refused_by_its_name() {
    assert_eq!(Show::read(["chapters", "tool"]), Err("tool"));
    assert_eq!(Show::read([]), Ok(Show::default()));
    let all = Show::read(Show::NAMES).expect("every name is a part");
    assert_eq!(all, Show::EVERYTHING, "the names cover every part");
}
