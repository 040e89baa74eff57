//! Where the learner is in a timeline, and the moves they can make: step,
//! back, jump, predict a verdict, drag a finish across the boundary, change
//! the length of the lease that finish depends on.
//!
//! Plain state, no browser: the page keeps one `Stepper` and draws it, and
//! native tests drive it directly. Every position is a frame the core
//! computed ([`Timeline`]), so moving back is exact.

mod boundary;

use crate::timeline::{Frame, Timeline};
pub use boundary::Lease;
use boundary::lesson_finish;
use leasefence::error::Result;
use leasefence::fence::{Condition, Conditions};
use leasefence::replay::Outcome;
use leasefence::scenario::{Action, Scenario};

/// The chapter id of a timeline the learner made or changed.
pub const SANDBOX: &str = "sandbox";

/// What a step forward did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stepped {
    /// The next event was applied.
    Moved,
    /// Every event was already applied.
    AtEnd,
    /// The next event is a finish or a claim and the learner predicts first.
    AskFirst,
    /// A prediction is still awaited; nothing moved.
    Waiting,
}

/// What a prediction asks about the next event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Will the queue accept this finish?
    Finish,
    /// Will this claim get a job?
    Claim,
    /// Which condition did the refused finish just shown fail? Asked after
    /// a refused finish that presented a stamp.
    Field,
}

/// The outcome of the learner's last prediction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Guessed {
    /// What was asked.
    pub question: Question,
    /// Whether it happened: the finish was accepted, the claim got a job.
    pub happened: bool,
    /// Whether the learner said so.
    pub right: bool,
}

/// The learner's answer to "which condition did the refused finish fail?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldGuess {
    /// The condition the learner picked, by its field.
    pub picked: Condition,
    /// Every condition the finish failed (R4: one `WHERE` clause checks
    /// them together, so any of them is a right answer).
    pub failed: Conditions,
}

impl FieldGuess {
    /// Whether the learner picked a condition the finish failed.
    pub fn right(&self) -> bool {
        self.failed.contains(self.picked)
    }
}

/// What the learner is asked, or was last told, at their place. One value
/// rather than a flag per question, so no feedback outlives its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Prompt {
    /// Nothing asked or answered here.
    #[default]
    Idle,
    /// A prediction about the next event awaits; the event is not applied.
    Predicting(Question),
    /// The prediction was answered and its event applied.
    Guessed(Guessed),
    /// The prediction was answered, its finish refused with a stamp, and
    /// "which condition did it fail?" awaits.
    AskingField(Guessed),
    /// That question was answered.
    AnsweredField(FieldGuess),
}

/// What the learner answered about one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Answer {
    /// The prediction.
    guessed: Guessed,
    /// "Which condition did it fail?", once answered.
    field: Option<FieldGuess>,
}

/// A timeline and the learner's place in it. Read through its methods;
/// it changes by the moves it offers (so a position stays within the
/// timeline and answers belong to its own events), and the session marks
/// which chapter a timeline it loaded came from.
#[derive(Debug, Clone)]
pub struct Stepper {
    /// The chapter id, or [`SANDBOX`]; the session marks a timeline that
    /// left its chapter.
    pub(crate) chapter: String,
    /// The scenario on screen.
    scenario: Scenario,
    /// Its frames.
    timeline: Timeline,
    /// How many events are applied.
    position: usize,
    /// Whether each finish and claim is predicted before it is shown.
    predict: bool,
    /// What is asked or told at this place (see [`Stepper::prompt`]).
    prompt: Prompt,
    /// Predictions right, and made.
    score: (usize, usize),
    /// Each answered prediction and field question of this timeline, by
    /// event index: stepping back and forth shows an answer again instead
    /// of asking and scoring it twice, and the chapter is complete when
    /// every question has one ([`Stepper::complete`]).
    answers: Vec<Option<Answer>>,
    /// The finish the boundary slider moves (see [`Stepper::new`]).
    boundary_event: Option<usize>,
    /// The sliders' ranges, fixed when a timeline is loaded so that a knob
    /// does not move under the learner's finger while they drag it.
    ranges: Ranges,
    /// The chapter a changed timeline started from, so the page can still
    /// say what it was about; the session names it for a timeline it
    /// opened from a chapter's panel.
    pub(crate) forked_from: Option<String>,
    /// Whether a boundary slider made this timeline: the learner moving a
    /// slider keeps it in hand (see [`Stepper::slid`]).
    slid: bool,
}

