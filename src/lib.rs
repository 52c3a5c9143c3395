//! tuplewright — a terminal workbench and headless engine that manufactures verified RLVR training
//! tuples `(t, s_init, s_gold, r)` for computer-use agents, following the CUA-Gym pipeline.
//!
//! This package is the `tuplewright` binary and its command-line face ([`cli`]). The work is done
//! by the workspace's member crates under `crates/`, one per layer, bottom up:
//! `tuplewright-base` (store, limits, access), `tuplewright-models` (LLM providers, embedder),
//! `tuplewright-records` (critic vote, curation, scanner, bundles), `tuplewright-engine` (agents,
//! environments, sandbox, screens, the loop, rollouts, generation, the app packs) and
//! `tuplewright-tui` (the workbench). [`engine`] re-exports every engine area under one path
//! (`tuplewright::engine::store`, `…::harness`), so callers need not know which crate holds it.

pub mod cli;
pub use tuplewright_engine::apps;
pub use tuplewright_tui as tui;

/// Every engine area, whichever member crate owns it.
pub mod engine {
    pub use tuplewright_base::{access, agreement, hostcap, lease, limits, scratch, store, text};
    pub use tuplewright_engine::{
        act, agents, config, desktop, env, envgen, harness, jobs, openenv, osworld, probes,
        rollout, sandbox, screen, stats, synth, taskgen, ui, worker,
    };
    pub use tuplewright_models::{embedder, providers};
    pub use tuplewright_records::{bundle, curate, filter, scan};
}
