//! The playground's model, independent of the browser: chapters, messages
//! in Korean and English, the words for what each step did (and for what
//! the JSON parser refused), and the learner's place in a timeline.
//!
//! The page (`web::page`, wasm only) renders from these and from the
//! [`crate::Timeline`] the core returns; keeping them here lets native
//! tests check that every message exists in both languages and that every
//! chapter replays.

pub mod chapters;
pub mod explain;
pub mod messages;
pub mod parser_words;
pub mod stepper;

pub use chapters::{CHAPTERS, Chapter};
pub use messages::Lang;