/// How far the finish and the lease sliders reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ranges {
    /// The latest time the finish may be moved to, in ms.
    pub finish_max: u64,
    /// The longest lease the claim may be given, in ms.
    pub lease_max: u64,
}

impl Stepper {
    /// A stepper at `position` of `scenario`. The boundary finish is the
    /// one the lesson is about: the last finish refused although its
    /// worker held a claim (a stale stamp), else the last finish made with
    /// a claim, else the last finish. A chapter's own timeline is read
    /// where it is written down ([`super::chapters::timeline_of`]).
    pub fn new(chapter: impl Into<String>, scenario: Scenario, position: usize) -> Result<Stepper> {
        let chapter = chapter.into();
        let timeline = super::chapters::timeline_of(&chapter, &scenario)?;
        let mut stepper = Stepper {
            chapter,
            position: position.min(scenario.events().len()),
            boundary_event: lesson_finish(&timeline),
            scenario,
            timeline,
            predict: false,
            prompt: Prompt::Idle,
            score: (0, 0),
            answers: Vec::new(),
            ranges: Ranges {
                finish_max: 0,
                lease_max: 0,
            },
            forked_from: None,
            slid: false,
        };
        stepper.ranges = stepper.measure_ranges();
        Ok(stepper)
    }

    /// Loads the learner's change of this timeline, keeping the boundary
    /// finish and the sliders' ranges (the fresh stepper's own choice of
    /// both, made for a new timeline, is replaced on purpose).
    fn fork(&mut self, scenario: Scenario, boundary: usize) -> Result<()> {
        let ranges = self.ranges;
        self.rewrite(scenario, boundary + 1)?;
        self.boundary_event = Some(boundary);
        self.ranges = ranges;
        self.slid = true;
        Ok(())
    }

    /// Whether a boundary slider made this timeline. Its questions ahead
    /// are the learner's own experiment's: the sliders stay in their hand
    /// while they go on dragging, instead of locking under the pointer.
    pub fn slid(&self) -> bool {
        self.slid
    }

    /// Replaces the timeline with the learner's rewrite of it, standing at
    /// `position`; the timeline is now the learner's own ([`SANDBOX`]) and
    /// remembers which chapter it came from.
    pub fn rewrite(&mut self, scenario: Scenario, position: usize) -> Result<()> {
        let from = match self.chapter.as_str() {
            SANDBOX => self.forked_from.take(),
            chapter => Some(chapter.to_owned()),
        };
        self.load(SANDBOX, scenario, position)?;
        self.forked_from = from;
        Ok(())
    }

    /// Replaces the timeline, keeping the learner's settings.
    pub fn load(
        &mut self,
        chapter: impl Into<String>,
        scenario: Scenario,
        position: usize,
    ) -> Result<()> {
        let fresh = Stepper::new(chapter, scenario, position)?;
        *self = Stepper {
            predict: self.predict,
            score: self.score,
            ..fresh
        };
        Ok(())
    }

    /// The chapter id, or [`SANDBOX`] (or the author's lesson).
    pub fn chapter(&self) -> &str {
        &self.chapter
    }

    /// The scenario on screen.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Its frames, one per event.
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// How many events are applied.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Whether each finish and claim is predicted before it is shown.
    pub fn predict(&self) -> bool {
        self.predict
    }

