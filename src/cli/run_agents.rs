//! The agents of `run`: `--generator` / `--discriminator` and the scripted knobs, each falling back
//! to the `[agents]` section of `tuplewright.toml`.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::engine::agents::build::{build as build_agents, Agents};
use crate::engine::config::Config;

use super::run::RunArgs;

/// Builds the agents named on the command line (or in `[agents]`).
pub fn build(args: &RunArgs, config: &Config, cancel: Arc<AtomicBool>) -> anyhow::Result<Agents> {
    let agents = &config.agents;
    let mut scripted = agents.scripted.clone();
    if let Some(s) = args.seed {
        scripted.seed = s;
    }
    if let Some(f) = args.fault_rate {
        scripted.fault_rate = f;
    }
    if let Some(d) = args.fault_depth {
        scripted.fault_depth = d;
    }
    let generator = args.generator.as_deref().unwrap_or(&agents.generator);
    let discriminator = args
        .discriminator
        .as_deref()
        .unwrap_or(&agents.discriminator);
    Ok(build_agents(generator, discriminator, &scripted, cancel)?)
}
