//! What the editor (or a shared link) last said about the learner's
//! change: kept in both languages ([`Status`]), drawn in one
//! ([`StatusLine`]), so a language switch says it again in the new one.

use crate::playground::{Lang, Message};
use serde::Serialize;

/// A line from the editor (or a shared link): what became of the
/// learner's change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    /// Applied, waiting for Apply, or refused.
    pub kind: StatusKind,
    /// What it says, in either language.
    pub message: Message,
}

/// What a [`Status`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StatusKind {
    /// The change was applied (an edit, a drag, a twist).
    Done,
    /// The text changed and waits for Apply.
    Pending,
    /// Refused, and why; nothing changed.
    Refused,
}

impl StatusKind {
    /// The name the page styles it by.
    pub fn name(self) -> &'static str {
        match self {
            StatusKind::Done => "done",
            StatusKind::Pending => "pending",
            StatusKind::Refused => "refused",
        }
    }
}

impl Status {
    /// The line as the page draws it, in `lang`.
    pub fn line(&self, lang: Lang) -> StatusLine {
        StatusLine {
            kind: self.kind,
            text: self.message.text(lang).to_owned(),
        }
    }
}

/// A [`Status`] in one language: what the editor's status line shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusLine {
    /// Applied, waiting for Apply, or refused.
    pub kind: StatusKind,
    /// The words.
    pub text: String,
}
