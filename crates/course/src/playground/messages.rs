//! Korean and English text, from keyed message files
//! (`src/playground/messages/{ko,en}.json`). Korean uses the course's own
//! terms, one word per concept, as `glossary.json` lists them (임대,
//! 선점, 재선점, 선점 토큰, ...). The build fails when a key is missing
//! in either file or a key the code names ([`key!`](crate::key)) in
//! both; tests fail when a Korean message uses another word for a listed
//! concept, or when Latin script outside the allow-list shows in Korean.
//!
//! A placeholder is `{name}`, or `{name|을}` for a value followed by a
//! Korean particle whose form depends on how the value ends (see
//! [`korean`]).

mod key_hash;
pub mod korean;

use key_hash::key_hash;

use serde::Serialize;

/// A language of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English.
    En,
    /// Korean, the course's language.
    Ko,
}

/// A message's key: where its text is in each language's table.
///
/// Every key is written in the code ([`key!`](crate::key)) and found
/// while the program is compiled, so no key's text, nor any table to find
/// one by, is in the page's module, and a key the message files lack stops
/// the build. A closed set's members (a chapter, a reason, a result) carry
/// theirs, or are looked up among them ([`Key::among`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key(u16);

impl Key {
    /// No message: what [`Key::among`] gives for a name not in its set.
    const NONE: Key = Key(u16::MAX);

    /// The key `name`, found at compile time by [`key!`](crate::key),
    /// which is how the code should call it.
    #[doc(hidden)]
    pub const fn compiled(name: &str) -> Key {
        match index_of(key_hash(name)) {
            Some(index) => Key(index),
            None => panic!("no message in the message files has this key"),
        }
    }

    /// The key of `name` in `set`, a closed set's members by name (each
    /// key found at compile time); a name not in it finds no text
    /// ([`Lang::text`]). Keys are never made from text while the program
    /// runs, so the module holds no table of the keys' hashes.
    pub fn among(name: &str, set: &[(&str, Key)]) -> Key {
        (set.iter())
            .find(|(known, _)| *known == name)
            .map_or(Key::NONE, |(_, key)| *key)
    }
}

/// Where `hash` is in `HASHES` (sorted): a binary search a constant can
/// run.
const fn index_of(hash: u32) -> Option<u16> {
    let (mut low, mut high) = (0, HASHES.len());
    while low < high {
        let middle = low + (high - low) / 2;
        if HASHES[middle] == hash {
            return Some(middle as u16);
        }
        if HASHES[middle] < hash {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    None
}

/// A message's [`Key`], found while the program is compiled: `key!("lab.title")`.
/// A key the message files lack stops the build at the call.
#[macro_export]
macro_rules! key {
    ($name:literal) => {{
        const KEY: $crate::playground::messages::Key =
            $crate::playground::messages::Key::compiled($name);
        KEY
    }};
}

/// What a message with no text shows: a gap the learner sees, not a blank
/// (its language's texts could not be fetched, or a name made at run time
/// has no message). No message uses it (the midline ellipsis, not `…`).
const GAP: &str = "⋯";

/// Strings stored as one text and the end of each entry in it.
#[cfg(not(feature = "fetched-messages"))]
struct Table {
    text: &'static str,
    ends: &'static [u16],
}

#[cfg(not(feature = "fetched-messages"))]
impl Table {
    fn get(&self, index: usize) -> &'static str {
        let end = |at: usize| usize::from(self.ends[at]);
        let start = index.checked_sub(1).map_or(0, end);
        &self.text[start..end(index)]
    }
}

// `HASHES` (sorted) and the `EN` and `KO` texts in the same order, made by
// the build script from the message files (build/messages.rs); with the
// `fetched-messages` feature, `HASHES` and the texts' `FINGERPRINT` alone.
include!(concat!(env!("OUT_DIR"), "/messages.rs"));

#[cfg(feature = "fetched-messages")]
pub mod fetched;

/// The text at `index` of `lang`'s table, in the order of `HASHES`.
#[cfg(not(feature = "fetched-messages"))]
fn text_at(lang: Lang, index: usize) -> Option<&'static str> {
    let texts = match lang {
        Lang::En => &EN,
        Lang::Ko => &KO,
    };
    Some(texts.get(index))
}

#[cfg(feature = "fetched-messages")]
use fetched::text_at;

impl Lang {
    /// Picks a language from a tag like `ko`, `ko-KR` or `en-US`.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "ko" => Some(Lang::Ko),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The tag for `lang` attributes and URLs.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
        }
    }

    /// The other language (the switch button).
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Ko,
            Lang::Ko => Lang::En,
        }
    }

    /// The message for `key`; a visible gap (⋯) when it has none or its
    /// language's texts could not be fetched.
    pub fn text(self, key: Key) -> &'static str {
        let found = (key != Key::NONE).then_some(usize::from(key.0));
        found.and_then(|index| text_at(self, index)).unwrap_or(GAP)
    }

    /// The message for `key` with its placeholders filled in, in one pass
    /// over the template: a value that itself looks like `{reason}` (a
    /// worker may be called anything) is inserted as it is.
    ///
    /// `{name}` is the value of `name`; `{name|을}` is the value followed
    /// by the form of the 을/를 pair that fits its last sound (likewise
    /// `{name|이}`, `{name|은}`, `{name|와}`, `{name|으로}`, `{name|이다}`,
    /// ...; either form of a pair may be written). A placeholder with no
    /// such value, or an unknown particle, stays as written, so the gap
    /// shows.
    pub fn fill(self, key: Key, values: &[(&str, String)]) -> String {
        let template = self.text(key);
        let mut text = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            text.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let filled = after
                .find('}')
                .and_then(|close| Some((close, placeholder(&after[..close], values)?)));
            match filled {
                Some((close, (value, particle))) => {
                    text.push_str(value);
                    text.push_str(particle);
                    rest = &after[close + 1..];
                }
                None => {
                    text.push('{');
                    rest = after;
                }
            }
        }
        text.push_str(rest);
        text
    }
}

/// The value a placeholder's inside (`name` or `name|particle`) stands for,
/// and the particle form that follows it.
fn placeholder<'v>(inside: &str, values: &'v [(&str, String)]) -> Option<(&'v str, &'static str)> {
    let (name, particle) = match inside.split_once('|') {
        Some((name, particle)) => (name, Some(particle)),
        None => (inside, None),
    };
    let (_, value) = values.iter().find(|(candidate, _)| *candidate == name)?;
    let form = match particle {
        Some(particle) => korean::particle(value, particle)?,
        None => "",
    };
    Some((value, form))
}

/// A sentence kept to be shown later (what the editor last said, a notice
/// about the link), made in both languages when it is said: a language
/// switch then shows it in the new language, never in the old one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    en: String,
    ko: String,
}

impl Message {
    /// The sentence `say` makes in each language.
    pub fn new(mut say: impl FnMut(Lang) -> String) -> Message {
        Message {
            en: say(Lang::En),
            ko: say(Lang::Ko),
        }
    }

    /// The message `key` of the message files.
    pub fn key(key: Key) -> Message {
        Message::fill(key, &[])
    }

    /// The message `key` filled with `values` (the same in either
    /// language).
    pub fn fill(key: Key, values: &[(&str, String)]) -> Message {
        Message::new(|lang| lang.fill(key, values))
    }

    /// The message `key` around `inner` (its `{message}`), each language
    /// around its own.
    pub fn around(key: Key, inner: &Message) -> Message {
        Message::new(|lang| lang.fill(key, &[("message", inner.text(lang).to_owned())]))
    }

    /// The sentence in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Ko => &self.ko,
        }
    }
}
