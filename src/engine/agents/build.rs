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
use super::{Discriminator, Generator};
use crate::engine::providers::{provider_from_spec, ProviderConfig};

/// The two agents of a run.
pub type Agents = (Box<dyn Generator>, Box<dyn Discriminator>);

/// `[agents]`: the agents a run uses when the command line does not name them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AgentsConfig {
    /// Generator spec: `scripted`, `openai:MODEL[@BASE_URL]`, `anthropic:MODEL`, `command:…`.
    pub generator: String,
    /// Discriminator spec (same forms).
    pub discriminator: String,
    /// `[agents.scripted]`: the embedded scripted agents.
    pub scripted: ScriptedConfig,
}

impl Default for AgentsConfig {
    fn default() -> Self {
        Self {
            generator: "scripted".into(),
            discriminator: "scripted".into(),
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
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("prompts"),
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
    generator: &str,
    discriminator: &str,
    scripted: &ScriptedConfig,
    cancel: Arc<AtomicBool>,
) -> Result<Agents, BuildError> {
    let defaults = ProviderConfig::default();
    let prompts = llm_config().prompts_dir;
    let err = |role: &'static str, spec: &str| {
        let spec = spec.to_string();
        move |e: &dyn std::fmt::Display| BuildError {
            role,
            spec,
            why: e.to_string(),
        }
    };
    let g: Box<dyn Generator> = if generator == "scripted" {
        let e = err("generator", generator);
        Box::new(ScriptedGenerator::new(scripted.clone()).map_err(|x| e(&x))?)
    } else if generator.starts_with("command:") {
        let e = err("generator", generator);
        let (g, _) = command::from_spec(generator, &prompts).map_err(|x| e(&x))?;
        Box::new(g.with_cancel(cancel.clone()))
    } else {
        let e = err("generator", generator);
        let p = provider_from_spec(generator, &defaults).map_err(|x| e(&x))?;
        let e = err("generator", generator);
        Box::new(
            LlmGenerator::new(p, llm_config())
                .map_err(|x| e(&x))?
                .with_cancel(cancel.clone()),
        )
    };
    let d: Box<dyn Discriminator> = if discriminator == "scripted" {
        let e = err("discriminator", discriminator);
        Box::new(ScriptedDiscriminator::new(scripted.clone()).map_err(|x| e(&x))?)
    } else if discriminator.starts_with("command:") {
        let e = err("discriminator", discriminator);
        let (_, d) = command::from_spec(discriminator, &prompts).map_err(|x| e(&x))?;
        Box::new(d.with_cancel(cancel))
    } else {
        let e = err("discriminator", discriminator);
        let p = provider_from_spec(discriminator, &defaults).map_err(|x| e(&x))?;
        let e = err("discriminator", discriminator);
        Box::new(
            LlmDiscriminator::new(p, llm_config())
                .map_err(|x| e(&x))?
                .with_cancel(cancel),
        )
    };
    Ok((g, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_specs_build_and_bad_specs_name_the_role() {
        let flag = Arc::new(AtomicBool::new(false));
        let (g, d) = build(
            "scripted",
            "scripted",
            &ScriptedConfig::default(),
            flag.clone(),
        )
        .expect("scripted agents");
        assert_eq!((g.name(), d.name()), ("scripted".into(), "scripted".into()));
        let bad = ScriptedConfig {
            fault_depth: 9,
            ..ScriptedConfig::default()
        };
        let e = build("scripted", "scripted", &bad, flag.clone())
            .err()
            .expect("refused");
        assert_eq!(e.role, "generator");
        assert!(e.to_string().contains("fault_depth"), "{e}");
        let e = build("scripted", "nonsense:x", &ScriptedConfig::default(), flag)
            .err()
            .expect("refused");
        assert_eq!(e.role, "discriminator");
        assert!(e.to_string().contains("nonsense:x"), "{e}");
    }
}
