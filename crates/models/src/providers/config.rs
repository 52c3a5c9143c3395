//! Provider configuration (`[agents.provider]`-style TOML table) and spec strings.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::ProviderError;

/// Which wire format a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// OpenAI-compatible `POST {base_url}/chat/completions` (OpenAI, vLLM, SGLang, llama.cpp, Ollama, ...).
    #[default]
    Openai,
    /// Anthropic Messages API, `POST {base_url}/v1/messages`.
    Anthropic,
}

impl ProviderKind {
    /// The spec-string prefix (`openai`, `anthropic`).
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Openai => "openai",
            ProviderKind::Anthropic => "anthropic",
        }
    }
}

/// How to reach one LLM endpoint, and what it costs.
///
/// ```toml
/// kind = "openai"                      # or "anthropic"
/// model = "qwen2.5-coder-32b"
/// base_url = "http://127.0.0.1:8000/v1" # empty = the hosted default of the kind
/// api_key_env = "OPENAI_API_KEY"       # name of the env var holding the key (unset var = no key sent)
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProviderConfig {
    /// Wire format.
    pub kind: ProviderKind,
    /// Model name sent in each request.
    pub model: String,
    /// Endpoint root. Empty = `https://api.openai.com/v1` (openai) or `https://api.anthropic.com`
    /// (anthropic). For openai-compatible servers include the `/v1` suffix; requests go to
    /// `{base_url}/chat/completions`. Anthropic requests go to `{base_url}/v1/messages`.
    pub base_url: String,
    /// Name of the environment variable holding the API key (the key itself never lives in a config
    /// file). Empty = the kind's default (`OPENAI_API_KEY` / `ANTHROPIC_API_KEY`). If the variable is
    /// unset no key is sent, which suits local servers.
    pub api_key_env: String,
    /// TCP connect timeout, seconds.
    pub connect_timeout_secs: f64,
    /// Request timeout, seconds: the longest wait for the response headers, and again for the
    /// body. With `stream = true` it bounds each wait between two chunks of the stream instead, so
    /// long generations do not hit it while tokens keep coming.
    pub request_timeout_secs: f64,
    /// Ask for a streamed (server-sent events) response.
    pub stream: bool,
    /// Retries after the first attempt on 429, 5xx, timeouts and dropped connections (at most 5).
    pub max_retries: u32,
    /// First backoff delay, milliseconds; doubles per retry, with up to 50% random jitter added.
    pub backoff_base_ms: u64,
    /// Cap on one backoff delay (and on an honoured `Retry-After`), milliseconds.
    pub backoff_max_ms: u64,
    /// Maximum tokens the model may generate per call.
    pub max_tokens: u32,
    /// Sampling temperature; `None` = the server's default.
    pub temperature: Option<f64>,
    /// USD per million input (prompt) tokens.
    pub input_price_per_mtok: f64,
    /// USD per million output (completion) tokens.
    pub output_price_per_mtok: f64,
    /// USD per million input tokens read from the prompt cache; `None` = 0.1 × the input price.
    pub cache_read_price_per_mtok: Option<f64>,
    /// USD per million input tokens written to the prompt cache; `None` = 1.25 × the input price.
    pub cache_write_price_per_mtok: Option<f64>,
    /// Mark the system prompt and the task brief as cacheable (anthropic `cache_control`; the
    /// tool loop resends them every turn). OpenAI-compatible servers cache on their own.
    pub prompt_cache: bool,
    /// `anthropic-version` header value (anthropic only).
    pub anthropic_version: String,
    /// Request field carrying `max_tokens` (openai only). Empty = `max_completion_tokens` for
    /// api.openai.com (its newer models refuse `max_tokens`), `max_tokens` for every other server.
    pub max_tokens_field: String,
}

impl Default for ProviderConfig {
    fn default() -> Self {
        Self {
            kind: ProviderKind::Openai,
            model: String::new(),
            base_url: String::new(),
            api_key_env: String::new(),
            connect_timeout_secs: 10.0,
            request_timeout_secs: 300.0,
            stream: false,
            max_retries: 5,
            backoff_base_ms: 1000,
            backoff_max_ms: 60_000,
            max_tokens: 8192,
            temperature: None,
            input_price_per_mtok: 0.0,
            output_price_per_mtok: 0.0,
            cache_read_price_per_mtok: None,
            cache_write_price_per_mtok: None,
            prompt_cache: true,
            anthropic_version: "2023-06-01".to_string(),
            max_tokens_field: String::new(),
        }
    }
}

/// Retries are capped here whatever the configuration says.
pub const MAX_RETRIES_CAP: u32 = 5;

