//! `vlm:openai:MODEL[@BASE_URL]`: OpenAI-compatible chat completions with image parts (vLLM,
//! SGLang, LiteLLM, hosted). The model writes actions as text in an [`ActionFormat`]; each
//! screenshot is a user message part `{"type": "image_url", "image_url": {"url": "data:…"}}`.

use reqwest::blocking::Client;
use reqwest::header::{HeaderMap, HeaderValue, AUTHORIZATION};
use serde_json::{json, Value};

use super::coords::{CoordSpace, Coords};
use super::error::CoordError;
use super::prompt::system_prompt;
use super::wire::{Conversation, Observation, Reply, Sampling, Wire, HISTORY_PLACEHOLDER};
use super::{ActionFormat, ArgCtx};
use crate::agents::Usage;
use tuplewright_models::providers::http::{build_client, post_json};
use tuplewright_models::providers::{cost_usd, InputTokens, ProviderConfig, ProviderError};

/// A chat-completions model with a text action format.
pub struct ChatWire {
    cfg: ProviderConfig,
    client: Client,
    format: ActionFormat,
    space: CoordSpace,
}

impl ChatWire {
    /// The wire for `cfg` (an `openai` provider config), format and space.
    pub fn new(
        cfg: ProviderConfig,
        format: ActionFormat,
        space: CoordSpace,
    ) -> Result<ChatWire, ProviderError> {
        cfg.validate()?;
        let client = build_client(&cfg)?;
        Ok(ChatWire {
            cfg,
            client,
            format,
            space,
        })
    }
}

/// Bearer authorization when the key variable is set.
pub(crate) fn bearer(cfg: &ProviderConfig) -> Result<HeaderMap, ProviderError> {
    let mut headers = HeaderMap::new();
    if let Some(key) = cfg.api_key() {
        let v = HeaderValue::from_str(&format!("Bearer {}", key.trim())).map_err(|_| {
            ProviderError::Config(format!(
                "the API key in {} contains characters not allowed in a header",
                cfg.api_key_env_or_default()
            ))
        })?;
        headers.insert(AUTHORIZATION, v);
    }
    Ok(headers)
}

/// The user message of one observation.
fn user_message(obs: &Observation, first: Option<&str>) -> Value {
    let mut parts = Vec::new();
    if let Some(instruction) = first {
        parts.push(json!({"type": "text", "text": instruction}));
    }
    if !obs.text.is_empty() {
        parts.push(json!({"type": "text", "text": obs.text}));
    }
    match (&obs.image, obs.collapsed) {
        (Some(img), _) => {
            parts.push(json!({"type": "image_url", "image_url": {"url": img.data_url()}}))
        }
        (None, true) => parts.push(json!({"type": "text", "text": HISTORY_PLACEHOLDER})),
        (None, false) => {}
    }
    json!({"role": "user", "content": parts})
}

/// The request body (public to the crate for wire tests).
pub(crate) fn request_body(
    cfg: &ProviderConfig,
    format: ActionFormat,
    convo: &Conversation,
    coords: &Coords,
    sampling: &Sampling,
) -> Value {
    let mut messages = vec![json!({"role": "system", "content": system_prompt(format, coords)})];
    for (i, (obs, reply)) in convo.turns.iter().enumerate() {
        let first = (i == 0).then_some(convo.instruction.as_str());
        messages.push(user_message(obs, first));
        if let Some(r) = reply {
            messages.push(json!({"role": "assistant", "content": r.text}));
        }
    }
    json!({
        "model": cfg.model,
        "messages": messages,
        cfg.max_tokens_field_or_default(): sampling.max_new_tokens,
        "temperature": sampling.temperature,
        "top_p": sampling.top_p,
    })
}

/// Tokens and cost from an OpenAI-style `usage` object.
pub(super) fn usage_of(
    cfg: &ProviderConfig,
    usage: Option<&Value>,
    calls: u32,
    input_key: &str,
    output_key: &str,
) -> Usage {
    let get = |k: &str| {
        usage
            .and_then(|u| u.get(k))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let (input, output) = (get(input_key), get(output_key));
    Usage {
        model: cfg.display_name(),
        calls,
        input_tokens: input,
        output_tokens: output,
        cost_usd: cost_usd(
            cfg,
            InputTokens {
                plain: input,
                ..Default::default()
            },
            output,
        ),
    }
}

impl Wire for ChatWire {
    fn name(&self) -> String {
        format!("vlm:{}", self.cfg.display_name())
    }

    fn coords(&self, width: u32, height: u32) -> Result<Coords, CoordError> {
        Coords::new(self.space, width, height)
    }

    fn system_prompt(&self, coords: &Coords) -> Option<String> {
        Some(system_prompt(self.format, coords))
    }

    fn send(
        &self,
        convo: &Conversation,
        coords: &Coords,
        sampling: &Sampling,
        cursor: Option<(i32, i32)>,
    ) -> Result<Reply, ProviderError> {
        let url = format!("{}/chat/completions", self.cfg.base_url_or_default());
        let body = request_body(&self.cfg, self.format, convo, coords, sampling);
        let ex = post_json(
            &self.client,
            &self.cfg,
            &url,
            bearer(&self.cfg)?,
            &body,
            None,
        )?;
        let bad = |reason: &str| ProviderError::BadResponse {
            provider: self.cfg.display_name(),
            reason: reason.to_string(),
            body: tuplewright_models::providers::excerpt(&ex.body.to_string(), 300),
        };
        let message = ex
            .body
            .pointer("/choices/0/message")
            .ok_or_else(|| bad("no choices[0].message"))?;
        let text = match message.get("content") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(_) => return Err(bad("message.content is not a string")),
        };
        let ctx = ArgCtx {
            coords: *coords,
            cursor,
        };
        Ok(Reply {
            actions: self.format.parse(&text, &ctx),
            raw: message.clone(),
            text,
            call_ids: Vec::new(),
            usage: usage_of(
                &self.cfg,
                ex.body.get("usage"),
                ex.attempts,
                "prompt_tokens",
                "completion_tokens",
            ),
        })
    }
}
