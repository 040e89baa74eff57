//! The playground's address: `#v=1&chapter=...` or `#v=1&scenario=...`,
//! with `lang` and, in a copied link, `step` and (while the statement
//! panel is open) `stmt=<race>.<moments passed on its clock>`.
//!
//! A shared link carries a whole scenario as base64url JSON, so a learner
//! can send exactly what they built; an author's lesson travels with its
//! title and narration (a lesson document), so an iframe's address can
//! carry one. Reading one is as strict as the
//! editor: a link that does not decode, parse or fit the page is refused
//! with a message in the learner's language, and the page stays as it was.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::key;
use crate::playground::lesson::{LESSON, Lesson, Source};
use crate::playground::messages::Key;
use crate::playground::statements::Race;
use crate::playground::{Lang, Message, chapters};
use leasefence::scenario::Scenario;

/// The format version every link starts with.
pub const VERSION: &str = "v=1";

/// `#v=1&chapter=...&lang=...` (the leading `#` optional) as pairs, in
/// order; pairs without `=` are skipped.
pub fn params(hash: &str) -> Vec<(String, String)> {
    hash.trim_start_matches('#')
        .split('&')
        .filter_map(|pair| {
            let (key, value) = pair.split_once('=')?;
            Some((key.to_owned(), value.to_owned()))
        })
        .collect()
}

/// The value of `name` among `params`, if present.
pub fn param<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

/// The pairs of a link the page cannot read, as written (`v=2`,
/// `step=abc`, `chapte=canonical`): a version other than this one's, a
/// key it does not know, a value of the wrong form. Empty for a link with
/// no pairs at all (a host's own `#section`). A link with no `v` is read
/// as this version, as an author writes one by hand (`#chapter=canonical`):
/// nothing of it is left out, so nothing is said. What each key's value
/// means (a chapter, a scenario) is checked where it is used.
pub fn unread(params: &[(String, String)]) -> Vec<String> {
    let readable = |key: &str, value: &str| match key {
        "v" => value == &VERSION[2..],
        "lang" => Lang::from_tag(value).is_some(),
        "step" => !value.is_empty() && value.bytes().all(|byte| byte.is_ascii_digit()),
        "predict" => matches!(value, "0" | "1"),
        "stmt" => read_statement_place(value).is_some(),
        "chapter" | "scenario" | "lab" | "sql" => true,
        _ => false,
    };
    (params.iter())
        .filter(|(key, value)| !readable(key, value))
        .map(|(key, value)| format!("{key}={value}"))
        .collect()
}

/// What a link names.
#[derive(Debug, Clone, Copy)]
pub enum Shown<'a> {
    /// A chapter, by its id.
    Chapter(&'static chapters::Chapter),
    /// An author's lesson, unchanged: its document, title and narration
    /// too.
    Lesson(&'a Lesson),
    /// Any other timeline (the learner's own): its scenario.
    Timeline(&'a Scenario),
}

impl<'a> Shown<'a> {
    /// What `chapter` (an id, [`LESSON`] or the sandbox) names, on screen
    /// with `scenario`: the author's `lesson` for [`LESSON`].
    pub fn of(chapter: &str, lesson: Option<&'a Lesson>, scenario: &'a Scenario) -> Shown<'a> {
        match (chapter, lesson) {
            (LESSON, Some(lesson)) => Shown::Lesson(lesson),
            (id, _) => match chapters::find(id) {
                Some(chapter) => Shown::Chapter(chapter),
                None => Shown::Timeline(scenario),
            },
        }
    }
}

/// The lesson (a scenario, with the author's title and narration if the
/// document has them) a link's `scenario=` carries, or why it cannot be
/// used.
pub fn decode(encoded: &str) -> Result<Lesson, Message> {
    let source = Source {
        scenario: Ok(text_of(encoded, "scenario")?),
        ..Source::default()
    };
    Lesson::read(&source).map_err(|refusal| Message::new(|lang| refusal.text(lang)))
}

/// Where the learner stands, for a copied link: the step, and the
/// statement panel's race and place while it is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// Events applied.
    pub step: usize,
    /// The statement panel's race and moments passed, when open.
    pub statements: Option<(Race, usize)>,
}

