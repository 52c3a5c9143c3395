//! The judge on screenshots (A.4.2) over the policies' three APIs: it is shown the instruction,
//! the checklist distilled from it and the trial's last N screenshots (the final screen last)
//! and answers one JSON verdict ([`read_verdict`]). A trial without screenshots (a `command`
//! policy) is judged from its final state instead. The spec names the API as a policy spec does:
//!
//! | spec | request |
//! |---|---|
//! | `vlm:openai:MODEL[@URL]` | chat completions; `image_url` parts with PNG data URLs |
//! | `anthropic:MODEL[@URL]` | Messages API; `image` blocks with base64 PNG sources |
//! | `openai-responses:MODEL[@URL]` | Responses API; `input_image` parts |
//!
//! Transient failures are retried by the providers' loop; what remains is a judge failure,
//! never a 0.

use std::path::Path;

use base64::Engine as _;
use reqwest::blocking::Client;
use serde_json::{json, Value};

use super::anthropic::anthropic_headers;
use super::chat::{bearer, usage_of};
use crate::rollout::judge::{judge_prompt, read_verdict, Judge, JudgeInput, JudgeScore};
use crate::rollout::RolloutError;
use tuplewright_models::providers::http::{build_client, post_json};
use tuplewright_models::providers::{excerpt, ProviderConfig, ProviderKind};

/// The API a [`ScreenJudge`] speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JudgeApi {
    /// OpenAI-compatible chat completions with image parts.
    Chat,
    /// Anthropic's Messages API.
    Anthropic,
    /// OpenAI's Responses API.
    Responses,
}

/// A vision-language judge of a trial's final screen(s).
pub struct ScreenJudge {
    api: JudgeApi,
    cfg: ProviderConfig,
    client: Client,
    system: String,
    last_n: usize,
}

/// Whether a judge spec names a judge on screenshots (the VLM policy prefixes).
pub fn is_screen_judge_spec(spec: &str) -> bool {
    super::is_vlm_spec(spec.trim())
}

impl ScreenJudge {
    /// The judge `spec` names, shown the last `last_n` screenshots (at least one), with the
    /// system prompt `prompts_dir/judge_screen.md` and `defaults` (timeouts, retries, prices).
    pub fn from_spec(
        spec: &str,
        last_n: usize,
        defaults: &ProviderConfig,
        prompts_dir: &Path,
    ) -> Result<ScreenJudge, RolloutError> {
        let spec = spec.trim();
        let bad = |e: String| RolloutError::Judge(format!("judge `{spec}`: {e}"));
        let cfg_of =
            |s: &str| ProviderConfig::from_spec(s, defaults).map_err(|e| bad(e.to_string()));
        let (api, cfg) = if let Some(rest) = spec.strip_prefix("vlm:") {
            let cfg = cfg_of(rest)?;
            if cfg.kind != ProviderKind::Openai {
                return Err(bad(
                    "vlm: takes an OpenAI-compatible endpoint (vlm:openai:MODEL[@URL])".into(),
                ));
            }
            (JudgeApi::Chat, cfg)
        } else if spec.starts_with("anthropic:") {
            (JudgeApi::Anthropic, cfg_of(spec)?)
        } else if let Some(rest) = spec.strip_prefix("openai-responses:") {
            (JudgeApi::Responses, cfg_of(&format!("openai:{rest}"))?)
        } else {
            return Err(bad(
                "not a judge on screenshots (vlm:openai:MODEL[@URL], anthropic:MODEL[@URL], \
                 openai-responses:MODEL[@URL])"
                    .into(),
            ));
        };
        cfg.validate().map_err(|e| bad(e.to_string()))?;
        let client = build_client(&cfg).map_err(|e| bad(e.to_string()))?;
        let path = prompts_dir.join("judge_screen.md");
        let system = std::fs::read_to_string(&path).map_err(|e| {
            RolloutError::Judge(format!(
                "cannot read the judge prompt {}: {e}",
                path.display()
            ))
        })?;
        Ok(ScreenJudge {
            api,
            cfg,
            client,
            system,
            last_n: last_n.max(1),
        })
    }

    /// The API this judge speaks.
    pub fn api(&self) -> JudgeApi {
        self.api
    }

