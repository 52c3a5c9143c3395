//! OpenAI-compatible chat completions (`POST {base_url}/chat/completions`): hosted OpenAI and local
//! servers (vLLM, SGLang, llama.cpp server, Ollama's `/v1`). Tools travel in `tools`, calls come back
//! in `message.tool_calls` with JSON-string arguments, results go back as `role: "tool"` messages.

use reqwest::blocking::Client;
use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION};
use serde_json::{json, Value};

use super::http::{build_client, post_json};
use super::Usage;
use super::{
    cost_usd, excerpt, ChatProvider, ChatRequest, ChatResponse, InputTokens, Message,
    ProviderConfig, ProviderError, ToolCall,
};

/// A provider speaking the OpenAI chat-completions format.
pub struct OpenAiProvider {
    cfg: ProviderConfig,
    client: Client,
}

impl OpenAiProvider {
    /// Builds the provider (no request is sent).
    pub fn new(cfg: ProviderConfig) -> Result<Self, ProviderError> {
        cfg.validate()?;
        let client = build_client(&cfg)?;
        Ok(Self { cfg, client })
    }

    fn headers(&self) -> Result<HeaderMap, ProviderError> {
        let mut headers = HeaderMap::new();
        if let Some(key) = self.cfg.api_key() {
            let value = HeaderValue::from_str(&format!("Bearer {}", key.trim())).map_err(|_| {
                ProviderError::Config(format!(
                    "the API key in {} contains characters not allowed in a header",
                    self.cfg.api_key_env_or_default()
                ))
            })?;
            headers.insert(AUTHORIZATION, value);
        }
        Ok(headers)
    }
}

/// The request body for `request` (public to the crate for tests of the wire format).
pub fn request_body(cfg: &ProviderConfig, request: &ChatRequest) -> Value {
    let mut messages = vec![json!({"role": "system", "content": request.system})];
    for m in &request.messages {
        messages.push(match m {
            Message::User(text) => json!({"role": "user", "content": text}),
            Message::Assistant { text, tool_calls } => {
                let mut msg = json!({"role": "assistant", "content": text});
                if !tool_calls.is_empty() && text.is_empty() {
                    msg["content"] = Value::Null;
                }
                if !tool_calls.is_empty() {
                    let calls: Vec<Value> = tool_calls
                        .iter()
                        .map(|c| {
                            let args = match &c.arguments {
                                Value::String(raw) => raw.clone(),
                                other => other.to_string(),
                            };
                            json!({"id": c.id, "type": "function",
                                   "function": {"name": c.name, "arguments": args}})
                        })
                        .collect();
                    msg["tool_calls"] = Value::Array(calls);
                }
                msg
            }
            Message::ToolResult {
                call_id,
                content,
                is_error,
            } => {
                let content = if *is_error {
                    format!("ERROR: {content}")
                } else {
                    content.clone()
                };
                json!({"role": "tool", "tool_call_id": call_id, "content": content})
            }
        });
    }
    let mut body = json!({"model": cfg.model, "messages": messages});
    body[cfg.max_tokens_field_or_default()] = json!(cfg.max_tokens);
    if cfg.stream {
        body["stream"] = json!(true);
        body["stream_options"] = json!({"include_usage": true});
    }
    if let Some(t) = cfg.temperature {
        body["temperature"] = json!(t);
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.name, "description": t.description, "parameters": t.parameters}})
            })
            .collect();
        body["tools"] = Value::Array(tools);
    }
    body
}

/// Reads a chat-completions response body.
pub fn parse_response(
    cfg: &ProviderConfig,
    body: &Value,
    attempts: u32,
) -> Result<ChatResponse, ProviderError> {
    let bad = |reason: &str| ProviderError::BadResponse {
        provider: cfg.display_name(),
        reason: reason.to_string(),
        body: excerpt(&body.to_string(), 300),
    };
    let choice = body
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or_else(|| bad("no `choices[0]`"))?;
    let message = choice
        .get("message")
        .ok_or_else(|| bad("no `choices[0].message`"))?;
    let text = match message.get("content") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(bad("`message.content` is not a string")),
    };
    let mut tool_calls = Vec::new();
    if let Some(calls) = message.get("tool_calls").and_then(Value::as_array) {
        for (i, call) in calls.iter().enumerate() {
            let func = call
                .get("function")
                .ok_or_else(|| bad("a tool call has no `function`"))?;
            let name = func
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("a tool call has no `function.name`"))?;
            let arguments = match func.get("arguments") {
                Some(Value::String(raw)) => {
                    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.clone()))
                }
                Some(v) => v.clone(),
                None => json!({}),
            };
            let id = call
                .get("id")
                .and_then(Value::as_str)
                .filter(|id| !id.is_empty())
                .map(str::to_string)
                .unwrap_or_else(|| format!("call_{i}"));
            tool_calls.push(ToolCall {
                id,
                name: name.to_string(),
                arguments,
            });
        }
    }
    let tokens = |k: &str| {
        body.get("usage")
            .and_then(|u| u.get(k))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let (input_tokens, output_tokens) = (tokens("prompt_tokens"), tokens("completion_tokens"));
    let cached = body
        .pointer("/usage/prompt_tokens_details/cached_tokens")
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .min(input_tokens);
    let input = InputTokens {
        plain: input_tokens - cached,
        cache_write: 0,
        cache_read: cached,
    };
    Ok(ChatResponse {
        text,
        tool_calls,
        usage: Usage {
            model: cfg.display_name(),
            calls: attempts,
            input_tokens,
            output_tokens,
            cost_usd: cost_usd(cfg, input, output_tokens),
        },
        stop_reason: choice
            .get("finish_reason")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
    })
}

impl ChatProvider for OpenAiProvider {
    fn name(&self) -> String {
        self.cfg.display_name()
    }

    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        let url = format!("{}/chat/completions", self.cfg.base_url_or_default());
        let body = request_body(&self.cfg, request);
        let fold = self
            .cfg
            .stream
            .then_some(super::sse::fold_openai as super::http::Fold);
        let exchange = post_json(&self.client, &self.cfg, &url, self.headers()?, &body, fold)?;
        parse_response(&self.cfg, &exchange.body, exchange.attempts)
    }
}
