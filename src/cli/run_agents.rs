//! Building the Generator and Discriminator of `run` from `--generator` / `--discriminator`.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::engine::agents::command;
use crate::engine::agents::llm::{LlmAgentConfig, LlmDiscriminator, LlmGenerator};
use crate::engine::agents::scripted::{ScriptedConfig, ScriptedDiscriminator, ScriptedGenerator};
use crate::engine::agents::{Discriminator, Generator};
use crate::engine::config::Config;
use crate::engine::providers::{provider_from_spec, ProviderConfig};

use super::run::RunArgs;

/// The two agents of a run.
pub type Agents = (Box<dyn Generator>, Box<dyn Discriminator>);

fn llm_config() -> LlmAgentConfig {
    let mut cfg = LlmAgentConfig::default();
    if !cfg.prompts_dir.is_dir() {
        let bundled = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
        if bundled.is_dir() {
            cfg.prompts_dir = bundled;
        }
    }
    cfg
}

/// Builds the agents named on the command line.
pub fn build(args: &RunArgs, _config: &Config, cancel: Arc<AtomicBool>) -> anyhow::Result<Agents> {
    let defaults = ProviderConfig::default();
    let prompts = llm_config().prompts_dir;
    let generator: Box<dyn Generator> = if args.generator == "scripted" {
        Box::new(scripted_generator(args)?)
    } else if args.generator.starts_with("command:") {
        let (g, _) = command::from_spec(&args.generator, &prompts)?;
        Box::new(g.with_cancel(cancel.clone()))
    } else {
        let p = provider_from_spec(&args.generator, &defaults)?;
        Box::new(LlmGenerator::new(p, llm_config())?.with_cancel(cancel.clone()))
    };
    let discriminator: Box<dyn Discriminator> = if args.discriminator == "scripted" {
        Box::new(scripted_discriminator(args)?)
    } else if args.discriminator.starts_with("command:") {
        let (_, d) = command::from_spec(&args.discriminator, &prompts)?;
        Box::new(d.with_cancel(cancel.clone()))
    } else {
        let p = provider_from_spec(&args.discriminator, &defaults)?;
        Box::new(LlmDiscriminator::new(p, llm_config())?.with_cancel(cancel))
    };
    Ok((generator, discriminator))
}

fn scripted_config(args: &RunArgs) -> ScriptedConfig {
    ScriptedConfig {
        seed: args.seed,
        fault_rate: args.fault_rate,
        fault_depth: args.fault_depth,
        templates_dir: None,
    }
}

fn scripted_generator(args: &RunArgs) -> anyhow::Result<ScriptedGenerator> {
    Ok(ScriptedGenerator::new(scripted_config(args))?)
}

fn scripted_discriminator(args: &RunArgs) -> anyhow::Result<ScriptedDiscriminator> {
    Ok(ScriptedDiscriminator::new(scripted_config(args))?)
}
