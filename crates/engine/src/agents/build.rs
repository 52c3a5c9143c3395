//! Building the Generator and Discriminator of a run from their specs (`scripted`,
//! `openai:MODEL[@URL]`, `anthropic:MODEL`, `command:…`) — shared by `tuplewright run` (flags) and
//! the workbench's job runner (the `[agents]` section of `tuplewright.toml`).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::command;
use super::llm::{LlmAgentConfig, LlmDiscriminator, LlmGenerator};
use super::scripted::{ScriptedConfig, ScriptedDiscriminator, ScriptedGenerator};
use super::spec::AgentSpec;
use super::{Discriminator, Generator};
use tuplewright_models::providers::{provider_from_spec, ProviderConfig};

/// The two agents of a run.
pub type Agents = (Box<dyn Generator>, Box<dyn Discriminator>);

/// `[agents]`: the agents a run uses when the command line does not name them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AgentsConfig {
    /// Generator spec: `scripted`, `openai:MODEL[@BASE_URL]`, `anthropic:MODEL`, `command:…`.
    pub generator: AgentSpec,
    /// Discriminator spec (same forms).
    pub discriminator: AgentSpec,
    /// `[agents.scripted]`: the embedded scripted agents.
    pub scripted: ScriptedConfig,
}

impl Default for AgentsConfig {
    fn default() -> Self {
        Self {
            generator: AgentSpec::Scripted,
            discriminator: AgentSpec::Scripted,
            scripted: ScriptedConfig::default(),
        }
    }
}

/// A spec that names no usable agent, or an agent that cannot be set up.
#[derive(Debug, thiserror::Error)]
#[error("{role} `{spec}`: {why}")]
pub struct BuildError {
    /// `generator` or `discriminator`.
    pub role: &'static str,
    /// The spec as given.
    pub spec: String,
    /// What is wrong.
    pub why: String,
}

/// The prompts directory: `explicit` when given, else `./prompts` when it holds `probe` (a prompt
/// file the caller needs, e.g. `judge.md`), else the source tree's `prompts/`.
pub fn prompts_dir(explicit: Option<&Path>, probe: &str) -> PathBuf {
    match explicit {
        Some(p) => p.to_path_buf(),
        None if Path::new("prompts").join(probe).is_file() => PathBuf::from("prompts"),
        None => crate::checkout_root().join("prompts"),
    }
}

/// The LLM agents' settings, with the source tree's prompts when `./prompts` lacks them.
pub fn llm_config() -> LlmAgentConfig {
    LlmAgentConfig {
        prompts_dir: prompts_dir(None, "generator.md"),
        ..LlmAgentConfig::default()
    }
}

/// Builds both agents; `cancel` stops model calls and agent CLIs once set.
pub fn build(
    generator: &AgentSpec,
    discriminator: &AgentSpec,
    scripted: &ScriptedConfig,
    cancel: Arc<AtomicBool>,
) -> Result<Agents, BuildError> {
    let g = build_generator(generator, scripted, cancel.clone()).map_err(|why| BuildError {
        role: "generator",
        spec: generator.to_string(),
        why,
    })?;
    let d = build_discriminator(discriminator, scripted, cancel).map_err(|why| BuildError {
        role: "discriminator",
        spec: discriminator.to_string(),
        why,
    })?;
    Ok((g, d))
}

fn build_generator(
    spec: &AgentSpec,
    scripted: &ScriptedConfig,
    cancel: Arc<AtomicBool>,
) -> Result<Box<dyn Generator>, String> {
    let s = |e: &dyn std::fmt::Display| e.to_string();
    Ok(match spec {
        AgentSpec::Scripted => {
            Box::new(ScriptedGenerator::new(scripted.clone()).map_err(|x| s(&x))?)
        }
        AgentSpec::Command(_) => {
            let prompts = llm_config().prompts_dir;
            let (g, _) = command::from_spec(&spec.to_string(), &prompts).map_err(|x| s(&x))?;
            Box::new(g.with_cancel(cancel))
        }
        AgentSpec::Provider(p) => {
            let p = provider_from_spec(p, &ProviderConfig::default()).map_err(|x| s(&x))?;
            Box::new(
                LlmGenerator::new(p, llm_config())
                    .map_err(|x| s(&x))?
                    .with_cancel(cancel),
            )
        }
    })
}

fn build_discriminator(
    spec: &AgentSpec,
    scripted: &ScriptedConfig,
    cancel: Arc<AtomicBool>,
) -> Result<Box<dyn Discriminator>, String> {
    let s = |e: &dyn std::fmt::Display| e.to_string();
    Ok(match spec {
        AgentSpec::Scripted => {
            Box::new(ScriptedDiscriminator::new(scripted.clone()).map_err(|x| s(&x))?)
        }
        AgentSpec::Command(_) => {
            let prompts = llm_config().prompts_dir;
            let (_, d) = command::from_spec(&spec.to_string(), &prompts).map_err(|x| s(&x))?;
            Box::new(d.with_cancel(cancel))
        }
        AgentSpec::Provider(p) => {
            let p = provider_from_spec(p, &ProviderConfig::default()).map_err(|x| s(&x))?;
            Box::new(
                LlmDiscriminator::new(p, llm_config())
                    .map_err(|x| s(&x))?
                    .with_cancel(cancel),
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_specs_build_and_bad_specs_name_the_role() {
        let flag = Arc::new(AtomicBool::new(false));
        let (g, d) = build(
            &AgentSpec::Scripted,
            &AgentSpec::Scripted,
            &ScriptedConfig::default(),
            flag.clone(),
        )
        .expect("scripted agents");
        assert_eq!((g.name(), d.name()), ("scripted".into(), "scripted".into()));
        let bad = ScriptedConfig {
            fault_depth: 9,
            ..ScriptedConfig::default()
        };
        let e = build(
            &AgentSpec::Scripted,
            &AgentSpec::Scripted,
            &bad,
            flag.clone(),
        )
        .err()
        .expect("refused");
        assert_eq!(e.role, "generator");
        assert!(e.to_string().contains("fault_depth"), "{e}");
        let bad_command = AgentSpec::Command("no-such-agent-program-xyz {nope}".into());
        let e = build(
            &AgentSpec::Scripted,
            &bad_command,
            &ScriptedConfig::default(),
            flag,
        )
        .err()
        .expect("refused");
        assert_eq!(e.role, "discriminator");
        assert!(e.to_string().contains("no-such-agent-program-xyz"), "{e}");
    }
}
