//! The playground page: step a timeline and see why each finish was
//! accepted or refused.
//!
//! The rooms, in the order an input travels:
//!
//! * [`input`]: DOM events become [`UserAction`]s (listeners attached once,
//!   on the root);
//! * this module: `mount`, and [`Page::dispatch`], which applies an action
//!   to the [`Session`] (the core's, where every decision lives) and
//!   redraws what it changed;
//! * [`draw`]: each of the core's views handed to the panel that draws it;
//! * [`skeleton`]: the frame of panels, built on mount and on a language
//!   switch; one file per panel draws its part of the core's view
//!   ([`timeline`], [`lanes`], [`step`], [`tables`], [`compare`],
//!   [`boundary`], [`prompt`], [`statements`], [`invariants`]), and
//!   [`panes`] a lesson's one view at a time; [`texts`]: the fetched texts;
//! * [`address`]: the URL hash and the share link; [`notify`]: the DOM
//!   events a host page hears.
//!
//! Nothing here decides a verdict or reads SQL: the page draws
//! [`view::ScenarioView`] and [`view::PositionView`].

mod address;
mod boundary;
mod check;
pub use check::check;
mod compare;
mod dom;
mod draw;
mod input;
mod invariants;
mod lab;
mod lanes;
mod notify;
mod options;
mod panes;
pub use options::waits_for_rest;
mod point;
mod progress;
mod prompt;
mod skeleton;
mod statements;
mod step;
mod tables;
mod texts;
mod timeline;
mod twists;

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, Window};

use input::{Listeners, UserAction};
use leasefence_course::playground::messages::Key;
use leasefence_course::playground::session::Session;
use leasefence_course::playground::show::Show;
use leasefence_course::playground::stepper::Stepped;
use leasefence_course::playground::{CHAPTERS, view};
use options::Options;
use skeleton::Parts;
use statements::Side;

/// A mounted playground; JavaScript keeps it to read where it is.
#[wasm_bindgen]
pub struct Playground {
    page: Rc<Page>,
}

#[wasm_bindgen]
impl Playground {
    /// How many events have been applied.
    pub fn position(&self) -> usize {
        self.page.state.borrow().session.stepper.position()
    }

    /// The page's language tag.
    pub fn lang(&self) -> String {
        self.page.state.borrow().session.lang.tag().to_owned()
    }

    /// The scenario on screen, as contract JSON.
    #[wasm_bindgen(js_name = scenarioJson)]
    pub fn scenario_json(&self) -> String {
        let state = self.page.state.borrow();
        state.session.stepper.scenario().to_json()
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
        dom::clear(&self.page.root);
        Ok(())
    }
}

thread_local! {
    /// Every mounted page, so a playground keeps working after JavaScript
    /// drops the handle `mount` returned; `unmount` lets it go.
    static MOUNTED: RefCell<Vec<Rc<Page>>> = const { RefCell::new(Vec::new()) };
}

/// Renders a playground into the element `root` with `MountOptions`.
/// Throws, drawing nothing, if `root` is not an element or an option is
/// unknown or of the wrong type.
#[wasm_bindgen]
pub fn mount(
    #[wasm_bindgen(unchecked_param_type = "Element")] root: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "MountOptions")] options: Option<JsValue>,
) -> Result<Playground, JsValue> {
    let (root, options) = options::mount_args(&root, options)?;
    texts::provide();
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
        listeners: Listeners::default(),
        timer: Cell::new(None),
        lanes_width: Cell::new(0.0),
        pending: RefCell::new(None),
        lanes_observer: RefCell::new(None),
    });
    input::listen(&page)?;
    page.build()?;
    page.show_position()?;
    // The module loads after the page: a reader who has scrolled already
    // is left where they are.
    if page.window.scroll_y() == Ok(0.0) {
        page.reveal_linked_place();
    }
    MOUNTED.with(|mounted| mounted.borrow_mut().push(Rc::clone(&page)));
    Ok(Playground { page })
}

/// The learner's [`Session`] and what only the page needs.
struct State {
    session: Session,
    playing: bool,
    speed_ms: i32,
    /// What became of the last Copy link, as its message's key.
    share_status: Option<Key>,
    /// The parts the author asked to show, kept for a new start from a
    /// changed hash.
    show: Show,
    /// Whether "Copy link" is offered ([`Options::shares`]).
    shares: bool,
    use_hash: bool,
    /// The position the event list was last drawn at (`None`: redraw all).
    drawn: Option<usize>,
    /// The question the last drawing asked, if any (a new one takes focus:
    /// a field question follows its finish's answer at once).
    asked: Option<String>,
    /// The statement panel's side shown where only one fits: a matter of
    /// layout, kept here (not in the session) through a rebuild.
    side: Side,
}

