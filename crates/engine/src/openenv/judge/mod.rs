//! The judge behind the public `reward_judge` helper: a reward script that calls
//! `call_llm_judge(...)` is answered by the configured model (`[judge]`), over a channel the
//! harness owns — the sandbox has no network.
//!
//! One narrow interface: [`JudgeLink::serve`] opens a unix socket for one script run (bound into
//! the sandbox as `/tmp/.tw/judge.sock`, named by `TW_JUDGE_SOCKET`), served by a harness thread
//! that forwards each call to the provider ([`tuplewright_models::providers`]) under the run's bounds
//! ([`JudgeConfig`]: calls per run, request and response bytes, a per-call deadline). Every
//! answered call adds its tokens to the link's usage (recorded under the `judge` stage of the
//! round); any failure — provider down, timeout, a bound hit, an unreadable verdict — is answered
//! to the script as an error *and* kept in the [`ChannelLog`], which makes the reward run an
//! infrastructure failure, never a lower score.

mod channel;
mod verdict;

use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use tuplewright_models::providers::Usage;
use tuplewright_models::providers::{self, ChatProvider, ProviderConfig};

pub use channel::{Channel, ChannelLog, IN_JUDGE_SOCKET};
pub use verdict::{prompt, read_score};

/// `[judge]`: the model that answers `reward_judge` calls of reward scripts.
///
/// ```toml
/// [judge]
/// model = "openai:gpt-4.1-mini"          # provider spec; "" = no judge (calls are infra failures)
/// call_timeout_secs = 120
/// max_calls_per_run = 8
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JudgeConfig {
    /// Provider spec (`openai:MODEL[@BASE_URL]`, `anthropic:MODEL`); empty = no judge.
    pub model: String,
    /// The API key's variable ("" = the kind's default).
    pub api_key_env: String,
    /// Deadline of one call as the script sees it (seconds), retries included.
    pub call_timeout_secs: f64,
    /// Retries of 429/5xx/timeouts within that deadline (at most 5).
    pub max_retries: u32,
    /// Calls one script run may make; more are refused (an infrastructure failure).
    pub max_calls_per_run: u32,
    /// Largest request a script may send (bytes of JSON).
    pub max_request_bytes: usize,
    /// Largest reply text accepted from the model (bytes).
    pub max_response_bytes: usize,
    /// Output tokens per call (the script's `max_tokens` is capped by this).
    pub max_tokens: u32,
    /// USD per million input tokens.
    pub input_price_per_mtok: f64,
    /// USD per million output tokens.
    pub output_price_per_mtok: f64,
}

impl Default for JudgeConfig {
    fn default() -> Self {
        Self {
            model: String::new(),
            api_key_env: String::new(),
            call_timeout_secs: 120.0,
            max_retries: 2,
            max_calls_per_run: 8,
            max_request_bytes: 256 << 10,
            max_response_bytes: 64 << 10,
            max_tokens: 1024,
            input_price_per_mtok: 0.0,
            output_price_per_mtok: 0.0,
        }
    }
}

impl JudgeConfig {
    /// The judge this configures: `None` when `model` is empty; an error names a bad key.
    pub fn build(&self) -> Result<Option<Arc<RewardJudge>>, String> {
        let spec = self.model.trim();
        if spec.is_empty() {
            return Ok(None);
        }
        if !(self.call_timeout_secs.is_finite() && self.call_timeout_secs > 0.0) {
            return Err(format!(
                "[judge] call_timeout_secs must be a positive number of seconds, got {}",
                self.call_timeout_secs
            ));
        }
        if self.max_calls_per_run == 0 {
            return Err("[judge] max_calls_per_run must be at least 1".into());
        }
        let defaults = ProviderConfig {
            api_key_env: self.api_key_env.clone(),
            request_timeout_secs: self.call_timeout_secs,
            connect_timeout_secs: self.call_timeout_secs.min(10.0),
            max_retries: self.max_retries,
            backoff_base_ms: 500,
            backoff_max_ms: 10_000,
            max_tokens: self.max_tokens.max(1),
            input_price_per_mtok: self.input_price_per_mtok,
            output_price_per_mtok: self.output_price_per_mtok,
            ..ProviderConfig::default()
        };
        let provider = providers::provider_from_spec(spec, &defaults)
            .map_err(|e| format!("[judge] model = {spec:?}: {e}"))?;
        Ok(Some(Arc::new(RewardJudge {
            provider,
            cfg: self.clone(),
        })))
    }
}

/// A configured judge (one per run of the harness, shared by every environment).
pub struct RewardJudge {
    provider: Arc<dyn ChatProvider>,
    cfg: JudgeConfig,
}

impl RewardJudge {
    /// A judge answered by `provider` under the bounds of `cfg` (its `model` is not read).
    pub fn new(provider: Arc<dyn ChatProvider>, cfg: JudgeConfig) -> Self {
        Self { provider, cfg }
    }

    /// `kind:model` of the provider.
    pub fn model(&self) -> String {
        self.provider.name()
    }
}

/// What one environment's script runs reach: the judge, and the usage of the calls made so far.
#[derive(Clone)]
pub struct JudgeLink {
    judge: Arc<RewardJudge>,
    usage: Arc<Mutex<Usage>>,
}

impl std::fmt::Debug for JudgeLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JudgeLink")
            .field("model", &self.judge.model())
            .field("usage", &self.usage())
            .finish()
    }
}

impl JudgeLink {
    /// A fresh link (usage zero) to `judge`.
    pub fn new(judge: Arc<RewardJudge>) -> Self {
        Self {
            judge,
            usage: Arc::new(Mutex::new(Usage::default())),
        }
    }

    /// Tokens and calls of every call answered through this link (model = the judge's).
    pub fn usage(&self) -> Usage {
        let mut u = self.usage.lock().map(|u| u.clone()).unwrap_or_default();
        if u.model.is_empty() {
            u.model = self.judge.model();
        }
        u
    }

    /// Serves the judge on a new unix socket at `path` for one script run.
    pub fn serve(&self, path: &std::path::Path) -> std::io::Result<Channel> {
        Channel::start(path, self.judge.clone(), self.usage.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_model_is_no_judge_and_bad_bounds_are_named() {
        assert!(JudgeConfig::default().build().unwrap().is_none());
        let bad = JudgeConfig {
            model: "openai:m@http://127.0.0.1:9/v1".into(),
            max_calls_per_run: 0,
            ..JudgeConfig::default()
        };
        let err = bad.build().err().unwrap_or_default();
        assert!(err.contains("max_calls_per_run"), "{err}");
        let bad = JudgeConfig {
            model: "nonsense".into(),
            ..JudgeConfig::default()
        };
        let err = bad.build().err().unwrap_or_default();
        assert!(err.contains("[judge] model = \"nonsense\""), "{err}");
    }
}
