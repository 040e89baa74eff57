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
//!
//! Arguments are checked for their JavaScript type before anything else:
//! a wrong type throws a `TypeError` naming the argument, a wrong value of
//! the right type (NaN, -1, 1.5) an `Error`. wasm-bindgen's own glue does
//! not check: a number passed where `&str` is declared is read as a
//! pointer into the module's memory, so every argument arrives here as a
//! `JsValue`. Messages use JavaScript's words (`words`).

use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::words::js_words;
use leasefence::model::MAX_INT;

/// An `Error` saying `text`: a value of the right type that is refused.
pub(crate) fn error(text: &str) -> JsValue {
    js_sys::Error::new(text).into()
}

/// A `TypeError` saying `text`: a value of the wrong JavaScript type.
pub(crate) fn type_error(text: &str) -> JsValue {
    js_sys::TypeError::new(text).into()
}

/// The `TypeError` for `field` holding `value` where `expected` belongs.
pub(crate) fn wrong_type(field: &str, expected: &str, value: &JsValue) -> JsValue {
    type_error(&format!(
        "{field}: expected {expected}, got {}",
        a_type(value)
    ))
}

/// A serde complaint about `place`, in JavaScript's words (a missing key
/// is added to the place), as a `TypeError` or an `Error`.
pub(crate) fn refused(place: &str, said: &str) -> JsValue {
    let said = js_words(said);
    let place = match &said.key {
        Some(key) => format!("{place}.{key}"),
        None => place.to_owned(),
    };
    let text = format!("{place}: {}", said.text);
    if said.wrong_type {
        type_error(&text)
    } else {
        error(&text)
    }
}

/// A string argument.
pub(crate) fn string_arg(field: &str, value: &JsValue) -> Result<String, JsValue> {
    value
        .as_string()
        .ok_or_else(|| wrong_type(field, "a string", value))
}

/// An integer argument in `0..=2^53-1`.
pub(crate) fn integer_arg(field: &str, value: &JsValue) -> Result<u64, JsValue> {
    let number = value
        .as_f64()
        .ok_or_else(|| wrong_type(field, "an integer", value))?;
    integer(field, number)
}

/// A function argument.
pub(crate) fn function_arg(field: &str, value: &JsValue) -> Result<js_sys::Function, JsValue> {
    value
        .dyn_ref::<js_sys::Function>()
        .cloned()
        .ok_or_else(|| wrong_type(field, "a function", value))
}

/// A Rust value as a plain JavaScript value (objects, arrays, numbers).
pub(crate) fn to_js(value: &impl Serialize) -> Result<JsValue, JsValue> {
    serde_json::to_value(value)
        .map_err(|err| error(&format!("output: {err}")))?
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|err| error(&format!("output: {}", message(err))))
}

/// A JavaScript object as `T`; `field` names the argument in errors.
pub(crate) fn from_js<T: DeserializeOwned>(field: &str, value: &JsValue) -> Result<T, JsValue> {
    serde_path_to_error::deserialize(plain(field, value)?).map_err(|err| {
        // `qty` of `qty.?`: the part of the parser's path that names a field.
        let path = err.path().to_string();
        let path = path.trim_end_matches('?').trim_end_matches('.');
        let place = if path.is_empty() {
            field.to_owned()
        } else {
            format!("{field}.{path}")
        };
        refused(&place, &err.into_inner().to_string())
    })
}

/// A JavaScript object, checked, as a JSON value for a reader of the core.
///
/// Every property is first read through `Reflect`, whose bindings catch
/// what JavaScript throws (a getter that throws, a revoked `Proxy`), so an
/// exception never unwinds through Rust: a `&mut self` method would stay
/// borrowed and its object unusable.
pub(crate) fn plain(field: &str, value: &JsValue) -> Result<serde_json::Value, JsValue> {
    let undefined = checked(field, value)?;
    let mut plain: serde_json::Value = serde_wasm_bindgen::from_value(value.clone())
        .map_err(|err| error(&format!("{field}: {}", message(err))))?;
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

/// Checks that `value` is an object whose values JSON can hold; returns
/// where its `undefined` properties are (see [`check_values`]).
fn checked(field: &str, value: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    if !value.is_object() || js_sys::Array::is_array(value) || value.is_function() {
        return Err(wrong_type(field, "an object", value));
    }
    let mut undefined = Vec::new();
    check_values(field, value, (0, ""), &mut undefined)?;
    Ok(undefined)
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
) -> Result<(), JsValue> {
    if let Some(number) = value.as_f64() {
        return match number {
            n if n.is_nan() => Err(error(&format!("{path}: must be a finite number, got NaN"))),
            n if n.is_infinite() => Err(error(&format!(
                "{path}: must be a finite number, got {}",
                shown(n)
            ))),
            _ => Ok(()),
        };
    }
    if value.is_bigint() || value.is_symbol() || value.is_function() {
        return Err(wrong_type(path, "a JSON value", value));
    }
    if !value.is_object() {
        return Ok(());
    }
    if depth >= MAX_DEPTH {
        return Err(error(&format!("{path}: nested too deeply")));
    }
    let to_json = js_sys::Reflect::get(value, &JsValue::from_str("toJSON"))
        .map_err(|_| error(&format!("{path}: cannot be read")))?;
    if to_json.is_function() {
        return Err(type_error(&format!(
            "{path}: cannot be written as JSON: it has a toJSON method; pass a plain object"
        )));
    }
    let is_array = js_sys::Array::is_array(value);
    let keys =
        js_sys::Reflect::own_keys(value).map_err(|_| error(&format!("{path}: cannot be read")))?;
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
            .map_err(|_| error(&format!("{inner_path}: cannot be read")))?;
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
pub(crate) fn integer(field: &str, value: f64) -> Result<u64, JsValue> {
    if !value.is_finite() || value.fract() != 0.0 || value < 0.0 || value > MAX_INT as f64 {
        return Err(error(&format!(
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

/// A value's JavaScript type in words, for messages: `undefined`, `null`,
/// `an array`, `a string`, `NaN`...
fn a_type(value: &JsValue) -> String {
    if value.is_null() {
        return "null".to_owned();
    }
    if value.is_undefined() {
        return "undefined".to_owned();
    }
    if js_sys::Array::is_array(value) {
        return "an array".to_owned();
    }
    if let Some(number) = value.as_f64() {
        return format!("a number ({})", shown(number));
    }
    match value.js_typeof().as_string().unwrap_or_default().as_str() {
        "object" => "an object".to_owned(),
        "bigint" => "a BigInt".to_owned(),
        other => format!("a {other}"),
    }
}
