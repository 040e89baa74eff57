//! Everything the learner has chosen, in one plain value: the language,
//! the timeline and their place in it ([`Stepper`]), the naive guard to
//! compare against and whether that comparison is open, and what the editor
//! last said.
//!
//! Every decision the page makes lives here or in [`crate::playground::view`],
//! so native tests can drive a whole session (load a chapter, drag a finish,
//! apply an edit) and check what would be drawn. The page only keeps what
//! belongs to the browser: timers, elements, the clipboard.

use crate::key;
use crate::lab::Bench;
use crate::playground::explain::error_text;
use crate::playground::lesson::{self, LESSON, Lesson};
use crate::playground::quiz::Quiz;
use crate::playground::scenes::Cursor;
use crate::playground::show::Show;
use crate::playground::statements::{Move, Race, StatementPanel};
use crate::playground::status::{Status, StatusKind};
use crate::playground::stepper::{SANDBOX, Stepper};
use crate::playground::twist::{self, Twist};
use crate::playground::{CHAPTERS, Lang, Message, chapters, link};
use crate::variants::Guard;
use crate::variants::unfenced::Unfenced;
use leasefence::error::Result;
use leasefence::scenario::Scenario;

/// One of the boundary panel's two sliders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knob {
    /// The time of the finish the chapter is about.
    Finish,
    /// The length of the lease that finish presents.
    Lease,
}

/// Where a session starts: what the host asked for and what the browser
/// says, each optional; [`Session::start`] picks among them.
#[derive(Debug, Clone, Default)]
pub struct Start {
    /// `mount`'s `lang` option.
    pub lang: Option<String>,
    /// `mount`'s `scenario` option (a chapter id).
    pub chapter: Option<String>,
    /// The author's own scenario, with its title and narration.
    pub lesson: Option<lesson::Source>,
    /// The URL hash, when the page owns its URL.
    pub hash: Option<String>,
    /// The `lang` of the element or its closest ancestor.
    pub host_lang: Option<String>,
    /// The browser's preferred language.
    pub browser_lang: Option<String>,
    /// `mount`'s `predict` option: whether the learner predicts each claim
    /// and finish before it is shown. Left out, a link's `predict=0` or
    /// `predict=1` decides, else a chapter or a lesson opens predicting
    /// (its question first, not its ending) and a shared timeline does
    /// not.
    pub predict: Option<bool>,
    /// `mount`'s `lab` option: a level of the lab to open (`finish`).
    pub lab: Option<String>,
    /// What the playground shows beyond its timeline. A lab opened by the
    /// `lab` option or by the link is shown whatever this says.
    pub show: Show,
}

impl Start {
    /// Whether the session this starts is drawn without SQLite: the page's
    /// module comes in two parts, SQLite in the second, and the bootstrap
    /// mounts a playground that would run it before its first drawing
    /// once that part is in, instead of letting a drawing stop for it.
    /// Only a chapter drawn from its written timeline that opens no panel
    /// ([`chapters::Chapter::drawn_without_sqlite`]), named by the host or
    /// by a link that says nothing else but its version, the language and
    /// whether to predict, is; an author's lesson, a shared scenario, a
    /// place in a timeline or in the statement panel, and the lab are not.
    /// A wrong `false` only makes a playground wait; a wrong `true` would
    /// make a drawing stop for the rest (tests/no_sqlite_before_drawing.rs and
    /// e2e/split.test.mjs check that none is).
    pub fn draws_without_sqlite(&self) -> bool {
        let params = self.hash.as_deref().map(link::params).unwrap_or_default();
        let plain_link = (params.iter())
            .all(|(name, _)| ["v", "chapter", "lang", "predict"].contains(&name.as_str()));
        self.lesson.is_none()
            && self.lab.is_none()
            && plain_link
            && shown(self.wanted(&params)).drawn_without_sqlite()
    }

    /// The language the session begins in: the option, the link's, the
    /// host element's, the browser's, else English.
    pub fn lang(&self) -> Lang {
        self.lang_in(&self.hash.as_deref().map(link::params).unwrap_or_default())
    }

