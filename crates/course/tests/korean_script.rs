//! Nothing in Latin script shows in Korean mode except what a Korean
//! learner reads as code (columns, states, SQL, ids, `ms`) or the course's
//! own English terms: every Korean message, every view of every chapter
//! and every panel, in a learner's sessions. (Particles and the glossary:
//! tests/korean.rs.)

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use leasefence::Scenario;
use leasefence_course::playground::session::Session;
use leasefence_course::playground::status::StatusKind;
use leasefence_course::playground::{CHAPTERS, Lang, view};

/// Latin words a Korean learner reads as code or as a name, not as
/// English: the columns and the table, the states, the scenario's JSON
/// fields and actions, the formula's `now` and `min`, formats and units,
/// the product's name, the other language's own name (the switch button,
/// marked `lang="en"`), the keys printed on a keyboard, the chapters'
/// worker names and job ids, and the words the test's learner typed.
#[rustfmt::skip]
const ALLOWED: &[&str] = &[
    // Columns and the table.
    "id", "qty", "state", "owner", "token", "attempts", "attempt", "max_attempts",
    "lease_until", "deadline", "jobs",
    // States.
    "pending", "leased", "done", "quarantined", "expired",
    // The scenario's JSON: fields and actions.
    "events", "job", "at", "worker", "do", "lease_ms", "claim", "finish", "send", "enqueue",
    // SQL's and JSON's empty value, as the table shows an empty owner.
    "null",
    // The formula `now < lease_until`, `min(now + lease_ms, deadline)`.
    "now", "min",
    // Formats, units, tools.
    "ms", "ID", "JSON", "SQL", "SQLite", "UTF-8", "base64url", "leasefence",
    // The switch to the other language, in that language.
    "English",
    // Keys on the keyboard.
    "Home", "End",
    // The chapters' worker names and job ids.
    "A", "B", "C", "A-restarted", "C-restarted", "snack-1", "snack-2", "snack-3",
    // What the test's learner typed into the editor, said back to them.
    "colour", "claimm",
    // The SQL keywords the statement panel names.
    "BEGIN", "IMMEDIATE", "COMMIT", "SELECT", "UPDATE",
    // The SQL keywords the lab refuses by name.
    "PRAGMA", "ATTACH", "RETURNING", "ROLLBACK", "SAVEPOINT",
    // The parameters the transaction level's write binds from its read,
    // and SQLite's own name for the refusal the level shows.
    "read_token", "read_attempts", "SQLITE_BUSY",
    // Terms the course itself leaves in English: SQL's COMMIT, the
    // rollback journal and WAL, SQS's visibility timeout, a heartbeat.
    "rollback", "journal", "WAL", "SQS", "visibility", "timeout", "heartbeat",
    // The standard name of the token, given once where it is introduced,
    // so a learner can look it up.
    "fencing",
];

/// The Latin words of `text` that are not allowed; text in backticks is
/// code and is skipped.
fn latin_outside_the_allow_list(text: &str) -> Vec<String> {
    let prose: String = text
        .split('`')
        .enumerate()
        .filter(|(index, _)| index % 2 == 0)
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join(" ");
    let mut words = Vec::new();
    let mut chars = prose.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if !c.is_ascii_alphabetic() {
            continue;
        }
        let mut end = start + c.len_utf8();
        while let Some(&(at, next)) = chars.peek() {
            if !(next.is_ascii_alphanumeric() || next == '_' || next == '-') {
                break;
            }
            end = at + next.len_utf8();
            chars.next();
        }
        let word = prose[start..end].trim_end_matches('-');
        if !ALLOWED.contains(&word) {
            words.push(word.to_owned());
        }
    }
    words
}

/// A sample value for a placeholder, as the page would give it.
fn sample(name: &str) -> String {
    match name {
        "worker" | "owner" | "current" | "expected" => "A",
        "id" => "snack-1",
        "state" => "leased",
        "title" => "늦게 돌아온 전달자",
        "text" | "reason" | "message" | "problem" | "said" | "list" | "a" | "b" => "설명",
        "verdict" => "✓ 수락",
        "got" => "정수 -5",
        "place" => "events[1].at",
        "field" | "value" | "thing" => "lease_ms",
        _ => "7",
    }
    .to_owned()
}

