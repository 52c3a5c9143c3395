//! The Anthropic Messages API (`POST {base_url}/v1/messages`, headers `x-api-key` and
//! `anthropic-version`). Tool calls are `tool_use` content blocks; results go back as `tool_result`
//! blocks in the next user message.

use reqwest::blocking::Client;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::{json, Value};

use super::http::{build_client, post_json};
use super::Usage;
use super::{
    cost_usd, excerpt, ChatProvider, ChatRequest, ChatResponse, InputTokens, Message,
    ProviderConfig, ProviderError, ToolCall,
};

/// A provider speaking the Anthropic Messages API.
pub struct AnthropicProvider {
    cfg: ProviderConfig,
    client: Client,
}

impl AnthropicProvider {
    /// Builds the provider (no request is sent).
    pub fn new(cfg: ProviderConfig) -> Result<Self, ProviderError> {
        cfg.validate()?;
        let client = build_client(&cfg)?;
        Ok(Self { cfg, client })
    }

    fn headers(&self) -> Result<HeaderMap, ProviderError> {
        let mut headers = HeaderMap::new();
        let bad = |what: &str| {
            ProviderError::Config(format!(
                "{what} contains characters not allowed in a header"
            ))
        };
        let version = HeaderValue::from_str(&self.cfg.anthropic_version)
            .map_err(|_| bad("`anthropic_version`"))?;
        headers.insert(HeaderName::from_static("anthropic-version"), version);
        if let Some(key) = self.cfg.api_key() {
            let var = self.cfg.api_key_env_or_default();
            let value = HeaderValue::from_str(key.trim())
                .map_err(|_| bad(&format!("the API key in {var}")))?;
            headers.insert(HeaderName::from_static("x-api-key"), value);
        }
        Ok(headers)
    }
}

/// Appends `block` to the last message if it has `role`, else starts a new message.
fn push_block(messages: &mut Vec<Value>, role: &str, block: Value) {
    if let Some(last) = messages.last_mut() {
        if last["role"] == role {
            if let Some(content) = last["content"].as_array_mut() {
                content.push(block);
                return;
            }
        }
    }
    messages.push(json!({"role": role, "content": [block]}));
}

/// The request body for `request`.
pub fn request_body(cfg: &ProviderConfig, request: &ChatRequest) -> Value {
    let mut messages: Vec<Value> = Vec::new();
    for m in &request.messages {
        match m {
            Message::User(text) => {
                push_block(&mut messages, "user", json!({"type": "text", "text": text}));
            }
            Message::Assistant { text, tool_calls } => {
                let mut blocks = Vec::new();
                if !text.trim().is_empty() {
                    blocks.push(json!({"type": "text", "text": text}));
                }
                for c in tool_calls {
                    let input = if c.arguments.is_object() {
                        c.arguments.clone()
                    } else {
                        json!({ "raw": c.arguments })
                    };
                    blocks.push(
                        json!({"type": "tool_use", "id": c.id, "name": c.name, "input": input}),
                    );
                }
                if blocks.is_empty() {
                    blocks.push(json!({"type": "text", "text": "(no reply)"}));
                }
                messages.push(json!({"role": "assistant", "content": blocks}));
            }
            Message::ToolResult {
                call_id,
                content,
                is_error,
            } => push_block(
                &mut messages,
                "user",
                json!({"type": "tool_result", "tool_use_id": call_id,
                       "content": content, "is_error": is_error}),
            ),
        }
    }
    let system = if cfg.prompt_cache {
        // Cache breakpoints: tools + system, then the first user turn (the task brief).
        if let Some(block) = messages
            .first_mut()
            .and_then(|m| m["content"].get_mut(0))
            .filter(|b| b["type"] == "text")
        {
            block["cache_control"] = json!({"type": "ephemeral"});
        }
        json!([{"type": "text", "text": request.system,
                "cache_control": {"type": "ephemeral"}}])
    } else {
        json!(request.system)
    };
    let mut body = json!({
        "model": cfg.model,
        "max_tokens": cfg.max_tokens,
        "system": system,
        "messages": messages,
    });
    if cfg.stream {
        body["stream"] = json!(true);
    }
    if let Some(t) = cfg.temperature {
        body["temperature"] = json!(t);
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
            .collect();
        body["tools"] = Value::Array(tools);
    }
    body
}

/// Reads a Messages API response body.
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
    let blocks = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no `content` array"))?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in blocks {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                let t = block
                    .get("text")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("a text block has no `text`"))?;
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(t);
            }
            Some("tool_use") => {
                let field = |k: &str| {
                    block
                        .get(k)
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .ok_or_else(|| bad(&format!("a tool_use block has no `{k}`")))
                };
                tool_calls.push(ToolCall {
                    id: field("id")?,
                    name: field("name")?,
                    arguments: block.get("input").cloned().unwrap_or_else(|| json!({})),
                });
            }
            // thinking, redacted_thinking and future block types carry nothing the agents use.
            _ => {}
        }
    }
    let tokens = |k: &str| {
        body.get("usage")
            .and_then(|u| u.get(k))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let input = InputTokens {
        plain: tokens("input_tokens"),
        cache_write: tokens("cache_creation_input_tokens"),
        cache_read: tokens("cache_read_input_tokens"),
    };
    let input_tokens = input.total();
    let output_tokens = tokens("output_tokens");
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
        stop_reason: body
            .get("stop_reason")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
    })
}

impl ChatProvider for AnthropicProvider {
    fn name(&self) -> String {
        self.cfg.display_name()
    }

    fn chat(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        let url = format!("{}/v1/messages", self.cfg.base_url_or_default());
        let body = request_body(&self.cfg, request);
        let fold = self
            .cfg
            .stream
            .then_some(super::sse::fold_anthropic as super::http::Fold);
        let exchange = post_json(&self.client, &self.cfg, &url, self.headers()?, &body, fold)?;
        parse_response(&self.cfg, &exchange.body, exchange.attempts)
    }
}