    /// Turns predicting on or off; a question waiting is dropped (an
    /// answered one keeps its feedback).
    pub fn set_predict(&mut self, on: bool) {
        self.predict = on;
        self.drop_question();
    }

    /// Predictions right, and made.
    pub fn score(&self) -> (usize, usize) {
        self.score
    }

    /// The finish the boundary slider moves, if the timeline has one.
    pub fn boundary_event(&self) -> Option<usize> {
        self.boundary_event
    }

    /// How far the sliders reach, fixed when the timeline was loaded.
    pub fn ranges(&self) -> Ranges {
        self.ranges
    }

    /// The chapter a changed timeline started from.
    pub fn forked_from(&self) -> Option<&str> {
        self.forked_from.as_deref()
    }

    /// How many events the timeline has.
    pub fn total(&self) -> usize {
        self.scenario.events().len()
    }

    /// The frame of the last applied event.
    pub fn frame(&self) -> Option<&Frame> {
        self.position
            .checked_sub(1)
            .and_then(|i| self.timeline.frames.get(i))
    }

    /// What is asked or told at the learner's place.
    pub fn prompt(&self) -> Prompt {
        self.prompt
    }

    /// Drops an open question (prediction was turned off); a prediction
    /// already answered and scored keeps its feedback.
    fn drop_question(&mut self) {
        self.prompt = match self.prompt {
            Prompt::Predicting(_) => Prompt::Idle,
            Prompt::AskingField(guessed) => Prompt::Guessed(guessed),
            told => told,
        };
    }

    /// One event forward, or a question first when predicting a finish or
    /// a claim not answered yet. Over an event already answered it moves
    /// on and shows that answer again, unscored.
    pub fn step(&mut self) -> Stepped {
        if self.question().is_some() {
            return Stepped::Waiting;
        }
        if self.position >= self.total() {
            return Stepped::AtEnd;
        }
        let index = self.position;
        if let Some(question) = self.unanswered(index) {
            self.prompt = Prompt::Predicting(question);
            return Stepped::AskFirst;
        }
        self.position += 1;
        self.prompt = match self.answer(index).filter(|_| self.predict) {
            Some(answer) => self.told(answer),
            None => Prompt::Idle,
        };
        Stepped::Moved
    }

    /// The question event `index` asks while predicting, if it has one the
    /// learner has not answered.
    fn unanswered(&self, index: usize) -> Option<Question> {
        let asks = self.predict && self.answer(index).is_none();
        self.question_at(index).filter(|_| asks)
    }

    /// The learner's answer about event `index`, if they gave one.
    fn answer(&self, index: usize) -> Option<Answer> {
        self.answers.get(index).copied().flatten()
    }

    /// What the learner is told, standing just after an answered event:
    /// its feedback, or the field question it still owes.
    fn told(&self, answer: Answer) -> Prompt {
        match answer.field {
            Some(field) => Prompt::AnsweredField(field),
            None if self.failed_conditions().is_empty() => Prompt::Guessed(answer.guessed),
            None => Prompt::AskingField(answer.guessed),
        }
    }

    /// Whether every question of the timeline is answered: each claim's and
    /// finish's prediction, and which condition each refused finish failed.
    /// A chapter counts as finished then, not when its end is reached by
    /// skipping them (the picker's ✓).
    pub fn complete(&self) -> bool {
        let mut asked = (0..self.total()).filter(|&index| self.question_at(index).is_some());
        self.question().is_none()
            && asked.clone().next().is_some()
            && asked.all(|index| self.settled(index))
    }

    /// Whether the questions about event `index` are all answered: its
    /// prediction, and which condition it failed when it is a finish
    /// refused with a stamp.
    fn settled(&self, index: usize) -> bool {
        let owes_field = match &self.timeline.frames[index].result.outcome {
            Outcome::Finished(finish) => !finish.verdict.failed().is_empty(),
            _ => false,
        };
        self.answer(index)
            .is_some_and(|answer| answer.field.is_some() || !owes_field)
    }

