//! The playground page: step a timeline and see why each finish was
//! accepted or refused.
//!
//! State lives in [`State`]; every user action is an [`Action`] applied by
//! [`Page::dispatch`], which then redraws what the action can change:
//!
//! * `build` draws the frame (on mount and when the language changes);
//! * `show_scenario` draws what depends on the scenario (timeline list,
//!   narration, comparison);
//! * `show_position` draws what depends on the step (controls, lanes, the
//!   step's SQL and rows, the table, the receiver) and announces it.
//!
//! Listeners are attached once, on the root, and find their action in the
//! clicked element's `data-action`. Every number on the page comes from the
//! core's [`Timeline`]; nothing here decides a verdict.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{
    Document, Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement, Window,
};

use super::convert::{from_js, to_js};
use super::dom::{El, header_row, replace_children};
use crate::playground::explain::{
    COLUMNS, Compared, cell, describe, error_text, reason_text, row_changes, side_by_side,
};
use crate::playground::stepper::{Guessed, SANDBOX, Stepped, Stepper};
use crate::playground::{CHAPTERS, Lang, chapters};
use crate::replay::Outcome;
use crate::scenario::{Action as Do, Scenario};
use crate::unfenced::{self, Guard, NaiveReplay};

/// How `mount` is configured (all optional).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Options {
    /// `ko` or `en`; else the URL, the host page's `lang`, the browser.
    lang: Option<String>,
    /// A chapter id (`canonical`, ...) to start with.
    scenario: Option<String>,
    /// Hide the editor and the extras (for small embeds).
    compact: bool,
    /// Read and write the scenario in the URL hash (the full page only).
    hash: bool,
}

/// A mounted playground; JavaScript keeps it to read where it is.
#[wasm_bindgen]
pub struct Playground {
    page: Rc<Page>,
}

#[wasm_bindgen]
impl Playground {
    /// How many events have been applied.
    pub fn position(&self) -> usize {
        self.page.state.borrow().stepper.position
    }

    /// The page's language tag.
    pub fn lang(&self) -> String {
        self.page.state.borrow().lang.tag().to_owned()
    }

    /// The scenario on screen, as contract JSON.
    #[wasm_bindgen(js_name = scenarioJson)]
    pub fn scenario_json(&self) -> String {
        self.page.state.borrow().stepper.scenario.to_json()
    }

    /// Stops the playground and empties its element (for hosts that
    /// replace content without reloading the page).
    pub fn unmount(&self) -> Result<(), JsValue> {
        self.page.stop()?;
        MOUNTED.with(|mounted| {
            mounted
                .borrow_mut()
                .retain(|page| !Rc::ptr_eq(page, &self.page))
        });
        self.page.root.set_text_content(None);
        Ok(())
    }
}

thread_local! {
    /// Every mounted page, so a playground keeps working after JavaScript
    /// drops the handle `mount` returned; `unmount` lets it go.
    static MOUNTED: RefCell<Vec<Rc<Page>>> = const { RefCell::new(Vec::new()) };
}

/// Renders a playground into `root`. Options: `{lang, scenario, compact,
/// hash}`. Throws if `root` cannot be used.
#[wasm_bindgen]
pub fn mount(
    root: Element,
    #[wasm_bindgen(
        unchecked_param_type = "{ lang?: \"ko\" | \"en\"; scenario?: string; compact?: boolean; hash?: boolean } | undefined"
    )]
    options: JsValue,
) -> Result<Playground, JsValue> {
    let options: Options = if options.is_undefined() || options.is_null() {
        Options::default()
    } else {
        from_js("options", &options)?
    };
    let window = web_sys::window().ok_or_else(|| JsError::new("no window"))?;
    let doc = window
        .document()
        .ok_or_else(|| JsError::new("no document"))?;
    let state = State::initial(&window, &root, &options)?;
    let page = Rc::new(Page {
        root,
        doc,
        window,
        state: RefCell::new(state),
        parts: RefCell::new(None),
        listeners: RefCell::new(Vec::new()),
        timer: Cell::new(None),
        ticker: RefCell::new(None),
        lanes_width: Cell::new(0.0),
        lanes_observer: RefCell::new(None),
    });
    page.listen()?;
    page.build()?;
    MOUNTED.with(|mounted| mounted.borrow_mut().push(Rc::clone(&page)));
    Ok(Playground { page })
}

/// What the learner can do.
#[derive(Debug, Clone, PartialEq)]
enum Action {
    Step,
    Back,
    Reset,
    End,
    Seek(usize),
    TogglePlay,
    Tick,
    Chapter(String),
    SwitchLang,
    Speed(i32),
    Guard(Guard),
    Predict(bool),
    Guess(bool),
    /// A boundary slider moved: the finish's time or the lease's length.
    Drag(Knob, u64),
    ApplyEditor,
    AddToEditor(String),
    CopyLink,
    LoadHash,
    CompareToggled,
}

/// Milliseconds between steps while playing.
const SPEEDS: [(i32, &str); 3] = [(1600, "slow"), (900, "normal"), (400, "fast")];

/// The page's state: the learner's place in the timeline ([`Stepper`],
/// plain and natively tested) and what only the page needs.
struct State {
    lang: Lang,
    stepper: Stepper,
    /// The fencing-off replay, computed when the comparison is opened.
    naive: Option<NaiveReplay>,
    guard: Guard,
    playing: bool,
    speed_ms: i32,
    editor_status: Option<(bool, String)>,
    share_status: Option<String>,
    compact: bool,
    use_hash: bool,
}

impl State {
    fn initial(window: &Window, root: &Element, options: &Options) -> Result<State, JsValue> {
        let hash = if options.hash {
            hash_params(window)
        } else {
            Vec::new()
        };
        let param = |name: &str| {
            hash.iter()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.clone())
        };
        let lang = options
            .lang
            .as_deref()
            .or(param("lang").as_deref())
            .and_then(Lang::from_tag)
            .or_else(|| closest_lang(root).as_deref().and_then(Lang::from_tag))
            .or_else(|| {
                window
                    .navigator()
                    .language()
                    .as_deref()
                    .and_then(Lang::from_tag)
            })
            .unwrap_or(Lang::En);
        let mut editor_status = None;
        let shared = param("scenario").map(|encoded| decode_scenario(&encoded, lang));
        let (chapter, scenario) = match shared {
            Some(Ok(scenario)) => (SANDBOX.to_owned(), scenario),
            other => {
                if let Some(Err(message)) = other {
                    editor_status = Some((false, lang.fill("hash.error", &[("message", message)])));
                }
                let wanted = param("chapter").or_else(|| options.scenario.clone());
                let found = wanted.as_deref().and_then(chapters::find);
                if let (Some(wanted), None) = (&wanted, found) {
                    // A course author's typo: say so where they will look.
                    let ids: Vec<&str> = CHAPTERS.iter().map(|chapter| chapter.id).collect();
                    web_sys::console::warn_1(
                        &format!(
                            "leasefence: no chapter {wanted:?}; showing {:?}. Chapters: {}",
                            CHAPTERS[0].id,
                            ids.join(", ")
                        )
                        .into(),
                    );
                }
                let chapter = found.unwrap_or(&CHAPTERS[0]);
                (chapter.id.to_owned(), parse_chapter(chapter)?)
            }
        };
        let position = param("step")
            .and_then(|step| step.parse::<usize>().ok())
            .map_or(0, |step| step.min(scenario.events.len()));
        Ok(State {
            lang,
            stepper: Stepper::new(chapter, scenario, position).map_err(to_js_error)?,
            naive: None,
            guard: Guard::IdOnly,
            playing: false,
            speed_ms: SPEEDS[1].0,
            editor_status,
            share_status: None,
            compact: options.compact,
            use_hash: options.hash,
        })
    }

    /// Replaces the scenario (the comparison is recomputed when shown);
    /// the caller redraws.
    fn load(&mut self, chapter: &str, scenario: Scenario, position: usize) -> Result<(), JsValue> {
        self.stepper
            .load(chapter, scenario, position)
            .map_err(to_js_error)?;
        self.naive = None;
        Ok(())
    }
}

fn to_js_error(err: crate::Error) -> JsValue {
    JsError::new(&err.to_string()).into()
}

fn parse_chapter(chapter: &chapters::Chapter) -> Result<Scenario, JsValue> {
    Scenario::parse(chapter.scenario).map_err(to_js_error)
}

/// The `lang` of `root` or its closest ancestor that says.
fn closest_lang(root: &Element) -> Option<String> {
    let holder = root.closest("[lang]").ok()??;
    holder.get_attribute("lang").filter(|lang| !lang.is_empty())
}

/// `#v=1&chapter=...&scenario=...&lang=...&step=...` as pairs.
fn hash_params(window: &Window) -> Vec<(String, String)> {
    let hash = window.location().hash().unwrap_or_default();
    hash.trim_start_matches('#')
        .split('&')
        .filter_map(|pair| {
            let (key, value) = pair.split_once('=')?;
            Some((key.to_owned(), value.to_owned()))
        })
        .collect()
}

