//! The statement panel: one race run the real queue's way and the naive
//! way, side by side, at the learner's place on the panel's one clock. For
//! each side: every actor's statements with the one that just ran, the
//! write lock's lane (who held it and who waited, moment by moment, with
//! the time),
//! the statement in full with what it did, the claims held, and at the
//! side's end what it came to (a token handed out twice, a wait).
//!
//! Everything is read from the mechanism's runs; the page draws it.

use super::lock_lane::{LaneView, lane};
use super::names::{variant_name, who};
use serde::Serialize;

use super::step::shown_sql;
use crate::key;
use crate::mechanism::races;
use crate::mechanism::statements::{Does, Run, Step, StepKind};
use crate::playground::Lang;
use crate::playground::assertions::{Assertion, RunFact, Said, StepDid};
use crate::playground::messages::Key;
use crate::playground::session::Session;
use crate::playground::statements::{Race, Tick};

/// The panel at the learner's place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatementsView {
    /// The race on screen.
    pub race: Race,
    /// Moments of the clock passed (see [`crate::playground::statements::StatementPanel::clock`]).
    pub position: usize,
    /// Moments at which either side runs a statement.
    pub total: usize,
    /// "Step n of total", with the time both sides stand at.
    pub position_text: Said,
    /// For a timeline longer than the panel takes apart, which part of it
    /// the statements are.
    pub cut: Option<Said>,
    /// The real queue's side, then the naive one's.
    pub sides: Vec<SideView>,
}

/// One run of the race.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideView {
    /// `real` or `naive`, for styling.
    pub kind: &'static str,
    /// The side's short name, for the switch that shows one side at a
    /// time where the panel is too narrow for both.
    pub name: String,
    /// Which way the actors go about it.
    pub title: String,
    /// Each actor's statements, in order of their first.
    pub actors: Vec<ActorView>,
    /// The write lock over the run.
    pub lane: LaneView,
    /// The statement that just ran; `None` before the first.
    pub now: Option<NowView>,
    /// Which claims the workers hold in memory now (a stale one too: it
    /// is what a late worker presents).
    pub holding: Said,
    /// At this side's end, what it came to.
    pub verdict: Option<Verdict>,
    /// While the other side goes on after this one has run all its
    /// statements, says so (a step changes nothing here then).
    pub done: Option<Said>,
}

/// An actor and its statements.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActorView {
    /// As the learner reads it (the producer by its role).
    pub name: String,
    /// One line per statement or send, in order.
    pub lines: Vec<LineView>,
}

/// One statement of an actor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineView {
    /// The statement's first line; empty for a send.
    pub sql: String,
    /// What it does, in words.
    pub tag: String,
    /// `done`, `now` (just ran), `waits` (next, and waiting for the
    /// lock) or `next`.
    pub state: &'static str,
}

/// The statement that just ran, in full.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NowView {
    /// The statement (empty for a send).
    pub sql: String,
    /// `:name = value, ...`; empty when nothing was bound.
    pub params: String,
    /// What happened, in a sentence with the time.
    pub said: Said,
}

/// What a side came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Whether it went wrong (a token twice, a writer kept waiting).
    pub harm: bool,
    /// Why, with the numbers.
    pub text: Said,
}

/// The session's statement panel, while it is open.
pub fn view(session: &Session) -> Option<StatementsView> {
    let (panel, lang) = (&session.statement_panel, session.lang);
    let runs = panel.runs().filter(|_| panel.open)?;
    let (position, total) = (panel.position, panel.total());
    let sides = (0..2)
        .map(|index| side(session, index, &runs[index]))
        .map(|mut side| {
            // A race cut while the learner predicts speaks for the events
            // shown, not the timeline: its verdict ("no token went to two
            // workers on this timeline") waits for the whole of it.
            if panel.cut().is_some_and(|cut| cut.predicting) {
                side.verdict = None;
            }
            side
        })
        .collect();
    let cut = panel.cut().map(|cut| {
        let values = [
            ("n", cut.taken.to_string()),
            ("total", cut.events.to_string()),
        ];
        let taken = Assertion::TakenApart {
            taken: cut.taken,
            events: cut.events,
        };
        match cut.predicting {
            true => Said::worded(lang.fill(key!("stmt.cut_predicting"), &values), taken),
            false => Said::of(lang, taken),
        }
    });
    Some(StatementsView {
        race: panel.race,
        position,
        total,
        position_text: Said::of(
            lang,
            Assertion::Moment {
                step: position,
                steps: total,
                at: panel.now().map(|(at, _)| at),
            },
        ),
        cut,
        sides,
    })
}

