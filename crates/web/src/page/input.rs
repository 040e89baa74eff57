//! The learner's input: DOM events become [`UserAction`]s.
//!
//! Listeners are attached once, on the playground's root, and find their
//! action in the clicked element's `data-action` (several playgrounds may
//! share a page, so nothing is looked up by id). They are `Fn`, not
//! `FnMut`: a host page may answer one of our events by driving the
//! playground again, which calls a listener while it is still running.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Element, Event, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use super::Page;
use super::dom;
use super::lab::LabAction;
use super::statements::Side;
use leasefence_course::playground::scenes::Pane;
use leasefence_course::playground::session::Knob;
use leasefence_course::playground::statements::{Move, Race};
use leasefence_course::playground::twist::Twist;
use leasefence_course::variants::Guard;
use leasefence_course::variants::Variant;

/// What the learner can do.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum UserAction {
    Step,
    Back,
    Reset,
    End,
    Seek(usize),
    TogglePlay,
    /// The play timer fired.
    Tick,
    Chapter(String),
    SwitchLang,
    Speed(i32),
    Guard(Guard),
    /// The comparison was opened or closed.
    CompareToggled(bool),
    /// The invariants panel was opened or closed.
    InvariantsToggled(bool),
    /// Count every ordering of the timeline.
    CountOrderings,
    /// Open the shortest ordering that fails on this variant's side.
    OpenShortest(Variant),
    Predict(bool),
    Guess(bool),
    /// The field picked as the one that decided a refusal.
    Field(String),
    /// The quiz's answer: the value picked as the one that tells two
    /// claims apart.
    Quiz(String),
    /// A boundary slider moved: the finish's time or the lease's length.
    Drag(Knob, u64),
    /// A boundary slider was let go.
    Dragged,
    /// Stall, crash or restart a worker from here on.
    Twist(Twist, String),
    /// Apply the editor's text.
    ApplyEditor(String),
    /// Add a template (`job`, `claim`, ...) to the editor's text.
    AddToEditor {
        what: String,
        text: String,
    },
    CopyLink,
    /// The URL hash changed.
    LoadHash,
    /// A move in the statement panel.
    Statements(Move),
    /// Show one side of the statement panel, where only one fits (a
    /// matter of layout: the session does not change).
    ShowSide(Side),
    /// Something done in the lab's panel.
    Lab(LabAction),
    /// Show a view in place of the scene's own: the switcher's button, or
    /// its place among them (the keys 1 to 9, from 0).
    Look(Pane),
    LookNth(usize),
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

struct Listener {
    kind: &'static str,
    on: On,
    closure: Closure<dyn Fn(Event)>,
}

/// A page's listeners and the play timer's callback, kept so `unmount`
/// can detach them.
#[derive(Default)]
pub(super) struct Listeners {
    attached: RefCell<Vec<Listener>>,
    ticker: RefCell<Option<Closure<dyn Fn()>>>,
}

impl Listeners {
    /// The play timer's callback (a [`UserAction::Tick`]).
    pub(super) fn ticker(&self) -> std::cell::Ref<'_, Closure<dyn Fn()>> {
        std::cell::Ref::map(self.ticker.borrow(), |ticker| {
            ticker
                .as_ref()
                .expect("listen() prepares the ticker before mount returns")
        })
    }

    /// Detaches every listener from `page`.
    pub(super) fn detach(&self, page: &Page) -> Result<(), JsValue> {
        for listener in self.attached.borrow_mut().drain(..) {
            let callback = listener.closure.as_ref().unchecked_ref();
            match listener.on {
                On::Root => page
                    .root
                    .remove_event_listener_with_callback(listener.kind, callback)?,
                On::RootCapturing => page.root.remove_event_listener_with_callback_and_bool(
                    listener.kind,
                    callback,
                    true,
                )?,
                On::Window => page
                    .window
                    .remove_event_listener_with_callback(listener.kind, callback)?,
            }
        }
        super::lanes::unwatch(page);
        Ok(())
    }
}

