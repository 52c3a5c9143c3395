//! tuplewright — a terminal workbench and headless engine that manufactures verified RLVR training
//! tuples `(t, s_init, s_gold, r)` for computer-use agents, following the CUA-Gym pipeline.
//!
//! The crate is split into:
//! - [`engine`]: the library core (store, bundles, statistics, environments, sandbox, scanner, loop).
//!   It never depends on a terminal crate; a test enforces that.
//! - [`cli`]: the command-line face (clap) — thin wrappers that call into the engine.

pub mod apps;
pub mod cli;
pub mod engine;
pub mod tui;