fn encode_scenario(scenario: &Scenario) -> String {
    URL_SAFE_NO_PAD.encode(scenario.to_json())
}

/// The scenario a shared link carries, or why it cannot be used, in the
/// learner's language.
fn decode_scenario(encoded: &str, lang: Lang) -> Result<Scenario, String> {
    let in_link = |key: &str| format!("#scenario: {}", lang.text(key));
    let bytes = URL_SAFE_NO_PAD
        .decode(encoded.trim_end_matches('='))
        .map_err(|_| in_link("hash.not_base64"))?;
    let json = String::from_utf8(bytes).map_err(|_| in_link("hash.not_utf8"))?;
    let scenario = Scenario::parse(&json).map_err(|err| error_text(lang, &err))?;
    chapters::fits_the_page(&scenario).map_err(|err| error_text(lang, &err))?;
    Ok(scenario)
}

/// The boundary panel's two sliders.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Knob {
    Finish,
    Lease,
}

/// A range input with its label and its live readout, the way the boundary
/// panel shows each of its two knobs.
struct Slider {
    label: Element,
    input: HtmlInputElement,
    value: Element,
}

impl Slider {
    /// A slider whose input the page maps to `action`; also returns its
    /// three elements, in order, for the panel to hold.
    fn new(doc: &Document, action: &str, min: u64) -> Result<(Slider, [El; 3]), JsValue> {
        let label = El::new(doc, "label")?.class(&format!("lf-{action}-label"))?;
        let input = El::new(doc, "input")?
            .attr("type", "range")?
            .attr("min", &min.to_string())?
            .attr("data-action", action)?
            .class(&format!("lf-{action}-range"))?;
        let value = El::new(doc, "output")?
            .class(&format!("lf-{action}-value"))?
            .attr("aria-live", "polite")?;
        let slider = Slider {
            label: label.0.clone(),
            input: input.0.clone().unchecked_into(),
            value: value.0.clone(),
        };
        Ok((slider, [label, input, value]))
    }

    /// Enables the slider with this label, range `min..=max` and value.
    fn show(&self, label: &str, max: u64, value: u64) -> Result<(), JsValue> {
        self.input.set_max(&max.to_string());
        self.input.set_value(&value.to_string());
        self.input.set_disabled(false);
        self.label.set_text_content(Some(label));
        self.input.set_attribute("aria-label", label)
    }

    /// Disables the slider and says why in its label.
    fn disable(&self, why: &str) {
        self.input.set_disabled(true);
        self.label.set_text_content(Some(why));
    }
}

/// The containers the page redraws, kept so no lookup by id is needed
/// (several playgrounds may share one page).
struct Parts {
    narration: Element,
    chapter_select: HtmlSelectElement,
    controls_position: Element,
    play_button: Element,
    seek: HtmlInputElement,
    prompt: Element,
    events: Element,
    lanes: Element,
    step: Element,
    table: Element,
    receiver: Element,
    compare: Element,
    /// The finish's time, in the boundary panel.
    boundary: Slider,
    /// The length of the lease that finish presents, beside it.
    lease: Slider,
    editor: HtmlTextAreaElement,
    editor_status: Element,
    share_status: Element,
    live: Element,
}

impl Parts {
    /// The boundary panel's slider for `knob`.
    fn slider(&self, knob: Knob) -> &Slider {
        match knob {
            Knob::Finish => &self.boundary,
            Knob::Lease => &self.lease,
        }
    }
}

/// Where a listener is attached.
#[derive(Debug, Clone, Copy)]
enum On {
    /// The playground's root element.
    Root,
    /// The root, in the capturing phase (for events that do not bubble).
    RootCapturing,
    /// The window.
    Window,
}

/// A listener and where it is attached. Listeners are `Fn`, not `FnMut`: a
/// host page may answer one of our events by driving the playground again,
/// which calls a listener while it is still running.
struct Listener {
    kind: &'static str,
    on: On,
    closure: Closure<dyn Fn(web_sys::Event)>,
}

struct Page {
    root: Element,
    doc: Document,
    window: Window,
    state: RefCell<State>,
    parts: RefCell<Option<Parts>>,
    listeners: RefCell<Vec<Listener>>,
    timer: Cell<Option<i32>>,
    ticker: RefCell<Option<Closure<dyn Fn()>>>,
    /// The lanes panel's width in CSS pixels, as the resize observer last
    /// reported it (0 until its first report).
    lanes_width: Cell<f64>,
    /// Watches the lanes panel's width; see [`Page::watch_lanes`].
    lanes_observer: RefCell<Option<LanesObserver>>,
}

/// A `ResizeObserver` and the callback it holds, kept together so that
/// `stop` can disconnect one and drop the other.
struct LanesObserver {
    observer: web_sys::ResizeObserver,
    _callback: Closure<dyn Fn(js_sys::Array)>,
}

impl Page {
    /// Attaches the listeners: clicks, changes, inputs and keys on the
    /// root; the comparison's `toggle` (which does not bubble, so it is
    /// caught on the way down); and, for the full page, `hashchange`. Also
    /// prepares the play timer's callback. (The lanes' width is watched by
    /// [`Page::watch_lanes`], once they exist.)
    fn listen(self: &Rc<Self>) -> Result<(), JsValue> {
        for kind in ["click", "change", "input", "keydown"] {
            self.attach(kind, On::Root, |page, event| page.action_for(event))?;
        }
        self.attach("toggle", On::RootCapturing, |_, _| {
            Some(Action::CompareToggled)
        })?;
        if self.state.borrow().use_hash {
            self.attach("hashchange", On::Window, |_, _| Some(Action::LoadHash))?;
        }
        let page = Rc::downgrade(self);
        *self.ticker.borrow_mut() = Some(Closure::<dyn Fn()>::new(move || {
            if let Some(page) = page.upgrade() {
                page.run(Action::Tick);
            }
        }));
        Ok(())
    }

    /// Listens for `kind` and dispatches the action `to_action` makes of it.
    fn attach(
        self: &Rc<Self>,
        kind: &'static str,
        on: On,
        to_action: fn(&Page, &web_sys::Event) -> Option<Action>,
    ) -> Result<(), JsValue> {
        let page: Weak<Page> = Rc::downgrade(self);
        let closure = Closure::<dyn Fn(web_sys::Event)>::new(move |event: web_sys::Event| {
            let Some(page) = page.upgrade() else { return };
            if let Some(action) = to_action(&page, &event) {
                page.run(action);
            }
        });
        let callback = closure.as_ref().unchecked_ref();
        match on {
            On::Root => self.root.add_event_listener_with_callback(kind, callback)?,
            On::RootCapturing => self
                .root
                .add_event_listener_with_callback_and_bool(kind, callback, true)?,
            On::Window => self
                .window
                .add_event_listener_with_callback(kind, callback)?,
        }
        self.listeners
            .borrow_mut()
            .push(Listener { kind, on, closure });
        Ok(())
    }

    /// Dispatches from an event callback, where an error can only be shown.
    fn run(self: &Rc<Self>, action: Action) {
        if let Err(err) = self.dispatch(action) {
            web_sys::console::error_2(&"leasefence:".into(), &err);
        }
    }

    /// Detaches every listener and stops playing.
    fn stop(&self) -> Result<(), JsValue> {
        if let Some(id) = self.timer.take() {
            self.window.clear_interval_with_handle(id);
        }
        if let Some(watch) = self.lanes_observer.take() {
            watch.observer.disconnect();
        }
        for listener in self.listeners.borrow_mut().drain(..) {
            let callback = listener.closure.as_ref().unchecked_ref();
            match listener.on {
                On::Root => self
                    .root
                    .remove_event_listener_with_callback(listener.kind, callback)?,
                On::RootCapturing => self.root.remove_event_listener_with_callback_and_bool(
                    listener.kind,
                    callback,
                    true,
                )?,
                On::Window => self
                    .window
                    .remove_event_listener_with_callback(listener.kind, callback)?,
            }
        }
        Ok(())
    }