/// Attaches the listeners: clicks, changes, inputs and keys on the root;
/// the comparison's `toggle` (which does not bubble, so it is caught on the
/// way down); and, for a page that owns its URL, `hashchange`. Also
/// prepares the play timer's callback.
pub(super) fn listen(page: &Rc<Page>) -> Result<(), JsValue> {
    for kind in ["click", "change", "input", "keydown"] {
        attach(page, kind, On::Root, action_for)?;
    }
    attach(page, "toggle", On::RootCapturing, toggled)?;
    if page.state.borrow().use_hash {
        attach(page, "hashchange", On::Window, |_| {
            Some(UserAction::LoadHash)
        })?;
    }
    let weak = Rc::downgrade(page);
    *page.listeners.ticker.borrow_mut() = Some(Closure::<dyn Fn()>::new(move || {
        if let Some(page) = weak.upgrade() {
            page.run(UserAction::Tick);
        }
    }));
    Ok(())
}

/// Listens for `kind` and dispatches the action `to_action` makes of it.
fn attach(
    page: &Rc<Page>,
    kind: &'static str,
    on: On,
    to_action: fn(&Event) -> Option<UserAction>,
) -> Result<(), JsValue> {
    let weak: Weak<Page> = Rc::downgrade(page);
    let closure = Closure::<dyn Fn(Event)>::new(move |event: Event| {
        let Some(page) = weak.upgrade() else { return };
        if let Some(action) = to_action(&event) {
            page.run(action);
        }
    });
    let callback = closure.as_ref().unchecked_ref();
    match on {
        On::Root => page.root.add_event_listener_with_callback(kind, callback)?,
        On::RootCapturing => page
            .root
            .add_event_listener_with_callback_and_bool(kind, callback, true)?,
        On::Window => page
            .window
            .add_event_listener_with_callback(kind, callback)?,
    }
    page.listeners
        .attached
        .borrow_mut()
        .push(Listener { kind, on, closure });
    Ok(())
}

/// The comparison's, the statement panel's or the invariants' `<details>`
/// opened or closed.
fn toggled(event: &Event) -> Option<UserAction> {
    let details: Element = event.target()?.dyn_into().ok()?;
    let open = details.has_attribute("open");
    match details.class_list() {
        classes if classes.contains("lf-compare") => Some(UserAction::CompareToggled(open)),
        classes if classes.contains("lf-statements") => {
            Some(UserAction::Statements(Move::Open(open)))
        }
        classes if classes.contains("lf-invariants") => Some(UserAction::InvariantsToggled(open)),
        classes if classes.contains("lf-lab") => Some(UserAction::Lab(LabAction::Toggled(open))),
        _ => None,
    }
}

/// Maps a DOM event to an action, if it is one of ours.
fn action_for(event: &Event) -> Option<UserAction> {
    let target: Element = event.target()?.dyn_into().ok()?;
    if event.type_() == "keydown" {
        return key_action(event, &target);
    }
    // A click on an event row jumps to just after that event.
    if event.type_() == "click" {
        let row = target.closest("[data-event]").ok().flatten();
        if let Some(index) =
            row.and_then(|row| dom::attribute(&row, "data-event")?.parse::<usize>().ok())
        {
            return Some(UserAction::Seek(index + 1));
        }
    }
    let source = target.closest("[data-action]").ok()??;
    // A step button at its end has nothing to do (the keys are read above).
    if dom::attribute(&source, "aria-disabled").as_deref() == Some("true") {
        return None;
    }
    let kind = event.type_();
    let tag = dom::tag(&source);
    let is_field = tag == "INPUT" || tag == "SELECT";
    // Buttons act on click; fields on input (sliders) or change.
    if is_field == (kind == "click") {
        return None;
    }
    let name = dom::attribute(&source, "data-action")?;
    let arg = dom::attribute(&source, "data-arg").unwrap_or_default();
    let value = || field_value(&source);
    Some(match name.as_str() {
        "step" => UserAction::Step,
        "back" => UserAction::Back,
        "reset" => UserAction::Reset,
        "end" => UserAction::End,
        "play" => UserAction::TogglePlay,
        "lang" => UserAction::SwitchLang,
        "copy-link" => UserAction::CopyLink,
        "next-chapter" | "open-chapter" => UserAction::Chapter(arg),
        "twist" => {
            let (twist, worker) = arg.split_once(':')?;
            UserAction::Twist(Twist::from_name(twist)?, worker.to_owned())
        }
        "guess" => UserAction::Guess(arg == "accept"),
        "stmt" => UserAction::Statements(statement_move(&arg)?),
        "stmt-side" => UserAction::ShowSide(Side::from_name(&arg)?),
        // A choice that is no race (the lab's, shown only while the lab's
        // race is) changes nothing, and the panel is drawn again to say so.
        "race" if kind == "change" => {
            UserAction::Statements(Race::from_name(&value()).map_or(Move::Follow, Move::Race))
        }
        "field" => UserAction::Field(arg),
        "quiz" => UserAction::Quiz(arg),
        "pane" => UserAction::Look(Pane::from_arg(&arg)?),
        "count-orderings" => UserAction::CountOrderings,
        "lab-level" => UserAction::Lab(LabAction::Level(arg, lab_text(&source))),
        "lab-grade" => UserAction::Lab(LabAction::Grade(lab_text(&source)?)),
        "lab-reset" => UserAction::Lab(LabAction::Reset),
        "lab-hint" => UserAction::Lab(LabAction::Hint(lab_text(&source)?)),
        "lab-open" => UserAction::Lab(LabAction::Open),
        "open-shortest" => UserAction::OpenShortest(Variant::parse(&arg)?),
        "apply-editor" => UserAction::ApplyEditor(editor_text(&source)?),
        "add" => UserAction::AddToEditor {
            what: arg,
            text: editor_text(&source)?,
        },
        "seek" if kind == "input" => UserAction::Seek(value().parse().ok()?),
        "boundary" if kind == "input" => UserAction::Drag(Knob::Finish, value().parse().ok()?),
        "lease" if kind == "input" => UserAction::Drag(Knob::Lease, value().parse().ok()?),
        "boundary" | "lease" if kind == "change" => UserAction::Dragged,
        "chapter" if kind == "change" => UserAction::Chapter(value()),
        "speed" if kind == "change" => UserAction::Speed(value().parse().ok()?),
        "guard" if kind == "change" => UserAction::Guard(if value() == "id_and_owner" {
            Guard::IdAndOwner
        } else {
            Guard::IdOnly
        }),
        "predict" if kind == "change" => UserAction::Predict(
            source
                .dyn_ref::<HtmlInputElement>()
                .is_some_and(HtmlInputElement::checked),
        ),
        _ => return None,
    })
}

