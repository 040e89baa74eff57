//! The engines a queue runs on, for the tests that hold both to the same
//! contract: each such test runs its body once per engine, SQLite in
//! memory and (natively) PostgreSQL in a fresh schema of a throwaway
//! server ([`postgres`]). The browser has SQLite only.

#![allow(dead_code)] // each test file uses a different part of this module

#[cfg(not(target_arch = "wasm32"))]
pub mod postgres;

use leasefence::{Error, Queue, Receiver};

/// One engine under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// A private in-memory SQLite database.
    Sqlite,
    /// A fresh schema of the test process's PostgreSQL server.
    #[cfg(not(target_arch = "wasm32"))]
    Postgres,
}

impl Engine {
    /// Every engine of this target.
    pub const ALL: &[Engine] = &[
        Engine::Sqlite,
        #[cfg(not(target_arch = "wasm32"))]
        Engine::Postgres,
    ];

    /// A new, empty queue on this engine.
    pub fn open(self) -> Result<Queue, Error> {
        match self {
            Engine::Sqlite => Queue::open_in_memory(),
            #[cfg(not(target_arch = "wasm32"))]
            Engine::Postgres => Queue::connect(&postgres::fresh_url()),
        }
    }

    /// A new, empty receiver's ledger on this engine.
    pub fn receiver(self) -> Result<Receiver, Error> {
        match self {
            Engine::Sqlite => Receiver::open_in_memory(),
            #[cfg(not(target_arch = "wasm32"))]
            Engine::Postgres => Receiver::connect(&postgres::fresh_url()),
        }
    }
}

/// Runs `test` on every engine, saying which one before each run, so a
/// failure's output names the engine it happened on.
pub fn on_each_engine(test: impl Fn(Engine) -> Result<(), Error>) -> Result<(), Error> {
    for &engine in Engine::ALL {
        eprintln!("on {engine:?}:");
        test(engine).inspect_err(|err| eprintln!("on {engine:?}: {err}"))?;
    }
    Ok(())
}
