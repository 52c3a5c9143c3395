//! Agents that write nothing new: [`StoredScripts`] replays a tuple's stored scripts through the
//! round harness (`verify`, the rollout refinement pass), and [`NoAgent`] fills the agent slots of a
//! runtime whose commands never ask an agent (`verify`, `rollout`), failing loudly if one is asked.

use tuplewright_base::store::Scripts;

use super::{
    AgentError, Discriminator, DiscriminatorInput, DiscriminatorOutput, EnvProbe, Generator,
    GeneratorInput, GeneratorOutput, Usage,
};

/// Replays stored scripts as the Generator's (setup, golden patch) and Discriminator's (reward) output.
pub struct StoredScripts<'a> {
    /// The scripts to replay.
    pub scripts: &'a Scripts,
    /// The name recorded as the round's agent model, e.g. `verify:stored`.
    pub name: &'static str,
}

impl Generator for StoredScripts<'_> {
    fn name(&self) -> String {
        self.name.into()
    }
    fn generate(&self, _: &GeneratorInput<'_>) -> Result<GeneratorOutput, AgentError> {
        match (&self.scripts.setup, &self.scripts.golden) {
            (Some(s), Some(g)) => Ok(GeneratorOutput {
                initial_setup: s.clone(),
                golden_patch: g.clone(),
                usage: Usage::default(),
            }),
            _ => Err(AgentError::Malformed(
                "the stored round lacks initial_setup.py or golden_patch.py".into(),
            )),
        }
    }
}

impl Discriminator for StoredScripts<'_> {
    fn name(&self) -> String {
        self.name.into()
    }
    fn write_reward(
        &self,
        _: &DiscriminatorInput<'_>,
        _: &dyn EnvProbe,
    ) -> Result<DiscriminatorOutput, AgentError> {
        self.scripts
            .reward
            .clone()
            .map(|reward| DiscriminatorOutput {
                reward,
                usage: Usage::default(),
            })
            .ok_or_else(|| AgentError::Malformed("the stored round lacks reward.py".into()))
    }
}

/// Placeholder for runtimes whose commands replay stored scripts and never ask an agent.
pub struct NoAgent;

fn not_asked() -> AgentError {
    AgentError::Malformed("this command runs no agent: it replays stored scripts".into())
}

impl Generator for NoAgent {
    fn name(&self) -> String {
        "none".into()
    }
    fn generate(&self, _: &GeneratorInput<'_>) -> Result<GeneratorOutput, AgentError> {
        Err(not_asked())
    }
}

impl Discriminator for NoAgent {
    fn name(&self) -> String {
        "none".into()
    }
    fn write_reward(
        &self,
        _: &DiscriminatorInput<'_>,
        _: &dyn EnvProbe,
    ) -> Result<DiscriminatorOutput, AgentError> {
        Err(not_asked())
    }
}
