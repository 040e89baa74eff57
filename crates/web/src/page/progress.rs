//! The chapters a learner has finished, kept in `localStorage` so the
//! chapter picker still marks them on the next visit, as chapter ids
//! joined by spaces (ids have none; the session ignores unknown ones).
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
