//! What each sentence on screen asserts, and a check of it against the
//! world of its screen.
//!
//! A learner told something false is the worst bug a course can have, and
//! the ways to tell it are many: a panel that kept a sentence after the
//! timeline changed, a summary that reads one field where two differ, a
//! reason copied from another case. So a sentence that states a fact about
//! the timeline is not written as text: it is made from an [`Assertion`]
//! (what it states, with the values it shows), and its words are rendered
//! from that ([`Said`]). A test (`tests/screens.rs`) walks every screen a
//! learner can reach and checks every assertion shown on it against a
//! world built afresh from the scenario on that screen
//! (`tests/support/world.rs`), not from the panels' own runs: a panel that
//! kept an old run says something the screen's world does not hold, and
//! the test names it.
//!
//! The word is *assertion*, not *claim*: in this course a claim is the
//! queue's (선점), and one name means one thing.

mod compared;
mod facts;
mod said;
mod say;

pub use facts::{
    Carried, DesignFact, LockNow, RaceEnd, ReadFact, RunFact, Standing, StepDid, Turn, Turned,
};
pub use said::Said;

use std::rc::Rc;

use serde::Serialize;

use leasefence::fence::Condition;
use leasefence::model::{Claim, JobRow, JobState};
use leasefence::scenario::Event;

use super::quiz::field::Field;
use crate::lab::Did;
use crate::mechanism::invariants::{Invariant, Side};
use crate::playground::statements::Race;
use crate::variants::Guard;
use crate::variants::boundary::Reading;
use crate::variants::designs::Design;

