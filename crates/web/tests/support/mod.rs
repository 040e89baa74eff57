//! The helpers of the queue's own tests (`tests/support` at the
//! repository's root: side-by-side failures, R14, the shipped scenarios),
//! and JavaScript values for the browser tests.

#![allow(dead_code)] // each test file uses a different part of this module

#[path = "../../../../tests/support/mod.rs"]
mod shared;

pub mod browser;
pub use shared::*;
