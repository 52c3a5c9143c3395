//! The agents of `run`: `--generator` / `--discriminator` and the scripted knobs, each falling back
//! to the `[agents]` section of `tuplewright.toml`.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::engine::agents::build::{build as build_agents, Agents};
use crate::engine::agents::scripted::ScriptedConfig;
use crate::engine::agents::spec::AgentSpec;
use crate::engine::config::Config;

use super::run::RunArgs;

/// The scripted agents' settings: `[agents.scripted]` with the command line's knobs over it.
pub fn scripted(args: &RunArgs, config: &Config) -> ScriptedConfig {
    let mut scripted = config.agents.scripted.clone();
    if let Some(s) = args.seed {
        scripted.seed = s;
    }
    if let Some(f) = args.fault_rate {
        scripted.fault_rate = f;
    }
    if let Some(d) = args.fault_depth {
        scripted.fault_depth = d;
    }
    scripted
}

/// The Generator and Discriminator specs: the flags, else `[agents]`.
pub fn specs(args: &RunArgs, config: &Config) -> (AgentSpec, AgentSpec) {
    let agents = &config.agents;
    (
        args.generator.clone().unwrap_or(agents.generator.clone()),
        args.discriminator
            .clone()
            .unwrap_or(agents.discriminator.clone()),
    )
}

/// Builds the agents named on the command line (or in `[agents]`).
pub fn build(args: &RunArgs, config: &Config, cancel: Arc<AtomicBool>) -> anyhow::Result<Agents> {
    let (generator, discriminator) = specs(args, config);
    Ok(build_agents(
        &generator,
        &discriminator,
        &scripted(args, config),
        cancel,
    )?)
}
