//! LLM-backed agents: a [`Generator`] and a [`Discriminator`] driven by any [`ChatProvider`]
//! (OpenAI-compatible or Anthropic).
//!
//! Each call reads its system prompt from the prompts directory (`orchestrator.md` followed by
//! `generator.md` or `discriminator.md`), sends the task brief, runs the tool loop for at most
//! `max_turns` model turns, and accepts files written through the `write_file` tool or, as a fallback,
//! fenced blocks named after the file. An unusable final reply is re-prompted with the parser's error
//! at most `max_reprompts` times, then reported as [`AgentError::Malformed`]; provider failures (after
//! the provider's own retries) are [`AgentError::Infra`].

pub mod prompt;
pub mod reply;
pub mod session;
pub mod tools;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use self::prompt::{system_prompt, user_message, PromptError, Role};
use self::tools::{DiscriminatorTools, GeneratorTools};
use super::{
    AgentError, Discriminator, DiscriminatorInput, DiscriminatorOutput, EnvProbe, Generator,
    GeneratorInput, GeneratorOutput,
};
use tuplewright_models::providers::ChatProvider;

/// Settings of the LLM agents (shared by Generator and Discriminator).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LlmAgentConfig {
    /// Directory holding `orchestrator.md`, `generator.md` and `discriminator.md`; read on every call.
    pub prompts_dir: PathBuf,
    /// Most model turns (provider calls) per agent call, tool round trips and re-prompts included.
    pub max_turns: u32,
    /// Re-prompts after an unusable final reply before giving up (the issue asks for at most 2).
    pub max_reprompts: u32,
    /// Tool outputs (state dumps, dry-run stdout) are cut to this many characters.
    pub max_tool_output_chars: usize,
}

impl Default for LlmAgentConfig {
    fn default() -> Self {
        Self {
            prompts_dir: PathBuf::from("prompts"),
            max_turns: 16,
            max_reprompts: 2,
            max_tool_output_chars: 16_000,
        }
    }
}

impl LlmAgentConfig {
    /// Checks that the prompt files of `role` can be read.
    pub fn check_prompts(&self, role: Role) -> Result<(), PromptError> {
        system_prompt(&self.prompts_dir, role).map(|_| ())
    }

    fn system(&self, role: Role) -> Result<String, AgentError> {
        system_prompt(&self.prompts_dir, role).map_err(|e| AgentError::Infra(e.to_string()))
    }
}

/// The Generator backed by a chat provider.
pub struct LlmGenerator {
    provider: Arc<dyn ChatProvider>,
    config: LlmAgentConfig,
    cancel: Option<Arc<AtomicBool>>,
}

impl LlmGenerator {
    /// A Generator over `provider`; fails early, naming the path, if a prompt file is missing.
    pub fn new(
        provider: Arc<dyn ChatProvider>,
        config: LlmAgentConfig,
    ) -> Result<Self, PromptError> {
        config.check_prompts(Role::Generator)?;
        Ok(Self {
            provider,
            config,
            cancel: None,
        })
    }

    /// Makes calls end with [`AgentError::Cancelled`] once `flag` is set (checked between model
    /// turns and tool calls).
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }
}

impl Generator for LlmGenerator {
    fn name(&self) -> String {
        self.provider.name()
    }

    fn generate(&self, input: &GeneratorInput<'_>) -> Result<GeneratorOutput, AgentError> {
        let system = self.config.system(Role::Generator)?;
        let user = user_message(
            input.brief,
            input.round,
            input.previous_review,
            Role::Generator,
        );
        let mut tools = GeneratorTools::default();
        let usage = session::run(
            self.provider.as_ref(),
            &self.config,
            system,
            user,
            &mut tools,
            self.cancel.as_deref(),
        )?;
        Ok(GeneratorOutput {
            initial_setup: tools.files.take("initial_setup.py"),
            golden_patch: tools.files.take("golden_patch.py"),
            usage,
        })
    }
}

/// The Discriminator backed by a chat provider. Its only view of the environments is the
/// [`EnvProbe`] passed to each call; it has no tool that reads files.
pub struct LlmDiscriminator {
    provider: Arc<dyn ChatProvider>,
    config: LlmAgentConfig,
    cancel: Option<Arc<AtomicBool>>,
}

impl LlmDiscriminator {
    /// A Discriminator over `provider`; fails early, naming the path, if a prompt file is missing.
    pub fn new(
        provider: Arc<dyn ChatProvider>,
        config: LlmAgentConfig,
    ) -> Result<Self, PromptError> {
        config.check_prompts(Role::Discriminator)?;
        Ok(Self {
            provider,
            config,
            cancel: None,
        })
    }

    /// Makes calls end with [`AgentError::Cancelled`] once `flag` is set (checked between model
    /// turns and tool calls).
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }
}

impl Discriminator for LlmDiscriminator {
    fn name(&self) -> String {
        self.provider.name()
    }

    fn write_reward(
        &self,
        input: &DiscriminatorInput<'_>,
        probe: &dyn EnvProbe,
    ) -> Result<DiscriminatorOutput, AgentError> {
        let system = self.config.system(Role::Discriminator)?;
        let user = user_message(
            input.brief,
            input.round,
            input.previous_review,
            Role::Discriminator,
        );
        let mut tools = DiscriminatorTools::new(probe, self.config.max_tool_output_chars);
        let usage = session::run(
            self.provider.as_ref(),
            &self.config,
            system,
            user,
            &mut tools,
            self.cancel.as_deref(),
        )?;
        Ok(DiscriminatorOutput {
            reward: tools.files.take("reward.py"),
            usage,
        })
    }
}
