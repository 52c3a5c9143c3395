//! The agent interface of the agreement loop: one Generator and one Discriminator per task, whatever
//! provider backs them (the embedded `scripted` procedural generator, an OpenAI-compatible or Anthropic
//! endpoint, or an external coding-agent CLI).
//!
//! The calls are synchronous: the loop runs each task on its own worker thread, and a provider that needs
//! async I/O blocks inside its own call. The information barrier is structural: a
//! [`DiscriminatorInput`] carries no Generator output, and the only view of the environments it gets is an
//! [`EnvProbe`], whose implementation reads through the state API in the reader role.

use serde::{Deserialize, Serialize};

/// What both agents may know about a task: the instruction `t`, the context `c` and the domain skills.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskBrief {
    /// Stable task id (`<domain>_<topic>_<NNN>`).
    pub task_id: String,
    /// The instruction `t`.
    pub instruction: String,
    /// The context `c`: natural-language description of the initial state and ground truth.
    pub context: String,
    /// easy | medium | hard.
    pub difficulty: String,
    /// The apps the task touches (first = primary).
    pub apps: Vec<String>,
    /// `(app, SKILL.md text)` for every app the task touches.
    pub skills: Vec<(String, String)>,
    /// The task's structured fields as imported (slots the scripted agent realises); may be `null`.
    pub structured: serde_json::Value,
}

/// Input of one Generator call.
#[derive(Debug, Clone)]
pub struct GeneratorInput<'a> {
    /// The task.
    pub brief: &'a TaskBrief,
    /// Round number, from 1.
    pub round: u32,
    /// The previous round's REVIEW.md (its only feedback), from round 2 on.
    pub previous_review: Option<&'a str>,
}

/// The Generator's two scripts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GeneratorOutput {
    /// initial_setup.py text.
    pub initial_setup: String,
    /// golden_patch.py text.
    pub golden_patch: String,
    /// What producing them cost.
    pub usage: Usage,
}

/// Input of one Discriminator call: deliberately nothing of the Generator's.
#[derive(Debug, Clone)]
pub struct DiscriminatorInput<'a> {
    /// The task.
    pub brief: &'a TaskBrief,
    /// Round number, from 1.
    pub round: u32,
    /// The previous round's REVIEW.md, from round 2 on.
    pub previous_review: Option<&'a str>,
}

/// The Discriminator's reward script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiscriminatorOutput {
    /// reward.py text.
    pub reward: String,
    /// What producing it cost.
    pub usage: Usage,
}

/// Which endpoint environment a probe addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Endpoint {
    /// V_init, after initial_setup.py.
    Init,
    /// V_gold, after golden_patch.py.
    Gold,
}

/// Read-only access to the two environments for the Discriminator side (Table 1 of the paper:
/// state-only API reads, no file-system access to the Generator's outputs).
pub trait EnvProbe: Send + Sync {
    /// `GET /go` of the endpoint's state API session (web apps), or a listing of its home (files).
    fn read_state(&self, which: Endpoint) -> Result<serde_json::Value, AgentError>;
    /// Runs a draft reward in the reader role on the endpoint and returns its stdout.
    fn dry_run_reward(&self, which: Endpoint, reward: &str) -> Result<String, AgentError>;
}

/// Token and cost accounting, owned by the providers area that measures and prices it.
pub use tuplewright_models::providers::Usage;

/// Why an agent produced nothing usable.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The provider could not be reached or kept failing (429/5xx/timeouts after retries). Infra: never
    /// counted as the task failing its conditions.
    #[error("provider unavailable: {0}")]
    Infra(String),
    /// The agent answered, but not with usable files, after the allowed re-prompts.
    #[error("unusable agent reply: {0}")]
    Malformed(String),
    /// The run was cancelled (Ctrl-C).
    #[error("cancelled")]
    Cancelled,
    /// Like [`AgentError::Malformed`], after model calls that were paid for: the tokens are kept so
    /// the round's usage (and `stats`' cost) counts them.
    #[error("unusable agent reply: {why}")]
    MalformedAfter {
        /// What was wrong.
        why: String,
        /// What the failed attempt consumed.
        usage: Usage,
    },
}

impl AgentError {
    /// The tokens an error consumed (zero when it carries none).
    pub fn usage(&self) -> Usage {
        match self {
            AgentError::MalformedAfter { usage, .. } => usage.clone(),
            _ => Usage::default(),
        }
    }
}

/// An agent that writes the environment scripts.
pub trait Generator: Send + Sync {
    /// Name shown in the store and the TUI (provider:model).
    fn name(&self) -> String;
    /// Writes initial_setup.py and golden_patch.py for one round.
    fn generate(&self, input: &GeneratorInput<'_>) -> Result<GeneratorOutput, AgentError>;
    /// Refuses, before any round, a task this agent can never work on (the error names the task
    /// and what is wrong). Default: every task is workable.
    fn preflight(&self, _brief: &TaskBrief) -> Result<(), String> {
        Ok(())
    }
}

/// An agent that writes reward.py from the task text alone.
pub trait Discriminator: Send + Sync {
    /// Name shown in the store and the TUI (provider:model).
    fn name(&self) -> String;
    /// Writes reward.py for one round; may dry-run drafts through `probe`.
    fn write_reward(
        &self,
        input: &DiscriminatorInput<'_>,
        probe: &dyn EnvProbe,
    ) -> Result<DiscriminatorOutput, AgentError>;
    /// Refuses, before any round, a task this agent can never work on. Default: every task is
    /// workable.
    fn preflight(&self, _brief: &TaskBrief) -> Result<(), String> {
        Ok(())
    }
}

pub mod build;
pub mod command;
pub mod llm;
pub mod replay;
pub mod scripted;
pub mod spec;
