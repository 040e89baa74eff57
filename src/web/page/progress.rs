//! The chapters a learner has finished, kept in `localStorage` so the
//! chapter picker still marks them on the next visit. Storage may be
//! missing or refused (private windows, sandboxed iframes): then progress
//! lasts as long as the page, and nothing else changes.

use std::collections::BTreeSet;

use web_sys::Window;

/// The key under which every playground on this origin keeps its progress.
const KEY: &str = "leasefence.progress";

/// The finished chapter ids stored earlier (none if unreadable).
pub(super) fn load(window: &Window) -> Vec<String> {
    let stored = window
        .local_storage()
        .ok()
        .flatten()
        .and_then(|storage| storage.get_item(KEY).ok().flatten());
    stored
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Stores the finished chapter ids, if storage is there.
pub(super) fn save(window: &Window, finished: &BTreeSet<String>) {
    let Ok(text) = serde_json::to_string(finished) else {
        return;
    };
    if let Some(storage) = window.local_storage().ok().flatten() {
        let _ = storage.set_item(KEY, &text);
    }
}
