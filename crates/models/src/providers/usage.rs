//! Token and cost accounting of one call, measured by the providers (and priced from their
//! configured prices); the agents, the judge, taskgen and the store sum it.

use serde::{Deserialize, Serialize};

/// Token and cost accounting of one agent call (summed over its provider calls and retries).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Provider + model that answered, e.g. `scripted`, `openai:gpt-x`.
    pub model: String,
    /// Number of provider requests made (retries included).
    pub calls: u32,
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// Cost in USD from the configured prices (0 for scripted agents).
    pub cost_usd: f64,
}

impl Usage {
    /// Adds another call's usage to this one.
    pub fn add(&mut self, other: &Usage) {
        if self.model.is_empty() {
            self.model.clone_from(&other.model);
        }
        self.calls += other.calls;
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cost_usd += other.cost_usd;
    }
}
