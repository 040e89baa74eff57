//! The page in headless Chromium, driven the way a learner drives it: keys
//! on the playground, clicks on controls found by their accessible names.
//! Checks what the page shows (`data-result`) and what it announces.

#![cfg(all(target_arch = "wasm32", feature = "page"))]

use leasefence_web::page::mount;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test as test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement, KeyboardEvent, KeyboardEventInit};

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh element on the test page with a playground mounted in it.
fn playground(options: &str) -> Element {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    let root = doc.create_element("div").expect("creates");
    doc.body()
        .expect("a body")
        .append_child(&root)
        .expect("appends");
    let options = js_sys::JSON::parse(options).expect("options JSON");
    mount(root.clone().into(), Some(options)).expect("mounts");
    root
}

fn press(root: &Element, key: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("event");
    root.dispatch_event(&event).expect("dispatches");
}

/// Clicks the button whose accessible name (aria-label, else its text) is `name`.
fn click(root: &Element, name: &str) {
    let buttons = root.query_selector_all("button").expect("query");
    for index in 0..buttons.length() {
        let button: Element = buttons.item(index).expect("node").unchecked_into();
        let label = button
            .get_attribute("aria-label")
            .or_else(|| button.text_content())
            .unwrap_or_default();
        if label.trim() == name {
            button.unchecked_into::<HtmlElement>().click();
            return;
        }
    }
    panic!("no button named {name:?}");
}

fn results(root: &Element) -> Vec<Option<String>> {
    let rows = root.query_selector_all("[data-event]").expect("query");
    (0..rows.length())
        .map(|i| {
            rows.item(i)
                .expect("row")
                .unchecked_into::<Element>()
                .get_attribute("data-result")
        })
        .collect()
}

fn announced(root: &Element) -> String {
    root.query_selector(".lf-live")
        .ok()
        .flatten()
        .and_then(|el| el.text_content())
        .unwrap_or_default()
}

fn some(labels: &[&str]) -> Vec<Option<String>> {
    labels
        .iter()
        .map(|label| (!label.is_empty()).then(|| (*label).to_owned()))
        .collect()
}