    /// [`Start::lang`], the link's parameters read.
    fn lang_in(&self, params: &[(String, String)]) -> Lang {
        [
            self.lang.as_deref(),
            link::param(params, "lang"),
            self.host_lang.as_deref(),
            self.browser_lang.as_deref(),
        ]
        .into_iter()
        .flatten()
        .find_map(Lang::from_tag)
        .unwrap_or(Lang::En)
    }

    /// The chapter a link, else the host, asks for.
    fn wanted<'a>(&'a self, params: &'a [(String, String)]) -> Option<&'a str> {
        link::param(params, "chapter").or(self.chapter.as_deref())
    }
}

/// The chapter shown for `wanted`: it, or the first when there is none
/// by that id.
fn shown(wanted: Option<&str>) -> &'static chapters::Chapter {
    wanted.and_then(chapters::find).unwrap_or(&CHAPTERS[0])
}

/// The learner's session; see the module documentation.
#[derive(Debug, Clone)]
pub struct Session {
    /// The language everything is said in.
    pub lang: Lang,
    /// The timeline and the learner's place in it.
    pub stepper: Stepper,
    pub(super) guard: Guard,
    pub(super) compare_open: bool,
    /// The scenario played with the naive guard, kept while the comparison
    /// is open.
    pub(super) unfenced: Option<Unfenced>,
    /// What the editor (or a refused link) last said.
    pub editor_status: Option<Status>,
    /// A chapter id the host asked for that does not exist.
    pub unknown_chapter: Option<String>,
    /// Why the author's lesson could not be read, in English with the key
    /// and the line and column, for the author's console (the learner is
    /// told in their language, in `notice`).
    pub lesson_error: Option<String>,
    /// What went wrong with what the page was asked to show (an unknown
    /// chapter, a broken lesson), said to the learner once, in the
    /// language the page opened in: [`Session::switch_lang`] drops it.
    pub notice: Option<String>,
    /// The author's lesson, when the page has one.
    lesson: Option<Lesson>,
    /// The chapters the learner has stepped to the end of, in course
    /// order (the page keeps them between visits).
    progress: Vec<&'static str>,
    /// The statement panel: its race and the learner's place in it.
    pub statement_panel: StatementPanel,
    /// The link the session began from named a place in the statement
    /// panel (`&stmt=timeline.7`): the page opens there, not at its top.
    pub linked_statement: bool,
    /// The invariants panel: its checks and the census ([`super::invariants`]).
    pub(crate) invariants_panel: super::invariants::panel::InvariantsPanel,
    /// The lab, when open ([`super::lab`]).
    pub(crate) lab: Option<Bench>,
    /// The lab's levels passed, in the lab's order.
    pub(crate) labs_passed: Vec<&'static str>,
    /// The quiz's answer ([`super::quiz`]).
    pub quiz: Quiz,
    /// What the playground shows beyond its timeline ([`super::show`]).
    pub(crate) show: Show,
    /// The learner's scene, in a lesson ([`super::scenes`]).
    pub(crate) scene: Cursor,
}

impl Session {
    /// A session on `scenario`, at its start.
    pub fn new(lang: Lang, chapter: &str, scenario: Scenario) -> Result<Session> {
        let mut session = Session {
            lang,
            stepper: Stepper::new(chapter, scenario, 0)?,
            guard: Guard::IdOnly,
            compare_open: false,
            unfenced: None,
            editor_status: None,
            unknown_chapter: None,
            lesson_error: None,
            notice: None,
            lesson: None,
            progress: Vec::new(),
            statement_panel: StatementPanel::default(),
            linked_statement: false,
            invariants_panel: Default::default(),
            lab: None,
            labs_passed: Vec::new(),
            quiz: Quiz::default(),
            show: Show::EVERYTHING,
            scene: Cursor::default(),
        };
        session.open_panels_for_chapter()?;
        Ok(session)
    }

