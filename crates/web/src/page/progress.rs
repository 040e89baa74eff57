//! What a learner keeps between visits, in `localStorage`: the chapters
//! they have finished, so the chapter picker still marks them (chapter
//! ids joined by spaces; ids have none; the session ignores unknown
//! ones), and their statement for each level of the lab.
//! Storage may be missing or refused (private windows, sandboxed iframes):
//! then progress lasts as long as the page, and nothing else changes.

use web_sys::Window;

/// The key under which every playground on this origin keeps its progress.
const KEY: &str = "leasefence.progress";

/// What was stored earlier (empty if nothing or unreadable).
pub(super) fn load(window: &Window) -> String {
    window
        .local_storage()
        .ok()
        .flatten()
        .and_then(|storage| storage.get_item(KEY).ok().flatten())
        .unwrap_or_default()
}

/// Stores the finished chapter ids, if storage is there.
pub(super) fn save(window: &Window, finished: &[&str]) {
    if let Some(storage) = window.local_storage().ok().flatten() {
        let _ = storage.set_item(KEY, &finished.join(" "));
    }
}

/// The key of a lab level's statement.
fn lab_key(level: &str) -> String {
    format!("leasefence.lab.{level}")
}

/// The statement kept for the lab's `level`, if any.
pub(super) fn load_lab(window: &Window, level: &str) -> Option<String> {
    let storage = window.local_storage().ok().flatten()?;
    storage.get_item(&lab_key(level)).ok().flatten()
}

/// Keeps `sql` as the statement of the lab's `level`, if storage is there.
pub(super) fn save_lab(window: &Window, level: &str, sql: &str) {
    if let Some(storage) = window.local_storage().ok().flatten() {
        let _ = storage.set_item(&lab_key(level), sql);
    }
}