    /// What a prediction would ask about event `index`, if anything.
    pub fn question_at(&self, index: usize) -> Option<Question> {
        match self.scenario.events().get(index)?.action {
            Action::Finish => Some(Question::Finish),
            Action::Claim { .. } => Some(Question::Claim),
            _ => None,
        }
    }

    /// The question awaiting an answer.
    pub fn question(&self) -> Option<Question> {
        match self.prompt {
            Prompt::Predicting(question) => Some(question),
            Prompt::AskingField(_) => Some(Question::Field),
            _ => None,
        }
    }

    /// Whether a question not yet answered lies at or after the learner's
    /// place, or the field question is open: while predicting, anything
    /// that tells how those events end (or why the last one was refused)
    /// would give the answers away. Stepping back over answered questions
    /// hides nothing again.
    pub fn answers_ahead(&self) -> bool {
        matches!(self.prompt, Prompt::AskingField(_))
            || self.predict
                && (self.position..self.total())
                    .any(|i| self.question_at(i).is_some() && !self.settled(i))
    }

    /// Answers the awaited prediction ("yes": accepted, or gets a job) and
    /// reveals the event. A refused finish that presented a stamp then asks
    /// which condition it failed. `None` when no prediction was open.
    pub fn guess(&mut self, yes: bool) -> Option<Guessed> {
        let Prompt::Predicting(question) = self.prompt else {
            return None;
        };
        let index = self.position;
        self.position += 1;
        let happened = match self.frame().map(|frame| &frame.result.outcome) {
            Some(Outcome::Finished(finish)) => finish.accepted(),
            Some(Outcome::Claimed { claim }) => claim.is_some(),
            _ => false,
        };
        let guessed = Guessed {
            question,
            happened,
            right: yes == happened,
        };
        self.score = (self.score.0 + usize::from(guessed.right), self.score.1 + 1);
        let answer = Answer {
            guessed,
            field: None,
        };
        if self.answers.len() <= index {
            self.answers.resize(index + 1, None);
        }
        self.answers[index] = Some(answer);
        self.prompt = self.told(answer);
        Some(guessed)
    }

    /// The conditions the last applied event failed, when it is a finish
    /// refused on its stamp or its time (empty otherwise, and for a finish
    /// by an actor that presented no stamp).
    pub fn failed_conditions(&self) -> Conditions {
        match self.frame().map(|frame| &frame.result.outcome) {
            Some(Outcome::Finished(finish)) => finish.verdict.failed(),
            _ => Conditions::default(),
        }
    }

    /// Answers "which condition did it fail?" with a field of the
    /// stamp-beside-row table, and scores it. `None` when that question was
    /// not open or `field` names no condition.
    pub fn answer_field(&mut self, field: &str) -> Option<FieldGuess> {
        let Prompt::AskingField(_) = self.prompt else {
            return None;
        };
        let answer = FieldGuess {
            picked: Condition::parse(field)?,
            failed: self.failed_conditions(),
        };
        self.score = (self.score.0 + usize::from(answer.right()), self.score.1 + 1);
        if let Some(Some(answered)) = self.answers.get_mut(self.position - 1) {
            answered.field = Some(answer);
        }
        self.prompt = Prompt::AnsweredField(answer);
        Some(answer)
    }

    /// Goes to `position` (clamped), dropping any open question. While
    /// predicting, a jump forward stops at the first question not answered
    /// yet and asks it: the end is not reached by skipping them.
    pub fn seek(&mut self, position: usize) {
        let target = position.min(self.total());
        self.prompt = Prompt::Idle;
        let ahead =
            (self.position..target).find_map(|index| Some((index, self.unanswered(index)?)));
        match ahead {
            Some((index, question)) => {
                self.position = index;
                self.prompt = Prompt::Predicting(question);
            }
            None => self.position = target,
        }
    }

    /// One event back.
    pub fn back(&mut self) {
        self.seek(self.position.saturating_sub(1));
    }
}