impl ProviderConfig {
    /// Parses `openai:MODEL`, `openai:MODEL@BASE_URL`, `anthropic:MODEL[@BASE_URL]` over `defaults`
    /// (which supply timeouts, retries, prices and the key variable). The base URL must start with
    /// `http://` or `https://`; a model may itself contain `:` or `@` (e.g. `llama3:8b`). When the
    /// spec's kind differs from `defaults.kind`, the defaults' `base_url` and `api_key_env` are
    /// dropped (they belong to the other kind's endpoint).
    pub fn from_spec(spec: &str, defaults: &ProviderConfig) -> Result<Self, ProviderError> {
        let bad = |why: &str| {
            ProviderError::Config(format!(
                "bad provider spec {spec:?}: {why} (expected openai:MODEL[@BASE_URL] or anthropic:MODEL[@BASE_URL])"
            ))
        };
        let (kind, rest) = spec.split_once(':').ok_or_else(|| bad("no `kind:`"))?;
        let kind = match kind.trim() {
            "openai" => ProviderKind::Openai,
            "anthropic" => ProviderKind::Anthropic,
            other => return Err(bad(&format!("unknown provider kind {other:?}"))),
        };
        // The base URL starts at the first `@` followed by `scheme://`; other `@`s belong to the model.
        let url_start = rest.match_indices('@').map(|(i, _)| i).find(|&i| {
            let after = &rest[i + 1..];
            after.find("://").is_some_and(|j| {
                j > 0
                    && after[..j]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '+')
            })
        });
        let (model, base_url) = match url_start {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, ""),
        };
        if model.trim().is_empty() {
            return Err(bad("empty model name"));
        }
        let mut cfg = defaults.clone();
        if cfg.kind != kind {
            cfg.api_key_env.clear();
            cfg.base_url.clear();
        }
        cfg.kind = kind;
        cfg.model = model.trim().to_string();
        if !base_url.is_empty() {
            cfg.base_url = base_url.trim().to_string();
        }
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks the fields; the error names the offending field.
    pub fn validate(&self) -> Result<(), ProviderError> {
        let err = |m: String| Err(ProviderError::Config(m));
        if self.model.trim().is_empty() {
            return err("`model` is empty".into());
        }
        let url = self.base_url_or_default();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return err(format!(
                "`base_url` {url:?} must start with http:// or https://"
            ));
        }
        for (name, v) in [
            ("connect_timeout_secs", self.connect_timeout_secs),
            ("request_timeout_secs", self.request_timeout_secs),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return err(format!(
                    "`{name}` must be a positive number of seconds, got {v}"
                ));
            }
        }
        for (name, v) in [
            ("input_price_per_mtok", self.input_price_per_mtok),
            ("output_price_per_mtok", self.output_price_per_mtok),
            (
                "cache_read_price_per_mtok",
                self.cache_read_price_per_mtok.unwrap_or(0.0),
            ),
            (
                "cache_write_price_per_mtok",
                self.cache_write_price_per_mtok.unwrap_or(0.0),
            ),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return err(format!("`{name}` must be >= 0, got {v}"));
            }
        }
        if self.max_retries > MAX_RETRIES_CAP {
            return err(format!(
                "`max_retries` is {}, at most {MAX_RETRIES_CAP} allowed",
                self.max_retries
            ));
        }
        if self.max_tokens == 0 {
            return err("`max_tokens` must be > 0".into());
        }
        Ok(())
    }

    /// The base URL without a trailing slash, or the kind's hosted default.
    pub fn base_url_or_default(&self) -> String {
        let url = if self.base_url.trim().is_empty() {
            match self.kind {
                ProviderKind::Openai => "https://api.openai.com/v1",
                ProviderKind::Anthropic => "https://api.anthropic.com",
            }
        } else {
            self.base_url.trim()
        };
        url.trim_end_matches('/').to_string()
    }

    /// The env var name holding the key, or the kind's default.
    pub fn api_key_env_or_default(&self) -> String {
        if self.api_key_env.trim().is_empty() {
            match self.kind {
                ProviderKind::Openai => "OPENAI_API_KEY".into(),
                ProviderKind::Anthropic => "ANTHROPIC_API_KEY".into(),
            }
        } else {
            self.api_key_env.trim().to_string()
        }
    }

    /// The API key from the named variable, if set and non-empty.
    pub fn api_key(&self) -> Option<String> {
        std::env::var(self.api_key_env_or_default())
            .ok()
            .filter(|k| !k.trim().is_empty())
    }

    /// The openai request field for the token limit (see [`ProviderConfig::max_tokens_field`]).
    pub fn max_tokens_field_or_default(&self) -> String {
        if !self.max_tokens_field.trim().is_empty() {
            return self.max_tokens_field.trim().to_string();
        }
        if self.base_url_or_default().contains("://api.openai.com") {
            "max_completion_tokens".into()
        } else {
            "max_tokens".into()
        }
    }

    /// `kind:model`.
    pub fn display_name(&self) -> String {
        format!("{}:{}", self.kind.as_str(), self.model)
    }

    pub fn connect_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.connect_timeout_secs)
    }

    pub fn request_timeout(&self) -> Duration {
        Duration::from_secs_f64(self.request_timeout_secs)
    }
}