    /// Maps a DOM event to an action, if it is one of ours.
    fn action_for(&self, event: &web_sys::Event) -> Option<Action> {
        let target: Element = event.target()?.dyn_into().ok()?;
        if event.type_() == "keydown" {
            let key: &web_sys::KeyboardEvent = event.dyn_ref()?;
            let tag = target.tag_name();
            if matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                || (tag == "BUTTON" && matches!(key.key().as_str(), " " | "Enter"))
                || key.ctrl_key()
                || key.meta_key()
                || key.alt_key()
            {
                return None;
            }
            let action = match key.key().as_str() {
                "ArrowRight" => Action::Step,
                "ArrowLeft" => Action::Back,
                " " => Action::TogglePlay,
                "Home" => Action::Reset,
                "End" => Action::End,
                _ => return None,
            };
            event.prevent_default();
            return Some(action);
        }
        // A click on an event row jumps to just after that event.
        if event.type_() == "click" {
            let row = target.closest("[data-event]").ok().flatten();
            if let Some(index) =
                row.and_then(|row| row.get_attribute("data-event")?.parse::<usize>().ok())
            {
                return Some(Action::Seek(index + 1));
            }
        }
        let source = target.closest("[data-action]").ok()??;
        let name = source.get_attribute("data-action")?;
        let arg = source.get_attribute("data-arg").unwrap_or_default();
        let value = || {
            source
                .dyn_ref::<HtmlInputElement>()
                .map(HtmlInputElement::value)
                .or_else(|| {
                    source
                        .dyn_ref::<HtmlSelectElement>()
                        .map(HtmlSelectElement::value)
                })
                .unwrap_or_default()
        };
        let kind = event.type_();
        let is_field = source.tag_name() == "INPUT" || source.tag_name() == "SELECT";
        // Buttons act on click; fields on input (sliders) or change.
        if is_field == (kind == "click") {
            return None;
        }
        Some(match name.as_str() {
            "step" => Action::Step,
            "back" => Action::Back,
            "reset" => Action::Reset,
            "end" => Action::End,
            "play" => Action::TogglePlay,
            "lang" => Action::SwitchLang,
            "copy-link" => Action::CopyLink,
            "guess" => Action::Guess(arg == "accept"),
            "apply-editor" => Action::ApplyEditor,
            "add" => Action::AddToEditor(arg),
            "seek" if kind == "input" => Action::Seek(value().parse().ok()?),
            "boundary" if kind == "input" => Action::Drag(Knob::Finish, value().parse().ok()?),
            "lease" if kind == "input" => Action::Drag(Knob::Lease, value().parse().ok()?),
            "chapter" if kind == "change" => Action::Chapter(value()),
            "speed" if kind == "change" => Action::Speed(value().parse().ok()?),
            "guard" if kind == "change" => Action::Guard(if value() == "id_and_owner" {
                Guard::IdAndOwner
            } else {
                Guard::IdOnly
            }),
            "predict" if kind == "change" => Action::Predict(
                source
                    .dyn_ref::<HtmlInputElement>()
                    .is_some_and(HtmlInputElement::checked),
            ),
            _ => return None,
        })
    }