/// `template` with each placeholder (`{name}`, `{name|을}`) replaced by
/// its sample value, a particle kept as written: which form of it the page
/// would choose is Hangul either way, and Hangul is all this test allows.
fn filled(template: &str) -> String {
    let mut text = String::with_capacity(template.len());
    let mut rest = template;
    while let Some((before, after)) = rest.split_once('{') {
        text.push_str(before);
        let Some((inside, next)) = after.split_once('}') else {
            text.push('{');
            rest = after;
            continue;
        };
        let (name, particle) = inside.split_once('|').unwrap_or((inside, ""));
        text.push_str(&sample(name));
        text.push_str(particle);
        rest = next;
    }
    text.push_str(rest);
    text
}

/// Every Korean message, filled with sample values, has no Latin word
/// outside the allow-list.
#[test]
fn korean_messages_have_no_latin_words_outside_the_allow_list() {
    check!(
        latin_outside_the_allow_list("A가 `leasefence replay`로 snack-1을 claimed, token 2"),
        vec!["claimed".to_owned()],
        "the check itself: code in backticks and allowed words pass, English does not"
    );
    let mut found = Vec::new();
    for (key, template) in support::korean_messages() {
        let text = filled(&template);
        let words = latin_outside_the_allow_list(&text);
        if !words.is_empty() {
            found.push(format!("{key}: {words:?} in {text:?}"));
        }
    }
    check!(
        found,
        Vec::<String>::new(),
        "Latin words in Korean messages"
    );
}

/// Every reason a refusal can name has a Korean name for its chip.
#[test]
fn every_refusal_reason_has_a_korean_name() {
    use leasefence::Reason;
    use leasefence_course::playground::explain::reason_name;
    let reasons = [
        Reason::NoClaim,
        Reason::UnknownJob,
        Reason::NotLeased,
        Reason::TokenMismatch,
        Reason::OwnerMismatch,
        Reason::AttemptMismatch,
        Reason::LeaseExpired,
        Reason::DeadlinePassed,
    ];
    let names: Vec<_> = reasons
        .iter()
        .map(|reason| (reason.as_str(), reason_name(Lang::Ko, *reason)))
        .filter(|(code, name)| {
            name.starts_with("reason_name.")
                || !latin_outside_the_allow_list(name).is_empty()
                || name == code
        })
        .collect();
    check!(
        names,
        Vec::<(&str, String)>::new(),
        "reasons without a Korean name"
    );
}

/// Fields of the views that hold code or labels for styling, not words:
/// the SQL and its bound values, the editor's JSON, chapter ids (the
/// picker's values, the next chapter's, the one a break link opens), the
/// race picker's value, result and state labels, a refusal's code (in an
/// English view only, beside its name),
/// the lanes' drawing attributes, a status's kind (for styling), the
/// actors' names (scenario data, like the names in the event list),
/// the lanes' tools to disable (their buttons' `data-arg`), and how
/// many may work on a job at a lease's end and what became of a job by a
/// rejected design (the points' styling), and how a row stands against a
/// worker's stamp (its card's styling).
#[rustfmt::skip]
const NOT_WORDS: &[&str] = &[
    "sql", "params", "guard_sql", "editor_text", "chapter", "opens", "race", "id", "result", "state",
    "reason",
    "anchor", "class", "actors", "kind", "cells", "between", "action", "arg", "key",
    "idle_twists", "count", "fate", "standing",
];

/// Every string of a view, with the path it was found at, leaving out the
/// [`NOT_WORDS`] fields.
fn strings(value: &serde_json::Value, path: &str, out: &mut Vec<(String, String)>) {
    match value {
        serde_json::Value::String(text) => out.push((path.to_owned(), text.clone())),
        serde_json::Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                strings(item, &format!("{path}[{index}]"), out);
            }
        }
        serde_json::Value::Object(fields) => {
            for (name, field) in fields {
                if !NOT_WORDS.contains(&name.as_str()) {
                    strings(field, &format!("{path}.{name}"), out);
                }
            }
        }
        _ => {}
    }
}

