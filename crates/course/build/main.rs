//! The course's build script:
//!
//! * [`chapters`]: the chapter folders become the list of chapters, their
//!   scenarios embedded without their layout;
//! * [`messages`]: the Korean and English message files, with each
//!   chapter's title and text, become tables in the code, checked to have
//!   the same keys.

mod chapters;
mod messages;

fn main() {
    println!("cargo::rerun-if-changed=build");
    let chapters = chapters::generate();
    messages::generate(&chapters);
}
