//! The clock, read only here, at the command line's edge.
//!
//! The core never reads a clock: every operation takes `now` from its
//! caller. The command line reads the wall clock for `enqueue
//! --deadline-in` and for `work`, unless `work` is given `--clock FILE`:
//! then the time is whatever that file says, and only whoever writes the
//! file moves it. A test steps real worker processes through a story that
//! way, exactly and without sleeping; a learner can do the same by hand.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::output::{Failure, invalid};

/// How often a worker on a file clock looks at the file while it waits.
const FILE_POLL: Duration = Duration::from_millis(1);

/// How long a file clock may stay unreadable before the worker gives up:
/// whoever moves the time replaces the file by rename, which takes far
/// less; a file gone for longer was removed (the worker spun forever).
const FILE_GONE: Duration = Duration::from_secs(2);

/// Milliseconds since the Unix epoch on the wall clock.
pub fn wall_clock_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis() as u64)
}

/// Where `work` reads the time.
#[derive(Debug)]
pub enum Clock {
    /// The wall clock; a wait sleeps.
    Wall,
    /// A file holding the time as decimal milliseconds, moved by someone
    /// else; a wait lasts until the file's time has advanced that far.
    File(PathBuf),
}

impl Clock {
    /// The wall clock, or the file clock at `path`, which must hold a time
    /// now (a mistyped path is bad input, not a wait forever).
    pub fn new(path: Option<&Path>) -> Result<Clock, Failure> {
        let Some(path) = path else {
            return Ok(Clock::Wall);
        };
        read_ms(path).map_err(|why| invalid("--clock", format!("{}: {why}", path.display())))?;
        Ok(Clock::File(path.to_owned()))
    }

    /// The current time in milliseconds.
    ///
    /// A file that cannot be read for a moment (being rewritten) is read
    /// again: whoever writes it is expected to replace it whole, by rename.
    /// One unreadable for [`FILE_GONE`] is an error naming it.
    pub fn now(&self) -> Result<u64, Failure> {
        match self {
            Clock::Wall => Ok(wall_clock_ms()),
            Clock::File(path) => {
                let since = Instant::now();
                loop {
                    match read_ms(path) {
                        Ok(ms) => return Ok(ms),
                        Err(why) if since.elapsed() >= FILE_GONE => {
                            let gone = FILE_GONE.as_secs();
                            return Err(invalid(
                                "--clock",
                                format!("{}: unreadable for {gone} s: {why}", path.display()),
                            ));
                        }
                        Err(_) => std::thread::sleep(FILE_POLL),
                    }
                }
            }
        }
    }

    /// Waits until `ms` have passed on this clock.
    pub fn wait(&self, ms: u64) -> Result<(), Failure> {
        match self {
            Clock::Wall => std::thread::sleep(Duration::from_millis(ms)),
            Clock::File(_) => {
                let until = self.now()?.saturating_add(ms);
                while self.now()? < until {
                    std::thread::sleep(FILE_POLL);
                }
            }
        }
        Ok(())
    }
}

fn read_ms(path: &Path) -> Result<u64, String> {
    let text = std::fs::read_to_string(path).map_err(|err| err.to_string())?;
    text.trim()
        .parse()
        .map_err(|_| format!("holds {:?}, not a time in milliseconds", text.trim()))
}
