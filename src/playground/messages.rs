//! Korean and English text, from keyed message files
//! (`src/playground/messages/{ko,en}.json`). Korean uses the course's own
//! terms (임대, 선점 토큰, 재선점, ...). A test fails when a key is missing
//! in either file.

use serde::Serialize;
use std::collections::HashMap;
use std::sync::OnceLock;

/// A language of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English.
    En,
    /// Korean, the course's language.
    Ko,
}

const EN: &str = include_str!("messages/en.json");
const KO: &str = include_str!("messages/ko.json");

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

    /// The raw message file of this language.
    pub fn source(self) -> &'static str {
        match self {
            Lang::En => EN,
            Lang::Ko => KO,
        }
    }

    fn table(self) -> &'static HashMap<String, String> {
        static EN_TABLE: OnceLock<HashMap<String, String>> = OnceLock::new();
        static KO_TABLE: OnceLock<HashMap<String, String>> = OnceLock::new();
        let cell = match self {
            Lang::En => &EN_TABLE,
            Lang::Ko => &KO_TABLE,
        };
        // The files are checked by a test; a broken one shows its keys.
        cell.get_or_init(|| serde_json::from_str(self.source()).unwrap_or_default())
    }

    /// The message for `key`; the key itself when missing, so a gap is
    /// visible on the page instead of blank.
    pub fn text(self, key: &str) -> &str {
        self.table().get(key).map_or(key, String::as_str)
    }

    /// The message for `key` with `{name}` placeholders filled in, in one
    /// pass over the template: a value that itself looks like `{reason}`
    /// (a worker may be called anything) is inserted as it is.
    pub fn fill(self, key: &str, values: &[(&str, String)]) -> String {
        let template = self.text(key);
        let mut text = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            text.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let value = after.find('}').and_then(|close| {
                values
                    .iter()
                    .find(|(name, _)| *name == &after[..close])
                    .map(|v| (close, v))
            });
            match value {
                Some((close, (_, value))) => {
                    text.push_str(value);
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