impl State {
    fn initial(window: &Window, root: &Element, options: &Options) -> Result<State, JsValue> {
        let start = options.start(window, root);
        let mut session = Session::start(&start).map_err(to_js_error)?;
        session.restore_progress(progress::load(window).split_whitespace());
        if let Some(wanted) = &session.unknown_chapter {
            // A course author's typo: say so where they will look.
            let ids: Vec<&str> = CHAPTERS.iter().map(|chapter| chapter.id).collect();
            let warning = format!(
                "leasefence: no chapter {wanted:?}; showing {:?}. Chapters: {}",
                CHAPTERS[0].id,
                ids.join(", ")
            );
            web_sys::console::warn_1(&warning.into());
        }
        if let Some(why) = &session.lesson_error {
            let warning = format!("leasefence: the lesson could not be shown: {why}");
            web_sys::console::warn_1(&warning.into());
        }
        Ok(State {
            session,
            playing: false,
            speed_ms: skeleton::SPEEDS[1].0,
            share_status: None,
            show: options.show(),
            shares: options.shares(),
            use_hash: options.hash,
            drawn: None,
            asked: None,
            side: Side::Real,
        })
    }
}

fn to_js_error(err: leasefence::Error) -> JsValue {
    JsError::new(&err.to_string()).into()
}

/// One mounted playground.
struct Page {
    root: Element,
    doc: Document,
    window: Window,
    state: RefCell<State>,
    parts: RefCell<Option<Parts>>,
    listeners: Listeners,
    /// The play timer, while playing.
    timer: Cell<Option<i32>>,
    /// The lanes panel's width in CSS pixels, as the resize observer last
    /// reported it (0 until its first report).
    lanes_width: Cell<f64>,
    /// Watches the lanes panel's width; see [`lanes::watch`].
    lanes_observer: RefCell<Option<lanes::Observer>>,
    /// Actions that arrived while another was being applied, in order.
    /// The browser may fire an event synchronously from inside a drawing
    /// (disabling a range input under the pointer ends the drag with a
    /// `change`); applying it there would find the session borrowed.
    pending: RefCell<Option<VecDeque<UserAction>>>,
}

impl Page {
    /// Dispatches from an event callback, where an error can only be shown.
    /// An action that arrives while another is applied waits for it to
    /// finish, then is applied in turn: never two at once.
    fn run(self: &Rc<Self>, action: UserAction) {
        // The language switch may wait for the other language's texts.
        if action != UserAction::SwitchLang || !texts::switch_later(self) {
            self.run_now(action);
        }
    }

    /// [`Page::run`], with whatever it needs in.
    fn run_now(self: &Rc<Self>, action: UserAction) {
        {
            let mut pending = self.pending.borrow_mut();
            if let Some(waiting) = pending.as_mut() {
                waiting.push_back(action);
                return;
            }
            *pending = Some(VecDeque::new());
        }
        let mut next = Some(action);
        while let Some(action) = next {
            if let Err(err) = self.dispatch(action) {
                web_sys::console::error_2(&"leasefence:".into(), &err);
            }
            let mut pending = self.pending.borrow_mut();
            next = pending.as_mut().and_then(VecDeque::pop_front);
            if next.is_none() {
                *pending = None;
            }
        }
    }

    /// Applies an action and redraws what it changed.
    fn dispatch(self: &Rc<Self>, action: UserAction) -> Result<(), JsValue> {
        let before = self.state.borrow().session.stepper.position();
        let dragged = match action {
            UserAction::Drag(knob, _) => Some(knob),
            _ => None,
        };
        let switched = action == UserAction::SwitchLang;
        // An opened ordering's button is gone: the keyboard goes to the root.
        let opened = matches!(action, UserAction::OpenShortest(_));
        let loaded = action == UserAction::LoadHash;
        // The address bar follows the scenario and the language; the step
        // goes into copied links only (rewriting history on every step is
        // slow and floods the back button).
        // A slider writes it when the drag ends, not at every move (browsers
        // throttle, and Safari refuses, a long run of history writes).
        let moves_address = matches!(
            action,
            UserAction::Chapter(_)
                | UserAction::SwitchLang
                | UserAction::Dragged
                | UserAction::Twist(..)
                | UserAction::ApplyEditor(_)
                | UserAction::OpenShortest(_)
                | UserAction::Lab(_)
        );
        let redraw = self.apply(action)?;
        self.keep_progress();
        match redraw {
            Redraw::Nothing if moves_address => return address::write(self),
            Redraw::Nothing => return Ok(()),
            Redraw::All if switched => self.rebuild()?,
            Redraw::All => self.build()?,
            Redraw::Scenario => self.show_scenario(false)?,
            Redraw::ScenarioAndEditor => self.show_scenario(true)?,
            Redraw::Position => {}
        }
        self.show_position()?;
        if let (Some(knob), Some(parts)) = (dragged, self.parts.borrow().as_ref()) {
            boundary::keep_in_view(parts.slider(knob));
        }
        if switched {
            skeleton::focus_lang_button(self)?;
        }
        if opened {
            self.root.unchecked_ref::<web_sys::HtmlElement>().focus()?;
        }
        if loaded {
            self.reveal_linked_place();
        }
        // Host pages hear about it last, with no borrow held: a listener
        // may drive the playground again. A new timeline reveals nothing.
        let new_timeline = redraw != Redraw::Position;
        if new_timeline || self.state.borrow().session.stepper.position() != before {
            notify::step(self, (!new_timeline).then_some(before))?;
        }
        if moves_address {
            address::write(self)?;
        }
        Ok(())
    }

