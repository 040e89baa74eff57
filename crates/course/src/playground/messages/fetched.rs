//! Each language's texts fetched apart from the module (the
//! `fetched-messages` feature, which the page's build turns on): a learner
//! downloads the texts of the language they read, not of both. The build
//! script writes them (`messages.<lang>.json`, which `make web` puts
//! beside the module); the page says how to get one
//! ([`fetch_with`]), and a language's texts are asked for the first time
//! one of its messages is: once, kept for the page's life, whether they
//! came or not, so a missing file costs one request and not one per
//! message.

use std::sync::OnceLock;

use serde::Deserialize;

use super::{FINGERPRINT, HASHES, Lang};

/// A language's texts as the build script wrote them.
#[derive(Deserialize)]
struct File {
    /// Which build's keys the texts follow (`FINGERPRINT`).
    fingerprint: u32,
    /// The texts, in the order of `HASHES`.
    texts: Vec<String>,
}

/// How the page gets a language's file: its bytes, or `None` when it
/// could not be had; and what it does with a file that came but was
/// written for another build (or is no such file), which is not read.
#[derive(Clone, Copy)]
pub struct Source {
    /// Fetches a language's file.
    pub fetch: fn(Lang) -> Option<Vec<u8>>,
    /// Told of a language whose file came and could not be read.
    pub unread: fn(Lang),
}

static SOURCE: OnceLock<Source> = OnceLock::new();

/// Each language's texts (English, Korean), once asked for: `None` when
/// they could not be had or were written for another build.
static TEXTS: [OnceLock<Option<Vec<String>>>; 2] = [OnceLock::new(), OnceLock::new()];

/// Says how a language's texts are fetched; the first call decides.
pub fn fetch_with(source: Source) {
    let _ = SOURCE.set(source);
}

/// Whether `lang`'s texts are in (asked for and read), so a language
/// switch can wait for them instead of asking now.
pub fn has(lang: Lang) -> bool {
    TEXTS[lang as usize].get().is_some_and(Option::is_some)
}

/// The text at `index` of `lang`'s texts, fetched the first time.
pub(super) fn text_at(lang: Lang, index: usize) -> Option<&'static str> {
    let texts = TEXTS[lang as usize].get_or_init(|| {
        let source = SOURCE.get()?;
        let texts = read(&(source.fetch)(lang)?);
        if texts.is_none() {
            (source.unread)(lang);
        }
        texts
    });
    texts.as_ref()?.get(index).map(String::as_str)
}

/// The texts in `bytes`, if they were written for this build's keys.
fn read(bytes: &[u8]) -> Option<Vec<String>> {
    let file: File = serde_json::from_slice(bytes).ok()?;
    (file.fingerprint == FINGERPRINT && file.texts.len() == HASHES.len()).then_some(file.texts)
}
