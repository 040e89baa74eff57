//! `mount`'s options, read from the JavaScript object property by property:
//! each has one type, and a wrong one is a `TypeError` naming it
//! (`options.compact: expected a boolean, got a string ("yes")`). Read by
//! hand rather than through serde: ten plain properties do not need a
//! deserializer of their own in the module learners download.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use web_sys::{Element, Window};

use super::dom;
use crate::convert::{error, keys, type_error, wrong_type};
use leasefence_course::playground::lesson;
use leasefence_course::playground::session::Start;
use leasefence_course::playground::show::Show;

/// The options' names, as `MountOptions` declares them.
const NAMES: [&str; 10] = [
    "lang",
    "scenario",
    "title",
    "narration",
    "scenarioError",
    "show",
    "compact",
    "predict",
    "hash",
    "lab",
];

/// How `mount` is configured; every option may be left out.
#[derive(Debug, Default)]
pub(super) struct Options {
    /// `ko` or `en`; else the URL, the host page's `lang`, the browser.
    pub lang: Option<String>,
    /// A chapter id (`canonical`, ...) to start with, or the author's own
    /// scenario as JSON text (an object is given as its text).
    pub scenario: Option<String>,
    /// The author's scenario's title.
    pub title: Option<String>,
    /// The author's narration in Korean and in English.
    pub narration: (Option<String>, Option<String>),
    /// Why the author's scenario could not be fetched (the bootstrap's
    /// `data-src`), to be said in the learner's language.
    pub scenario_error: Option<String>,
    /// The parts shown beyond the timeline, as the author named them;
    /// left out, all of them on the full page ([`Options::hash`]) and none
    /// in an embed.
    pub show: Option<Show>,
    /// None of the parts, on the full page too (an iframe's `?compact`);
    /// the same as an empty [`Options::show`], which it may not be given
    /// with.
    pub compact: bool,
    /// Read and write the scenario in the URL hash (the full page only).
    pub hash: bool,
    /// Predict each claim and finish before it is shown; left out, a
    /// chapter or lesson opens predicting (`Start::predict`).
    pub predict: Option<bool>,
    /// A level of the lab to open (`finish`, `boundary`).
    pub lab: Option<String>,
}

impl Options {
    /// Reads `value`, which must be an object.
    pub fn read(value: &JsValue) -> Result<Options, JsValue> {
        if !value.is_object() {
            return Err(wrong_type("options", "an object", value));
        }
        let given = keys(value).map_err(|_| error("options: cannot be read"))?;
        if let Some(unknown) = given
            .iter()
            .filter_map(|key| key.as_string())
            .find(|key| !NAMES.contains(&key.as_str()))
        {
            return Err(error(&format!(
                "options.{unknown}: unknown option; expected one of {}",
                NAMES.join(", ")
            )));
        }
        let narration = property(value, "narration", "options.narration")?;
        let narration = if narration.is_undefined() || narration.is_null() {
            (None, None)
        } else if narration.is_object() {
            let text = |lang| text(&narration, lang, &format!("options.narration.{lang}"));
            (text("ko")?, text("en")?)
        } else {
            return Err(wrong_type("options.narration", "an object", &narration));
        };
        let compact = flag(value, "compact")?;
        let show = text(value, "show", "options.show")?
            .map(|names| read_show(&names))
            .transpose()?;
        if compact && show.is_some() {
            return Err(error(
                "options.compact: not with options.show, which says what is shown",
            ));
        }
        Ok(Options {
            lang: text(value, "lang", "options.lang")?,
            scenario: scenario(&property(value, "scenario", "options.scenario")?)?,
            title: text(value, "title", "options.title")?,
            narration,
            scenario_error: text(value, "scenarioError", "options.scenarioError")?,
            show,
            compact,
            hash: flag(value, "hash")?,
            predict: optional_flag(value, "predict")?,
            lab: text(value, "lab", "options.lab")?,
        })
    }

    /// The parts shown beyond the timeline: as the author named them,
    /// none when compact, else all of them on the full page and none in
    /// an embed.
    pub fn show(&self) -> Show {
        match self.show {
            Some(show) => show,
            None if self.hash && !self.compact => Show::EVERYTHING,
            None => Show::default(),
        }
    }

    /// Whether the page offers a link to what the learner sees: only the
    /// full page as it is, whose address is the learner's (an iframe's,
    /// which says what it shows, is the host's).
    pub fn shares(&self) -> bool {
        self.hash && self.show.is_none() && !self.compact
    }

    /// What the author asked for: a chapter id, or their own lesson.
    fn wanted(&self) -> (Option<String>, Option<lesson::Source>) {
        let authored = |scenario| lesson::Source {
            scenario,
            title: self.title.clone(),
            narration_ko: self.narration.0.clone(),
            narration_en: self.narration.1.clone(),
        };
        if let Some(why) = &self.scenario_error {
            return (None, Some(authored(Err(why.clone()))));
        }
        match &self.scenario {
            None => (None, None),
            // A chapter id never starts like a JSON object.
            Some(text) if !text.trim_start().starts_with('{') => (Some(text.clone()), None),
            Some(text) => (None, Some(authored(Ok(text.clone())))),
        }
    }

