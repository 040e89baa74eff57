//! The scenarios the product ships, from the top-level `scenarios/` folder:
//! the chapters' timelines, and the golden tests' inputs. One list names
//! them ([`with_scenarios!`](crate::with_scenarios)); the chapters read
//! their documents from [`SCENARIOS`], and the tests build their table of
//! expected replays from the same names, so a scenario cannot be added to
//! one and forgotten by the other.

/// Calls `$callback!` with the name of every shipped scenario (the file
/// `scenarios/<name>.json`, and `<name>.expected.json` beside it). The
/// tests use it to embed the expected replays next to the documents.
#[doc(hidden)]
#[macro_export]
macro_rules! with_scenarios {
    ($callback:ident) => {
        $callback! {
            "canonical",
            "expiry-boundary",
            "deadline-caps-lease",
            "quarantine",
            "polling-cannot-steal",
            "restart-same-name",
            "late-delivery",
            "deadline-expired",
            "fencing-off-vs-on",
            "write-lock",
            "every-ordering",
        }
    };
}

/// A scenario document the product ships.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shipped {
    /// Its name (the file's stem).
    pub name: &'static str,
    /// The scenario JSON.
    pub json: &'static str,
}

macro_rules! ship {
    ($($name:literal),* $(,)?) => {
        /// Every shipped scenario, in the order the course tells the story.
        pub const SCENARIOS: &[Shipped] = &[$(Shipped {
            name: $name,
            // The file without its layout (build/scenarios.rs).
            json: include_str!(concat!(env!("OUT_DIR"), "/scenarios/", $name, ".json")),
        }),*];
    };
}

with_scenarios!(ship);

/// The shipped scenario with this name.
pub fn find(name: &str) -> Option<&'static Shipped> {
    SCENARIOS.iter().find(|shipped| shipped.name == name)
}
