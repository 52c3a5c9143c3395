//! `[stats]` settings, owned by the statistics they configure (the configuration root re-exports
//! them).

use serde::{Deserialize, Serialize};

use tuplewright_models::providers::prices::PricesConfig;

/// `[stats]`: dataset statistics (paper Appendix F).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StatsConfig {
    /// How many first imperative verbs to list.
    pub top_verbs: usize,
    /// How many cross-app pairs to list.
    pub top_pairs: usize,
    /// Token prices used to cost the recorded token usage.
    pub prices: PricesConfig,
}

impl Default for StatsConfig {
    fn default() -> Self {
        Self {
            top_verbs: 20,
            top_pairs: 15,
            prices: PricesConfig::default(),
        }
    }
}