/// The lab's part of an address: `lab=<level>`, and `sql=<base64url>`
/// when the learner's statement is not the level's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabPlace<'a> {
    /// The level's id.
    pub level: &'a str,
    /// The learner's statement, when it is their own.
    pub sql: Option<&'a str>,
}

/// The longest statement a link carries (as text, before base64url).
const MAX_SQL: usize = 4096;

/// The statement a link's `sql=` carries, or why it cannot be used.
pub fn decode_sql(encoded: &str) -> Result<String, Message> {
    let text = text_of(encoded, "sql")?;
    if text.len() > MAX_SQL {
        return Err(Message::new(|lang| {
            format!("#sql: {}", lang.text(key!("lab.link_too_long")))
        }));
    }
    Ok(text)
}

/// The text a link's `key=` value carries as base64url UTF-8, or why it
/// cannot be read.
fn text_of(encoded: &str, key: &str) -> Result<String, Message> {
    let in_link = |message: Key| Message::new(|lang| format!("#{key}: {}", lang.text(message)));
    let bytes = URL_SAFE_NO_PAD
        .decode(encoded.trim_end_matches('='))
        .map_err(|_| in_link(key!("hash.not_base64")))?;
    String::from_utf8(bytes).map_err(|_| in_link(key!("hash.not_utf8")))
}

/// The address of what is on screen: a chapter by its id, a lesson or
/// any other timeline (`sandbox`: one the learner changed or wrote) as
/// its document; the learner's place for copied links only (the address
/// bar does not follow every step). A timeline keeps a chapter's id only
/// while it is the chapter's own: every change makes it the sandbox.
/// `predict` is said only where it is not the default: a chapter and a
/// lesson with a title or a narration open predicting (`predict=0` keeps
/// a learner's choice to just watch), a shared timeline does not
/// (`predict=1`).
pub fn compose(
    shown: Shown<'_>,
    (lang, predict): (Lang, bool),
    place: Option<Place>,
    lab: Option<LabPlace<'_>>,
) -> String {
    let carried = |json: String| format!("scenario={}", URL_SAFE_NO_PAD.encode(json));
    let (what, predicts) = match shown {
        Shown::Chapter(chapter) => (format!("chapter={}", chapter.id), true),
        // Read back, a lesson with words opens as the lesson (predicting),
        // one without as a shared timeline (showing).
        Shown::Lesson(lesson) => (carried(lesson.to_json()), lesson.has_words()),
        Shown::Timeline(scenario) => (carried(scenario.to_json()), false),
    };
    let mut address = format!("{VERSION}&{what}&lang={}", lang.tag());
    if predict != predicts {
        address.push_str(if predict { "&predict=1" } else { "&predict=0" });
    }
    if let Some(lab) = lab {
        address.push_str(&format!("&lab={}", lab.level));
        if let Some(sql) = lab.sql {
            address.push_str(&format!("&sql={}", URL_SAFE_NO_PAD.encode(sql)));
        }
    }
    if let Some(place) = place {
        address.push_str(&format!("&step={}", place.step));
        if let Some((race, position)) = place.statements {
            address.push_str(&format!("&stmt={}", statement_place(race, position)));
        }
    }
    address
}

/// The statement panel's place as the `stmt=` value of a link.
fn statement_place(race: Race, position: usize) -> String {
    format!("{}.{position}", race.name())
}

