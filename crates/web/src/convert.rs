//! Values across the JavaScript boundary.
//!
//! Rust values leave as plain JavaScript values built directly by
//! `serde_wasm_bindgen`'s serializer in its JSON-compatible setting (maps
//! become objects, `None` becomes `null`, integers numbers), so a result is
//! what `JSON.parse` of the core's JSON document would give, with no JSON
//! text in between.
//!
//! JavaScript objects arrive read once, property by property, through
//! calls that catch (`plain`), as a `serde_json::Value`, which the core's
//! reader of values then reads as the Rust type. Every key is kept, so
//! the types' `deny_unknown_fields` see an unknown one, and the messages
//! are the scenario parser's own (`job.qty: invalid type: ...`), naming the
//! field down to the key. What JSON cannot hold (NaN, ±Infinity, BigInt, a
//! lone surrogate) is refused while reading.
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
use leasefence::error::Problem;
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

/// A string argument, refused if Rust's `String` cannot hold it as it is.
pub(crate) fn string_arg(field: &str, value: &JsValue) -> Result<String, JsValue> {
    let text = value
        .as_string()
        .ok_or_else(|| wrong_type(field, "a string", value))?;
    if !is_well_formed(value) {
        return Err(error(&format!(
            "{field}: is not valid Unicode (it holds a lone surrogate)"
        )));
    }
    Ok(text)
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
        .map_err(Into::into)
}

/// A JavaScript object as `T`; `field` names the argument in errors, and
/// the field's place within it (`job.qty`). Read by the core's reader of
/// values, the scenario's, so the messages are the scenario parser's.
pub(crate) fn from_js<T: DeserializeOwned>(field: &str, value: &JsValue) -> Result<T, JsValue> {
    let value = plain(field, value)?;
    leasefence::scenario::from_json_value(&value, field, &format!("{field}.")).map_err(|err| {
        match err {
            leasefence::Error::Scenario {
                path,
                problem: Problem::Unfit(said) | Problem::Syntax(said),
            } => refused(&path, &said),
            other => error(&other.to_string()),
        }
    })
}

/// A JavaScript object as a JSON value for a reader of the core, read once.
///
/// Every property is read exactly once, through calls that catch what
/// JavaScript throws (a getter that throws, a `Proxy` whose trap throws, a
/// revoked `Proxy`), and the value is built from that one reading. So an
/// exception never unwinds through Rust (a `&mut self` method would stay
/// borrowed and its object unusable, and enough of them corrupt the
/// module's memory), and a getter cannot show one value to a check and
/// another to the conversion. The reading is `JSON.stringify`'s: own
/// enumerable string keys, an `undefined` property left out (so an
/// optional field takes its default), `undefined` in an array as `null`.
pub(crate) fn plain(field: &str, value: &JsValue) -> Result<serde_json::Value, JsValue> {
    if !value.is_object() || is_array(value)? || value.is_function() {
        return Err(wrong_type(field, "an object", value));
    }
    read(field, value, 0).map(Option::unwrap_or_default)
}

#[wasm_bindgen]
extern "C" {
    /// `Array.isArray`, which throws for a revoked `Proxy`.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn array_or_throw(value: &JsValue) -> Result<bool, JsValue>;
    /// `Object.keys`: own enumerable string keys, as `JSON.stringify` reads
    /// them (a `Proxy`'s traps may throw).
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    pub(crate) fn keys(value: &JsValue) -> Result<js_sys::Array, JsValue>;
    /// `String.prototype.isWellFormed`: false for a lone surrogate, which
    /// Rust's `String` cannot hold (it would become U+FFFD, and two
    /// different ids one).
    /// (It may be missing, in browsers before 2023, or redefined.)
    #[wasm_bindgen(catch, js_namespace = ["String", "prototype", "isWellFormed"], js_name = call)]
    fn well_formed_or_throw(string: &JsValue) -> Result<bool, JsValue>;
    /// Any value, to be asked `Node`'s own questions.
    type MaybeNode;
    /// `Node.prototype`'s `nodeType` getter called on the value (`final`):
    /// the browser's own brand check, which throws for anything that is not
    /// a real node, a `Proxy` of one included.
    #[wasm_bindgen(catch, method, getter, final, js_class = "Node", js_name = nodeType)]
    fn node_type(this: &MaybeNode) -> Result<u16, JsValue>;
}

/// An `Element` argument. Checked by the browser's brand check, not by a
/// look at its properties: a DOM call on a look-alike (a document, a text
/// node, a `Proxy` of an element) would throw through Rust.
#[cfg(feature = "page")]
pub(crate) fn element_arg(field: &str, value: &JsValue) -> Result<web_sys::Element, JsValue> {
    const ELEMENT_NODE: u16 = 1;
    match value.unchecked_ref::<MaybeNode>().node_type() {
        Ok(ELEMENT_NODE) => Ok(value.clone().unchecked_into()),
        _ => Err(wrong_type(field, "an element", value)),
    }
}

