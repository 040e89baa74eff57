//! The playground's model, independent of the browser: chapters and the
//! course points shown at places in them, messages in Korean and English,
//! the words for what each step did (and for what the JSON parser
//! refused), the learner's place in a timeline, their whole session, and
//! the view the page draws from it.
//!
//! The page (`web::page`, wasm only) only turns a [`view`] into elements
//! and the learner's input into [`session::Session`] calls; keeping every
//! decision here lets native tests check what a learner would see.

pub mod assertions;
pub mod breaks;
pub mod chapters;
pub mod explain;
pub mod invariants;
pub mod lab;
pub mod lesson;
pub mod link;
pub mod messages;
mod panels;
pub mod parser_words;
pub mod quiz;
pub mod scenes;
pub mod session;
pub mod show;
pub mod sqlite_words;
pub mod statements;
pub mod status;
pub mod stepper;
pub mod twist;
pub mod view;

pub use chapters::{CHAPTERS, Chapter, chapter_scenarios};
pub use messages::{Lang, Message};