    /// Scrolls to the statement panel when the link the session began from
    /// named a place in it.
    fn reveal_linked_place(&self) {
        if self.state.borrow().session.linked_statement
            && let Some(parts) = self.parts.borrow().as_ref()
        {
            statements::reveal(&self.window, &parts.statements);
        }
    }

    /// Marks the chapter finished when the learner reaches its end, keeps
    /// that for the next visit, and marks it in the picker.
    fn keep_progress(&self) {
        let mut state = self.state.borrow_mut();
        if !state.session.note_progress() {
            return;
        }
        progress::save(&self.window, state.session.progress());
        let options = view::chapter_options(&state.session);
        let chapter = state.session.stepper.chapter().to_owned();
        drop(state);
        if let Some(parts) = self.parts.borrow().as_ref() {
            skeleton::show_chapters(&self.doc, parts, &options, &chapter);
        }
    }

    /// Applies an action to the state; says what must be redrawn.
    fn apply(self: &Rc<Self>, action: UserAction) -> Result<Redraw, JsValue> {
        use UserAction::*;
        match action {
            Step | Tick | Guess(_) | Field(_) | Back | Reset | End | Seek(_) | TogglePlay
            | Speed(_) => {
                self.play(action)?;
                let followed = self.state.borrow_mut().session.follow_statements();
                if followed.map_err(to_js_error)? {
                    self.show_statements()?;
                }
                Ok(Redraw::Position)
            }
            other => self.change(other),
        }
    }

    /// Moves through the timeline (or starts and stops playing it).
    fn play(self: &Rc<Self>, action: UserAction) -> Result<(), JsValue> {
        let mut state = self.state.borrow_mut();
        let session = &mut state.session;
        let stop = match action {
            UserAction::Step | UserAction::Tick => {
                matches!(session.forward(), Stepped::AtEnd | Stepped::AskFirst)
            }
            UserAction::Guess(accept) => {
                session.stepper.guess(accept);
                false
            }
            UserAction::Field(field) => {
                session.stepper.answer_field(&field);
                false
            }
            UserAction::Back => {
                session.backward();
                false
            }
            UserAction::Reset => {
                session.stepper.seek(0);
                true
            }
            UserAction::End => {
                session.stepper.seek(session.stepper.total());
                false
            }
            UserAction::Seek(position) => {
                session.stepper.seek(position);
                false
            }
            UserAction::TogglePlay => {
                let playing = !state.playing;
                drop(state);
                return self.set_playing(playing);
            }
            UserAction::Speed(ms) => {
                state.speed_ms = ms.clamp(100, 5000);
                let playing = state.playing;
                drop(state);
                // Restart the timer at the new speed.
                return if playing {
                    self.set_playing(true)
                } else {
                    Ok(())
                };
            }
            _ => false,
        };
        drop(state);
        if stop {
            self.set_playing(false)?;
        }
        Ok(())
    }