/// Whether the string `value` holds no lone surrogate. A browser without
/// `isWellFormed` (or a page that broke it) is taken at its word: the
/// string is read as the browser gives it.
fn is_well_formed(value: &JsValue) -> bool {
    well_formed_or_throw(value).unwrap_or(true)
}

/// Whether `value` is an array; a value that cannot even say (a revoked
/// `Proxy`) is refused.
pub(crate) fn is_array(value: &JsValue) -> Result<bool, JsValue> {
    array_or_throw(value).map_err(|_| error("a revoked Proxy cannot be read"))
}

/// How deep `read` goes; the API's objects are three levels deep, and a
/// cycle stops here instead of recursing forever.
const MAX_DEPTH: usize = 8;

/// How many items `read` takes from one array: more than any scenario may
/// hold, so a sparse array with a huge `length` is refused, not walked.
const MAX_ITEMS: u32 = 1 << 20;

/// `value`, at `path`, as JSON; `None` for `undefined`. Refused: what JSON
/// would silently change or cannot hold (NaN and ±Infinity, which it
/// writes as `null`; BigInt; a lone surrogate; an object with its own
/// `toJSON`, whose JSON form is not its properties).
fn read(path: &str, value: &JsValue, depth: usize) -> Result<Option<serde_json::Value>, JsValue> {
    use serde_json::Value;
    if value.is_undefined() {
        return Ok(None);
    }
    if value.is_null() {
        return Ok(Some(Value::Null));
    }
    if let Some(flag) = value.as_bool() {
        return Ok(Some(Value::Bool(flag)));
    }
    if let Some(number) = value.as_f64() {
        return number_value(path, number).map(Some);
    }
    if value.is_string() {
        return string_arg(path, value).map(|text| Some(Value::String(text)));
    }
    if !value.is_object() || value.is_function() {
        return Err(wrong_type(path, "a JSON value", value));
    }
    if depth >= MAX_DEPTH {
        return Err(error(&format!("{path}: nested too deeply")));
    }
    let unreadable = |_| error(&format!("{path}: cannot be read"));
    let to_json = js_sys::Reflect::get(value, &JsValue::from_str("toJSON")).map_err(unreadable)?;
    if to_json.is_function() {
        return Err(type_error(&format!(
            "{path}: cannot be written as JSON: it has a toJSON method; pass a plain object"
        )));
    }
    if is_array(value)? {
        let length = js_sys::Reflect::get(value, &JsValue::from_str("length"))
            .map_err(unreadable)?
            .as_f64()
            .unwrap_or(0.0);
        if length > f64::from(MAX_ITEMS) {
            return Err(error(&format!("{path}: too long")));
        }
        let mut items = Vec::new();
        for index in 0..length as u32 {
            let inner_path = format!("{path}[{index}]");
            let inner = js_sys::Reflect::get_u32(value, index)
                .map_err(|_| error(&format!("{inner_path}: cannot be read")))?;
            items.push(read(&inner_path, &inner, depth + 1)?.unwrap_or_default());
        }
        return Ok(Some(Value::Array(items)));
    }
    let mut object = serde_json::Map::new();
    for key in keys(value).map_err(unreadable)?.iter() {
        // Two keys that differ only in a lone surrogate would become one.
        let name = string_arg(&format!("{path} key"), &key)?;
        let inner_path = format!("{path}.{name}");
        let inner = js_sys::Reflect::get(value, &key)
            .map_err(|_| error(&format!("{inner_path}: cannot be read")))?;
        if let Some(inner) = read(&inner_path, &inner, depth + 1)? {
            object.insert(name, inner);
        }
    }
    Ok(Some(Value::Object(object)))
}

/// A finite number as JSON: an integer JavaScript holds exactly as an
/// integer (so a Rust integer field reads it), any other as a float.
fn number_value(path: &str, number: f64) -> Result<serde_json::Value, JsValue> {
    if !number.is_finite() {
        return Err(error(&format!(
            "{path}: must be a finite number, got {}",
            shown(number)
        )));
    }
    let exact = number.fract() == 0.0 && number.abs() <= MAX_INT as f64;
    Ok(match exact {
        true if number >= 0.0 => serde_json::Value::from(number as u64),
        true => serde_json::Value::from(number as i64),
        false => serde_json::Value::from(number),
    })
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
    if is_array(value).unwrap_or(false) {
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
