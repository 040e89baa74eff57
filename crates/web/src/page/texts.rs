//! The learner's language's texts, fetched beside the module (the
//! `fetched-messages` feature, which `make web` builds with): the page
//! module carries no message text, and a learner downloads one language's
//! (`leasefence.ko.json` or `leasefence.en.json`, about half of both).
//! The glue's `package/messages.js` fetches them: the bootstrap asks for
//! a playground's language before mounting it (`langOf`, then
//! `loadMessages`), and the language switch waits for the other's. A text
//! asked for before its language is in is fetched then, synchronously
//! (`messagesNow`), as the module's second part is.

use std::rc::Rc;

use super::Page;
use super::input::UserAction;
use leasefence_course::playground::Lang;

#[cfg(feature = "fetched-messages")]
mod fetched {
    use leasefence_course::playground::Lang;
    use leasefence_course::playground::messages::fetched;
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// `lang`'s file's bytes, fetched now if they are not in yet;
        /// `undefined` when they cannot be had (package/messages.js).
        #[wasm_bindgen(catch, js_name = messagesNow)]
        fn messages_now(lang: &str) -> Result<Option<Vec<u8>>, JsValue>;
        /// Fetches `lang`'s file, if it is not in yet.
        #[wasm_bindgen(js_name = loadMessages)]
        fn load_messages(lang: &str) -> js_sys::Promise;
    }

    fn fetch(lang: Lang) -> Option<Vec<u8>> {
        messages_now(lang.tag()).ok().flatten()
    }

    fn unread(lang: Lang) {
        let said = format!(
            "leasefence: leasefence.{}.json is not this module's (another build's?); its texts show as ⋯",
            lang.tag()
        );
        web_sys::console::error_1(&said.into());
    }

    pub fn provide() {
        fetched::fetch_with(fetched::Source { fetch, unread });
    }

    pub fn when_in(lang: Lang, then: Box<dyn FnOnce()>) {
        if fetched::has(lang) {
            return then();
        }
        // Whether the file came or not: if not, the texts are asked for
        // once more, synchronously, and a gap shows as ⋯.
        // Kept alive until called (at most once per language a page
        // lives, since the texts stay in once read).
        let then = Closure::once(then);
        let _ = load_messages(lang.tag()).finally(&then);
        then.forget();
    }
}

/// Says how the texts are fetched; before the first drawing.
pub(super) fn provide() {
    #[cfg(feature = "fetched-messages")]
    fetched::provide();
}

/// Runs `then` once `lang`'s texts are in: at once if they are (or are in
/// the module), else when their fetch has settled.
pub(super) fn when_in(lang: Lang, then: Box<dyn FnOnce()>) {
    #[cfg(feature = "fetched-messages")]
    return fetched::when_in(lang, then);
    #[cfg(not(feature = "fetched-messages"))]
    {
        let _ = lang;
        then();
    }
}

/// The language switch, run once the other language's texts are in
/// rather than fetching them synchronously: `false` when it is to run
/// now as any action (mid-drawing, the state borrowed, it waits its turn
/// in [`Page::run_now`]'s queue).
pub(super) fn switch_later(page: &Rc<Page>) -> bool {
    let Ok(state) = page.state.try_borrow() else {
        return false;
    };
    let other = state.session.lang.other();
    drop(state);
    let page = Rc::clone(page);
    // Switched to `other` once its texts are in, unless it is the language
    // by then (a second press while they came).
    let switch = move || {
        let there = (page.state.try_borrow()).is_ok_and(|state| state.session.lang == other);
        if !there {
            page.run_now(UserAction::SwitchLang);
        }
    };
    when_in(other, Box::new(switch));
    true
}
