//! Values across the JavaScript boundary, as JSON text.
//!
//! Rust values leave through `serde_json` and `JSON.parse`; JavaScript
//! values arrive through `JSON.stringify` and `serde_json`. The core already
//! speaks JSON for the contract's documents, so one serializer serves both
//! and the module stays small (a second, `JsValue`-based serializer would
//! compile every `Serialize` impl twice).
//!
//! JSON has no NaN or Infinity (`JSON.stringify` writes them as `null`), so
//! values are checked before they are stringified; every error names the
//! field, down to the key (`job.qty: ...`).

use serde::Serialize;
use serde::de::DeserializeOwned;
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
        let path = crate::scenario::known_path(err.path());
        let inner = err.into_inner();
        if path.is_empty() {
            JsError::new(&format!("{field}: {inner}"))
        } else {
            JsError::new(&format!("{field}.{path}: {inner}"))
        }
    })
}

/// A JavaScript object as JSON text, for a parser of the core.
///
/// Every property is read through `Reflect`, whose bindings catch what
/// JavaScript throws (a getter that throws, a revoked `Proxy`), so an
/// exception never unwinds through Rust: a `&mut self` method would stay
/// borrowed and its object unusable.
pub(crate) fn json_text(field: &str, value: &JsValue) -> Result<String, JsError> {
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(JsError::new(&format!(
            "{field}: expected an object, got {}",
            type_of(value)
        )));
    }
    check_values(field, value, 0)?;
    let text = js_sys::JSON::stringify(value)
        .map_err(|_| JsError::new(&format!("{field}: cannot be written as JSON")))?;
    // `toJSON` may return `undefined`, which `stringify` passes on.
    text.as_string()
        .ok_or_else(|| JsError::new(&format!("{field}: cannot be written as JSON")))
}

/// How deep `check_values` looks; the API's objects are two levels deep, and
/// a cycle stops here instead of recursing forever.
const MAX_DEPTH: usize = 8;

/// Refuses, at any depth, what JSON would silently change or cannot hold:
/// NaN and ±Infinity (written as `null`) and BigInt (a `TypeError`).
fn check_values(path: &str, value: &JsValue, depth: usize) -> Result<(), JsError> {
    if let Some(number) = value.as_f64() {
        return match number {
            n if n.is_nan() => Err(JsError::new(&format!(
                "{path}: must be a finite number, got NaN"
            ))),
            n if n.is_infinite() => Err(JsError::new(&format!(
                "{path}: must be a finite number, got {}",
                shown(n)
            ))),
            _ => Ok(()),
        };
    }
    if value.is_bigint() {
        return Err(JsError::new(&format!(
            "{path}: must be a number, got a BigInt"
        )));
    }
    if !value.is_object() {
        return Ok(());
    }
    if depth >= MAX_DEPTH {
        return Err(JsError::new(&format!("{path}: nested too deeply")));
    }
    let is_array = js_sys::Array::is_array(value);
    let keys = js_sys::Reflect::own_keys(value)
        .map_err(|_| JsError::new(&format!("{path}: cannot be read")))?;
    for key in keys.iter() {
        // Symbol keys are not JSON.
        let Some(name) = key.as_string() else {
            continue;
        };
        if is_array && name == "length" {
            continue;
        }
        let inner_path = if is_array {
            format!("{path}[{name}]")
        } else {
            format!("{path}.{name}")
        };
        let inner = js_sys::Reflect::get(value, &key)
            .map_err(|_| JsError::new(&format!("{inner_path}: cannot be read")))?;
        check_values(&inner_path, &inner, depth + 1)?;
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

/// A number as JavaScript prints it (`Infinity`, `1e+21`), for messages
/// about values that came from JavaScript.
fn shown(value: f64) -> String {
    js_sys::Number::from(value)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

/// `typeof`, except that `null` is `null` and an array `array`, for
/// messages.
fn type_of(value: &JsValue) -> String {
    if value.is_null() {
        return "null".to_owned();
    }
    if js_sys::Array::is_array(value) {
        return "array".to_owned();
    }
    value.js_typeof().as_string().unwrap_or_default()
}