/// Sessions in Korean that between them show every panel: each chapter
/// with the comparison open under each naive guard, a chapter changed by
/// both sliders, predict mode (the field question open, answered right,
/// with a field that differs too and with one that does not), and the
/// editor refusing bad documents.
fn korean_sessions() -> Vec<(String, Session)> {
    use leasefence_course::playground::session::Knob;
    use leasefence_course::variants::Guard;
    use leasefence_course::variants::Variant;
    let start = |id: &str| {
        let chapter = CHAPTERS.iter().find(|c| c.id == id).expect("a chapter");
        Session::new(
            Lang::Ko,
            id,
            Scenario::parse(chapter.scenario()).expect("parses"),
        )
        .expect("replays")
    };
    let mut sessions = Vec::new();
    for chapter in CHAPTERS {
        for guard in [Guard::IdOnly, Guard::IdAndOwner] {
            let mut session = start(chapter.id);
            session.set_compare_open(true).expect("opens");
            session.set_guard(guard).expect("guards");
            sessions.push((format!("{} {guard:?}", chapter.id), session));
        }
    }
    let mut dragged = start("canonical");
    dragged.drag(Knob::Lease, 1002).expect("lease");
    dragged.drag(Knob::Finish, 999).expect("finish");
    sessions.push(("canonical dragged".to_owned(), dragged));
    let mut capped = start("deadline-caps-lease");
    capped.drag(Knob::Lease, 2000).expect("lease");
    sessions.push(("deadline-caps-lease dragged".to_owned(), capped));
    let mut predicting = start("canonical");
    predicting.set_predict(true).expect("sets predicting");
    for answer in ["open", "token", "owner", "state"] {
        sessions.push((format!("field {answer}"), predicting.clone()));
    }
    sessions.push(("canonical predicting".to_owned(), predicting));
    for (index, document) in [
        r#"{"events":[{"at":"1000","worker":"A","do":"finish"}]}"#,
        r#"{"jobs":[{"id":"j","qty":-5,"deadline":1}],"events":[]}"#,
        r#"{"events":[{"at":0,"worker":"A","do":"claimm"}]}"#,
        r#"{"events":[{"at":0,"worker":"A","do":"finish","colour":1}]}"#,
        r#"{"events":[{"at":0,"worker":true,"do":"finish"}]}"#,
        r#"{"jobs":{},"events":[]}"#,
        r#"{"events":[{"at":0 "worker":"A"}]}"#,
        "{",
    ]
    .into_iter()
    .enumerate()
    {
        let mut editing = start("canonical");
        editing
            .apply_editor(document)
            .expect("a refusal is said, not raised");
        let refused = editing
            .editor_status
            .as_ref()
            .is_some_and(|status| status.kind == StatusKind::Refused);
        assert!(refused, "{document} is refused");
        sessions.push((format!("editor {index}"), editing));
    }
    // The invariants panel: counted, a shortest ordering opened, and a
    // timeline over the census's bound.
    let mut counted = start("every-ordering");
    counted.count_orderings().expect("counts");
    sessions.push(("every-ordering counted".to_owned(), counted.clone()));
    counted
        .open_shortest(Variant::ReceiverWithoutLedger)
        .expect("opens");
    sessions.push(("every-ordering shortest".to_owned(), counted));
    let mut long = start("fencing-off-vs-on");
    let scenario = long.stepper.scenario();
    let mut events = scenario.events().to_vec();
    events.push(events[7].clone());
    let nine = Scenario::new(scenario.jobs().to_vec(), events).expect("a valid timeline");
    long.apply_editor(&nine.to_json()).expect("applies");
    sessions.push(("nine events".to_owned(), long));
    sessions
}

/// What the page draws in Korean, at every position of every session
/// above, has no Latin word outside the allow-list.
#[test]
fn korean_views_have_no_latin_words_outside_the_allow_list() {
    let mut found = std::collections::BTreeSet::new();
    for (name, mut session) in korean_sessions() {
        let mut texts = Vec::new();
        let scenario = serde_json::to_value(view::scenario(&session)).expect("serialises");
        strings(&scenario, "scenario", &mut texts);
        for position in 0..=session.stepper.total() {
            session.stepper.seek(position);
            if session.stepper.predict() && position == 2 {
                // Stand where the question is asked.
                session.stepper.step();
            }
            if let Some(answer) = name.strip_prefix("field ").filter(|_| position == 3) {
                // A's refused finish: a failed condition, then the answer.
                session.stepper.seek(2);
                session.stepper.step();
                session.stepper.guess(false);
                session.stepper.answer_field(answer);
            }
            let drawn =
                serde_json::to_value(view::position(&session, None, 640.0)).expect("serialises");
            strings(&drawn, &format!("position {position}"), &mut texts);
        }
        assert!(
            texts.len() > 50,
            "{name}: only {} texts walked",
            texts.len()
        );
        for (path, text) in texts {
            let words = latin_outside_the_allow_list(&text);
            if !words.is_empty() {
                found.insert(format!("{name} {path}: {words:?} in {text:?}"));
            }
        }
    }
    check!(
        found.into_iter().collect::<Vec<_>>(),
        Vec::<String>::new(),
        "Latin words in the Korean views"
    );
}

