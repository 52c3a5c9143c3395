//! HTTP chat providers for the LLM-backed agents: one [`ChatProvider`] interface, two wire formats
//! (OpenAI-compatible chat completions and the Anthropic Messages API).
//!
//! Calls are blocking (the agreement loop runs each task on its own worker thread; do not call a
//! provider from inside an async task). Every call retries transient failures (429 honouring
//! `Retry-After`, 5xx, timeouts, dropped connections) with exponential backoff and jitter, and records
//! tokens and cost. With `stream = true` responses arrive as server-sent events and are folded into
//! the same result; the request timeout then bounds each wait for data rather than the whole answer.
//!
//! # Configuration
//!
//! A spec string picks kind, model and endpoint; a [`ProviderConfig`] supplies the rest:
//!
//! | spec | endpoint |
//! |---|---|
//! | `openai:gpt-4.1-mini` | `https://api.openai.com/v1/chat/completions`, key in `OPENAI_API_KEY` |
//! | `openai:MODEL@http://127.0.0.1:8000/v1` | vLLM / SGLang (`--enable-auto-tool-choice` for tools) |
//! | `openai:MODEL@http://127.0.0.1:8080/v1` | llama.cpp `llama-server --jinja` |
//! | `openai:llama3.1:8b@http://localhost:11434/v1` | Ollama |
//! | `anthropic:MODEL` | `https://api.anthropic.com/v1/messages`, key in `ANTHROPIC_API_KEY` |
//!
//! ```toml
//! kind = "anthropic"
//! model = "claude-sonnet-4-5"
//! api_key_env = "ANTHROPIC_API_KEY"   # the variable's name; keys never live in the file
//! request_timeout_secs = 300
//! max_retries = 5                     # at most 5
//! backoff_base_ms = 1000
//! input_price_per_mtok = 3.0
//! output_price_per_mtok = 15.0
//! stream = false
//! ```

mod anthropic;
mod config;
pub mod gate;
pub mod http;
mod openai;
pub mod prices;
pub mod reply;
mod sse;
mod usage;

pub use anthropic::AnthropicProvider;
pub use config::{ProviderConfig, ProviderKind};
pub use openai::OpenAiProvider;
pub use usage::Usage;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// A tool the model may call: a name, what it does, and a JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Tool name as the model sees it.
    pub name: String,
    /// One-paragraph description for the model.
    pub description: String,
    /// JSON Schema (`{"type": "object", ...}`) of the arguments.
    pub parameters: serde_json::Value,
}

/// One tool invocation requested by the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// Provider-assigned id, echoed back in the matching [`Message::ToolResult`].
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Parsed arguments; a string when the model sent arguments that are not valid JSON.
    pub arguments: serde_json::Value,
}

/// One message of a conversation (the system prompt travels separately in [`ChatRequest`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Message {
    /// Text from the user (the harness).
    User(String),
    /// A model turn: its text and the tool calls it made.
    Assistant {
        /// Free text (may be empty).
        text: String,
        /// Tool calls, in order.
        tool_calls: Vec<ToolCall>,
    },
    /// The harness's answer to one tool call.
    ToolResult {
        /// The [`ToolCall::id`] answered.
        call_id: String,
        /// Text result shown to the model.
        content: String,
        /// Whether the call failed (refused or errored).
        is_error: bool,
    },
}

/// A complete request: system prompt, conversation, tools.
#[derive(Debug, Clone, Default)]
pub struct ChatRequest {
    /// System prompt.
    pub system: String,
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// Tools offered to the model (may be empty).
    pub tools: Vec<ToolSpec>,
}

/// The model's answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatResponse {
    /// Concatenated text content.
    pub text: String,
    /// Tool calls requested, in order.
    pub tool_calls: Vec<ToolCall>,
    /// Tokens and cost of this call (attempts that failed and were retried count in `calls`).
    pub usage: Usage,
    /// The provider's stop/finish reason, as sent (`stop`, `end_turn`, `tool_use`, ...).
    pub stop_reason: String,
}

