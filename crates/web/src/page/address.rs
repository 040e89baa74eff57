//! The page's address: the URL hash follows the scenario and the language
//! (for the full page, which owns its URL), and Copy link puts the whole
//! address, with the step, on the clipboard. The format is the core's
//! ([`leasefence_course::playground::link`]).

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::Page;
use leasefence_course::key;
use leasefence_course::playground::link;

/// Rewrites the hash to what is on screen, without a history entry.
pub(super) fn write(page: &Page) -> Result<(), JsValue> {
    let state = page.state.borrow();
    if !state.use_hash {
        return Ok(());
    }
    let hash = format!("#{}", state.session.link(false));
    if page.window.location().hash().unwrap_or_default() != hash {
        page.window
            .history()?
            .replace_state_with_url(&JsValue::NULL, "", Some(&hash))?;
    }
    Ok(())
}

/// Whether the hash now asks for something other than what is on screen
/// (the learner edited it, or went back). A hash that is not a playground
/// address (the host page followed an in-page link, `#section-2`) is not
/// for us and changes nothing.
pub(super) fn is_foreign(page: &Page) -> bool {
    let hash = page.window.location().hash().unwrap_or_default();
    let ours = format!("#{}", page.state.borrow().session.link(false));
    let params = link::params(&hash);
    link::param(&params, "v").is_some() && hash != ours
}

/// Copies the address with the step; says whether it reached the clipboard.
pub(super) fn copy_link(page: &Rc<Page>) {
    let location = page.window.location();
    let href = location.href().unwrap_or_default();
    let base = href.split('#').next().unwrap_or_default();
    let url = format!("{base}#{}", page.state.borrow().session.link(true));
    let promise = page.window.navigator().clipboard().write_text(&url);
    // One callback for each way the promise settles; each runs at most
    // once, so they are handed to JavaScript for good.
    let report = |copied: bool| {
        let weak = Rc::downgrade(page);
        Closure::once(move |_: JsValue| {
            if let Some(page) = weak.upgrade() {
                show(&page, copied);
            }
        })
    };
    let (ok, err) = (report(true), report(false));
    let _ = promise.then2(&ok, &err);
    ok.forget();
    err.forget();
}

/// Keeps what became of the copy (as a message key, so a language switch
/// says it in the new language) and shows it.
fn show(page: &Page, copied: bool) {
    let key = if copied {
        key!("share.copied")
    } else {
        key!("share.failed")
    };
    let lang = {
        let mut state = page.state.borrow_mut();
        state.share_status = Some(key);
        state.session.lang
    };
    if let Some(parts) = page.parts.borrow().as_ref() {
        parts.share_status.set_text_content(Some(lang.text(key)));
    }
}