/// The race and the moments passed a `stmt=` value names; `None`
/// for anything else (the panel then stays as it would be).
pub fn read_statement_place(value: &str) -> Option<(Race, usize)> {
    let (race, position) = value.split_once('.')?;
    if position.is_empty() || !position.bytes().all(|byte| byte.is_ascii_digit()) {
        return None; // no sign, no spaces: the format the page writes
    }
    Some((Race::from_name(race)?, position.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn canonical() -> Scenario {
        Scenario::parse(chapters::CHAPTERS[0].scenario()).expect("the chapter parses")
    }

    fn first_chapter() -> Shown<'static> {
        Shown::Chapter(&chapters::CHAPTERS[0])
    }

    #[test]
    fn an_unchanged_chapter_is_linked_by_its_id() {
        let link = compose(first_chapter(), (Lang::Ko, true), None, None);
        assert_eq!(link, "v=1&chapter=canonical&lang=ko");
    }

    #[test]
    fn a_changed_scenario_travels_whole_and_comes_back_equal() {
        let canonical = canonical();
        let changed = canonical.first(canonical.events().len() - 1);
        let place = Place {
            step: 2,
            statements: Some((Race::Send, 3)),
        };
        let link = compose(
            Shown::Timeline(&changed),
            (Lang::En, false),
            Some(place),
            None,
        );
        let pairs = params(&format!("#{link}"));
        assert_eq!(param(&pairs, "step"), Some("2"));
        assert_eq!(param(&pairs, "stmt"), Some("send.3"));
        let encoded = param(&pairs, "scenario").expect("the scenario is in the link");
        let decoded = decode(encoded).expect("the link reads");
        assert_eq!(decoded.scenario, changed);
        assert!(!decoded.has_words(), "a timeline is not a lesson");
    }

    #[test]
    fn a_statement_place_comes_back_equal_and_a_wrong_one_is_none() {
        let value = statement_place(Race::Timeline, 7);
        assert_eq!(read_statement_place(&value), Some((Race::Timeline, 7)));
        for wrong in ["timeline", "lock.3", "claim.-1", "claim.+7", "claim.x", ""] {
            assert_eq!(read_statement_place(wrong), None, "{wrong:?}");
        }
    }

    #[test]
    fn a_learners_statement_travels_in_the_link_and_comes_back_equal() {
        let sql = "UPDATE jobs SET state = 'done'\n WHERE id = :id AND token = :token";
        let lab = LabPlace {
            level: "finish",
            sql: Some(sql),
        };
        let link = compose(first_chapter(), (Lang::Ko, true), None, Some(lab));
        let pairs = params(&format!("#{link}"));
        assert_eq!(param(&pairs, "lab"), Some("finish"));
        let encoded = param(&pairs, "sql").expect("the statement is in the link");
        assert_eq!(decode_sql(encoded).ok().as_deref(), Some(sql));
        assert!(decode_sql("%%%").is_err(), "not base64url");
    }

    /// Links with another version, a key cut short or a value of the
    /// wrong form opened the first chapter with no word; each such pair is
    /// named. A link with no version is read whole: nothing is named.
    #[test]
    fn a_link_the_page_cannot_read_names_what_it_left_out() {
        let unread_of = |hash: &str| unread(&params(hash));
        assert_eq!(
            unread_of("#v=1&chapter=canonical&lang=ko&step=2&predict=0&stmt=claim.3"),
            Vec::<String>::new()
        );
        assert_eq!(
            unread_of("#section-2"),
            Vec::<String>::new(),
            "a host's own anchor"
        );
        assert_eq!(unread_of("#v=2&chapter=canonical"), vec!["v=2"]);
        assert_eq!(unread_of("#v=0&chapter=canonical"), vec!["v=0"]);
        assert_eq!(unread_of("#chapter=canonical"), Vec::<String>::new());
        assert_eq!(unread_of("#v=1&chapte=canonical"), vec!["chapte=canonical"]);
        assert_eq!(
            unread_of("#v=1&step=-3&lang=fr&stmt=lock&predict=yes"),
            vec!["step=-3", "lang=fr", "stmt=lock", "predict=yes"]
        );
    }

    #[test]
    fn a_broken_link_is_refused_in_either_language() {
        let refused = decode("%%%").expect_err("not base64url");
        for lang in [Lang::Ko, Lang::En] {
            assert_eq!(
                refused.text(lang),
                format!("#scenario: {}", lang.text(key!("hash.not_base64")))
            );
        }
    }
}