    /// Changes the timeline or a setting; says what must be redrawn.
    fn change(self: &Rc<Self>, action: UserAction) -> Result<Redraw, JsValue> {
        let mut state = self.state.borrow_mut();
        let session = &mut state.session;
        let redraw = match action {
            UserAction::Chapter(id) => {
                session.load_chapter(&id).map_err(to_js_error)?;
                drop(state);
                self.set_playing(false)?;
                return Ok(Redraw::ScenarioAndEditor);
            }
            UserAction::SwitchLang => {
                session.switch_lang();
                Redraw::All
            }
            UserAction::Look(pane) if session.look(pane) => Redraw::Position,
            UserAction::LookNth(n) if panes::look_nth(session, n) => Redraw::Position,
            UserAction::Guard(guard) => {
                session.set_guard(guard).map_err(to_js_error)?;
                Redraw::Position
            }
            UserAction::CompareToggled(open) if open != session.compare_open() => {
                session.set_compare_open(open).map_err(to_js_error)?;
                Redraw::Position
            }
            UserAction::InvariantsToggled(open) if open != session.invariants_open() => {
                session.set_invariants_open(open).map_err(to_js_error)?;
                Redraw::Position
            }
            UserAction::Quiz(field) => {
                session.quiz.answer(&session.stepper, &field);
                Redraw::Position
            }
            UserAction::CountOrderings => {
                let counted = session.count_orderings();
                counted.map_err(|err| JsError::new(&err.to_string()))?;
                Redraw::Position
            }
            // All: the comparison's guard picker follows the ordering's.
            UserAction::OpenShortest(variant) => {
                session.open_shortest(variant).map_err(to_js_error)?;
                drop(state);
                self.set_playing(false)?;
                return Ok(Redraw::All);
            }
            UserAction::Predict(on) => {
                session.set_predict(on).map_err(to_js_error)?;
                Redraw::Scenario
            }
            UserAction::Drag(knob, value) => {
                session.drag(knob, value).map_err(to_js_error)?;
                Redraw::ScenarioAndEditor
            }
            UserAction::Dragged => Redraw::Nothing,
            UserAction::Twist(twist, worker) => {
                session.twist(&worker, twist).map_err(to_js_error)?;
                Redraw::ScenarioAndEditor
            }
            UserAction::ApplyEditor(text) => {
                session.apply_editor(&text).map_err(to_js_error)?;
                Redraw::Scenario
            }
            UserAction::AddToEditor { what, text } => {
                let added = session.add_to_editor(&text, &what);
                drop(state);
                skeleton::show_editor(self, added.as_deref());
                return Ok(Redraw::Nothing);
            }
            UserAction::CopyLink => {
                drop(state);
                address::copy_link(self);
                return Ok(Redraw::Nothing);
            }
            UserAction::LoadHash => {
                drop(state);
                return self.load_hash();
            }
            UserAction::Statements(change) => {
                session.statements(change).map_err(to_js_error)?;
                drop(state);
                self.show_statements()?;
                return Ok(Redraw::Nothing);
            }
            UserAction::Lab(action) => {
                drop(state);
                return self.lab(action);
            }
            UserAction::ShowSide(side) => {
                state.side = side;
                if let Some(parts) = self.parts.borrow().as_ref() {
                    statements::show_side(&parts.statements, side);
                }
                Redraw::Nothing
            }
            _ => Redraw::Nothing,
        };
        Ok(redraw)
    }

    /// The hash changed: unless it is the one this page wrote, start over
    /// from it.
    fn load_hash(self: &Rc<Self>) -> Result<Redraw, JsValue> {
        if !address::is_foreign(self) {
            return Ok(Redraw::Nothing);
        }
        self.set_playing(false)?;
        let (show, shares) = {
            let state = self.state.borrow();
            (state.show, state.shares)
        };
        let options = Options {
            hash: true,
            show: Some(show),
            ..Options::default()
        };
        let fresh = State::initial(&self.window, &self.root, &options)?;
        *self.state.borrow_mut() = State { shares, ..fresh };
        Ok(Redraw::All)
    }

    fn set_playing(self: &Rc<Self>, playing: bool) -> Result<(), JsValue> {
        if let Some(id) = self.timer.take() {
            self.window.clear_interval_with_handle(id);
        }
        let mut state = self.state.borrow_mut();
        if playing {
            // Playing from the end starts over.
            let stepper = &mut state.session.stepper;
            if stepper.position() >= stepper.total() {
                stepper.seek(0);
            }
            let id = self
                .window
                .set_interval_with_callback_and_timeout_and_arguments_0(
                    self.listeners.ticker().as_ref().unchecked_ref(),
                    state.speed_ms,
                )?;
            self.timer.set(Some(id));
        }
        state.playing = playing;
        Ok(())
    }

    /// Detaches every listener and stops playing.
    fn stop(&self) -> Result<(), JsValue> {
        if let Some(id) = self.timer.take() {
            self.window.clear_interval_with_handle(id);
        }
        self.listeners.detach(self)
    }
}

/// What an action changed, so what to redraw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Redraw {
    /// Nothing on screen depends on it.
    Nothing,
    /// The place: the position's panels.
    Position,
    /// The timeline (a drag or an edit), keeping the editor's text.
    Scenario,
    /// The timeline and the editor's text (a new chapter).
    ScenarioAndEditor,
    /// Everything (a new language or a new link).
    All,
}