/// One side at the panel's moment (a side whose statements are over has
/// run them all by then).
fn side(session: &Session, index: usize, run: &Run) -> SideView {
    let (lang, panel) = (session.lang, &session.statement_panel);
    let race = panel.race;
    let kind = ["real", "naive"][index];
    let ticks = panel.ticks(index);
    let applied = panel.applied(index);
    let last = applied.checked_sub(1).map(|index| &run.steps[index]);
    let names = actors(run);
    let claims = (last.map(|step| &step.holding).into_iter().flatten())
        .map(|(actor, claim)| (actor.clone(), claim.id.clone(), claim.token))
        .collect();
    let said = |fact| {
        let naive = kind == "naive";
        Said::of(lang, Assertion::Run { race, naive, fact })
    };
    SideView {
        kind,
        name: match kind {
            "naive" => match race.variant() {
                Some(variant) => variant_name(lang, variant),
                None => lang.text(key!("stmt.lab.naive.name")).to_owned(),
            },
            _ => lang
                .text(match race {
                    Race::Claim => key!("stmt.claim.real.name"),
                    Race::Send => key!("stmt.send.real.name"),
                    Race::Timeline => key!("stmt.timeline.real.name"),
                    Race::Lab => key!("stmt.lab.real.name"),
                })
                .to_owned(),
        },
        title: lang
            .text(match (race, kind) {
                (Race::Claim, "real") => key!("stmt.claim.real"),
                (Race::Claim, _) => key!("stmt.claim.naive"),
                (Race::Send, "real") => key!("stmt.send.real"),
                (Race::Send, _) => key!("stmt.send.naive"),
                (Race::Timeline, "real") => key!("stmt.timeline.real"),
                (Race::Timeline, _) => key!("stmt.timeline.naive"),
                (Race::Lab, "real") => key!("stmt.lab.real"),
                (Race::Lab, _) => key!("stmt.lab.naive"),
            })
            .to_owned(),
        actors: names
            .iter()
            .map(|name| ActorView {
                name: who(lang, name),
                lines: lines(session, run, name, (applied, ticks), panel.now()),
            })
            .collect(),
        lane: lane(lang, run, &names, (panel, ticks), kind == "naive"),
        now: (applied.checked_sub(1)).map(|index| {
            let mut now = now(lang, race, kind == "naive", run, index);
            now.sql = shown_sql(session, &now.sql);
            now
        }),
        holding: said(RunFact::Holding { applied, claims }),
        verdict: (applied == run.steps.len()).then(|| verdict(lang, race, kind, run)),
        done: (applied == run.steps.len() && panel.position < panel.total()).then(|| {
            said(RunFact::AllRan {
                applied,
                statements: statements_in(run),
                other: panel.applied(1 - index),
            })
        }),
    }
}

/// How many SQL statements a run has (its sends and waits are steps, not
/// statements).
fn statements_in(run: &Run) -> usize {
    run.steps
        .iter()
        .filter(|step| step.kind == StepKind::Ran)
        .count()
}

/// The actors in order of their first step.
fn actors(run: &Run) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for step in &run.steps {
        if !names.contains(&step.actor.as_str()) {
            names.push(&step.actor);
        }
    }
    names
}

