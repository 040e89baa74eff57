//! The helpers of the queue's own tests (`tests/support` at the
//! repository's root: side-by-side failures, R14), and the command line
//! run as processes.

#![allow(dead_code)] // each test file uses a different part of this module

#[path = "../../../../tests/support/mod.rs"]
mod shared;

pub mod processes;
pub use shared::*;