/// The playback keys, unless the learner is typing or pressing a button.
fn key_action(event: &Event, target: &Element) -> Option<UserAction> {
    let key: &web_sys::KeyboardEvent = event.dyn_ref()?;
    let tag = dom::tag(target);
    if matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT")
        || (matches!(tag.as_str(), "BUTTON" | "SUMMARY")
            && matches!(key.key().as_str(), " " | "Enter"))
        || key.ctrl_key()
        || key.meta_key()
        || key.alt_key()
    {
        return None;
    }
    let action = match key.key().as_str() {
        "ArrowRight" => UserAction::Step,
        "ArrowLeft" => UserAction::Back,
        " " => UserAction::TogglePlay,
        "Home" => UserAction::Reset,
        "End" => UserAction::End,
        digit @ ("1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9") => {
            UserAction::LookNth(usize::from(digit.as_bytes()[0] - b'1'))
        }
        _ => return None,
    };
    // Inside the statement panel the keys step statements (and a key the
    // panel does not take keeps what the browser does with it).
    let action = if target.closest(".lf-statements").ok().flatten().is_some() {
        let name = match action {
            UserAction::Step => "step",
            UserAction::Back => "back",
            UserAction::Reset => "reset",
            UserAction::End => "end",
            _ => return None,
        };
        UserAction::Statements(statement_move(name)?)
    } else {
        action
    };
    event.prevent_default();
    Some(action)
}

/// A statement panel button's move.
fn statement_move(name: &str) -> Option<Move> {
    Some(match name {
        "step" => Move::Step,
        "back" => Move::Back,
        "reset" => Move::Reset,
        "end" => Move::End,
        _ => return None,
    })
}

/// An input's or a select's value.
fn field_value(source: &Element) -> String {
    source
        .dyn_ref::<HtmlInputElement>()
        .map(HtmlInputElement::value)
        .or_else(|| {
            source
                .dyn_ref::<HtmlSelectElement>()
                .map(HtmlSelectElement::value)
        })
        .unwrap_or_default()
}

/// The text of the lab's box, beside its grade button.
fn lab_text(button: &Element) -> Option<String> {
    let lab = button.closest(".lf-lab").ok()??;
    let area = lab.query_selector("textarea").ok()??;
    Some(area.dyn_ref::<HtmlTextAreaElement>()?.value())
}

/// The text of the editor a button belongs to.
fn editor_text(button: &Element) -> Option<String> {
    let editor = button.closest(".lf-editor").ok()??;
    let area = editor.query_selector("textarea").ok()??;
    Some(area.dyn_ref::<HtmlTextAreaElement>()?.value())
}