    /// The session a mount begins with. The language: the option, the
    /// link's, the host element's, the browser's, else English. The
    /// timeline: a link's scenario, else the link's or the option's
    /// chapter, else the first chapter (an unknown id is remembered so the
    /// page can say so). A link's `step` is where the learner stands.
    pub fn start(start: &Start) -> Result<Session> {
        let params = start.hash.as_deref().map(link::params).unwrap_or_default();
        let param = |name| link::param(&params, name);
        let lang = start.lang_in(&params);
        let mut shared = param("scenario").map(link::decode);
        let mut refused = None;
        let mut notice = None;
        let mut lesson_error = None;
        let mut lesson = start.lesson.as_ref().and_then(|source| {
            Lesson::read(source)
                .map_err(|err| {
                    let why = match &source.scenario {
                        Err(fetching) => fetching.clone(),
                        Ok(_) => err.text(lang),
                    };
                    notice = Some(lang.fill(key!("lesson.error"), &[("message", why)]));
                    lesson_error = Some(match &source.scenario {
                        Err(fetching) => fetching.clone(),
                        Ok(_) => err.to_string(),
                    });
                })
                .ok()
        });
        // A link's lesson (a scenario with a title or a narration: an
        // iframe's) is shown as the lesson, in place of the author's.
        let linked_lesson = shared
            .take_if(|linked| matches!(linked, Ok(lesson) if lesson.has_words()))
            .and_then(Result::ok);
        let from_link = linked_lesson.is_some();
        if from_link {
            notice = None; // the author's lesson, if broken, is not what is shown
        }
        lesson = linked_lesson.or(lesson);
        let wanted = start.wanted(&params);
        let (chapter, scenario) = match (shared, &lesson) {
            (Some(Ok(linked)), _) => (SANDBOX.to_owned(), linked.scenario),
            (None, Some(lesson)) if from_link || wanted.is_none_or(|id| id == LESSON) => {
                (LESSON.to_owned(), lesson.scenario.clone())
            }
            (other, _) => {
                if let Some(Err(message)) = other {
                    refused = Some(Message::around(key!("hash.error"), &message));
                }
                let chapter = shown(wanted);
                if let Some(wanted) = wanted.filter(|wanted| *wanted != chapter.id) {
                    let title = lang.text(chapter.title).to_owned();
                    let values = [("wanted", wanted.to_owned()), ("title", title)];
                    notice = notice.or(Some(lang.fill(key!("chapter.unknown"), &values)));
                }
                (chapter.id.to_owned(), Scenario::parse(chapter.scenario())?)
            }
        };
        let position = param("step").and_then(|step| step.parse::<usize>().ok());
        let linked_predict = match param("predict") {
            Some("0") => Some(false),
            Some("1") => Some(true),
            _ => None,
        };
        let predict = (start.predict.or(linked_predict)).unwrap_or(chapter.as_str() != SANDBOX);
        let mut session = Session::new(lang, &chapter, scenario)?;
        session.set_predict(predict)?;
        session.stepper.seek(position.unwrap_or(0));
        session.statements(Move::Follow)?;
        session.editor_status = refused.map(|message| Status {
            kind: StatusKind::Refused,
            message,
        });
        session.unknown_chapter = wanted
            .filter(|id| *id != LESSON && chapters::find(id).is_none())
            .map(str::to_owned);
        session.notice = notice;
        session.lesson = lesson;
        session.lesson_error = lesson_error;
        session.show = start.show;
        if let Some((race, position)) = param("stmt").and_then(link::read_statement_place) {
            for change in [Move::Race(race), Move::Open(true), Move::Seek(position)] {
                session.statements(change)?;
            }
            session.linked_statement = true;
        }
        let unread = link::unread(&params);
        if !unread.is_empty() {
            let values = [("what", unread.join(", "))];
            session.notice = session
                .notice
                .or(Some(lang.fill(key!("link.unread"), &values)));
        }
        if let Some(level) = param("lab").or(start.lab.as_deref()) {
            session.show.lab = true;
            if !session.open_lab(level) {
                let values = [("wanted", level.to_owned())];
                session.notice = session
                    .notice
                    .or(Some(lang.fill(key!("lab.unknown"), &values)));
            }
            match param("sql").map(link::decode_sql) {
                Some(Ok(sql)) => session.set_lab_text(&sql),
                Some(Err(message)) => {
                    let message = message.text(lang).to_owned();
                    let refused = lang.fill(key!("lab.link_error"), &[("message", message)]);
                    session.notice = session.notice.or(Some(refused));
                }
                None => {}
            }
        }
        Ok(session)
    }

    /// The author's lesson, if the page has one.
    pub fn lesson(&self) -> Option<&Lesson> {
        self.lesson.as_ref()
    }

