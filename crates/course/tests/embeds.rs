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

/// A playground started on `chapter` showing `show`, in Korean.
fn started(chapter: &str, show: Show) -> Session {
    let start = Start {
        chapter: Some(chapter.to_owned()),
        lang: Some("ko".to_owned()),
        show,
        ..Start::default()
    };
    Session::start(&start).expect("starts")
}

/// The layout of a playground started on `chapter` showing `show`.
fn layout(chapter: &str, show: Show) -> Layout {
    view::scenario(&started(chapter, show)).layout
}

/// Only the chapter: the lanes, the events, the step and its rows.
const BARE: Layout = Layout {
    course: false,
    sandbox: false,
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
                sandbox: true,
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
        sandbox: true,
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
    let all = Show::read(["chapters", "sandbox", "tools", "lab"]).expect("every name is a part");
    assert_eq!(all, Show::EVERYTHING, "the names cover every part");
}

#[test]
fn nothing_in_an_embed_without_the_picker_leads_to_another_chapter() {
    let mut session = started("fencing-off-vs-on", Show::default());
    session.set_predict(false).expect("shows");
    session.stepper.seek(session.stepper.total());
    let shown = view::position(&session, None, 640.0);
    assert_eq!(shown.prompt.next, None, "no next chapter at the end");
    let compare = shown.compare.expect("the chapter's comparison");
    let links = (compare.breaks.iter()).chain(shown.invariants.iter().flat_map(|panel| {
        let table = panel.orderings.table.as_ref();
        table.into_iter().flat_map(|table| &table.breaks)
    }));
    for link in links {
        assert_eq!(link.opens, None, "{}: named, not opened", link.said.text());
    }
    let offered: Vec<&str> = (view::scenario(&session).chapters.iter())
        .map(|option| option.id)
        .collect();
    assert!(
        !offered.contains(&"sandbox"),
        "no sandbox offered: {offered:?}"
    );
    let mut course = started("canonical", Show::read(["chapters"]).expect("a part"));
    course.set_predict(false).expect("shows");
    course.stepper.seek(course.stepper.total());
    let next = view::position(&course, None, 640.0)
        .prompt
        .next
        .map(|next| next.id);
    assert_eq!(
        next,
        Some("polling-cannot-steal"),
        "with the picker: the next chapter, in the course's order"
    );
}

#[test]
fn a_chapters_panels_stay_when_its_timeline_is_changed() {
    let mut session = started("write-lock", Show::read(["sandbox"]).expect("a part"));
    let before = view::scenario(&session).layout;
    assert!(before.statements, "the write-lock chapter's panel");
    let worker = session.stepper.scenario().events()[0].worker.clone();
    let twist = leasefence_course::playground::twist::Twist::Stall;
    session.twist(&worker, twist).expect("stalls");
    assert_eq!(
        session.stepper.chapter(),
        "sandbox",
        "the timeline is the learner's now"
    );
    assert_eq!(
        view::scenario(&session).layout,
        before,
        "the same parts on screen"
    );
}

#[test]
fn panels_a_new_chapter_hides_are_closed_not_run_out_of_sight() {
    let mut session = started("write-lock", Show::read(["chapters"]).expect("a part"));
    assert!(view::statements(&session).is_some(), "open in its chapter");
    session.load_chapter("canonical").expect("loads");
    assert!(
        !view::scenario(&session).layout.statements,
        "hidden in canonical"
    );
    assert!(
        view::statements(&session).is_none(),
        "and closed: nothing replays"
    );
}
