//! The engine: everything tuplewright does, with no user-interface dependency.
//!
//! Faces (the headless CLI, the TUI) send commands in and read numbered events out; events are
//! persisted in the store before any face sees them.

pub mod access;
pub mod act;
pub mod agents;
pub mod agreement;
pub mod bundle;
pub mod config;
pub mod curate;
pub mod desktop;
pub mod embedder;
pub mod env;
pub mod envgen;
pub mod filter;
pub mod harness;
pub mod hostcap;
pub mod jobs;
pub mod lease;
pub mod limits;
pub mod openenv;
pub mod osworld;
pub mod probes;
pub mod providers;
pub mod rollout;
pub mod sandbox;
pub mod scan;
pub mod scratch;
pub mod screen;
pub mod stats;
pub mod store;
pub mod synth;
pub mod taskgen;
pub mod text;
pub mod ui;
pub mod worker;