/// One fact a sentence states, with the values it shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "asserts", rename_all = "snake_case")]
pub enum Assertion {
    /// The learner predicted the outcome of event `event` (`yes`: the
    /// finish is accepted, the claim gets a job), and that was `right`.
    Guess {
        /// The event predicted.
        event: usize,
        /// Whether it is a finish (else a claim).
        finish: bool,
        /// What the learner said.
        yes: bool,
        /// Whether it came true.
        right: bool,
    },
    /// The finish at `event` was accepted, or refused.
    Finish {
        /// The finish event.
        event: usize,
        /// Its time, as the sentence shows it.
        at: u64,
        /// Whether it was accepted.
        accepted: bool,
    },
    /// The finish at `event` did (`held`) or did not meet `condition`; the
    /// two sides compared, as the sentence shows them: the stamp's value
    /// (or the finish's time) and the current row's.
    Condition {
        /// The finish event.
        event: usize,
        /// The condition.
        condition: Condition,
        /// Whether the finish met it.
        held: bool,
        /// The stamp's side: its value, or the time for a time condition.
        stamp: String,
        /// The current row's side.
        row: String,
        /// Whose claim the current row is (the row's owner), when named.
        holder: Option<String>,
    },
    /// The finish at `event` failed exactly `conditions` (in
    /// [`Condition::ALL`]'s order) of the seven its `UPDATE` checks.
    Failed {
        /// The finish event.
        event: usize,
        /// The conditions it failed.
        conditions: Vec<Condition>,
    },
    /// The worker of event `event` holds no claim just before it, so its
    /// finish or send presents no stamp and reaches neither the queue nor
    /// the receiver.
    NoStamp {
        /// The event.
        event: usize,
        /// Its worker.
        worker: String,
    },
    /// The worker of event `event` holds a claim just before it: its
    /// finish sends a request with that claim's stamp.
    Sends {
        /// The finish event.
        event: usize,
        /// Its worker.
        worker: String,
    },
    /// The claim at `event` took `job` back from `holder`, whose lease on
    /// it ended at `until`, at or before the claim's time `at` (R5).
    Reclaimed {
        /// The claim event.
        event: usize,
        /// The job taken.
        job: String,
        /// Whose lease ended.
        holder: String,
        /// Where it ended.
        until: u64,
        /// The claim's time.
        at: u64,
    },
    /// At the claim `event`, at time `at`, `holder` still held `job` under
    /// a lease that runs until `until` (`at < until`), so no claim may take
    /// it then (R5).
    Held {
        /// The claim event.
        event: usize,
        /// The job held.
        job: String,
        /// Whose lease it is.
        holder: String,
        /// Where the lease ends.
        until: u64,
        /// The claim's time.
        at: u64,
    },
    /// The claim at `event` took `job`, which nobody held (`pending`).
    TookPending {
        /// The claim event.
        event: usize,
        /// The job taken.
        job: String,
    },
    /// The event `event` came out as `result`, a result label (`claimed`,
    /// `empty`, `accepted`, `rejected`, `applied`, `duplicate`, `no_claim`,
    /// `enqueued`).
    Came {
        /// The event.
        event: usize,
        /// Its result's label.
        result: &'static str,
    },
    /// Just before event `event`, `worker` holds its claim on `job` with
    /// token `token`: the stamp a finish or send of it presents.
    Holds {
        /// The event.
        event: usize,
        /// Its worker.
        worker: String,
        /// The job held.
        job: String,
        /// The claim's token.
        token: u64,
    },
    /// The claim at `event` got no job.
    FoundNothing {
        /// The claim event.
        event: usize,
    },
    /// The claim at `event`, by `worker`, took `job` with this stamp. A
    /// token above 1 is said as a reclaim: the job was held before, and
    /// its last lease ended.
    Claimed {
        /// The claim event.
        event: usize,
        /// Its worker.
        worker: String,
        /// The job taken.
        job: String,
        /// The claim's token.
        token: u64,
        /// The claim's attempt.
        attempt: u64,
        /// Where its lease ends.
        until: u64,
    },
    /// The finish at `event`, by `worker`, was accepted: `job` is `done`.
    Completed {
        /// The finish event.
        event: usize,
        /// Its worker.
        worker: String,
        /// The job finished.
        job: String,
    },
    /// The send at `event`, by `worker`, delivered `job` (`qty` items);
    /// the receiver applied it, or had it already (`applied` false).
    Delivered {
        /// The send event.
        event: usize,
        /// Its worker.
        worker: String,
        /// The job sent.
        job: String,
        /// Its items.
        qty: u64,
        /// Whether the receiver added it.
        applied: bool,
    },
    /// The event `event`, by `worker`, added `job`: `qty` items, due by
    /// `deadline`.
    Enqueued {
        /// The enqueue event.
        event: usize,
        /// Who enqueued it.
        worker: String,
        /// The job added.
        job: String,
        /// Its items.
        qty: u64,
        /// Its deadline.
        deadline: u64,
    },
    /// Before choosing, the claim at `event` moved `count` jobs to
    /// `state` (`quarantined` or `expired`).
    Swept {
        /// The claim event.
        event: usize,
        /// The state they moved to.
        state: JobState,
        /// How many.
        count: usize,
    },
    /// The finish at `event` was accepted or refused by the queue (or by
    /// the naive one, `guard`), leaving its row with this state, owner and
    /// token (`None`: no row has the stamp's id, or no stamp).
    Judged {
        /// The finish event.
        event: usize,
        /// The naive finish; `None` for the queue's own.
        guard: Option<Guard>,
        /// Whether it was accepted.
        accepted: bool,
        /// The row after it: state, owner (`null` for none), token.
        row: Option<(String, String, u64)>,
    },
    /// Over every finish before `position`, the queue and the naive one
    /// (`guard`) gave the same verdict.
    Agree {
        /// The naive finish.
        guard: Guard,
        /// How many events are applied.
        position: usize,
    },
    /// At the finish `event`, the naive queue (`guard`) and the queue gave
    /// different verdicts: the naive one accepted what the queue refused
    /// (`naive_accepted`), or the other way round; `same_row`: the two
    /// rows after it are still equal.
    Differ {
        /// The naive finish.
        guard: Guard,
        /// The finish event.
        event: usize,
        /// Whether the naive queue accepted it.
        naive_accepted: bool,
        /// Whether the rows after it are equal on both queues.
        same_row: bool,
    },
    /// Between the claims `first` and `second` hold after `position`
    /// events, exactly `fields` (of the quiz's choices) differ.
    Tells {
        /// How many events are applied.
        position: usize,
        /// One worker.
        first: String,
        /// The other.
        second: String,
        /// The choices whose values differ, in [`Field::ALL`]'s order.
        fields: Vec<Field>,
    },
    /// After `position` events, the claims `first` and `second` hold have
    /// these values of `field`, `first`'s then `second`'s.
    Values {
        /// How many events are applied.
        position: usize,
        /// One worker.
        first: String,
        /// The other.
        second: String,
        /// The value compared.
        field: Field,
        /// Its two values.
        values: [String; 2],
    },
    /// `job`, in the table on screen, is due by `deadline`.
    Due {
        /// The job.
        job: String,
        /// Its deadline.
        deadline: u64,
    },
    /// After `position` events, at the instant a lease ends and another
    /// worker claims, the lease's end read as `reading` does gives `fact`.
    Read {
        /// How many events are applied.
        position: usize,
        /// The reading.
        reading: Reading,
        /// The instant.
        at: u64,
        /// What it gives.
        fact: ReadFact,
    },
    /// The timeline's first `events` events, their claims made as `design`
    /// makes them, show `fact`.
    Designed {
        /// How many events are played.
        events: usize,
        /// The design.
        design: Design,
        /// What they show.
        fact: DesignFact,
    },
    /// The quiz's answer `picked` is (`right`) or is not one of the values
    /// that tell the two claims apart.
    Picked {
        /// How many events are applied.
        position: usize,
        /// The answer.
        picked: Field,
        /// Whether it tells them apart.
        right: bool,
    },
    /// The claim at `claim` (made at `at`) keeps its job from everyone
    /// until `until`: a worker that dies just after it blocks the job
    /// that long.
    Blocks {
        /// The claim event.
        claim: usize,
        /// Its worker.
        worker: String,
        /// Its time.
        at: u64,
        /// Where its lease ends.
        until: u64,
    },
    /// On `side`, `invariant` held at every step applied at `position`.
    Kept {
        /// The system.
        side: Side,
        /// The invariant.
        invariant: Invariant,
        /// How many events are applied.
        position: usize,
    },
    /// On `side`, `invariant` first broke at step `step` (1 is the first
    /// event), for `job`, with `workers` involved.
    Broke {
        /// The system.
        side: Side,
        /// The invariant.
        invariant: Invariant,
        /// The step that broke it.
        step: usize,
        /// The job it broke for.
        job: String,
        /// The actors involved, as the sentence names them.
        workers: Vec<String>,
    },
    /// `side` breaks an invariant in the chapter `chapter`, first after its
    /// event `event`, and in no chapter sooner.
    Breaks {
        /// The naive side.
        side: Side,
        /// The chapter's id.
        chapter: &'static str,
        /// The event whose step breaks it.
        event: usize,
    },
    /// The timeline on screen has these actors (in order of their first
    /// event) and `events` events, which can run in `orderings` orders
    /// (each actor's events in their order).
    Orderings {
        /// The actors.
        actors: Vec<String>,
        /// How many events.
        events: usize,
        /// How many orderings.
        orderings: usize,
    },
    /// Over all `orderings` of the timeline on screen, `side` broke an
    /// invariant in `counts[0]` of them; a finish with a stale token was
    /// accepted in `counts[1]`, a job applied twice in `counts[2]`, two
    /// workers held a valid lease at once in `counts[3]`, a token was
    /// handed out again in `counts[4]`.
    Counted {
        /// The system.
        side: Side,
        /// How many orderings there are.
        orderings: usize,
        /// The counts, in that order.
        counts: [usize; 5],
    },
    /// The timeline on screen first breaks an invariant on `side` at its
    /// last step, `step` (1 is the first event).
    BreaksAtEnd {
        /// The naive side.
        side: Side,
        /// The last step.
        step: usize,
    },
    /// In the statement panel, the run of `race` the real queue's way (or
    /// the naive way, `naive`) shows `fact`.
    Run {
        /// The race.
        race: Race,
        /// Whether it is the naive run.
        naive: bool,
        /// What it shows.
        fact: RunFact,
    },
    /// The statement panel's timeline race takes apart the first `taken`
    /// of the timeline's `events` events.
    TakenApart {
        /// The events taken apart.
        taken: usize,
        /// The timeline's events.
        events: usize,
    },
    /// The statement panel stands at moment `step` of its `steps`, when
    /// both sides are at `at` (`None`: before the first).
    Moment {
        /// Moments passed.
        step: usize,
        /// Moments in all: both sides' steps on one clock.
        steps: usize,
        /// The time of the moment.
        at: Option<u64>,
    },
    /// The claim at `claim` asked for a lease of `lease_ms` and got one
    /// until `until`, cut short by the job's deadline (`capped`, R9) or not.
    Leased {
        /// The claim event.
        claim: usize,
        /// The lease asked for.
        lease_ms: u64,
        /// Where it ends.
        until: u64,
        /// Whether the deadline cut it short.
        capped: bool,
    },
    /// The lab graded `sql` on `level` and it passed: on `orderings`
    /// orderings of `scenarios` scenarios it did what the queue does.
    LabPassed {
        /// The level's id.
        level: &'static str,
        /// The statement graded.
        sql: String,
        /// Scenarios checked.
        scenarios: usize,
        /// Orderings checked.
        orderings: usize,
    },
    /// The lab graded `sql` on `level`, and on `scenario` (an ordering of
    /// the scenario `from`, as a document) the learner's queue first did
    /// otherwise than the queue at its last event, `event`: the queue did
    /// `expected`, the learner's did `current` (`None`: SQLite stopped it).
    LabParted {
        /// The level's id.
        level: &'static str,
        /// The statement graded.
        sql: String,
        /// Where the ordering came from.
        from: &'static str,
        /// The ordering, cut after the event.
        scenario: String,
        /// The event where they part.
        event: usize,
        /// What the queue did there.
        expected: Did,
        /// What the learner's statement did there.
        current: Option<Did>,
    },
    /// The lab graded the claim script `sql` on `level`, and in the race
    /// `from`, with its statements run in the order `turns` (each step,
    /// waits included, as the answer lists them), it ended as no order of the queue's
    /// whole claims does. `worker` is the first worker whose claim differs
    /// (`None`: only the table does); the queue's claims run whole, in the
    /// order the workers first stepped, give it `expected`; the script
    /// gives `current`.
    LabRaced {
        /// The level's id.
        level: &'static str,
        /// The script graded.
        sql: String,
        /// The race.
        from: &'static str,
        /// Each step: its time, whose statement, what came of it.
        turns: Vec<Turn>,
        /// The first worker whose claim differs.
        worker: Option<String>,
        /// What the queue's claims give it.
        expected: Option<Claim>,
        /// How the script's run ends.
        current: RaceEnd,
    },
    /// The two tables of the lab's answer `of` (a [`Assertion::LabParted`]
    /// or a [`Assertion::LabRaced`]): the queue's and the learner's, whole,
    /// after the event where the two part, or at the end of the race. The
    /// side-by-side table is drawn from them.
    LabTables {
        /// The answer they belong to.
        of: Rc<Assertion>,
        /// The queue's table.
        expected: Vec<JobRow>,
        /// The learner's table.
        current: Vec<JobRow>,
    },
    /// The events of the lab's answer `of` (a [`Assertion::LabParted`]):
    /// its ordering, every event in order, the last the one where the two
    /// part. The counterexample's lines are drawn from them.
    LabEvents {
        /// The answer they belong to.
        of: Rc<Assertion>,
        /// The events, as the ordering has them (its document is the
        /// answer's own).
        #[serde(skip)]
        events: Vec<Event>,
    },
    /// In the timeline `scenario` (a document: the lab's counterexample),
    /// played to its end, `reason` holds: why the queue did what it did
    /// at its last event.
    Because {
        /// The timeline, as a scenario document.
        scenario: String,
        /// What holds in it.
        reason: Rc<Assertion>,
    },
    /// The learner's place: `position` of the timeline's `total` events
    /// are applied.
    At {
        /// Events applied.
        position: usize,
        /// Events in the timeline.
        total: usize,
    },
    /// The lanes' time axis, at the learner's place `position`, runs from
    /// `from` to `to`: the last event applied and the next one lie on it.
    Spans {
        /// Events applied.
        position: usize,
        /// Where the axis starts.
        from: u64,
        /// Where it ends.
        to: u64,
    },
    /// After `position` events, `worker` carries `stamp`, its last claim's
    /// (none before its first), as the lanes' cards say.
    Carries {
        /// The learner's place.
        position: usize,
        /// The worker.
        worker: String,
        /// The stamp, and how the row stands against it.
        stamp: Option<Carried>,
    },
    /// After `position` events, `first` and `second` each hold a claim on
    /// `job`: the quiz asks what tells the two apart.
    BothHold {
        /// The learner's place.
        position: usize,
        /// One worker.
        first: String,
        /// The other.
        second: String,
        /// The job both claimed.
        job: String,
    },
    /// The lease of the claim at `claim` ends at `until`, at or before the
    /// finish at `finish` (time `at`): before that finish another worker
    /// may take the job.
    EndsFirst {
        /// The claim event.
        claim: usize,
        /// The finish event.
        finish: usize,
        /// The finish's worker.
        worker: String,
        /// The finish's time.
        at: u64,
        /// Where the lease ends.
        until: u64,
    },
}
