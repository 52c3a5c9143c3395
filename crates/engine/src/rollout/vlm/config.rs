//! `[rollout.vlm]`: the step loop's budgets, decoding, the endpoint's timeouts and prices, and
//! where the screen comes from. A policy spec (`vlm:openai:MODEL[@URL]`, `anthropic:MODEL`,
//! `openai-responses:MODEL`) picks the model; these settings apply to all three.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::episode::LoopLimits;
use super::wire::Sampling;
use tuplewright_models::providers::ProviderConfig;

/// `[rollout.vlm]` settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VlmConfig {
    /// Action format of `vlm:openai:` models (`qwen-xml`, `qwen-json`, `uitars`); empty = by
    /// model family.
    pub format: String,
    /// Coordinate space (`pixels`, `smart-resize[:F:MIN:MAX]`, `smart-resize:paper`, `rel1000`,
    /// `rel1`); empty = the format's or provider's own.
    pub coords: String,
    /// Model turns per episode (C.1.3: 100).
    pub max_turns: u32,
    /// Screenshots kept in context; older ones become a placeholder (C.1.3: 100).
    pub history_n: u32,
    /// Output tokens per turn (C.1.3: 2048).
    pub max_new_tokens: u32,
    /// Sampling temperature (training rollouts 1.0; the paper validates at 0.6).
    pub temperature: f64,
    /// Nucleus sampling (the paper validates at 0.95).
    pub top_p: f64,
    /// A fixed pause after a turn's actions, milliseconds, before the display's settle wait
    /// (`[screen] settle_quiet_ms`); 0 = the settle wait alone.
    pub settle_ms: u64,
    /// Seconds one model request may take.
    pub request_timeout_secs: f64,
    /// Retries of a failed request (429, 5xx, timeouts, dropped connections), at most 5.
    pub max_retries: u32,
    /// First backoff delay, milliseconds (doubling, with jitter).
    pub backoff_base_ms: u64,
    /// The environment variable holding the API key; empty = the provider's usual one.
    pub api_key_env: String,
    /// USD per million input tokens.
    pub input_price_per_mtok: f64,
    /// USD per million output tokens.
    pub output_price_per_mtok: f64,
    /// Anthropic's computer tool version (`computer_20250124`, `computer_20251124`); the beta
    /// header follows from it.
    pub anthropic_tool: String,
    /// The page the screen shows (`{addr}`, `{sid}`, `{app}` are filled from the trial's first
    /// web app); empty = the environment's own screen, when it has one.
    pub screen_url: String,
}

impl Default for VlmConfig {
    fn default() -> Self {
        Self {
            format: String::new(),
            coords: String::new(),
            max_turns: 100,
            history_n: 100,
            max_new_tokens: 2048,
            temperature: 1.0,
            top_p: 1.0,
            settle_ms: 0,
            request_timeout_secs: 300.0,
            max_retries: 5,
            backoff_base_ms: 1000,
            api_key_env: String::new(),
            input_price_per_mtok: 0.0,
            output_price_per_mtok: 0.0,
            anthropic_tool: super::anthropic::TOOL_TYPE.into(),
            screen_url: String::new(),
        }
    }
}

impl VlmConfig {
    /// The loop's budgets.
    pub fn limits(&self) -> LoopLimits {
        LoopLimits {
            max_turns: self.max_turns.max(1),
            history_n: self.history_n.max(1),
            settle: Duration::from_millis(self.settle_ms),
            display: crate::screen::Settle::default(),
            sampling: Sampling {
                max_new_tokens: self.max_new_tokens.max(1),
                temperature: self.temperature,
                top_p: self.top_p,
            },
        }
    }

    /// Provider defaults carrying these timeouts, retries, key variable and prices.
    pub fn provider_defaults(&self) -> ProviderConfig {
        ProviderConfig {
            request_timeout_secs: self.request_timeout_secs,
            max_retries: self.max_retries,
            backoff_base_ms: self.backoff_base_ms,
            api_key_env: self.api_key_env.clone(),
            input_price_per_mtok: self.input_price_per_mtok,
            output_price_per_mtok: self.output_price_per_mtok,
            max_tokens: self.max_new_tokens,
            ..ProviderConfig::default()
        }
    }
}
