//! tuplewright-engine — everything that runs tasks: agents, environments and their state API,
//! the sandbox, screens and desktop applications, the agreement loop (`harness`), rollouts, task
//! and environment generation, workers, jobs, statistics, the configuration root, and the app
//! packs (`apps`).
//!
//! It imports the crates below it (`tuplewright-base`, `-models`, `-records`) and never a terminal
//! crate (ratatui, crossterm): the faces sit above it. The packs live here, not in a crate of
//! their own, because the pack registry is read by eleven engine areas (env, sandbox, desktop,
//! agents, ui, harness, rollout, taskgen, …) while the packs implement those areas' traits (a web
//! UI, a ui-oracle planner, task recipes): Cargo forbids that cycle between two crates.

pub mod act;
pub mod agents;
pub mod apps;
pub mod config;
pub mod desktop;
pub mod env;
pub mod envgen;
pub mod harness;
pub mod jobs;
pub mod openenv;
pub mod osworld;
pub mod probes;
pub mod rollout;
pub mod sandbox;
pub mod screen;
pub mod stats;
pub mod synth;
pub mod taskgen;
pub mod ui;
pub mod worker;

/// The source checkout this crate was built from (the workspace root: `skills/`, `prompts/`,
/// `assets/`), the fallback where no installed copy is configured.
pub fn checkout_root() -> std::path::PathBuf {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .nth(2)
        .unwrap_or(manifest)
        .to_path_buf()
}
