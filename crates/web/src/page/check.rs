//! `check(text)`: a lesson read exactly as the playground reads one (the
//! scenario parser, then the page's size limit), for an author or a
//! course's build to run before publishing: the answer `leasefence check
//! FILE` prints, as a JavaScript object. The refusal is the English the
//! command line and the API say (a JavaScript caller's words), naming the
//! key with its line and column.

use wasm_bindgen::prelude::*;

use crate::convert::{string_arg, to_js};
use leasefence_course::playground::lesson;

/// `{ok: true, jobs, events}` (with the lesson's `title` and `narration`
/// when it has them), or `{ok: false, error}` for a lesson the playground
/// would not show. Throws only for an argument that is not a string.
#[wasm_bindgen(unchecked_return_type = "CheckResult")]
pub fn check(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&lesson::check(&string_arg("text", &text)?))
}
