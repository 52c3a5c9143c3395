//! Critics: anything that reviews one tuple and returns a [`Ballot`]. Two kinds ship:
//! [`super::scripted::ScriptedCritic`] (explicit heuristics, no model) and
//! [`super::llm::LlmCritic`] (any [`tuplewright_models::providers::ChatProvider`]).

use super::aggregate::Ballot;

/// What a critic sees: the instruction and the full text of the three scripts (paper A.4.1).
#[derive(Debug, Clone, PartialEq)]
pub struct CriticInput {
    /// The task id.
    pub task_id: String,
    /// The instruction t.
    pub instruction: String,
    /// initial_setup.py.
    pub setup: String,
    /// golden_patch.py.
    pub golden: String,
    /// reward.py.
    pub reward: String,
    /// Component names of the final round's golden reward run (heuristics only; not sent to LLMs).
    pub golden_components: Option<Vec<String>>,
    /// The final round's reward on V_init (heuristics only).
    pub initial_reward: Option<f64>,
}

/// A critic's result with its accounting.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    /// The ballot.
    pub ballot: Ballot,
    /// The raw reply of the last attempt (for the record; empty for scripted critics).
    pub raw: String,
    /// Provider requests made.
    pub attempts: u32,
    /// Tokens spent.
    pub input_tokens: u64,
    /// Tokens produced.
    pub output_tokens: u64,
    /// Cost in USD at the configured provider prices (0 for heuristic critics).
    pub cost_usd: f64,
}

/// One voter of the ensemble.
pub trait Critic: Send + Sync {
    /// Name recorded with its votes (e.g. `scripted`, `openai:gpt-4.1-mini`).
    fn name(&self) -> String;
    /// Whether this critic is a heuristic (recorded in the vote and in the decision source).
    fn is_heuristic(&self) -> bool;
    /// Reviews one tuple. Never fails: a failure is a [`Ballot::Failed`].
    fn review(&self, input: &CriticInput) -> Review;
}
