//! The JavaScript side of the browser tests: values made by the browser's
//! own parser and read back through its own `JSON.stringify`, and the
//! message of what a call threw.

use wasm_bindgen::{JsCast, JsValue};

/// A JavaScript expression's value (for what JSON cannot write:
/// `undefined`, NaN, BigInt, getters, `toJSON`).
pub fn js(expression: &str) -> JsValue {
    js_sys::eval(&format!("({expression})")).expect("a valid expression")
}

/// A JavaScript value as JSON, via the browser's own `JSON.stringify`.
pub fn as_json(value: &JsValue) -> serde_json::Value {
    let text = js_sys::JSON::stringify(value).expect("stringifies");
    serde_json::from_str(&String::from(text)).expect("valid JSON")
}

/// The message of the `Error` a call threw; fails if it did not throw.
pub fn thrown(result: Result<impl std::fmt::Debug, JsValue>) -> String {
    let err = result.expect_err("the call must throw");
    let err: js_sys::Error = err.dyn_into().expect("an Error object");
    String::from(err.message())
}
