//! The lists of chapters outside the build, which `make bless` writes: each
//! names every chapter folder, in course order, so a chapter added as one
//! folder cannot be forgotten by them (the build lists it everywhere
//! else); this fails until `make bless` has run.

use leasefence_course::playground::CHAPTERS;

/// The backticked words of `text` between `start` and the next `end`.
fn listed(text: &str, start: &str, end: &str) -> Vec<String> {
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("{start:?} is in the file"))
        + start.len();
    let part = &text[from..];
    let part = &part[..part.find(end).unwrap_or(part.len())];
    part.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

fn ids() -> Vec<String> {
    CHAPTERS
        .iter()
        .map(|chapter| chapter.id.to_owned())
        .collect()
}

#[test]
fn the_readmes_name_every_chapter_in_course_order() {
    let root = include_str!("../../../README.md");
    assert_eq!(
        listed(root, "- `data-scenario`:", "\n- "),
        ids(),
        "README.md's data-scenario list (expected on the right: the chapter folders)"
    );
    let package = include_str!("../../../package/README.md");
    assert_eq!(
        listed(package, "`data-scenario` (a chapter:", ")"),
        ids(),
        "package/README.md's data-scenario list (expected on the right: the chapter folders)"
    );
}

/// The quoted names of the TypeScript union in crates/web/src/lib.rs that
/// follows `start`, up to its `;`.
fn union(start: &str) -> Vec<String> {
    let source = include_str!("../../web/src/lib.rs");
    let from = source.find(start).expect("the union is declared") + start.len();
    let union = &source[from..from + source[from..].find(';').expect("it ends")];
    union
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_typescript_chapter_union_names_every_chapter_in_course_order() {
    assert_eq!(
        union("export type Chapter ="),
        ids(),
        "the Chapter union in crates/web/src/lib.rs (right: the folders)"
    );
}

/// The lab's levels, typed twice in the TypeScript (`lab` of the mount
/// options, `level` of the completion event): each names every level, in
/// the lab's order, so a level added to `LEVELS` cannot be forgotten there.
#[test]
fn the_typescript_level_unions_name_every_lab_level() {
    let levels: Vec<String> = leasefence_course::lab::LEVELS
        .iter()
        .map(|level| level.id.to_owned())
        .collect();
    for start in ["lab?:", "level:"] {
        assert_eq!(
            union(start),
            levels,
            "the {start} union in crates/web/src/lib.rs (right: LEVELS)"
        );
    }
}
