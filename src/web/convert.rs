//! Values across the JavaScript boundary, as JSON text.
//!
//! Rust values leave through `serde_json` and `JSON.parse`; JavaScript
//! values arrive through `JSON.stringify` and `serde_json`. The core already
//! speaks JSON for the contract's documents, so one serializer serves both
//! and the module stays small (a second, `JsValue`-based serializer would
//! compile every `Serialize` impl twice).
//!
//! JSON has no NaN or Infinity (`JSON.stringify` writes them as `null`), so
//! numbers are checked before they are stringified; every error names the
//! field, down to the key (`job.qty: ...`).

use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::model::MAX_INT;

/// A Rust value as a plain JavaScript value (objects, arrays, numbers).
pub(crate) fn to_js(value: &impl Serialize) -> Result<JsValue, JsError> {
    let text =
        serde_json::to_string(value).map_err(|err| JsError::new(&format!("output: {err}")))?;
    js_sys::JSON::parse(&text).map_err(|_| JsError::new("output: not JSON"))
}

/// A JavaScript object as `T`; `field` names the argument in errors.
pub(crate) fn from_js<T: DeserializeOwned>(field: &str, value: &JsValue) -> Result<T, JsError> {
    let text = json_text(field, value)?;
    let mut json = serde_json::Deserializer::from_str(&text);
    serde_path_to_error::deserialize(&mut json).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        if path == "." {
            JsError::new(&format!("{field}: {inner}"))
        } else {
            JsError::new(&format!("{field}.{path}: {inner}"))
        }
    })
}

/// A JavaScript object as JSON text, for a parser of the core.
pub(crate) fn json_text(field: &str, value: &JsValue) -> Result<String, JsError> {
    if !value.is_object() || value.is_function() {
        return Err(JsError::new(&format!(
            "{field}: expected an object, got {}",
            type_of(value)
        )));
    }
    reject_non_finite(field, value)?;
    let text = js_sys::JSON::stringify(value)
        .map_err(|_| JsError::new(&format!("{field}: cannot be written as JSON")))?;
    Ok(String::from(text))
}

/// Refuses NaN and ±Infinity among an object's own values, which
/// `JSON.stringify` would silently turn into `null`.
fn reject_non_finite(field: &str, object: &JsValue) -> Result<(), JsError> {
    let Some(object) = object.dyn_ref::<js_sys::Object>() else {
        return Ok(());
    };
    for entry in js_sys::Object::entries(object).iter() {
        let entry: js_sys::Array = entry.unchecked_into();
        if let Some(number) = entry.get(1).as_f64().filter(|n| !n.is_finite()) {
            let key = entry.get(0).as_string().unwrap_or_default();
            return Err(JsError::new(&format!(
                "{field}.{key}: must be a finite number, got {}",
                if number.is_nan() { "NaN" } else { "Infinity" }
            )));
        }
    }
    Ok(())
}

/// Accepts a JavaScript number only if it is an integer in `0..=2^53-1`.
pub(crate) fn integer(field: &str, value: f64) -> Result<u64, JsError> {
    if !value.is_finite() || value.fract() != 0.0 || value < 0.0 || value > MAX_INT as f64 {
        return Err(JsError::new(&format!(
            "{field}: must be an integer from 0 to {MAX_INT}, got {}",
            shown(value)
        )));
    }
    Ok(value as u64)
}

/// A number as JavaScript would print it, without Rust's float formatting
/// (which alone is several kilobytes of the module).
fn shown(value: f64) -> String {
    js_sys::Number::from(value)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

/// `typeof`, except that `null` is `null`, for messages.
fn type_of(value: &JsValue) -> String {
    if value.is_null() {
        return "null".to_owned();
    }
    value.js_typeof().as_string().unwrap_or_default()
}
