//! The clock, read only here, at the command line's edge.
//!
//! The core never reads a clock: every operation takes `now` from its
//! caller. The command line reads the wall clock only for `enqueue
//! --deadline-in` and for `work`.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch on the wall clock.
pub fn wall_clock_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis() as u64)
}