/// Predict first: a chapter mounted without the `predict`
/// option opens asking, its toggle checked beside the step controls; ⇥
/// stops at the first question and shows nothing.
#[test]
fn a_chapter_opens_on_its_question_and_the_end_key_does_not_skip_it() {
    let root = playground(r#"{"scenario": "canonical", "lang": "en"}"#);
    let toggle = root
        .query_selector("[data-action=predict]")
        .ok()
        .flatten()
        .expect("the toggle")
        .unchecked_into::<web_sys::HtmlInputElement>();
    assert!(toggle.checked(), "predicting from the start");
    press(&root, "End");
    assert_eq!(results(&root), some(&["", "", ""]), "nothing shown");
    let prompt = root
        .query_selector(".lf-prompt")
        .ok()
        .flatten()
        .and_then(|el| el.text_content())
        .unwrap_or_default();
    assert!(
        prompt.contains("A asks for a job at 0 ms"),
        "asked: {prompt}"
    );
}

/// On the workbench (every panel shown) a press is an event; a lesson's
/// presses walk its scenes (crates/course/tests/scenes.rs).
#[test]
fn arrow_keys_step_the_canonical_timeline_and_announce_the_refusal() {
    let root =
        playground(r#"{"predict": false, "scenario": "canonical", "lang": "en", "show": "tools"}"#);
    assert_eq!(results(&root), some(&["", "", ""]));
    for _ in 0..3 {
        press(&root, "ArrowRight");
    }
    assert_eq!(results(&root), some(&["claimed", "claimed", "rejected"]));
    let said = announced(&root);
    assert!(
        said.contains("A's finish was refused: the row's token is 2, the stamp's is 1"),
        "announced: {said}"
    );
    press(&root, "ArrowLeft");
    assert_eq!(results(&root), some(&["claimed", "claimed", ""]));
    press(&root, "Home");
    assert_eq!(results(&root), some(&["", "", ""]));
    press(&root, "End");
    assert_eq!(results(&root), some(&["claimed", "claimed", "rejected"]));
}

#[test]
fn buttons_found_by_accessible_name_step_back_and_forth() {
    let root = playground(
        r#"{"predict": false, "scenario": "late-delivery", "lang": "en", "show": "tools"}"#,
    );
    click(&root, "Step forward");
    click(&root, "Step forward");
    assert_eq!(
        results(&root),
        some(&["claimed", "applied", "", "", "", ""])
    );
    assert!(
        announced(&root).contains("the receiver applied it"),
        "{}",
        announced(&root)
    );
    click(&root, "Go to end");
    assert_eq!(
        results(&root),
        some(&[
            "claimed",
            "applied",
            "claimed",
            "duplicate",
            "accepted",
            "rejected"
        ])
    );
    click(&root, "Reset");
    assert_eq!(results(&root), some(&["", "", "", "", "", ""]));
}

#[test]
fn korean_page_announces_in_the_course_terms_and_switches_to_english() {
    let root = playground(r#"{"predict": false, "scenario": "canonical", "lang": "ko"}"#);
    assert_eq!(root.get_attribute("lang").as_deref(), Some("ko"));
    press(&root, "End");
    let said = announced(&root);
    assert!(
        said.contains("완료 요청은 거절되었습니다"),
        "announced: {said}"
    );
    click(&root, "English");
    assert_eq!(root.get_attribute("lang").as_deref(), Some("en"));
    assert_eq!(
        results(&root),
        some(&["claimed", "claimed", "rejected"]),
        "position kept"
    );
}

#[test]
fn the_step_panel_shows_the_guarded_update_and_its_zero_rows() {
    let root = playground(r#"{"predict": false, "scenario": "canonical", "lang": "en"}"#);
    press(&root, "End");
    let step = root
        .query_selector(".lf-step")
        .ok()
        .flatten()
        .and_then(|el| el.text_content())
        .unwrap_or_default();
    assert!(step.contains("UPDATE jobs SET state = 'done'"), "{step}");
    assert!(step.contains(":token = 1"), "bound values shown: {step}");
    assert!(step.contains("0 rows changed → rejected"), "{step}");
}

#[test]
fn mount_refuses_bad_options_with_a_message() {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    let root = doc.create_element("div").expect("creates");
    let err = mount(
        root.into(),
        Some(js_sys::JSON::parse(r#"{"compact": "yes"}"#).expect("json")),
    )
    .err()
    .expect("refused");
    let message = String::from(err.unchecked_into::<js_sys::Error>().message());
    assert!(message.starts_with("options"), "{message}");
}

#[test]
fn mount_refuses_a_part_it_does_not_know_and_show_beside_compact() {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    for (options, expected) in [
        (
            r#"{"show": "chapters tool"}"#,
            r#"options.show: unknown part "tool"; expected one of chapters, sandbox, tools, lab"#,
        ),
        (
            r#"{"show": "lab", "compact": true}"#,
            "options.compact: not with options.show, which says what is shown",
        ),
        (
            r#"{"show": ["lab"]}"#,
            "options.show: expected a string, got an array",
        ),
    ] {
        let root = doc.create_element("div").expect("creates");
        let options = js_sys::JSON::parse(options).expect("json");
        let err = mount(root.clone().into(), Some(options))
            .err()
            .expect("refused");
        let message = String::from(err.unchecked_into::<js_sys::Error>().message());
        assert_eq!(message, expected, "expected (right) vs current (left)");
        assert_eq!(root.child_element_count(), 0, "nothing drawn");
    }
}

/// Whether the element of class `class` in `root` is on screen (not
/// `hidden`).
fn shown(root: &Element, class: &str) -> bool {
    let part = root
        .query_selector(&format!(".{class}"))
        .expect("query")
        .unwrap_or_else(|| panic!("no .{class}"));
    !part.has_attribute("hidden")
}

#[test]
fn an_embed_hides_the_parts_its_author_did_not_ask_for() {
    let parts = [
        "lf-twists",
        "lf-editor",
        "lf-boundary",
        "lf-compare",
        "lf-lab",
    ];
    let lesson = playground(r#"{"scenario": "canonical", "lang": "en"}"#);
    for class in parts {
        assert!(!shown(&lesson, class), "{class} hidden in a lesson embed");
    }
    assert!(
        lesson.class_list().contains("lf-single"),
        "headed by its chapter"
    );
    let asked = playground(r#"{"scenario": "canonical", "show": "sandbox tools lab"}"#);
    for class in parts {
        assert!(shown(&asked, class), "{class} shown when asked for");
    }
    // The full page: every part, and a link to share, unless it is told
    // what to show (an iframe's address, whose link is not the learner's).
    let copy = |root: &Element| shown(root, "lf-head [data-action=copy-link][data-hidden=false]");
    let full = playground(r#"{"scenario": "canonical", "hash": true}"#);
    for class in parts {
        assert!(shown(&full, class), "{class} shown on the full page");
    }
    assert!(
        !full.class_list().contains("lf-single"),
        "the course's header"
    );
    assert!(copy(&full), "Copy link offered");
    let told = playground(r#"{"scenario": "canonical", "hash": true, "show": "chapters tools"}"#);
    assert!(!shown(&told, "lf-editor"), "the sandbox not asked for");
    assert!(
        told.query_selector("[data-action=copy-link][data-hidden=false]")
            .expect("query")
            .is_none(),
        "no Copy link on a page told what to show"
    );
}

/// A host page may answer the playground's events by driving it again
/// (an auto-advancing course, say): nothing is borrowed while events fire.
#[test]
fn a_host_listener_may_drive_the_playground_from_its_events() {
    use std::cell::Cell;
    use std::rc::Rc;
    use wasm_bindgen::closure::Closure;

    let root =
        playground(r#"{"predict": false, "scenario": "canonical", "lang": "en", "show": "tools"}"#);
    let (target, pressed) = (root.clone(), Rc::new(Cell::new(false)));
    let once = Rc::clone(&pressed);
    let listener = Closure::<dyn FnMut(web_sys::Event)>::new(move |_event: web_sys::Event| {
        if !once.replace(true) {
            press(&target, "ArrowRight");
        }
    });
    root.add_event_listener_with_callback("leasefence:step", listener.as_ref().unchecked_ref())
        .expect("listens");
    press(&root, "ArrowRight");
    assert!(pressed.get(), "the host's listener ran");
    assert_eq!(results(&root), some(&["claimed", "claimed", ""]));
    drop(listener);
}

/// An embed draws inside its element's shadow root (as
/// `embed.js` mounts it). The playground there takes its language from
/// the element's ancestors across the shadow root, and its events leave
/// the shadow root for the host's own element.
#[test]
fn a_playground_in_a_shadow_root_reads_the_hosts_language_and_its_events_reach_the_host() {
    use std::cell::Cell;
    use std::rc::Rc;
    use wasm_bindgen::closure::Closure;

    let doc = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    let section = doc.create_element("section").expect("creates");
    section.set_attribute("lang", "ko").expect("sets");
    let host = doc.create_element("div").expect("creates");
    section.append_child(&host).expect("appends");
    doc.body()
        .expect("a body")
        .append_child(&section)
        .expect("appends");
    let shadow = host
        .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
        .expect("a shadow root");
    let root = doc.create_element("div").expect("creates");
    shadow.append_child(&root).expect("appends");
    let options = js_sys::JSON::parse(r#"{"predict": false, "scenario": "canonical"}"#);
    mount(root.clone().into(), Some(options.expect("options"))).expect("mounts");
    assert_eq!(
        root.get_attribute("lang").as_deref(),
        Some("ko"),
        "the language of the section around the host"
    );
    let heard = Rc::new(Cell::new(0));
    let count = Rc::clone(&heard);
    let listener = Closure::<dyn FnMut(web_sys::Event)>::new(move |_event: web_sys::Event| {
        count.set(count.get() + 1);
    });
    host.add_event_listener_with_callback("leasefence:step", listener.as_ref().unchecked_ref())
        .expect("listens");
    press(&root, "ArrowRight");
    assert_eq!(
        heard.get(),
        1,
        "the step's event reached the host's element"
    );
    assert_eq!(results(&root), some(&["claimed", "", ""]));
    drop(listener);
}

/// `check` reads a lesson as the playground does, for an
/// author's build: a good one counted, a broken one named at its key with
/// line and column, in English; a value that is not a string throws.
#[test]
fn check_reads_a_lesson_as_the_playground_does() {
    use leasefence_web::page::check;
    let answer = |text: &str| {
        let value = check(text.into()).expect("a string is checked");
        js_sys::JSON::stringify(&value)
            .expect("JSON")
            .as_string()
            .expect("a string")
    };
    assert_eq!(
        answer(
            r#"{"jobs":[{"id":"a","qty":1,"deadline":9000}],"events":[{"at":0,"worker":"A","do":"claim","lease_ms":10}]}"#
        ),
        r#"{"events":1,"jobs":1,"ok":true}"#,
        "a good lesson, counted"
    );
    let broken = answer(
        "{\"jobs\": [],\n \"events\": [{\"at\": 0, \"worker\": \"A\", \"do\": \"claim\", \"lease\": 10}]}",
    );
    assert!(
        broken.contains(r#""ok":false"#) && broken.contains("lease") && broken.contains("line 2"),
        "a broken lesson, named with its place: {broken}"
    );
    assert!(
        check(wasm_bindgen::JsValue::from(3)).is_err(),
        "not a string"
    );
}
