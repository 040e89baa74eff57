//! After a language switch no sentence of the other language stays: what
//! the editor last said is said again in the new language, and the notice
//! about how the page was opened, said once, goes.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence_course::playground::session::{Session, Start};
use leasefence_course::playground::status::StatusKind;
use leasefence_course::playground::{Lang, view};
use support::session;

fn has_hangul(text: &str) -> bool {
    text.chars().any(|c| ('\u{ac00}'..='\u{d7a3}').contains(&c))
}

#[test]
fn a_refused_edit_said_in_korean_is_said_in_english_after_the_switch() {
    let mut session = session("canonical", Lang::Ko);
    session
        .apply_editor(r#"{"jobs": [], "events": [{"at": 0}]}"#)
        .expect("a refusal is said, not raised");
    let line = |session: &Session| view::scenario(session).editor_status.expect("said");
    let korean = line(&session);
    check!(has_hangul(&korean.text), true, "Korean: {}", korean.text);
    session.switch_lang();
    let english = line(&session);
    check!(english.kind, StatusKind::Refused, "still refused");
    check!(
        has_hangul(&english.text),
        false,
        "English: {}",
        english.text
    );
    check!(
        english.text.contains("events[0]"),
        true,
        "names the place: {}",
        english.text
    );
}

#[test]
fn a_notice_said_when_the_page_opened_goes_with_the_language_switch() {
    let mut typo = Session::start(&Start {
        chapter: Some("canonicall".into()),
        lang: Some("ko".into()),
        ..Start::default()
    })
    .expect("starts");
    let notice = |session: &Session| view::position(session, None, 640.0).notice;
    let korean = notice(&typo).expect("said");
    check!(has_hangul(&korean), true, "Korean: {korean}");
    check!(korean.contains("canonicall"), true, "names it: {korean}");
    typo.switch_lang();
    check!(typo.lang, Lang::En, "switched");
    check!(
        notice(&typo),
        None,
        "no Korean notice left on the English screen"
    );
}