/// An actor's statements (its waits are not statements: the statement it
/// waits to run is marked instead). Only a statement run at the moment
/// `now` is the one that just ran.
fn lines(
    session: &Session,
    run: &Run,
    actor: &str,
    (applied, ticks): (usize, &[Tick]),
    now: Option<Tick>,
) -> Vec<LineView> {
    let waiting = applied
        .checked_sub(1)
        .is_some_and(|index| run.steps[index].waiting.iter().any(|name| name == actor));
    let mut first_ahead = true;
    run.steps
        .iter()
        .zip(ticks)
        .enumerate()
        .filter(|(_, (step, _))| step.actor == actor && step.kind != StepKind::Waits)
        .map(|(index, (step, tick))| {
            let state = if Some(*tick) == now {
                "now"
            } else if index < applied {
                "done"
            } else if std::mem::take(&mut first_ahead) && waiting {
                "waits"
            } else {
                "next"
            };
            let sql = step.sql.as_ref().map_or("", |executed| &executed.sql);
            let first = sql.lines().next().unwrap_or("");
            LineView {
                sql: match session.keeps_back(sql) {
                    true => shown_sql(session, sql),
                    false => first.to_owned(),
                },
                tag: session.lang.text(tag(step)).to_owned(),
                state,
            }
        })
        .collect()
}

/// The message key of what a step's statement does.
fn tag(step: &Step) -> Key {
    match (step.kind, step.does) {
        (StepKind::NoClaim, _) => key!("stmt.does.no_claim"),
        (StepKind::Busy, _) => key!("stmt.does.busy"),
        (_, Does::Begin) => key!("stmt.does.begin"),
        (_, Does::BeginDeferred) => key!("stmt.does.begin_deferred"),
        (_, Does::Commit) => key!("stmt.does.commit"),
        (_, Does::Rollback) => key!("stmt.does.rollback"),
        (_, Does::Quarantine) => key!("stmt.does.quarantine"),
        (_, Does::Expire) => key!("stmt.does.expire"),
        (_, Does::Claim) => key!("stmt.does.claim"),
        (_, Does::Read) => key!("stmt.does.read"),
        (_, Does::Write) => key!("stmt.does.write"),
        (_, Does::Enqueue) => key!("stmt.does.enqueue"),
        (_, Does::Finish) => key!("stmt.does.finish"),
        (_, Does::SendStarts) => key!("stmt.does.send_starts"),
        (_, Does::SendReturns) => key!("stmt.does.send_returns"),
    }
}

/// The statement run at `index`: in full, its bound values, what it did.
fn now(lang: Lang, race: Race, naive: bool, run: &Run, index: usize) -> NowView {
    let step = &run.steps[index];
    let did = match (step.kind, step.sql.as_ref()) {
        (StepKind::Waits, _) if step.does == Does::Commit => StepDid::CommitWaits {
            readers: (step.reading.iter())
                .filter(|reader| **reader != step.actor)
                .cloned()
                .collect(),
        },
        (StepKind::Waits, _) => StepDid::Waits {
            holder: step.lock.clone().unwrap_or_default(),
        },
        (StepKind::SendStarts, _) => {
            let back = run.steps[index..]
                .iter()
                .find(|later| later.actor == step.actor && later.kind == StepKind::SendReturns);
            StepDid::Sends {
                ms: back.map_or(0, |back| back.at - step.at),
            }
        }
        (StepKind::SendReturns, _) => StepDid::SendReturns,
        (StepKind::NoClaim, _) => StepDid::NoClaim,
        (StepKind::Busy, _) => StepDid::Busy {
            holder: step.lock.clone().unwrap_or_default(),
        },
        (_, Some(_)) if step.does == Does::Begin => StepDid::Begin,
        (_, Some(_)) if step.does == Does::BeginDeferred => StepDid::BeginDeferred,
        (_, Some(_)) if step.does == Does::Commit => StepDid::Commit {
            held: held_before(run, index),
        },
        (_, Some(_)) if step.does == Does::Rollback => StepDid::Rollback,
        (_, Some(executed)) => StepDid::Ran {
            write: executed.write,
            rows: executed.rows,
        },
        (_, None) => StepDid::SendReturns,
    };
    let fact = RunFact::Did {
        step: index,
        at: step.at,
        worker: step.actor.clone(),
        did,
    };
    let executed = step.sql.as_ref().filter(|_| step.kind == StepKind::Ran);
    NowView {
        sql: executed.map_or_else(String::new, |executed| executed.sql.to_string()),
        params: executed.map(super::step::params).unwrap_or_default(),
        said: Said::of(lang, Assertion::Run { race, naive, fact }),
    }
}