    /// Applies an action and redraws what it changed.
    fn dispatch(self: &Rc<Self>, action: Action) -> Result<(), JsValue> {
        let before = self.state.borrow().stepper.position;
        // The address bar follows the scenario and the language; the step
        // goes into copied links only (rewriting history on every step is
        // slow and floods the back button).
        let changes_scenario_or_lang = matches!(
            action,
            Action::Chapter(_)
                | Action::SwitchLang
                | Action::Drag(..)
                | Action::ApplyEditor
                | Action::LoadHash
        );
        let dragged = match action {
            Action::Drag(knob, _) => Some(knob),
            _ => None,
        };
        match action {
            Action::Step | Action::Tick => {
                let stepped = self.state.borrow_mut().stepper.step();
                if matches!(stepped, Stepped::AtEnd | Stepped::AskFirst) {
                    self.set_playing(false)?;
                }
            }
            Action::Guess(accept) => {
                self.state.borrow_mut().stepper.guess(accept);
            }
            Action::Back => self.state.borrow_mut().stepper.back(),
            Action::Reset => {
                self.set_playing(false)?;
                self.state.borrow_mut().stepper.seek(0);
            }
            Action::End => {
                let mut state = self.state.borrow_mut();
                let total = state.stepper.total();
                state.stepper.seek(total);
            }
            Action::Seek(position) => self.state.borrow_mut().stepper.seek(position),
            Action::TogglePlay => {
                let playing = !self.state.borrow().playing;
                if playing
                    && self.state.borrow().stepper.position >= self.state.borrow().stepper.total()
                {
                    self.state.borrow_mut().stepper.position = 0;
                }
                self.set_playing(playing)?;
            }
            Action::Speed(ms) => {
                self.state.borrow_mut().speed_ms = ms.clamp(100, 5000);
                if self.state.borrow().playing {
                    self.set_playing(false)?;
                    self.set_playing(true)?;
                }
            }
            Action::Chapter(id) => {
                self.set_playing(false)?;
                if let Some(chapter) = chapters::find(&id) {
                    let scenario = parse_chapter(chapter)?;
                    let mut state = self.state.borrow_mut();
                    state.load(&id, scenario, 0)?;
                } else {
                    self.state.borrow_mut().stepper.chapter = SANDBOX.into();
                }
                self.show_scenario(true)?;
            }
            Action::SwitchLang => {
                let mut state = self.state.borrow_mut();
                state.lang = state.lang.other();
                drop(state);
                self.build()?;
                // The button was redrawn; keep the keyboard where it was.
                if let Some(button) = self.root.query_selector("[data-action=lang]")? {
                    button.unchecked_into::<web_sys::HtmlElement>().focus()?;
                }
            }
            Action::Guard(guard) => {
                let mut state = self.state.borrow_mut();
                state.guard = guard;
                state.naive = None;
            }
            Action::Predict(on) => {
                let mut state = self.state.borrow_mut();
                state.stepper.predict = on;
                state.stepper.awaiting_guess = false;
                if let Some(parts) = self.parts.borrow().as_ref() {
                    show_narration(parts, &state);
                }
            }
            Action::Drag(knob, value) => self.drag(knob, value)?,
            Action::ApplyEditor => self.apply_editor()?,
            Action::AddToEditor(what) => self.add_to_editor(&what)?,
            Action::CopyLink => self.copy_link()?,
            Action::LoadHash => {
                let current = format!("#{}", self.hash_text(false));
                if self.window.location().hash().unwrap_or_default() == current {
                    return Ok(());
                }
                self.set_playing(false)?;
                let fresh = State::initial(
                    &self.window,
                    &self.root,
                    &Options {
                        hash: true,
                        compact: self.state.borrow().compact,
                        ..Options::default()
                    },
                )?;
                *self.state.borrow_mut() = fresh;
                return self.build();
            }
            Action::CompareToggled => {}
        }
        // After a scenario change the event list is new: draw every row.
        let before = if changes_scenario_or_lang {
            usize::MAX
        } else {
            before
        };
        self.show_position(before)?;
        // The panels above a dragged slider change height with the step;
        // keep the knob and its verdict where the learner is looking.
        if let Some(slider) = self
            .parts
            .borrow()
            .as_ref()
            .and_then(|parts| Some(parts.slider(dragged?).input.clone()))
        {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Nearest);
            slider.scroll_into_view_with_scroll_into_view_options(&options);
        }
        // Host pages hear about it last, with no borrow held: a listener
        // may drive the playground again.
        if self.state.borrow().stepper.position != before {
            self.emit_step(before)?;
        }
        if changes_scenario_or_lang {
            self.write_hash()?;
        }
        Ok(())
    }

    fn set_playing(self: &Rc<Self>, playing: bool) -> Result<(), JsValue> {
        if let Some(id) = self.timer.take() {
            self.window.clear_interval_with_handle(id);
        }
        if playing {
            let speed = self.state.borrow().speed_ms;
            if let Some(ticker) = self.ticker.borrow().as_ref() {
                let id = self
                    .window
                    .set_interval_with_callback_and_timeout_and_arguments_0(
                        ticker.as_ref().unchecked_ref(),
                        speed,
                    )?;
                self.timer.set(Some(id));
            }
        }
        self.state.borrow_mut().playing = playing;
        Ok(())
    }

    /// Moves the chosen finish to `value` ms (re-sorting by time), or gives
    /// the claim it presents a lease of `value` ms, and shows the finish's
    /// new verdict: the learner watches it flip exactly at `lease_until`.
    fn drag(&self, knob: Knob, value: u64) -> Result<(), JsValue> {
        let mut state = self.state.borrow_mut();
        let (moved, forked) = match knob {
            Knob::Finish => (state.stepper.move_finish(value), "boundary.forked"),
            Knob::Lease => (state.stepper.set_lease(value), "lease.forked"),
        };
        moved.map_err(to_js_error)?;
        state.naive = None;
        // The timeline is no longer the chapter's: say so.
        state.editor_status = Some((true, state.lang.text(forked).to_owned()));
        drop(state);
        self.show_scenario(false)
    }

    fn apply_editor(&self) -> Result<(), JsValue> {
        let text = self
            .parts
            .borrow()
            .as_ref()
            .map(|parts| parts.editor.value())
            .unwrap_or_default();
        let mut state = self.state.borrow_mut();
        let parsed = Scenario::parse(&text)
            .and_then(|scenario| chapters::fits_the_page(&scenario).map(|()| scenario));
        match parsed {
            Ok(scenario) => {
                let count = scenario.events.len();
                state.load(SANDBOX, scenario, 0)?;
                let message = state
                    .lang
                    .fill("editor.applied", &[("events", count.to_string())]);
                state.editor_status = Some((true, message));
            }
            Err(err) => {
                let message = state
                    .lang
                    .fill("editor.error", &[("message", error_text(state.lang, &err))]);
                state.editor_status = Some((false, message));
            }
        }
        drop(state);
        self.show_scenario(false)
    }

    /// Appends a template job or event to the editor's JSON; the learner
    /// edits it and presses Apply. Nothing is applied here.
    fn add_to_editor(&self, what: &str) -> Result<(), JsValue> {
        let parts = self.parts.borrow();
        let Some(parts) = parts.as_ref() else {
            return Ok(());
        };
        let mut state = self.state.borrow_mut();
        let mut document: serde_json::Value = match serde_json::from_str(&parts.editor.value()) {
            Ok(document) => document,
            Err(err) => {
                let err = crate::Error::Scenario {
                    path: "(document)".into(),
                    problem: crate::Problem::Syntax(err.to_string()),
                };
                let message = state
                    .lang
                    .fill("editor.error", &[("message", error_text(state.lang, &err))]);
                state.editor_status = Some((false, message));
                return Ok(());
            }
        };
        let last_at = state
            .stepper
            .scenario
            .events
            .last()
            .map_or(0, |event| event.at);
        let (list, item) = match what {
            "job" => (
                "jobs",
                serde_json::json!({"id": "snack-new", "qty": 1, "deadline": 5000}),
            ),
            "claim" => (
                "events",
                serde_json::json!({"at": last_at, "worker": "C", "do": "claim", "lease_ms": 1000}),
            ),
            "send" => (
                "events",
                serde_json::json!({"at": last_at, "worker": "C", "do": "send"}),
            ),
            _ => (
                "events",
                serde_json::json!({"at": last_at, "worker": "C", "do": "finish"}),
            ),
        };
        if let Some(items) = document
            .get_mut(list)
            .and_then(serde_json::Value::as_array_mut)
        {
            items.push(item);
        }
        parts
            .editor
            .set_value(&serde_json::to_string_pretty(&document).unwrap_or_default());
        let pending = state.lang.text("editor.pending").to_owned();
        parts.editor_status.set_text_content(Some(&pending));
        parts.editor_status.set_attribute("data-ok", "false")?;
        state.editor_status = Some((false, pending));
        Ok(())
    }

    fn share_url(&self) -> String {
        let location = self.window.location();
        let base = location.href().unwrap_or_default();
        let base = base.split('#').next().unwrap_or_default().to_owned();
        format!("{base}#{}", self.hash_text(true))
    }

    /// `v=1&chapter=..|scenario=..&lang=..`, plus `&step=N` for links.
    fn hash_text(&self, with_step: bool) -> String {
        let state = self.state.borrow();
        let what = match chapters::find(&state.stepper.chapter) {
            Some(chapter)
                if parse_chapter(chapter).ok().as_ref() == Some(&state.stepper.scenario) =>
            {
                format!("chapter={}", chapter.id)
            }
            _ => format!("scenario={}", encode_scenario(&state.stepper.scenario)),
        };
        let step = if with_step {
            format!("&step={}", state.stepper.position)
        } else {
            String::new()
        };
        format!("v=1&{what}&lang={}{step}", state.lang.tag())
    }

    fn write_hash(&self) -> Result<(), JsValue> {
        if !self.state.borrow().use_hash {
            return Ok(());
        }
        let hash = format!("#{}", self.hash_text(false));
        if self.window.location().hash().unwrap_or_default() != hash {
            self.window
                .history()?
                .replace_state_with_url(&JsValue::NULL, "", Some(&hash))?;
        }
        Ok(())
    }

    fn copy_link(self: &Rc<Self>) -> Result<(), JsValue> {
        let promise = self
            .window
            .navigator()
            .clipboard()
            .write_text(&self.share_url());
        // One callback for each way the clipboard promise settles; each runs
        // at most once, so they are handed to JavaScript for good.
        let report = |copied: bool| {
            let page = Rc::downgrade(self);
            Closure::once(move |_: JsValue| {
                if let Some(page) = page.upgrade() {
                    page.show_share(copied);
                }
            })
        };
        let (ok, err) = (report(true), report(false));
        let _ = promise.then2(&ok, &err);
        ok.forget();
        err.forget();
        Ok(())
    }

    /// Says whether the link reached the clipboard.
    fn show_share(&self, copied: bool) {
        let lang = self.state.borrow().lang;
        let message = lang.text(if copied {
            "share.copied"
        } else {
            "share.failed"
        });
        self.state.borrow_mut().share_status = Some(message.to_owned());
        if let Some(parts) = self.parts.borrow().as_ref() {
            parts.share_status.set_text_content(Some(message));
        }
    }

    /// Draws the whole frame in the current language.
    fn build(self: &Rc<Self>) -> Result<(), JsValue> {
        let doc = &self.doc;
        let state = self.state.borrow();
        let lang = state.lang;
        let t = |key: &str| lang.text(key).to_owned();
        self.root.set_attribute("lang", lang.tag())?;
        self.root.set_attribute("tabindex", "0")?;
        self.root.set_attribute("aria-label", &t("app.title"))?;
        let class = if state.compact { "lf lf-compact" } else { "lf" };
        self.root.set_attribute("class", class)?;

        let chapter_select = El::new(doc, "select")?.attr("data-action", "chapter")?;
        for chapter in CHAPTERS {
            let title = lang
                .text(&format!("chapter.{}.title", chapter.id))
                .to_owned();
            chapter_select.0.append_child(
                &El::new(doc, "option")?
                    .attr("value", chapter.id)?
                    .text(&title)
                    .0,
            )?;
        }
        let sandbox = El::new(doc, "option")?
            .attr("value", SANDBOX)?
            .text(&t("chapter.sandbox.title"));
        chapter_select.0.append_child(&sandbox.0)?;
        let share_status = El::new(doc, "span")?
            .class("lf-share-status")?
            .attr("aria-live", "polite")?;
        let header = El::new(doc, "header")?.class("lf-head")?.children([
            El::new(doc, "div")?.class("lf-brand")?.children([
                El::new(doc, "h2")?.class("lf-title")?.text(&t("app.title")),
                El::new(doc, "p")?
                    .class("lf-tagline")?
                    .text(&t("app.tagline")),
            ])?,
            El::new(doc, "div")?.class("lf-tools")?.children([
                El::new(doc, "label")?
                    .class("lf-chapter")?
                    .child(El::new(doc, "span")?.text(&t("chapter.label")))?
                    .child(chapter_select)?,
                El::button(doc, "lang", &t("lang.switch"))?
                    .attr("aria-label", &t("lang.switch_label"))?
                    .attr("lang", lang.other().tag())?,
                // Only a page that owns its URL has a link to share.
                El::button(doc, "copy-link", &t("share.copy"))?
                    .attr("data-hidden", if state.use_hash { "false" } else { "true" })?,
                share_status,
            ])?,
        ])?;
        let narration = El::new(doc, "p")?.class("lf-narration")?;

        let speed = El::new(doc, "select")?.attr("data-action", "speed")?;
        for (ms, name) in SPEEDS {
            let option = El::new(doc, "option")?
                .attr("value", &ms.to_string())?
                .text(lang.text(&format!("controls.speed.{name}")));
            if ms == state.speed_ms {
                option.0.set_attribute("selected", "")?;
            }
            speed.0.append_child(&option.0)?;
        }
        let seek = El::new(doc, "input")?
            .attr("type", "range")?
            .attr("min", "0")?
            .attr("data-action", "seek")?
            .attr("aria-label", &t("controls.scrub"))?
            .class("lf-seek")?;
        let icon_button = |action: &str, icon: &str, key: &str| -> Result<El, JsValue> {
            El::button(doc, action, icon)?
                .attr("aria-label", &t(key))?
                .attr("title", &t(key))
        };
        let play = icon_button("play", "▶", "controls.play")?;
        let position = El::new(doc, "span")?.class("lf-position")?;
        let controls = El::new(doc, "div")?
            .class("lf-controls")?
            .attr("role", "group")?
            .attr("aria-label", &t("controls.label"))?
            .children([
                icon_button("reset", "⇤", "controls.reset")?,
                icon_button("back", "←", "controls.back")?,
                play,
                icon_button("step", "→", "controls.step")?,
                icon_button("end", "⇥", "controls.end")?,
                El::new(doc, "label")?
                    .class("lf-speed")?
                    .child(El::new(doc, "span")?.text(&t("controls.speed")))?
                    .child(speed)?,
                seek,
                position,
                El::new(doc, "span")?
                    .class("lf-keys")?
                    .text(&t("controls.keys")),
            ])?;
        let prompt = El::new(doc, "div")?
            .class("lf-prompt")?
            .attr("role", "group")?;

        let panel = |class: &str, title_key: &str| -> Result<(El, El), JsValue> {
            let body = El::new(doc, "div")?.class("lf-body")?;
            let body_ref = El(body.0.clone());
            let section = El::new(doc, "section")?
                .class(&format!("lf-panel {class}"))?
                .child(El::new(doc, "h3")?.text(&t(title_key)))?
                .child(body)?;
            Ok((section, body_ref))
        };
        let events = El::new(doc, "ol")?.class("lf-events")?;
        let events_ref = El(events.0.clone());
        let timeline = El::new(doc, "section")?
            .class("lf-panel lf-timeline")?
            .child(El::new(doc, "h3")?.text(&t("timeline.title")))?
            .child(events)?;
        let (lanes_panel, lanes) = panel("lf-lanes", "lanes.title")?;
        let (step_panel, step) = panel("lf-step", "step.title")?;
        let (table_panel, table) = panel("lf-table", "table.title")?;
        let (receiver_panel, receiver) = panel("lf-receiver", "receiver.title")?;
        let grid = El::new(doc, "div")?.class("lf-grid")?.children([
            El::new(doc, "div")?.class("lf-col")?.children([timeline])?,
            El::new(doc, "div")?.class("lf-col")?.children([
                step_panel,
                table_panel,
                receiver_panel,
            ])?,
        ])?;

        let guard_select = El::new(doc, "select")?
            .attr("data-action", "guard")?
            .children([
                El::new(doc, "option")?
                    .attr("value", "id_only")?
                    .text(&t("compare.id_only")),
                El::new(doc, "option")?
                    .attr("value", "id_and_owner")?
                    .text(&t("compare.id_and_owner")),
            ])?;
        if state.guard == Guard::IdAndOwner {
            guard_select
                .0
                .set_attribute("data-selected", "id_and_owner")?;
        }
        let compare_body = El::new(doc, "div")?.class("lf-body")?;
        let compare_ref = El(compare_body.0.clone());
        let compare = El::new(doc, "details")?
            .class("lf-panel lf-compare")?
            .child(El::new(doc, "summary")?.text(&t("compare.title")))?
            .child(
                El::new(doc, "label")?
                    .class("lf-guard")?
                    .child(El::new(doc, "span")?.text(&t("compare.intro")))?
                    .child(guard_select)?,
            )?
            .child(compare_body)?;
        let (boundary, boundary_els) = Slider::new(doc, "boundary", 0)?;
        // The lease of the claim that finish presents: the other way across
        // the same boundary, with the course's warning beside it.
        let (lease, lease_els) = Slider::new(doc, "lease", 1)?;
        let boundary_panel = El::new(doc, "details")?
            .class("lf-panel lf-boundary")?
            .child(El::new(doc, "summary")?.text(&t("boundary.title")))?
            .children(boundary_els)?
            .children(lease_els)?
            .child(
                El::new(doc, "p")?
                    .class("lf-lease-note")?
                    .text(&t("lease.note")),
            )?;
        let predict_box = El::new(doc, "input")?
            .attr("type", "checkbox")?
            .attr("data-action", "predict")?;
        if state.stepper.predict {
            predict_box.0.set_attribute("checked", "")?;
        }
        let predict = El::new(doc, "label")?
            .class("lf-predict-toggle")?
            .child(predict_box)?
            .child(El::new(doc, "span")?.text(&t("predict.toggle")))?;
        let editor = El::new(doc, "textarea")?
            .attr("rows", "14")?
            .attr("spellcheck", "false")?
            .attr("aria-label", &t("editor.title"))?;
        let editor_status = El::new(doc, "p")?
            .class("lf-editor-status")?
            .attr("role", "status")?;
        let (editor_ref, editor_status_ref) = (El(editor.0.clone()), El(editor_status.0.clone()));
        let mut add_buttons = Vec::new();
        for what in ["job", "claim", "finish", "send"] {
            add_buttons.push(
                El::button(doc, "add", &t(&format!("editor.add_{what}")))?
                    .attr("data-arg", what)?,
            );
        }
        let editor_panel = El::new(doc, "details")?
            .class("lf-panel lf-editor")?
            .child(El::new(doc, "summary")?.text(&t("editor.title")))?
            .child(editor)?
            .child(
                El::new(doc, "div")?
                    .class("lf-editor-tools")?
                    .children(add_buttons)?
                    .child(
                        El::button(doc, "apply-editor", &t("editor.apply"))?.class("lf-primary")?,
                    )?,
            )?
            .child(editor_status)?;
        let extras =
            El::new(doc, "div")?
                .class("lf-extras")?
                .children([compare, predict, editor_panel])?;
        let live = El::new(doc, "div")?
            .class("lf-live")?
            .attr("role", "status")?
            .attr("aria-live", "polite")?;
        let footer = El::new(doc, "p")?
            .class("lf-footer")?
            .text(&t("footer.rules"));

        let parts = Parts {
            narration: narration.0.clone(),
            chapter_select: chapter_select_of(&header)?,
            controls_position: controls_child(&controls, ".lf-position")?,
            play_button: controls_child(&controls, "[data-action=play]")?,
            seek: controls_child(&controls, ".lf-seek")?.unchecked_into(),
            prompt: prompt.0.clone(),
            events: events_ref.0,
            lanes: lanes.0,
            step: step.0,
            table: table.0,
            receiver: receiver.0,
            compare: compare_ref.0,
            boundary,
            lease,
            editor: editor_ref.0.unchecked_into(),
            editor_status: editor_status_ref.0,
            share_status: share_status_of(&header)?,
            live: live.0.clone(),
        };
        replace_children(
            &self.root,
            [
                header,
                narration,
                controls,
                prompt,
                lanes_panel,
                // Right under the lanes it moves, on a phone as on a desktop.
                boundary_panel,
                grid,
                extras,
                footer,
                live,
            ],
        )?;
        drop(state);
        self.watch_lanes(&parts.lanes)?;
        *self.parts.borrow_mut() = Some(parts);
        self.show_scenario(true)?;
        self.show_position(usize::MAX)
    }

    /// Draws what depends on the scenario: narration, the event list, the
    /// comparison, the editor's text and the boundary slider's range.
    fn show_scenario(&self, refill_editor: bool) -> Result<(), JsValue> {
        let doc = &self.doc;
        let parts = self.parts.borrow();
        let Some(parts) = parts.as_ref() else {
            return Ok(());
        };
        let state = self.state.borrow();
        let lang = state.lang;
        parts.chapter_select.set_value(&state.stepper.chapter);
        show_narration(parts, &state);
        if let Some(details) = self.root.query_selector(".lf-compare")? {
            let compare_chapter =
                chapters::find(&state.stepper.chapter).is_some_and(|chapter| chapter.compare);
            if compare_chapter {
                details.set_attribute("open", "")?;
            }
        }
        parts.seek.set_max(&state.stepper.total().to_string());
        // One template row, cloned per event: far fewer calls into the
        // DOM than building each row (2,000-event scenarios load in time).
        let template = El::new(doc, "li")?.class("lf-event")?.children([
            El::new(doc, "span")?.class("lf-at")?,
            El::new(doc, "span")?.class("lf-who")?,
            El::new(doc, "span")?.class("lf-what")?,
            El::new(doc, "span")?.class("lf-detail")?,
            El::new(doc, "span")?.class("lf-result")?,
        ])?;
        let mut rows = Vec::with_capacity(state.stepper.total());
        for (index, event) in state.stepper.scenario.events.iter().enumerate() {
            let mut who = event.worker.clone();
            if let Some(owner) = event.owner.as_ref().filter(|owner| **owner != event.worker) {
                who = format!("{who} (owner {owner})");
            }
            let detail = match &event.action {
                Do::Claim { lease_ms } => format!("lease_ms={lease_ms}"),
                // The stamp this actor will present, as it holds it then.
                Do::Finish | Do::Send => index
                    .checked_sub(1)
                    .and_then(|before| state.stepper.timeline.frames.get(before))
                    .and_then(|frame| frame.holding.get(&event.worker))
                    .map(|claim| format!("{} · token={}", claim.id, claim.token))
                    .unwrap_or_default(),
                Do::Enqueue(job) => job.id.clone(),
            };
            let row: Element = template.0.clone_node_with_deep(true)?.unchecked_into();
            row.set_attribute("data-event", &index.to_string())?;
            let cells = row.children();
            let texts = [
                format!("{} ms", event.at),
                who,
                lang.text(&format!("action.{}", event.action.name()))
                    .to_owned(),
                detail,
            ];
            for (slot, text) in texts.iter().enumerate() {
                if let Some(cell) = cells.item(slot as u32) {
                    cell.set_text_content(Some(text));
                }
            }
            rows.push(El(row));
        }
        replace_children(&parts.events, rows)?;
        let long = if state.stepper.total() > 60 {
            "lf-events lf-long"
        } else {
            "lf-events"
        };
        parts.events.set_attribute("class", long)?;
        if refill_editor {
            let pretty =
                serde_json::from_str::<serde_json::Value>(&state.stepper.scenario.to_json())
                    .ok()
                    .and_then(|value| serde_json::to_string_pretty(&value).ok())
                    .unwrap_or_default();
            parts.editor.set_value(&pretty);
        }
        let editor_refused = matches!(state.editor_status, Some((false, _)));
        if let Some(editor) = self
            .root
            .query_selector(".lf-editor")?
            .filter(|_| editor_refused)
        {
            editor.set_attribute("open", "")?;
        }
        match &state.editor_status {
            Some((ok, message)) => {
                parts.editor_status.set_text_content(Some(message));
                parts
                    .editor_status
                    .set_attribute("data-ok", if *ok { "true" } else { "false" })?;
                parts
                    .editor_status
                    .set_attribute("role", if *ok { "status" } else { "alert" })?;
            }
            None => parts.editor_status.set_text_content(None),
        }
        parts
            .share_status
            .set_text_content(state.share_status.as_deref());
        match state.stepper.boundary_event.and_then(|index| {
            state
                .stepper
                .scenario
                .events
                .get(index)
                .map(|event| (index, event))
        }) {
            Some((index, event)) => {
                let label = lang.fill(
                    "boundary.label",
                    &[
                        ("worker", event.worker.clone()),
                        ("n", (index + 1).to_string()),
                    ],
                );
                parts
                    .boundary
                    .show(&label, state.stepper.ranges.finish_max, event.at)?;
            }
            None => parts.boundary.disable(lang.text("boundary.none")),
        }
        self.show_lease_range(parts, &state)
    }

    /// The lease slider: the claim the boundary finish presents, or why
    /// there is none.
    fn show_lease_range(&self, parts: &Parts, state: &State) -> Result<(), JsValue> {
        let lang = state.lang;
        let events = &state.stepper.scenario.events;
        let Some(lease) = state.stepper.lease() else {
            let finish = state
                .stepper
                .boundary_event
                .and_then(|index| events.get(index));
            parts.lease.disable(&match finish {
                Some(finish) => lang.fill("lease.none", &[("worker", finish.worker.clone())]),
                None => lang.text("boundary.none").to_owned(),
            });
            return Ok(());
        };
        let label = lang.fill(
            "lease.label",
            &[
                ("worker", events[lease.event].worker.clone()),
                ("n", (lease.event + 1).to_string()),
            ],
        );
        // The range was fixed for the claim the chapter started with; a
        // drag may have made another claim the one presented.
        let max = state.stepper.ranges.lease_max.max(lease.lease_ms);
        parts.lease.show(&label, max, lease.lease_ms)
    }

    /// Draws what depends on the position and announces the step.
    /// `before` is the previous position (`usize::MAX` to redraw all rows).
    fn show_position(&self, before: usize) -> Result<(), JsValue> {
        let compare_open = self.root.query_selector(".lf-compare[open]")?.is_some();
        if compare_open && self.state.borrow().naive.is_none() {
            let mut state = self.state.borrow_mut();
            state.naive =
                Some(unfenced::replay(&state.stepper.scenario, state.guard).map_err(to_js_error)?);
        }
        let parts = self.parts.borrow();
        let Some(parts) = parts.as_ref() else {
            return Ok(());
        };
        let state = self.state.borrow();
        let lang = state.lang;
        let (position, total) = (state.stepper.position, state.stepper.total());
        parts.seek.set_value(&position.to_string());
        let valuetext = lang.fill(
            "controls.seek_value",
            &[("n", position.to_string()), ("total", total.to_string())],
        );
        parts.seek.set_attribute("aria-valuetext", &valuetext)?;
        let label = lang.fill(
            "controls.position",
            &[("n", position.to_string()), ("total", total.to_string())],
        );
        parts.controls_position.set_text_content(Some(&label));
        let (icon, key) = if state.playing {
            ("❚❚", "controls.pause")
        } else {
            ("▶", "controls.play")
        };
        parts.play_button.set_text_content(Some(icon));
        parts
            .play_button
            .set_attribute("aria-label", lang.text(key))?;
        parts.play_button.set_attribute("title", lang.text(key))?;
        parts
            .play_button
            .set_attribute("aria-pressed", if state.playing { "true" } else { "false" })?;

        // Only the rows between the old and the new position change; a
        // fresh list (`before == usize::MAX`) has nothing to clear.
        let (from, to) = if before == usize::MAX {
            (0, position)
        } else {
            (
                before.min(position).saturating_sub(1),
                before.max(position).min(total),
            )
        };
        let items = parts.events.children();
        for index in from..to {
            let Some(item) = items.item(index as u32) else {
                continue;
            };
            let result_span = item.last_element_child();
            match state
                .stepper
                .timeline
                .frames
                .get(index)
                .filter(|_| index < position)
            {
                Some(frame) => {
                    let label = frame.result.outcome.label();
                    item.set_attribute("data-result", label)?;
                    if let Some(span) = result_span {
                        span.set_text_content(Some(&result_mark(lang, label)));
                    }
                }
                None => {
                    item.remove_attribute("data-result")?;
                    if let Some(span) = result_span {
                        span.set_text_content(None);
                    }
                }
            }
            if index + 1 == position {
                item.set_attribute("aria-current", "step")?;
            } else {
                item.remove_attribute("aria-current")?;
            }
        }
        let current = position.checked_sub(1).and_then(|i| items.item(i as u32));
        // Keep the current event in view inside the list, not the page.
        // Reading a position forces layout, so short lists that never
        // scroll skip it.
        let scrolls = total > 8;
        if let Some(current) = current
            .filter(|_| scrolls)
            .and_then(|item| item.dyn_into::<web_sys::HtmlElement>().ok())
        {
            parts
                .events
                .set_scroll_top((current.offset_top() - 40).max(0));
        }

        self.draw_prompt(parts, &state)?;
        self.draw_lanes(parts, &state)?;
        self.draw_step(parts, &state)?;
        self.draw_table(parts, &state)?;
        self.draw_receiver(parts, &state)?;
        if compare_open {
            self.draw_compare(parts, &state)?;
        }
        self.draw_boundary_value(parts, &state)?;

        let mut announcement = match state.stepper.frame() {
            Some(frame) => describe(lang, frame),
            None => lang.text("step.none").to_owned(),
        };
        if let Some(feedback) = state.stepper.guessed.map(|guessed| feedback(lang, guessed)) {
            announcement = format!("{feedback} {announcement}");
        }
        if state.stepper.awaiting_guess {
            announcement = parts.prompt.text_content().unwrap_or_default();
        }
        if state.stepper.awaiting_guess {
            // The question needs an answer before the step: say it, and put
            // the keyboard on the first answer.
            parts.live.set_text_content(Some(&announcement));
            if let Some(button) = parts.prompt.query_selector("button")? {
                button.unchecked_into::<web_sys::HtmlElement>().focus()?;
            }
        }
        if position != before {
            parts.live.set_text_content(Some(&announcement));
        }
        Ok(())
    }

    /// Draws the lanes at the width last measured.
    fn draw_lanes(&self, parts: &Parts, state: &State) -> Result<(), JsValue> {
        super::lanes::draw(
            &self.doc,
            &parts.lanes,
            &state.stepper.scenario,
            &state.stepper.timeline,
            state.stepper.position,
            state.lang,
            self.lanes_width.get(),
        )
    }

    /// Redraws the lanes whenever their panel changes width: a window
    /// resize, or a host page's column growing or shrinking. A
    /// `ResizeObserver` reports after the browser's own layout, so the
    /// first width arrives before the first paint without `clientWidth`
    /// forcing a layout in the middle of building the page. `build` runs
    /// again on a language switch and makes a new panel: the observer
    /// moves to it.
    fn watch_lanes(self: &Rc<Self>, lanes: &Element) -> Result<(), JsValue> {
        let mut slot = self.lanes_observer.borrow_mut();
        if slot.is_none() {
            let page = Rc::downgrade(self);
            let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
                let Some(page) = page.upgrade() else { return };
                let Ok(entry) = entries.pop().dyn_into::<web_sys::ResizeObserverEntry>() else {
                    return;
                };
                let width = entry.content_rect().width().round();
                if width > 0.0 && width != page.lanes_width.get() {
                    page.lanes_width.set(width);
                    if let Err(err) = page.redraw_lanes() {
                        web_sys::console::error_2(&"leasefence:".into(), &err);
                    }
                }
            });
            let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref())?;
            *slot = Some(LanesObserver {
                observer,
                _callback: callback,
            });
        }
        if let Some(watch) = slot.as_ref() {
            watch.observer.disconnect();
            watch.observer.observe(lanes);
        }
        Ok(())
    }

    /// The lanes alone, for a new width.
    fn redraw_lanes(&self) -> Result<(), JsValue> {
        let parts = self.parts.borrow();
        match parts.as_ref() {
            Some(parts) => self.draw_lanes(parts, &self.state.borrow()),
            None => Ok(()),
        }
    }

    fn draw_prompt(&self, parts: &Parts, state: &State) -> Result<(), JsValue> {
        let doc = &self.doc;
        let lang = state.lang;
        let mut children = Vec::new();
        if state.stepper.awaiting_guess {
            let worker = state
                .stepper
                .scenario
                .events
                .get(state.stepper.position)
                .map(|e| e.worker.clone())
                .unwrap_or_default();
            children.push(
                El::new(doc, "span")?.text(&lang.fill("predict.question", &[("worker", worker)])),
            );
            children.push(
                El::button(doc, "guess", lang.text("predict.accept"))?
                    .attr("data-arg", "accept")?,
            );
            children.push(
                El::button(doc, "guess", lang.text("predict.reject"))?
                    .attr("data-arg", "reject")?,
            );
        } else if let Some(guessed) = state.stepper.guessed {
            children.push(
                El::new(doc, "span")?
                    .class("lf-feedback")?
                    .text(&feedback(lang, guessed)),
            );
        }
        if state.stepper.predict && state.stepper.score.1 > 0 {
            let score = lang.fill(
                "predict.score",
                &[
                    ("right", state.stepper.score.0.to_string()),
                    ("total", state.stepper.score.1.to_string()),
                ],
            );
            children.push(El::new(doc, "span")?.class("lf-score")?.text(&score));
        }
        parts.prompt.set_attribute(
            "data-open",
            if children.is_empty() { "false" } else { "true" },
        )?;
        replace_children(&parts.prompt, children)
    }

    fn draw_step(&self, parts: &Parts, state: &State) -> Result<(), JsValue> {
        let doc = &self.doc;
        let lang = state.lang;
        let t = |key: &str| lang.text(key).to_owned();
        let Some(frame) = state.stepper.frame() else {
            return replace_children(
                &parts.step,
                [El::new(doc, "p")?
                    .class("lf-summary")?
                    .text(&t("step.none"))],
            );
        };
        // A finish gets its verdict card instead of a summary line, so the
        // reason is said once.
        let mut blocks = Vec::new();
        if !matches!(frame.result.outcome, Outcome::Finished(_)) {
            blocks.push(
                El::new(doc, "p")?
                    .class("lf-summary")?
                    .attr("data-result", frame.result.outcome.label())?
                    .text(&describe(lang, frame)),
            );
        }
        if let Outcome::Finished(finish) = &frame.result.outcome {
            let (class, key) = if finish.accepted {
                ("lf-verdict lf-accepted", "verdict.accepted")
            } else {
                ("lf-verdict lf-rejected", "verdict.rejected")
            };
            let words = if finish.accepted {
                describe(lang, frame)
            } else {
                format!(
                    "{} · {}",
                    frame.result.worker,
                    reason_text(lang, finish, frame.result.at)
                )
            };
            let mut verdict = El::new(doc, "div")?
                .class(class)?
                .child(El::new(doc, "strong")?.text(&t(key)))?
                .child(El::new(doc, "span")?.class("lf-reason")?.text(&words))?;
            if let Some(reason) = finish.reason {
                verdict = verdict.child(El::new(doc, "code")?.text(reason.as_str()))?;
            }
            blocks.push(verdict);
            let pairs = side_by_side(finish, frame.result.at);
            if !pairs.is_empty() {
                let titles = [
                    t("verdict.field"),
                    t("verdict.expected"),
                    t("verdict.current"),
                ];
                let mut rows = vec![header_row(doc, titles.iter().map(String::as_str))?];
                for Compared {
                    field,
                    expected,
                    current,
                    differs,
                } in pairs
                {
                    let row = El::new(doc, "tr")?.children([
                        El::new(doc, "th")?.attr("scope", "row")?.text(field),
                        El::new(doc, "td")?.text(&expected),
                        El::new(doc, "td")?.text(&current),
                    ])?;
                    if differs {
                        row.0.set_attribute("class", "lf-differs")?;
                    }
                    rows.push(row);
                }
                blocks.push(El::new(doc, "h4")?.text(&t("verdict.side_by_side")));
                blocks.push(
                    El::new(doc, "table")?
                        .class("lf-compare-table")?
                        .children(rows)?,
                );
            }
        }
        blocks.push(El::new(doc, "h4")?.text(&t("sql.title")));
        if frame.sql.is_empty() {
            blocks.push(El::new(doc, "p")?.class("lf-muted")?.text(&t("sql.none")));
        } else {
            let mut statements = Vec::new();
            for executed in &frame.sql {
                let mut item =
                    El::new(doc, "li")?.child(El::new(doc, "pre")?.text(executed.sql))?;
                if !executed.params.is_empty() {
                    let bound: Vec<String> = executed
                        .params
                        .iter()
                        .map(|(name, value)| {
                            format!(
                                "{name} = {}",
                                serde_json::to_string(value).unwrap_or_default()
                            )
                        })
                        .collect();
                    item = item.child(
                        El::new(doc, "p")?
                            .class("lf-params")?
                            .text(&bound.join(", ")),
                    )?;
                }
                if executed.sql != "BEGIN IMMEDIATE" && executed.sql != "COMMIT" {
                    let n = ("n", executed.rows.to_string());
                    let mut effect = lang.fill(
                        if executed.write {
                            "sql.changed"
                        } else {
                            "sql.read"
                        },
                        &[n],
                    );
                    let refused = executed.sql == crate::store::FINISH.trim()
                        && executed.rows == 0
                        && matches!(&frame.result.outcome, Outcome::Finished(finish) if !finish.accepted);
                    if refused {
                        effect = t("sql.rejected_note");
                    }
                    let class = if refused {
                        "lf-effect lf-zero"
                    } else {
                        "lf-effect"
                    };
                    item = item.child(El::new(doc, "p")?.class(class)?.text(&effect))?;
                }
                statements.push(item);
            }
            blocks.push(El::new(doc, "ol")?.class("lf-sql")?.children(statements)?);
        }
        let changes = row_changes(&state.stepper.timeline, state.stepper.position - 1);
        if !changes.is_empty() {
            blocks.push(El::new(doc, "h4")?.text(&t("row.title")));
            let mut rows = vec![header_row(
                doc,
                std::iter::once("").chain(COLUMNS.iter().copied()),
            )?];
            for change in &changes {
                let changed = change.changed_columns();
                for (label, row) in [("row.before", &change.before), ("row.after", &change.after)] {
                    let mut cells = vec![El::new(doc, "th")?.attr("scope", "row")?.text(&t(label))];
                    for column in COLUMNS {
                        let text = row
                            .as_ref()
                            .map_or_else(|| "—".to_owned(), |row| cell(row, column));
                        let td = El::new(doc, "td")?.text(&text);
                        if label == "row.after" && changed.contains(column) {
                            td.0.set_attribute("class", "lf-changed")?;
                            td.0.set_attribute("title", "changed")?;
                        }
                        cells.push(td);
                    }
                    rows.push(El::new(doc, "tr")?.children(cells)?);
                }
                if changed.is_empty() {
                    blocks.push(El::new(doc, "p")?.class("lf-unchanged")?.text(&format!(
                        "{}: {}",
                        change.id,
                        t("row.unchanged")
                    )));
                }
            }
            blocks.push(
                El::new(doc, "div")?
                    .class("lf-scroll")?
                    .child(El::new(doc, "table")?.class("lf-rows")?.children(rows)?)?,
            );
        }
        replace_children(&parts.step, blocks)
    }

    fn draw_table(&self, parts: &Parts, state: &State) -> Result<(), JsValue> {
        let doc = &self.doc;
        let rows = state.stepper.timeline.rows_after(state.stepper.position);
        let mut lines = vec![header_row(doc, COLUMNS.iter().copied())?];
        for row in rows {
            let mut cells = Vec::new();
            for column in COLUMNS {
                cells.push(El::new(doc, "td")?.text(&cell(row, column)));
            }
            lines.push(
                El::new(doc, "tr")?
                    .attr("data-state", row.state.as_str())?
                    .children(cells)?,
            );
        }
        replace_children(
            &parts.table,
            [El::new(doc, "div")?
                .class("lf-scroll")?
                .child(El::new(doc, "table")?.class("lf-rows")?.children(lines)?)?],
        )
    }

    fn draw_receiver(&self, parts: &Parts, state: &State) -> Result<(), JsValue> {
        let doc = &self.doc;
        let lang = state.lang;
        let ledger = state.stepper.frame().map(|frame| &frame.receiver);
        let Some(ledger) = ledger.filter(|ledger| !ledger.is_empty()) else {
            return replace_children(
                &parts.receiver,
                [El::new(doc, "p")?
                    .class("lf-muted")?
                    .text(lang.text("receiver.empty"))],
            );
        };
        let mut items = Vec::new();
        for (id, qty) in ledger.iter() {
            items.push(El::new(doc, "li")?.text(&format!("{id} → {qty}")));
        }
        let total = lang.fill(
            "receiver.total",
            &[
                ("jobs", ledger.len().to_string()),
                (
                    "qty",
                    ledger
                        .values()
                        .fold(0u64, |sum, qty| sum.saturating_add(*qty))
                        .to_string(),
                ),
            ],
        );
        replace_children(
            &parts.receiver,
            [
                El::new(doc, "ul")?.class("lf-ledger")?.children(items)?,
                El::new(doc, "p")?.text(&total),
            ],
        )
    }

    fn draw_compare(&self, parts: &Parts, state: &State) -> Result<(), JsValue> {
        let doc = &self.doc;
        let lang = state.lang;
        let t = |key: &str| lang.text(key).to_owned();
        let guard_name = match state.guard {
            Guard::IdOnly => t("compare.id_only"),
            Guard::IdAndOwner => t("compare.id_and_owner"),
        };
        let titles = [t("compare.event"), t("compare.fenced"), guard_name];
        let mut rows = vec![header_row(doc, titles.iter().map(String::as_str))?];
        let mut harm = false;
        let Some(replay) = &state.naive else {
            return Ok(());
        };
        for naive in &replay.finishes {
            let fenced = state.stepper.timeline.frames.get(naive.event);
            let Some(Outcome::Finished(finish)) = fenced.map(|frame| &frame.result.outcome) else {
                continue;
            };
            let shown = naive.event < state.stepper.position;
            let verdict = |accepted: bool| {
                t(if accepted {
                    "compare.naive_accepts"
                } else {
                    "compare.naive_rejects"
                })
            };
            let state_of = |row: Option<&crate::JobRow>| {
                row.map(|row| {
                    format!(
                        " ({}, owner {}, token {})",
                        row.state.as_str(),
                        cell(row, "owner"),
                        row.token
                    )
                })
                .unwrap_or_default()
            };
            let (fenced_text, naive_text) = if shown {
                (
                    format!(
                        "{}{}",
                        verdict(finish.accepted),
                        state_of(finish.current.as_ref())
                    ),
                    format!(
                        "{}{}",
                        verdict(naive.accepted),
                        state_of(naive.current.as_ref())
                    ),
                )
            } else {
                (t("timeline.pending"), t("timeline.pending"))
            };
            let event = &state.stepper.scenario.events[naive.event];
            let row = El::new(doc, "tr")?.children([
                El::new(doc, "th")?
                    .attr("scope", "row")?
                    .text(&format!("{} ms · {}", event.at, event.worker)),
                El::new(doc, "td")?.text(&fenced_text),
                El::new(doc, "td")?.text(&naive_text),
            ])?;
            if shown && naive.accepted && !finish.accepted {
                harm = true;
                row.0.set_attribute("class", "lf-harm")?;
            }
            rows.push(row);
        }
        let guard_sql = El::new(doc, "pre")?
            .class("lf-naive-sql")?
            .text(state.guard.sql());
        let any_shown = replay
            .finishes
            .iter()
            .any(|naive| naive.event < state.stepper.position);
        let note = match (harm, any_shown) {
            (true, _) => "compare.harm",
            (false, true) => "compare.same",
            (false, false) => "compare.not_yet",
        };
        let verdict = El::new(doc, "p")?
            .class(if harm { "lf-harm-note" } else { "lf-muted" })?
            .text(&t(note));
        replace_children(
            &parts.compare,
            [
                guard_sql,
                El::new(doc, "table")?
                    .class("lf-compare-table")?
                    .children(rows)?,
                verdict,
            ],
        )
    }

    fn draw_boundary_value(&self, parts: &Parts, state: &State) -> Result<(), JsValue> {
        let lang = state.lang;
        let Some(index) = state.stepper.boundary_event else {
            parts.boundary.value.set_text_content(None);
            return Ok(());
        };
        let Some(frame) = state.stepper.timeline.frames.get(index) else {
            return Ok(());
        };
        let verdict = match &frame.result.outcome {
            Outcome::Finished(finish) if finish.accepted => {
                lang.text("verdict.accepted").to_owned()
            }
            Outcome::Finished(finish) => {
                format!(
                    "{}: {}",
                    lang.text("verdict.rejected"),
                    reason_text(lang, finish, frame.result.at)
                )
            }
            _ => String::new(),
        };
        let text = lang.fill(
            "boundary.value",
            &[
                ("at", frame.result.at.to_string()),
                ("verdict", verdict.clone()),
            ],
        );
        parts.boundary.value.set_text_content(Some(&text));
        parts
            .boundary
            .input
            .set_attribute("aria-valuetext", &text)?;
        let Some(lease) = state.stepper.lease() else {
            parts.lease.value.set_text_content(None);
            return Ok(());
        };
        // R9: the deadline cuts a lease short, and then a longer one changes
        // nothing; say so rather than let the slider seem broken.
        let capped = lease.lease_until < lease.at.saturating_add(lease.lease_ms);
        let text = lang.fill(
            if capped {
                "lease.value_capped"
            } else {
                "lease.value"
            },
            &[
                ("lease", lease.lease_ms.to_string()),
                ("until", lease.lease_until.to_string()),
                ("worker", frame.result.worker.clone()),
                ("verdict", verdict),
            ],
        );
        parts.lease.value.set_text_content(Some(&text));
        parts.lease.input.set_attribute("aria-valuetext", &text)?;
        Ok(())
    }

    /// Fires `leasefence:step` on the root, and `leasefence:verdict` for
    /// each finish revealed since `before` (a jump to the end reveals all).
    fn emit_step(&self, before: usize) -> Result<(), JsValue> {
        #[derive(Serialize)]
        struct StepDetail<'a> {
            chapter: &'a str,
            position: usize,
            total: usize,
            result: Option<&'a crate::EventResult>,
        }
        #[derive(Serialize)]
        struct VerdictDetail<'a> {
            chapter: &'a str,
            event: usize,
            at: u64,
            worker: &'a str,
            #[serde(flatten)]
            finish: &'a crate::Finish,
        }
        let mut events = Vec::new();
        let state = self.state.borrow();
        let frame = state.stepper.frame();
        let detail = StepDetail {
            chapter: &state.stepper.chapter,
            position: state.stepper.position,
            total: state.stepper.total(),
            result: frame.map(|frame| &frame.result),
        };
        let detail = to_js(&detail)?;
        events.push(("leasefence:step", detail));
        let revealed = if before == usize::MAX || before >= state.stepper.position {
            0..0
        } else {
            before..state.stepper.position
        };
        for frame in &state.stepper.timeline.frames[revealed] {
            if let Outcome::Finished(finish) = &frame.result.outcome {
                let verdict = VerdictDetail {
                    chapter: &state.stepper.chapter,
                    event: frame.result.event,
                    at: frame.result.at,
                    worker: &frame.result.worker,
                    finish,
                };
                events.push(("leasefence:verdict", to_js(&verdict)?));
            }
        }
        drop(state);
        for (name, detail) in events {
            self.fire(name, &detail)?;
        }
        Ok(())
    }

    fn fire(&self, name: &str, detail: &JsValue) -> Result<(), JsValue> {
        let init = web_sys::CustomEventInit::new();
        init.set_bubbles(true);
        init.set_detail(detail);
        let event = web_sys::CustomEvent::new_with_event_init_dict(name, &init)?;
        self.root.dispatch_event(&event)?;
        Ok(())
    }
}

