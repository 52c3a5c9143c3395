//! `command` agents: a [`Generator`] and a [`Discriminator`] backed by an external coding-agent
//! CLI (Claude Code, Codex, Kimi, or any command), run under bubblewrap.
//!
//! Every call gets a FRESH private working directory (0700) holding only what its role may see
//! (paper Table 1): `task_config.json` (the task's public fields), the SKILL file(s), `REVIEW.md`
//! (from round 2) and `PROMPT.md` (`orchestrator.md` + the role prompt + the brief); the
//! Discriminator's also holds read-only `state_init.json` / `state_gold.json` from the
//! [`EnvProbe`]. The CLI's only writable host directory is its own working directory; the other
//! role's directory and the engine's store are never mounted, so the barrier is enforced by the
//! OS, not by a prompt. See [`sandbox`] for the exact view, [`CommandAgentConfig`] for the
//! settings and presets.
//!
//! Failures: bubblewrap missing, a CLI that cannot start, exits non-zero without its files, or
//! times out → [`AgentError::Infra`] (with the stderr tail); files still missing after one re-run
//! with a note → [`AgentError::Malformed`].

pub mod config;
pub mod egress;
mod files;
mod launch;
mod process;
mod run;
pub mod sandbox;
pub mod stream;
pub mod template;
mod workdir;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub use config::{CommandAgentConfig, NamedConfigs, SpecError};

use self::run::{execute, Call};
use super::llm::prompt::{system_prompt, Role};
use super::{
    AgentError, Discriminator, DiscriminatorInput, DiscriminatorOutput, Endpoint, EnvProbe,
    Generator, GeneratorInput, GeneratorOutput,
};

fn agent_name(cfg: &CommandAgentConfig) -> String {
    let mut name = format!("command:{}", cfg.name);
    if !cfg.model.is_empty() {
        name = format!("{name}:{}", cfg.model);
    }
    if cfg.unsafe_no_sandbox {
        name.push_str("+UNSANDBOXED");
    }
    name
}

fn check(cfg: &CommandAgentConfig, prompts_dir: &Path, role: Role) -> Result<(), SpecError> {
    cfg.validate()?;
    system_prompt(prompts_dir, role).map_err(|e| SpecError(e.to_string()))?;
    Ok(())
}

/// The Generator backed by an agent CLI: it must write `initial_setup.py` and `golden_patch.py`.
pub struct CommandGenerator {
    config: CommandAgentConfig,
    prompts_dir: PathBuf,
    cancel: Option<Arc<AtomicBool>>,
}

impl CommandGenerator {
    /// Checks the templates and the prompt files (naming what is wrong).
    pub fn new(config: CommandAgentConfig, prompts_dir: PathBuf) -> Result<Self, SpecError> {
        check(&config, &prompts_dir, Role::Generator)?;
        Ok(Self {
            config,
            prompts_dir,
            cancel: None,
        })
    }

    /// Makes a running call end with [`AgentError::Cancelled`] (the CLI killed) once `flag` is set.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }
}

impl Generator for CommandGenerator {
    fn name(&self) -> String {
        agent_name(&self.config)
    }

    fn generate(&self, input: &GeneratorInput<'_>) -> Result<GeneratorOutput, AgentError> {
        let call = Call {
            cfg: &self.config,
            prompts_dir: &self.prompts_dir,
            role: Role::Generator,
            brief: input.brief,
            round: input.round,
            previous_review: input.previous_review,
            snapshots: Vec::new(),
            wanted: &["initial_setup.py", "golden_patch.py"],
            cancel: self.cancel.as_deref(),
        };
        let (mut files, mut usage) = execute(&call)?;
        usage.model = self.name();
        let golden = files.pop().map(|f| f.1).unwrap_or_default();
        let setup = files.pop().map(|f| f.1).unwrap_or_default();
        Ok(GeneratorOutput {
            initial_setup: setup,
            golden_patch: golden,
            usage,
        })
    }
}

/// The Discriminator backed by an agent CLI: it must write `reward.py`, seeing only the task,
/// the skills, the previous review and read-only state snapshots of V_init and V_gold.
pub struct CommandDiscriminator {
    config: CommandAgentConfig,
    prompts_dir: PathBuf,
    cancel: Option<Arc<AtomicBool>>,
}

impl CommandDiscriminator {
    /// Checks the templates and the prompt files (naming what is wrong).
    pub fn new(config: CommandAgentConfig, prompts_dir: PathBuf) -> Result<Self, SpecError> {
        check(&config, &prompts_dir, Role::Discriminator)?;
        Ok(Self {
            config,
            prompts_dir,
            cancel: None,
        })
    }

    /// Makes a running call end with [`AgentError::Cancelled`] (the CLI killed) once `flag` is set.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }
}

fn snapshot(probe: &dyn EnvProbe, which: Endpoint) -> Result<String, AgentError> {
    let state = probe.read_state(which)?;
    serde_json::to_string_pretty(&state)
        .map_err(|e| AgentError::Infra(format!("serialising the state snapshot: {e}")))
}

impl Discriminator for CommandDiscriminator {
    fn name(&self) -> String {
        agent_name(&self.config)
    }

    fn write_reward(
        &self,
        input: &DiscriminatorInput<'_>,
        probe: &dyn EnvProbe,
    ) -> Result<DiscriminatorOutput, AgentError> {
        let snapshots = vec![
            ("state_init.json", snapshot(probe, Endpoint::Init)?),
            ("state_gold.json", snapshot(probe, Endpoint::Gold)?),
        ];
        let call = Call {
            cfg: &self.config,
            prompts_dir: &self.prompts_dir,
            role: Role::Discriminator,
            brief: input.brief,
            round: input.round,
            previous_review: input.previous_review,
            snapshots,
            wanted: &["reward.py"],
            cancel: self.cancel.as_deref(),
        };
        let (mut files, mut usage) = execute(&call)?;
        usage.model = self.name();
        Ok(DiscriminatorOutput {
            reward: files.pop().map(|f| f.1).unwrap_or_default(),
            usage,
        })
    }
}

/// Both agents from one spec (`command:claude`, `command:codex`, `command:kimi`, or
/// `command:<program> <args…>` with placeholders), reading prompts from `prompts_dir`.
pub fn from_spec(
    spec: &str,
    prompts_dir: &Path,
) -> Result<(CommandGenerator, CommandDiscriminator), SpecError> {
    from_spec_with(spec, &NamedConfigs::new(), prompts_dir)
}

/// Like [`from_spec`], resolving `command:<name>` in the user's `named` configurations first.
pub fn from_spec_with(
    spec: &str,
    named: &NamedConfigs,
    prompts_dir: &Path,
) -> Result<(CommandGenerator, CommandDiscriminator), SpecError> {
    let cfg = CommandAgentConfig::from_spec_with(spec, named)?;
    Ok((
        CommandGenerator::new(cfg.clone(), prompts_dir.to_path_buf())?,
        CommandDiscriminator::new(cfg, prompts_dir.to_path_buf())?,
    ))
}