/// Whether the actor of the step at `index` held the write lock just
/// before it.
fn held_before(run: &Run, index: usize) -> bool {
    let step = &run.steps[index];
    let before = index.checked_sub(1).map(|before| &run.steps[before]);
    before.is_some_and(|before| before.lock.as_deref() == Some(step.actor.as_str()))
}

/// Every claim a run handed out, in the order first handed out: (job,
/// token) and who got it, in order.
fn handed_out(run: &Run) -> Vec<((&str, u64), Vec<String>)> {
    let mut by_token: Vec<((&str, u64), Vec<String>)> = Vec::new();
    for step in &run.steps {
        let took = step.sql.as_ref().filter(|executed| {
            let taking = matches!(step.does, Does::Claim | Does::Write);
            step.kind == StepKind::Ran && executed.rows > 0 && taking
        });
        if let (Some(_), Some(claim)) = (took, step.holding.get(&step.actor)) {
            let key = (claim.id.as_str(), claim.token);
            let holder = step.actor.clone();
            match by_token.iter_mut().find(|(known, _)| *known == key) {
                Some((_, holders)) => holders.push(holder),
                None => by_token.push((key, vec![holder])),
            }
        }
    }
    by_token
}

/// What a side came to, at its end.
fn verdict(lang: Lang, race: Race, kind: &str, run: &Run) -> Verdict {
    let naive = kind == "naive";
    let said = |fact| Said::of(lang, Assertion::Run { race, naive, fact });
    let tokens = claims_verdict(race, run);
    let harm = matches!(tokens.first(), Some(RunFact::Twice { .. }));
    let mut facts = tokens;
    match race {
        Race::Claim => {}
        Race::Send => {
            let waited = |actor: &str| run.waited_ms.get(actor).copied().unwrap_or(0);
            let (enqueue_ms, claim_ms) = (waited("producer"), waited(races::CLAIMER));
            let text = said(RunFact::Waited {
                enqueue_ms,
                claim_ms,
            });
            let harm = enqueue_ms + claim_ms > 0;
            return Verdict { harm, text };
        }
        Race::Timeline => facts.extend(refused_finishes(run)),
        Race::Lab if !run.busy.is_empty() => facts.push(RunFact::Busy {
            workers: run.busy.clone(),
        }),
        Race::Lab => {}
    }
    let mut text = facts
        .into_iter()
        .fold(Said::default(), |text, fact| text.then(said(fact)));
    // A naive side that did no harm: why not, on this timeline.
    if race == Race::Timeline && naive && !harm {
        text = text.then(Said::plain(lang.text(key!("stmt.no_overlap"))));
    }
    Verdict {
        harm: harm || (race == Race::Lab && !run.busy.is_empty()),
        text,
    }
}

/// Each finish whose fenced `UPDATE` changed no row.
fn refused_finishes(run: &Run) -> impl Iterator<Item = RunFact> + '_ {
    run.steps
        .iter()
        .filter(|step| {
            let executed = step.sql.as_ref().filter(|_| step.kind == StepKind::Ran);
            executed.is_some_and(|executed| step.does == Does::Finish && executed.rows == 0)
        })
        .map(|step| RunFact::Refused {
            at: step.at,
            worker: step.actor.clone(),
            token: step.holding.get(&step.actor).map_or(0, |claim| claim.token),
        })
}

/// Whether a token went to more than one worker (the first (job, token)
/// handed out that went to more than one, in the order pairs were first
/// handed out); for the claim race and the lab's, also who took nothing.
fn claims_verdict(race: Race, run: &Run) -> Vec<RunFact> {
    let by_token = handed_out(run);
    if let Some(((job, token), workers)) =
        by_token.into_iter().find(|(_, holders)| holders.len() > 1)
    {
        return vec![RunFact::Twice {
            job: job.to_owned(),
            token,
            workers,
        }];
    }
    let workers: Vec<String> = (run.claims.iter())
        .filter(|(actor, claim)| {
            matches!(race, Race::Claim | Race::Lab) && claim.is_none() && !run.busy.contains(actor)
        })
        .map(|(actor, _)| actor.clone())
        .collect();
    let mut facts = vec![RunFact::Once];
    if !workers.is_empty() {
        facts.push(RunFact::TookNothing { workers });
    }
    facts
}