/// Why a provider call failed after its retries.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// A configuration or spec string is invalid.
    #[error("provider configuration: {0}")]
    Config(String),
    /// A non-retryable HTTP status (4xx other than 429), with an excerpt of the body.
    #[error("{provider} answered HTTP {status}: {body}{hint}")]
    Status {
        /// Provider name.
        provider: String,
        /// HTTP status code.
        status: u16,
        /// Start of the response body.
        body: String,
        /// Extra advice (e.g. which env var should hold the API key), may be empty.
        hint: String,
    },
    /// Transient failures (429, 5xx, timeouts, dropped connections) exhausted every attempt.
    #[error("{provider}: gave up after {attempts} attempts; last error: {last}")]
    Exhausted {
        /// Provider name.
        provider: String,
        /// Requests made.
        attempts: u32,
        /// The last failure.
        last: String,
    },
    /// The server answered 2xx with a body that is not the expected JSON.
    #[error("{provider} sent an unreadable response ({reason}): {body}")]
    BadResponse {
        /// Provider name.
        provider: String,
        /// What was wrong.
        reason: String,
        /// Start of the response body.
        body: String,
    },
}

/// A chat-completion endpoint.
pub trait ChatProvider: Send + Sync {
    /// `kind:model`, as recorded in [`Usage::model`].
    fn name(&self) -> String;
    /// Sends one request (with retries) and returns the model's answer.
    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError>;
}

/// Builds the provider a configuration describes.
pub fn build_provider(config: &ProviderConfig) -> Result<Arc<dyn ChatProvider>, ProviderError> {
    config.validate()?;
    let provider: Arc<dyn ChatProvider> = match config.kind {
        ProviderKind::Openai => Arc::new(OpenAiProvider::new(config.clone())?),
        ProviderKind::Anthropic => Arc::new(AnthropicProvider::new(config.clone())?),
    };
    // A worker on a shared store caps concurrent calls per endpoint across all workers.
    Ok(gate::wrap(provider))
}

/// Builds a provider from a spec string (`openai:MODEL@BASE_URL`, `anthropic:MODEL`), taking timeouts,
/// retries, prices and the key variable from `defaults`.
pub fn provider_from_spec(
    spec: &str,
    defaults: &ProviderConfig,
) -> Result<Arc<dyn ChatProvider>, ProviderError> {
    build_provider(&ProviderConfig::from_spec(spec, defaults)?)
}

/// Input tokens of one call split by how the provider bills them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InputTokens {
    /// Billed at the plain input price.
    pub plain: u64,
    /// Written to the prompt cache (Anthropic `cache_creation_input_tokens`).
    pub cache_write: u64,
    /// Read from the prompt cache (Anthropic `cache_read_input_tokens`, OpenAI `cached_tokens`).
    pub cache_read: u64,
}

impl InputTokens {
    /// All input tokens.
    pub fn total(&self) -> u64 {
        self.plain + self.cache_write + self.cache_read
    }
}

/// Cost in USD of a call from its token counts and the configured per-million prices.
pub fn cost_usd(config: &ProviderConfig, input: InputTokens, output_tokens: u64) -> f64 {
    let read = config
        .cache_read_price_per_mtok
        .unwrap_or(config.input_price_per_mtok * 0.1);
    let write = config
        .cache_write_price_per_mtok
        .unwrap_or(config.input_price_per_mtok * 1.25);
    (input.plain as f64 * config.input_price_per_mtok
        + input.cache_write as f64 * write
        + input.cache_read as f64 * read
        + output_tokens as f64 * config.output_price_per_mtok)
        / 1_000_000.0
}

/// The first and last characters of `text` (about `max` in all), with a marker where the middle was
/// cut; the end of a script's output (its `REWARD:` line) survives.
pub fn head_tail(text: &str, max: usize) -> String {
    let total = text.chars().count();
    if total <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max / 2).collect();
    let tail: String = text.chars().skip(total - max / 2).collect();
    format!(
        "{head}\n[... {} characters cut ...]\n{tail}",
        total - 2 * (max / 2)
    )
}

/// The first `max` characters of `text` (trimmed), with an ellipsis when cut.
pub fn excerpt(text: &str, max: usize) -> String {
    let t = text.trim();
    match t.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_string(),
    }
}
