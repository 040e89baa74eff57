//! Values across the JavaScript boundary, through `serde_wasm_bindgen`.
//!
//! Rust values leave as plain JavaScript values built directly by
//! `serde_wasm_bindgen`'s serializer in its JSON-compatible setting (maps
//! become objects, `None` becomes `null`, integers numbers), so a result is
//! what `JSON.parse` of the core's JSON document would give, with no JSON
//! text in between.
//!
//! JavaScript values arrive through `serde_wasm_bindgen` as a
//! `serde_json::Value`, which `serde_path_to_error` then reads as the Rust
//! type. The value step is deliberate: `serde_wasm_bindgen` reads a struct
//! by asking the object for its known fields only, so an unknown key would
//! pass unnoticed, while a `Value` holds every key and the types'
//! `deny_unknown_fields` see them; the messages are then the scenario
//! parser's own (`job.qty: invalid type: ...`). Before that, every value is
//! checked for what JSON cannot hold (NaN, ±Infinity, BigInt), so every
//! error names the field, down to the key.

use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::model::MAX_INT;

/// A Rust value as a plain JavaScript value (objects, arrays, numbers).
pub(crate) fn to_js(value: &impl Serialize) -> Result<JsValue, JsError> {
    serde_json::to_value(value)
        .map_err(|err| JsError::new(&format!("output: {err}")))?
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|err| JsError::new(&format!("output: {}", message(err))))
}

/// A JavaScript object as `T`; `field` names the argument in errors.
pub(crate) fn from_js<T: DeserializeOwned>(field: &str, value: &JsValue) -> Result<T, JsError> {
    serde_path_to_error::deserialize(plain(field, value)?).map_err(|err| {
        let path = crate::scenario::known_path(err.path());
        let inner = err.into_inner();
        if path.is_empty() {
            JsError::new(&format!("{field}: {inner}"))
        } else {
            JsError::new(&format!("{field}.{path}: {inner}"))
        }
    })
}

/// A JavaScript object, checked, as a JSON value for a reader of the core.
///
/// Every property is first read through `Reflect`, whose bindings catch
/// what JavaScript throws (a getter that throws, a revoked `Proxy`), so an
/// exception never unwinds through Rust: a `&mut self` method would stay
/// borrowed and its object unusable.
pub(crate) fn plain(field: &str, value: &JsValue) -> Result<serde_json::Value, JsError> {
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(JsError::new(&format!(
            "{field}: expected an object, got {}",
            type_of(value)
        )));
    }
    let mut undefined = Vec::new();
    check_values(field, value, (0, ""), &mut undefined)?;
    let mut plain: serde_json::Value = serde_wasm_bindgen::from_value(value.clone())
        .map_err(|err| JsError::new(&format!("{field}: {}", message(err))))?;
    // `JSON.stringify` leaves out a property that is `undefined` (so an
    // optional field takes its default); `serde_wasm_bindgen` reads it as
    // `null`, so it is taken out here.
    for (parent, key) in undefined {
        if let Some(object) = plain
            .pointer_mut(&parent)
            .and_then(serde_json::Value::as_object_mut)
        {
            object.remove(&key);
        }
    }
    Ok(plain)
}

/// The text of a `serde_wasm_bindgen` error (a JavaScript `Error`, whose
/// `String()` would add "Error: " in front).
fn message(err: serde_wasm_bindgen::Error) -> String {
    match JsValue::from(err).dyn_into::<js_sys::Error>() {
        Ok(error) => String::from(error.message()),
        Err(other) => other.as_string().unwrap_or_default(),
    }
}

/// How deep `check_values` looks; the API's objects are two levels deep, and
/// a cycle stops here instead of recursing forever.
const MAX_DEPTH: usize = 8;

/// Refuses, at any depth, what JSON would silently change or cannot hold:
/// NaN and ±Infinity (written as `null`), BigInt, and an object with its
/// own `toJSON` (its JSON form is not its properties, so reading them
/// would not be what `JSON.stringify` shows).
/// `(depth, pointer)` is where `value` is, as a JSON pointer; `undefined`
/// gathers `(parent pointer, key)` of each property that is `undefined`.
fn check_values(
    path: &str,
    value: &JsValue,
    (depth, pointer): (usize, &str),
    undefined: &mut Vec<(String, String)>,
) -> Result<(), JsError> {
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
    let to_json = js_sys::Reflect::get(value, &JsValue::from_str("toJSON"))
        .map_err(|_| JsError::new(&format!("{path}: cannot be read")))?;
    if to_json.is_function() {
        return Err(JsError::new(&format!(
            "{path}: cannot be written as JSON: it has a toJSON method; pass a plain object"
        )));
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
        if inner.is_undefined() && !is_array {
            undefined.push((pointer.to_owned(), name));
            continue;
        }
        let inner_pointer = format!("{pointer}/{}", name.replace('~', "~0").replace('/', "~1"));
        check_values(&inner_path, &inner, (depth + 1, &inner_pointer), undefined)?;
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
