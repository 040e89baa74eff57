//! A sentence and the assertions it was rendered from.

use std::rc::Rc;

use serde::{Serialize, Serializer};

use super::{Assertion, say};
use crate::playground::Lang;
use crate::playground::messages::Key;

/// A sentence (or a few) as the learner reads it, and the assertions it
/// was rendered from. Serialized as its text alone: the page and the
/// view's JSON see words, the checker sees what they state. Views are
/// cloned whole (a panel kept for the next drawing), so the assertions are
/// shared, not copied: an assertion may hold a run's rows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Said {
    text: String,
    asserts: Vec<Rc<Assertion>>,
}

impl Said {
    /// The words of `assertion`.
    pub fn of(lang: Lang, assertion: Assertion) -> Said {
        Said {
            text: say::say(lang, &assertion),
            asserts: vec![Rc::new(assertion)],
        }
    }

    /// `text`, a template of the caller's filled with `assertion`'s own
    /// values, where the assertion's usual words do not fit (a question
    /// that states a fact while it asks).
    pub fn worded(text: impl Into<String>, assertion: Assertion) -> Said {
        Said {
            text: text.into(),
            asserts: vec![Rc::new(assertion)],
        }
    }

    /// The same assertions in other words: a note that draws its own
    /// lesson from a comparison another sentence states, or a line that
    /// says again part of what its headline states.
    pub fn reworded(&self, text: impl Into<String>) -> Said {
        Said {
            text: text.into(),
            asserts: self.asserts.clone(),
        }
    }

    /// This, stating `assertion` too: the caller's template says it in
    /// its own words (a verdict said as a verb of the sentence).
    pub fn stating(mut self, assertion: Assertion) -> Said {
        self.asserts.push(Rc::new(assertion));
        self
    }

    /// A message that states nothing about the timeline (an instruction,
    /// a heading, why something is hidden).
    pub fn plain(text: impl Into<String>) -> Said {
        Said {
            text: text.into(),
            asserts: Vec::new(),
        }
    }

    /// The message `key` with `parts` put in its placeholders: its
    /// assertions are theirs. `values` fill the other placeholders and
    /// must be among what `parts` assert (a time, a worker).
    pub fn fill(lang: Lang, key: Key, values: &[(&str, String)], parts: Vec<(&str, Said)>) -> Said {
        let mut all: Vec<(&str, String)> = values.to_vec();
        let mut asserts = Vec::new();
        for (name, part) in parts {
            all.push((name, part.text));
            asserts.extend(part.asserts);
        }
        Said {
            text: lang.fill(key, &all),
            asserts,
        }
    }

    /// This, then `next`, as one paragraph.
    pub fn then(mut self, next: Said) -> Said {
        if next.text.is_empty() {
            return self;
        }
        if !self.text.is_empty() {
            self.text.push(' ');
        }
        self.text.push_str(&next.text);
        self.asserts.extend(next.asserts);
        self
    }

    /// The same words, each assertion stated of the timeline `scenario`
    /// (a document) at its end rather than of the screen's: a reason
    /// about the lab's counterexample, shown beside another timeline.
    pub fn within(self, scenario: &str) -> Said {
        let asserts = (self.asserts.into_iter())
            .map(|reason| {
                Rc::new(Assertion::Because {
                    scenario: scenario.to_owned(),
                    reason,
                })
            })
            .collect();
        Said {
            text: self.text,
            asserts,
        }
    }

    /// No words, stating of each assertion of this what `about` makes of
    /// it: what a table drawn beside these words is drawn from.
    pub(crate) fn underlying(&self, about: impl Fn(Rc<Assertion>) -> Assertion) -> Said {
        Said {
            text: String::new(),
            asserts: (self.asserts.iter())
                .map(|assertion| Rc::new(about(Rc::clone(assertion))))
                .collect(),
        }
    }

    /// The words.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// What the words state.
    pub fn asserts(&self) -> Vec<&Assertion> {
        self.asserts.iter().map(|assertion| &**assertion).collect()
    }
}

impl std::fmt::Display for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for Said {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}