/// The editor names a whole-number field's true range: its least value is
/// the one the scenario's checks take (`qty` 1 and up, `at` 0 and up),
/// not "0 or more" for all.
#[test]
fn the_editor_names_each_whole_number_fields_least_value() {
    use leasefence_course::playground::explain::error_text;
    let documents = [
        (
            "qty",
            1,
            r#"{"jobs":[{"id":"j","qty":Q,"deadline":10}],"events":[]}"#,
        ),
        (
            "deadline",
            0,
            r#"{"jobs":[{"id":"j","qty":1,"deadline":Q}],"events":[]}"#,
        ),
        (
            "max_attempts",
            1,
            r#"{"jobs":[{"id":"j","qty":1,"deadline":9,"max_attempts":Q}],"events":[]}"#,
        ),
        (
            "at",
            0,
            r#"{"events":[{"at":Q,"worker":"A","do":"finish"}]}"#,
        ),
        (
            "lease_ms",
            1,
            r#"{"events":[{"at":0,"worker":"A","do":"claim","lease_ms":Q}]}"#,
        ),
    ];
    for (field, least, document) in documents {
        let with = |value: &str| Scenario::parse(&document.replace('Q', value));
        check!(
            with(&least.to_string()).is_ok(),
            true,
            "{field} = {least} is taken"
        );
        if least > 0 {
            check!(
                with(&(least - 1).to_string()).is_ok(),
                false,
                "{field} = {} is refused",
                least - 1
            );
        }
        let refused = with(r#""3""#).expect_err("a string is refused");
        let said = (
            error_text(Lang::Ko, &refused),
            error_text(Lang::En, &refused),
        );
        assert!(
            said.0.contains(&format!(
                "{least} 이상의 정수가 와야 하는데 문자열 \"3\"이 왔습니다"
            )) && said
                .1
                .contains(&format!("expected a whole number of at least {least}")),
            "{field}: expected the least value {least}, got {said:?}"
        );
    }
}

/// The full page's title, description and heading have Korean words too
/// (the page switches to them with the playground's language), with no
/// Latin outside the allow-list, and the English ones are the page's
/// static text, so the two cannot drift apart.
#[test]
fn the_full_pages_own_words_exist_in_korean() {
    let html = include_str!("../../../www/index.html");
    let block = html
        .split_once(r#"<script type="application/json" id="lf-page-words">"#)
        .and_then(|(_, rest)| rest.split_once("</script>"))
        .map(|(json, _)| json)
        .expect("index.html has its words block");
    let words: std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>> =
        serde_json::from_str(block).expect("the words block is JSON");
    let (en, ko) = (&words["en"], &words["ko"]);
    check!(
        ko.keys().collect::<Vec<_>>(),
        en.keys().collect::<Vec<_>>(),
        "the same words in both languages"
    );
    let static_page = html.replace(block, "");
    for (name, english) in en {
        assert!(
            static_page.contains(english.as_str()),
            "the page's static {name} is not {english:?}"
        );
    }
    let latin: Vec<_> = ko
        .values()
        .flat_map(|text| latin_outside_the_allow_list(text))
        .collect();
    check!(
        latin,
        Vec::<String>::new(),
        "Latin words in the page's Korean words"
    );
}

/// The statement panel in Korean, at every statement of both races, has
/// no Latin word outside the allow-list (its SQL aside).
#[test]
fn korean_statement_panel_has_no_latin_words_outside_the_allow_list() {
    use leasefence_course::playground::statements::{Move, Race};
    let mut session = support::session(support::statement_chapter(), Lang::Ko);
    let mut found = std::collections::BTreeSet::new();
    let mut walked = 0;
    for race in Race::ALL {
        session.statements(Move::Race(race)).expect("runs");
        for position in 0..=session.statement_panel.total() {
            let drawn = view::statements(&session).expect("open in its chapter");
            let drawn = serde_json::to_value(drawn).expect("serialises");
            let mut texts = Vec::new();
            strings(&drawn, &format!("{race:?} {position}"), &mut texts);
            walked += texts.len();
            for (path, text) in texts {
                let words = latin_outside_the_allow_list(&text);
                if !words.is_empty() {
                    found.insert(format!("{path}: {words:?} in {text:?}"));
                }
            }
            session.statements(Move::Step).expect("steps");
        }
    }
    assert!(walked > 500, "only {walked} texts walked");
    check!(
        found.into_iter().collect::<Vec<_>>(),
        Vec::<String>::new(),
        "Latin words in the Korean statement panel"
    );
}