/// The chapter's narration, or a note while predicting: the narration
/// tells how each finish ends.
fn show_narration(parts: &Parts, state: &State) {
    let lang = state.lang;
    let text = match (&state.stepper.forked_from, state.stepper.predict) {
        (_, true) => lang.text("predict.narration_hidden").to_owned(),
        // A chapter the learner changed with a slider: what it was about.
        (Some(chapter), false) => lang.fill(
            "chapter.forked",
            &[
                (
                    "title",
                    lang.text(&format!("chapter.{chapter}.title")).to_owned(),
                ),
                (
                    "text",
                    lang.text(&format!("chapter.{chapter}.text")).to_owned(),
                ),
            ],
        ),
        (None, false) => lang
            .text(&format!("chapter.{}.text", state.stepper.chapter))
            .to_owned(),
    };
    parts.narration.set_text_content(Some(&text));
}

/// What the page says after a prediction, in the page's language.
fn feedback(lang: Lang, guessed: Guessed) -> String {
    let verdict = lang.text(if guessed.accepted {
        "result.accepted"
    } else {
        "result.rejected"
    });
    let key = if guessed.right {
        "predict.right"
    } else {
        "predict.wrong"
    };
    lang.fill(key, &[("verdict", verdict.to_owned())])
}

/// The result column: a symbol and a word, never colour alone.
fn result_mark(lang: Lang, label: &str) -> String {
    let symbol = match label {
        "accepted" | "applied" => "✓",
        "rejected" => "✗",
        "empty" | "duplicate" | "no_claim" => "∅",
        _ => "•",
    };
    format!("{symbol} {}", lang.text(&format!("result.{label}")))
}

fn chapter_select_of(header: &El) -> Result<HtmlSelectElement, JsValue> {
    Ok(header
        .0
        .query_selector("select[data-action=chapter]")?
        .ok_or_else(|| JsError::new("chapter select missing"))?
        .unchecked_into())
}

fn share_status_of(header: &El) -> Result<Element, JsValue> {
    header
        .0
        .query_selector(".lf-share-status")?
        .ok_or_else(|| JsError::new("share status missing").into())
}

fn controls_child(controls: &El, selector: &str) -> Result<Element, JsValue> {
    controls
        .0
        .query_selector(selector)?
        .ok_or_else(|| JsError::new(&format!("{selector} missing")).into())
}
