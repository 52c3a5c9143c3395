//! `--thoughts vlm:openai:MODEL[@URL]`: a vision-language model writes the short thought a
//! policy would have written before each rendered turn, shown the instruction, the screen the
//! turn was decided on, the turn's actions and the screen after them (chat completions, images
//! as PNG data URLs). Without it a rendered turn has no text besides its tool calls.

use base64::Engine as _;
use reqwest::blocking::Client;
use serde_json::{json, Value};

use super::load::{Shot, Trajectory};
use super::render::Group;
use super::ExportError;
use crate::rollout::vlm::chat::bearer;
use tuplewright_models::providers::http::{build_client, post_json};
use tuplewright_models::providers::{ProviderConfig, ProviderError, ProviderKind};

/// What the thought writer is told.
pub const SYSTEM: &str = "You write the brief reasoning a computer-use agent thinks just before \
it acts. You are given the task, the screen the agent looks at, the actions it takes next and, \
for reference only, the screen after them. Write one or two short sentences in the first \
person, present tense: what the agent notices on the current screen and why it takes these \
actions. Never mention the second screenshot or the outcome. Reply with the thought only, \
without tool calls, code or markup.";

/// A thought writer over an OpenAI-compatible chat-completions endpoint.
pub struct ThoughtWriter {
    spec: String,
    cfg: ProviderConfig,
    client: Client,
}

impl ThoughtWriter {
    /// The writer `spec` (`vlm:openai:MODEL[@URL]`) names, with `defaults` (timeouts,
    /// retries, key variable).
    pub fn from_spec(spec: &str, defaults: &ProviderConfig) -> Result<ThoughtWriter, ExportError> {
        let bad = |why: String| ExportError::Thoughts {
            spec: spec.to_string(),
            cause: ProviderError::Config(why),
        };
        let rest = spec
            .strip_prefix("vlm:")
            .ok_or_else(|| bad("--thoughts takes vlm:openai:MODEL[@URL]".into()))?;
        let wrap = |cause| ExportError::Thoughts {
            spec: spec.to_string(),
            cause,
        };
        let cfg = ProviderConfig::from_spec(rest, defaults).map_err(wrap)?;
        if cfg.kind != ProviderKind::Openai {
            return Err(bad(
                "--thoughts takes an OpenAI-compatible endpoint (vlm:openai:MODEL[@URL])".into(),
            ));
        }
        cfg.validate().map_err(wrap)?;
        let client = build_client(&cfg).map_err(wrap)?;
        Ok(ThoughtWriter {
            spec: spec.to_string(),
            cfg,
            client,
        })
    }

    /// The spec, as recorded with each record.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// One thought per group of `t`, in order.
    pub fn thoughts(&self, t: &Trajectory, groups: &[Group]) -> Result<Vec<String>, ExportError> {
        groups.iter().map(|g| self.thought(t, g)).collect()
    }

    fn thought(&self, t: &Trajectory, g: &Group) -> Result<String, ExportError> {
        let actions = serde_json::to_string(&g.actions).unwrap_or_default();
        let mut parts = vec![json!({"type": "text", "text": format!("Task: {}", t.instruction)})];
        if let Some(s) = &g.before {
            parts.push(json!({"type": "text", "text": "The screen the agent looks at:"}));
            parts.push(image(s)?);
        }
        parts.push(json!({"type": "text",
            "text": format!("The actions it takes next (screen pixels): {actions}")}));
        if let Some(s) = &g.after {
            parts.push(json!({"type": "text", "text": "For reference, the screen after them:"}));
            parts.push(image(s)?);
        }
        let body = json!({
            "model": self.cfg.model,
            "messages": [{"role": "system", "content": SYSTEM},
                         {"role": "user", "content": parts}],
            self.cfg.max_tokens_field_or_default(): 200,
            "temperature": 0.0,
        });
        let wrap = |cause| ExportError::Thoughts {
            spec: self.spec.clone(),
            cause,
        };
        let url = format!("{}/chat/completions", self.cfg.base_url_or_default());
        let headers = bearer(&self.cfg).map_err(wrap)?;
        let ex = post_json(&self.client, &self.cfg, &url, headers, &body, None).map_err(wrap)?;
        let text = ex
            .body
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                wrap(ProviderError::BadResponse {
                    provider: self.cfg.display_name(),
                    reason: "no choices[0].message.content string".into(),
                    body: tuplewright_models::providers::excerpt(&ex.body.to_string(), 200),
                })
            })?;
        Ok(text.split_whitespace().collect::<Vec<_>>().join(" "))
    }
}

fn image(s: &Shot) -> Result<Value, ExportError> {
    let png = std::fs::read(&s.path).map_err(|e| ExportError::io(&s.path, e))?;
    let url = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    );
    Ok(json!({"type": "image_url", "image_url": {"url": url}}))
}