    /// A chapter's title: the lesson's own, a chapter's, or the sandbox's.
    pub fn title_of(&self, chapter: &str) -> String {
        match (chapter, &self.lesson) {
            (LESSON, Some(lesson)) => lesson.title(self.lang),
            _ => self
                .lang
                .text(crate::playground::lesson::title_key(chapter))
                .to_owned(),
        }
    }

    /// The chapters finished so far, in course order.
    pub fn progress(&self) -> &[&'static str] {
        &self.progress
    }

    /// Restores the chapters finished on an earlier visit; ids that are
    /// not chapters (an old or a hand-edited store) are left out.
    pub fn restore_progress<'a>(&mut self, ids: impl IntoIterator<Item = &'a str>) {
        let finished: Vec<&str> = ids.into_iter().collect();
        self.progress = CHAPTERS
            .iter()
            .map(|chapter| chapter.id)
            .filter(|id| finished.contains(id))
            .collect();
    }

    /// Marks the chapter finished once the learner has answered every one
    /// of its questions ([`Stepper::complete`]); `true` when that is new
    /// (the page then saves the progress). Reaching its end without them
    /// is watching, not finishing.
    pub fn note_progress(&mut self) -> bool {
        let stepper = &self.stepper;
        let Some(chapter) = chapters::find(stepper.chapter()).filter(|_| stepper.complete()) else {
            return false;
        };
        if self.progress.contains(&chapter.id) {
            return false;
        }
        let mut finished = std::mem::take(&mut self.progress);
        finished.push(chapter.id);
        self.restore_progress(finished);
        true
    }

    /// The naive guard the comparison uses.
    pub fn guard(&self) -> Guard {
        self.guard
    }

    /// Whether the fencing off vs on comparison is open.
    pub fn compare_open(&self) -> bool {
        self.compare_open
    }

    /// The scenario played with the naive guard, while the comparison is open.
    pub fn unfenced(&self) -> Option<&Unfenced> {
        self.unfenced.as_ref()
    }

    /// Replaces the timeline, keeping the learner's settings; a chapter
    /// about the comparison opens it.
    pub fn load(&mut self, chapter: &str, scenario: Scenario, position: usize) -> Result<()> {
        self.stepper.load(chapter, scenario, position)?;
        self.unfenced = None;
        self.open_panels_for_chapter()
    }

    /// Loads a chapter by id. An id that is not a chapter leaves the
    /// timeline as it is and calls it the learner's own.
    pub fn load_chapter(&mut self, id: &str) -> Result<()> {
        if let (LESSON, Some(lesson)) = (id, &self.lesson) {
            let scenario = lesson.scenario.clone();
            return self.load(LESSON, scenario, 0);
        }
        match chapters::find(id) {
            Some(chapter) => self.load(id, Scenario::parse(chapter.scenario())?, 0),
            None => {
                self.stepper.chapter = SANDBOX.into();
                Ok(())
            }
        }
    }

    /// Opens or closes the comparison; an open one replays the naive queue.
    pub fn set_compare_open(&mut self, open: bool) -> Result<()> {
        self.compare_open = open;
        self.refresh_panels()
    }

    /// Picks the naive guard to compare against.
    pub fn set_guard(&mut self, guard: Guard) -> Result<()> {
        self.guard = guard;
        self.unfenced = None;
        self.refresh_panels()
    }

    /// Turns prediction on or off; a question waiting is dropped.
    pub fn set_predict(&mut self, on: bool) -> Result<()> {
        self.stepper.set_predict(on);
        // What the statement panel may take apart depends on it.
        self.statements(Move::Follow)
    }

    /// Moves a boundary slider: the chosen finish's time, or the length of
    /// the lease it presents. The timeline becomes the learner's own.
    pub fn drag(&mut self, knob: Knob, value: u64) -> Result<()> {
        let moved = match knob {
            Knob::Finish => self
                .stepper
                .move_finish(value)
                .map(|()| key!("boundary.forked")),
            Knob::Lease => self.stepper.set_lease(value).map(|()| key!("lease.forked")),
        };
        // A value the slider's own range does not allow (a page that drew
        // a stale range, a script) is refused in words, changing nothing.
        let forked = match moved {
            Ok(forked) => forked,
            Err(err @ leasefence::Error::InvalidInput { .. }) => {
                self.refuse_edit(&Message::new(|lang| error_text(lang, &err)));
                return Ok(());
            }
            Err(err) => return Err(err),
        };
        self.unfenced = None;
        self.editor_status = Some(Status {
            kind: StatusKind::Done,
            message: Message::key(forked),
        });
        self.refresh_panels()
    }

    /// Stalls, crashes or restarts `worker` from the learner's place on
    /// (see [`twist`]); the timeline becomes the learner's own. A worker
    /// that is not an actor changes nothing.
    pub fn twist(&mut self, worker: &str, twist: Twist) -> Result<()> {
        let stepper = &self.stepper;
        if !twist::actors(stepper.scenario()).contains(&worker) {
            return Ok(());
        }
        let now = stepper.frame().map_or(0, |frame| frame.result.at);
        let Some(twisted) =
            twist::apply(stepper.scenario(), stepper.position(), now, worker, twist)?
        else {
            return Ok(());
        };
        let position = stepper.position();
        self.stepper.rewrite(twisted, position)?;
        self.unfenced = None;
        self.editor_status = Some(Status {
            kind: StatusKind::Done,
            message: Message::key(key!("twist.forked")),
        });
        self.refresh_panels()
    }

    /// Says everything in the other language from now on. What the editor
    /// last said is kept (it is said in both); the notice about how the
    /// page was opened was said once, and goes.
    pub fn switch_lang(&mut self) {
        self.lang = self.lang.other();
        self.notice = None;
    }

    /// Applies the editor's text as the new timeline, or says why not and
    /// changes nothing.
    pub fn apply_editor(&mut self, text: &str) -> Result<()> {
        let parsed = chapters::read_for_the_page(text);
        match parsed {
            // The same timeline: the chapter stays the chapter, and the
            // learner's place stays where it was.
            Ok(scenario) if &scenario == self.stepper.scenario() => {
                self.editor_status = Some(Status {
                    kind: StatusKind::Done,
                    message: Message::key(key!("editor.unchanged")),
                });
            }
            Ok(scenario) => {
                let count = scenario.events().len();
                self.load(SANDBOX, scenario, 0)?;
                let values = [("events", count.to_string())];
                self.editor_status = Some(Status {
                    kind: StatusKind::Done,
                    message: Message::fill(key!("editor.applied"), &values),
                });
            }
            Err(refusal) => self.refuse_edit(&Message::new(|lang| refusal.text(lang))),
        }
        Ok(())
    }

    /// Appends a template job or event (`job`, `claim`, `finish`, `send`)
    /// to the editor's JSON and returns the new text; nothing is applied
    /// until the learner presses Apply. Text that is not JSON is left alone
    /// and the refusal is said.
    pub fn add_to_editor(&mut self, text: &str, what: &str) -> Option<String> {
        let mut document = match leasefence::scenario::read_json(text) {
            Ok(document) => document,
            Err(err) => {
                self.refuse_edit(&Message::new(|lang| error_text(lang, &err)));
                return None;
            }
        };
        let last_at = self.stepper.scenario().events().last().map_or(0, |e| e.at);
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
        self.editor_status = Some(Status {
            kind: StatusKind::Pending,
            message: Message::key(key!("editor.pending")),
        });
        serde_json::to_string_pretty(&document).ok()
    }

    /// The address of what is on screen (see [`link::compose`]).
    pub fn link(&self, with_step: bool) -> String {
        let place = link::Place {
            step: self.stepper.position(),
            // The lab's race is the lab's answer: a link opens the level.
            statements: (self.statement_panel.open && self.statement_panel.race != Race::Lab)
                .then_some((self.statement_panel.race, self.statement_panel.position)),
        };
        let lab = self.lab.as_ref().map(|bench| link::LabPlace {
            level: bench.level.id,
            sql: (bench.sql != bench.level.start.trim()).then_some(bench.sql.as_str()),
        });
        let shown = link::Shown::of(
            self.stepper.chapter(),
            self.lesson.as_ref(),
            self.stepper.scenario(),
        );
        link::compose(
            shown,
            (self.lang, self.stepper.predict()),
            with_step.then_some(place),
            lab,
        )
    }

    /// Says why an edit was refused.
    fn refuse_edit(&mut self, why: &Message) {
        self.editor_status = Some(Status {
            kind: StatusKind::Refused,
            message: Message::around(key!("editor.error"), why),
        });
    }
}