    /// Where the session of a playground mounted on `root` starts: these
    /// options, the page's URL hash when the playground owns it, and what
    /// the page and the browser say of the language.
    pub fn start(&self, window: &Window, root: &Element) -> Start {
        let (chapter, lesson) = self.wanted();
        Start {
            lang: self.lang.clone(),
            chapter,
            lesson,
            hash: self.hash.then(|| window.location().hash().ok()).flatten(),
            host_lang: dom::inherited_lang(root),
            browser_lang: window.navigator().language(),
            predict: self.predict,
            lab: self.lab.clone(),
            show: self.show(),
        }
    }
}

/// `mount`'s arguments read: the element, and the options (none given,
/// or `null`: the defaults).
pub(super) fn mount_args(
    root: &JsValue,
    options: Option<JsValue>,
) -> Result<(Element, Options), JsValue> {
    let root = crate::convert::element_arg("root", root)?;
    let options = match options.filter(|options| !options.is_null()) {
        Some(options) => Options::read(&options)?,
        None => Options::default(),
    };
    Ok((root, options))
}

/// Whether `mount(root, options)` would call into the module's second part
/// (`leasefence_rest.wasm`, SQLite among it) before its first drawing:
/// `false` for a chapter that opens no panel, drawn from its timeline
/// written down in the module; `true` for an author's lesson, a shared
/// timeline, a link to a place in a timeline or the statement panel (or
/// with any other setting), the lab, and a chapter whose panels open with
/// it. The bootstrap (`embed.js`) mounts those once `loadRest` has
/// resolved, rather than let a drawing stop to fetch the rest. `mount`
/// works either way; after `init()` with the whole module there is
/// nothing to wait for. Throws as `mount` does for a root or an option it
/// would refuse.
#[wasm_bindgen(js_name = waitsForRest)]
pub fn waits_for_rest(
    #[wasm_bindgen(unchecked_param_type = "Element")] root: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "MountOptions")] options: Option<JsValue>,
) -> Result<bool, JsValue> {
    Ok(!start_of(&root, options)?.draws_without_sqlite())
}

/// The language `mount(root, options)` would draw in, `"ko"` or `"en"`:
/// the bootstrap (`embed.js`) fetches its texts (`loadMessages`) before it
/// mounts, so the first drawing waits for no request of its own. Throws
/// as `mount` does for a root or an option it would refuse.
#[wasm_bindgen(js_name = langOf, unchecked_return_type = "\"ko\" | \"en\"")]
pub fn lang_of(
    #[wasm_bindgen(unchecked_param_type = "Element")] root: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "MountOptions")] options: Option<JsValue>,
) -> Result<String, JsValue> {
    Ok(start_of(&root, options)?.lang().tag().to_owned())
}

/// What `mount(root, options)` would start from, or its error.
fn start_of(root: &JsValue, options: Option<JsValue>) -> Result<Start, JsValue> {
    let (root, options) = mount_args(root, options)?;
    let window = web_sys::window().ok_or_else(|| JsError::new("no window"))?;
    Ok(options.start(&window, &root))
}

/// The parts named in `names`, separated by spaces (the bootstrap also
/// takes commas and line breaks, and passes them on as spaces); an
/// unknown name is a `TypeError` naming it and the parts.
fn read_show(names: &str) -> Result<Show, JsValue> {
    let names = names.split(' ').filter(|name| !name.is_empty());
    Show::read(names).map_err(|unknown| {
        type_error(&format!(
            "options.show: unknown part \"{unknown}\"; expected one of chapters, sandbox, tools, lab"
        ))
    })
}

/// A property's value, read through `Reflect`, which catches a throwing
/// getter (so it cannot unwind through Rust).
/// `field` names it in the error.
fn property(object: &JsValue, name: &str, field: &str) -> Result<JsValue, JsValue> {
    js_sys::Reflect::get(object, &JsValue::from_str(name))
        .map_err(|_| error(&format!("{field}: cannot be read")))
}

/// An optional string property.
fn text(object: &JsValue, name: &str, field: &str) -> Result<Option<String>, JsValue> {
    let value = property(object, name, field)?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_string()
        .map(Some)
        .ok_or_else(|| wrong_type(field, "a string", &value))
}

/// An optional boolean property (left out: `false`).
fn flag(object: &JsValue, name: &str) -> Result<bool, JsValue> {
    Ok(optional_flag(object, name)?.unwrap_or(false))
}

/// A boolean option that may be left out (`undefined` or `null`).
fn optional_flag(object: &JsValue, name: &str) -> Result<Option<bool>, JsValue> {
    let field = format!("options.{name}");
    let value = property(object, name, &field)?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .as_bool()
        .map(Some)
        .ok_or_else(|| wrong_type(&field, "a boolean", &value))
}

/// The `scenario` option as text: a chapter id or JSON text as given, an
/// object through the browser's own `JSON.stringify`. Text, not a value
/// through `serde_wasm_bindgen` as the JavaScript API reads one: the page
/// keeps an author's scenario as the text its editor shows and its links
/// carry, and parses that text when the lesson starts.
fn scenario(value: &JsValue) -> Result<Option<String>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if let Some(text) = value.as_string() {
        return Ok(Some(text));
    }
    if !value.is_object() {
        return Err(wrong_type(
            "options.scenario",
            "a chapter id, a scenario or its JSON text",
            value,
        ));
    }
    let text = js_sys::JSON::stringify(value)
        .map_err(|_| wrong_type("options.scenario", "a scenario", value))?;
    Ok(text.dyn_into::<js_sys::JsString>().ok().map(String::from))
}
