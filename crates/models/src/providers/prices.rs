//! Token prices (`[stats.prices]`): what the gate costs each call with and the statistics cost
//! the recorded usage with. Here, with the usage they price, so nothing below the configuration
//! root has to import it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// `[stats.prices]`: USD per million tokens; `models.<name>` overrides `default` for one model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PricesConfig {
    /// Price applied to models not listed in `models`.
    pub default: Price,
    /// Per-model prices, keyed by the model name recorded in the store.
    pub models: BTreeMap<String, Price>,
}

impl Default for PricesConfig {
    fn default() -> Self {
        Self {
            // The paper's figure (F.2.1): Claude Sonnet at $3 / $15 per million tokens.
            default: Price {
                input_per_mtok: 3.0,
                output_per_mtok: 15.0,
            },
            models: BTreeMap::new(),
        }
    }
}

/// A token price in USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    /// USD per million input tokens.
    pub input_per_mtok: f64,
    /// USD per million output tokens.
    pub output_per_mtok: f64,
}