    /// The request of one verdict: URL, headers and body.
    fn request(
        &self,
        input: &JudgeInput<'_>,
    ) -> Result<(String, reqwest::header::HeaderMap, Value), RolloutError> {
        let text = judge_prompt(input, input.screenshots.is_empty());
        let b64: Vec<String> = input
            .screenshots
            .iter()
            .map(|png| base64::engine::general_purpose::STANDARD.encode(png))
            .collect();
        let data_url = |b: &String| format!("data:image/png;base64,{b}");
        let base = self.cfg.base_url_or_default();
        let key_err =
            |e: tuplewright_models::providers::ProviderError| RolloutError::Judge(e.to_string());
        Ok(match self.api {
            JudgeApi::Chat => {
                let mut parts = vec![json!({"type": "text", "text": text})];
                parts.extend(
                    b64.iter()
                        .map(|b| json!({"type": "image_url", "image_url": {"url": data_url(b)}})),
                );
                let body = json!({
                    "model": self.cfg.model,
                    "messages": [{"role": "system", "content": self.system},
                                 {"role": "user", "content": parts}],
                    self.cfg.max_tokens_field_or_default(): self.cfg.max_tokens,
                    "temperature": 0.0,
                });
                let headers = bearer(&self.cfg).map_err(key_err)?;
                (format!("{base}/chat/completions"), headers, body)
            }
            JudgeApi::Anthropic => {
                let mut blocks = vec![json!({"type": "text", "text": text})];
                blocks.extend(b64.iter().map(|b| {
                    json!({"type": "image", "source": {"type": "base64",
                        "media_type": "image/png", "data": b}})
                }));
                let body = json!({
                    "model": self.cfg.model,
                    "max_tokens": self.cfg.max_tokens,
                    "temperature": 0.0,
                    "system": self.system,
                    "messages": [{"role": "user", "content": blocks}],
                });
                let headers = anthropic_headers(&self.cfg, None).map_err(key_err)?;
                (format!("{base}/v1/messages"), headers, body)
            }
            JudgeApi::Responses => {
                let mut parts = vec![json!({"type": "input_text", "text": text})];
                parts.extend(
                    b64.iter()
                        .map(|b| json!({"type": "input_image", "image_url": data_url(b)})),
                );
                let body = json!({
                    "model": self.cfg.model,
                    "instructions": self.system,
                    "input": [{"role": "user", "content": parts}],
                    "max_output_tokens": self.cfg.max_tokens,
                });
                let headers = bearer(&self.cfg).map_err(key_err)?;
                (format!("{base}/responses"), headers, body)
            }
        })
    }

    /// The reply's text and the names of its usage fields, or what is missing.
    fn reply_text(&self, body: &Value) -> Result<(String, [&'static str; 2]), &'static str> {
        match self.api {
            JudgeApi::Chat => body
                .pointer("/choices/0/message/content")
                .and_then(Value::as_str)
                .map(|t| (t.to_string(), ["prompt_tokens", "completion_tokens"]))
                .ok_or("no choices[0].message.content string"),
            JudgeApi::Anthropic => {
                let blocks = body
                    .get("content")
                    .and_then(Value::as_array)
                    .ok_or("no `content` array")?;
                Ok((
                    texts(blocks.iter(), "text"),
                    ["input_tokens", "output_tokens"],
                ))
            }
            JudgeApi::Responses => {
                let output = body
                    .get("output")
                    .and_then(Value::as_array)
                    .ok_or("no `output` array")?;
                let parts = output
                    .iter()
                    .filter(|i| i["type"] == "message")
                    .flat_map(|i| i["content"].as_array().into_iter().flatten());
                Ok((
                    texts(parts, "output_text"),
                    ["input_tokens", "output_tokens"],
                ))
            }
        }
    }
}

/// The `text` of every part whose `type` is `kind`, joined by newlines.
fn texts<'a>(parts: impl Iterator<Item = &'a Value>, kind: &str) -> String {
    parts
        .filter(|p| p["type"] == kind)
        .filter_map(|p| p["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

impl Judge for ScreenJudge {
    fn screenshots(&self) -> usize {
        self.last_n
    }

    fn score(&self, input: &JudgeInput<'_>) -> Result<JudgeScore, RolloutError> {
        let (url, headers, body) = self.request(input)?;
        let ex = post_json(&self.client, &self.cfg, &url, headers, &body, None)
            .map_err(|e| RolloutError::Judge(e.to_string()))?;
        let (text, [input_key, output_key]) = self.reply_text(&ex.body).map_err(|e| {
            RolloutError::Judge(format!(
                "{}: {e}: {}",
                self.cfg.display_name(),
                excerpt(&ex.body.to_string(), 200)
            ))
        })?;
        let (score, checklist, reasoning) = read_verdict(&text)?;
        let usage = usage_of(
            &self.cfg,
            ex.body.get("usage"),
            ex.attempts,
            input_key,
            output_key,
        );
        Ok(JudgeScore {
            score,
            checklist,
            reasoning,
            tokens: (usage.input_tokens, usage.output_tokens),
            model: self.cfg.display_name(),
            cost_usd: usage.cost_usd,
            screenshots: input.screenshots.len(),
        })
    }
}
