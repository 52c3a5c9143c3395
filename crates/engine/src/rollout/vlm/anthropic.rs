//! `anthropic:MODEL[@BASE_URL]`: the Messages API with Anthropic's computer tool
//! (`computer_20250124`, beta header `computer-use-2025-01-24`; its successor
//! `computer_20251124` / `computer-use-2025-11-24` by `[rollout.vlm] anthropic_tool`). The model calls `tool_use`
//! blocks named `computer`; each is answered by a `tool_result` (an error text with
//! `is_error`, or the screenshot as an image block on the turn's last result). A reply without a
//! `tool_use` ends the episode (the model considers the task done).

use reqwest::blocking::Client;
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{json, Value};

use super::args::{to_action, ArgCtx};
use super::chat::usage_of;
use super::coords::{CoordSpace, Coords};
use super::error::{bad_reply, CoordError, RenderError, ReplyError, SpecError};
use super::wire::{Conversation, Observation, Reply, Sampling, Wire, HISTORY_PLACEHOLDER};
use super::{pointer, turn_verdict};
use crate::rollout::screen::ComputerAction;
use tuplewright_models::providers::http::{build_client, post_json};
use tuplewright_models::providers::{excerpt, ProviderConfig, ProviderError};

/// The tool type sent by default.
pub const TOOL_TYPE: &str = "computer_20250124";
/// The tool's name.
pub const TOOL: &str = "computer";

/// Anthropic's computer-use tool over the Messages API.
pub struct AnthropicWire {
    cfg: ProviderConfig,
    client: Client,
    space: CoordSpace,
    tool_type: String,
    beta: String,
}

/// The beta flag of a tool version: `computer_YYYYMMDD` → `computer-use-YYYY-MM-DD`.
pub fn beta_of(tool_type: &str) -> Result<String, SpecError> {
    let date = tool_type
        .strip_prefix("computer_")
        .filter(|d| d.len() == 8 && d.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| SpecError::AnthropicTool(tool_type.to_string()))?;
    Ok(format!(
        "computer-use-{}-{}-{}",
        &date[..4],
        &date[4..6],
        &date[6..]
    ))
}

impl AnthropicWire {
    /// The wire for an `anthropic` provider config.
    pub fn new(
        cfg: ProviderConfig,
        space: CoordSpace,
        tool_type: &str,
    ) -> Result<AnthropicWire, ProviderError> {
        cfg.validate()?;
        let beta = beta_of(tool_type).map_err(|e| ProviderError::Config(e.to_string()))?;
        let client = build_client(&cfg)?;
        Ok(AnthropicWire {
            cfg,
            client,
            space,
            tool_type: tool_type.to_string(),
            beta,
        })
    }

    fn headers(&self) -> Result<HeaderMap, ProviderError> {
        anthropic_headers(&self.cfg, Some(&self.beta))
    }
}

/// The system prompt of the computer-tool conversation.
pub const SYSTEM: &str = "You operate a computer through the computer tool to complete the user's \
                          task. When the task is complete, reply without calling the tool.";

/// The Messages API's headers: `x-api-key` when the key variable is set, `anthropic-version`,
/// and `anthropic-beta` when a beta flag is given (the computer tool's).
pub(super) fn anthropic_headers(
    cfg: &ProviderConfig,
    beta: Option<&str>,
) -> Result<HeaderMap, ProviderError> {
    let mut h = HeaderMap::new();
    let bad = |what: &str| ProviderError::Config(format!("{what} is not a valid header value"));
    if let Some(key) = cfg.api_key() {
        h.insert(
            "x-api-key",
            HeaderValue::from_str(key.trim()).map_err(|_| bad("the API key"))?,
        );
    }
    h.insert(
        "anthropic-version",
        HeaderValue::from_str(&cfg.anthropic_version).map_err(|_| bad("anthropic_version"))?,
    );
    if let Some(beta) = beta {
        h.insert(
            "anthropic-beta",
            HeaderValue::from_str(beta).map_err(|_| bad("the beta flag"))?,
        );
    }
    Ok(h)
}

fn image_block(obs: &Observation) -> Option<Value> {
    match (&obs.image, obs.collapsed) {
        (Some(img), _) => Some(json!({"type": "image", "source": {"type": "base64",
            "media_type": "image/png", "data": img.base64()}})),
        (None, true) => Some(json!({"type": "text", "text": HISTORY_PLACEHOLDER})),
        (None, false) => None,
    }
}

/// The user turn answering the previous reply's calls.
fn user_turn(obs: &Observation, call_ids: &[String]) -> Value {
    let mut content = Vec::new();
    let last = call_ids.len().saturating_sub(1);
    for (i, id) in call_ids.iter().enumerate() {
        let result = obs.results.get(i).cloned().flatten();
        let mut block = json!({"type": "tool_result", "tool_use_id": id});
        match result {
            Some(err) => {
                block["is_error"] = json!(true);
                block["content"] = json!([{"type": "text", "text": err}]);
            }
            None => {
                let parts: Vec<Value> = if i == last {
                    image_block(obs).into_iter().collect()
                } else {
                    vec![]
                };
                block["content"] = json!(parts);
            }
        }
        content.push(block);
    }
    // A failed last call still shows the screen, after the results.
    if obs.results.get(last).is_some_and(Option::is_some) {
        content.extend(image_block(obs));
    }
    if call_ids.is_empty() {
        if !obs.text.is_empty() {
            content.push(json!({"type": "text", "text": obs.text}));
        }
        content.extend(image_block(obs));
    }
    json!({"role": "user", "content": content})
}

/// The request body (public to the crate for wire tests).
pub(crate) fn request_body(
    cfg: &ProviderConfig,
    tool_type: &str,
    convo: &Conversation,
    coords: &Coords,
    s: &Sampling,
) -> Value {
    let mut messages = Vec::new();
    let mut prev_ids: &[String] = &[];
    for (i, (obs, reply)) in convo.turns.iter().enumerate() {
        if i == 0 {
            let mut content = vec![json!({"type": "text", "text": convo.instruction})];
            content.extend(image_block(obs));
            messages.push(json!({"role": "user", "content": content}));
        } else {
            messages.push(user_turn(obs, prev_ids));
        }
        if let Some(r) = reply {
            messages.push(json!({"role": "assistant", "content": r.raw}));
            prev_ids = &r.call_ids;
        }
    }
    let mut body = json!({
        "model": cfg.model,
        "max_tokens": s.max_new_tokens,
        "temperature": s.temperature,
        "system": SYSTEM,
        "tools": [{"type": tool_type, "name": TOOL, "display_width_px": coords.image.0,
                   "display_height_px": coords.image.1, "display_number": 1}],
        "messages": messages,
    });
    if s.top_p < 1.0 {
        body["top_p"] = json!(s.top_p);
    }
    body
}

/// Text, call ids and actions of a Messages API response.
pub(crate) fn read_reply(
    content: &[Value],
    ctx: &ArgCtx,
) -> (String, Vec<String>, Result<Vec<ComputerAction>, ReplyError>) {
    let mut text = Vec::new();
    let mut ids = Vec::new();
    let mut actions = Vec::new();
    let mut error = None;
    let mut ctx = *ctx;
    for block in content {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => text.push(block["text"].as_str().unwrap_or_default().to_string()),
            Some("tool_use") => {
                ids.push(block["id"].as_str().unwrap_or_default().to_string());
                let name = block["name"].as_str().unwrap_or_default();
                let parsed = match block.get("input") {
                    _ if name != TOOL => {
                        Err(bad_reply!("tool \"{name}\" does not exist; use {TOOL}"))
                    }
                    Some(Value::Object(args)) => to_action(args, &ctx),
                    _ => Err(ReplyError::from("the tool input is not an object")),
                };
                match parsed {
                    Ok(a) => {
                        if let Some(p) = pointer(&a) {
                            ctx.cursor = Some(p);
                        }
                        actions.push(a);
                    }
                    Err(e) if error.is_none() => {
                        error = Some(e.in_call("tool call", ids.len(), None))
                    }
                    Err(_) => {}
                }
            }
            _ => {}
        }
    }
    let actions = turn_verdict(error, ids.len(), "tool calls in one turn", actions);
    (text.join("\n"), ids, actions)
}

impl Wire for AnthropicWire {
    fn name(&self) -> String {
        self.cfg.display_name()
    }

    fn coords(&self, width: u32, height: u32) -> Result<Coords, CoordError> {
        Coords::new(self.space, width, height)
    }

    fn system_prompt(&self, _: &Coords) -> Option<String> {
        Some(SYSTEM.to_string())
    }

    fn send(
        &self,
        convo: &Conversation,
        coords: &Coords,
        sampling: &Sampling,
        cursor: Option<(i32, i32)>,
    ) -> Result<Reply, ProviderError> {
        let url = format!("{}/v1/messages", self.cfg.base_url_or_default());
        let body = request_body(&self.cfg, &self.tool_type, convo, coords, sampling);
        let ex = post_json(&self.client, &self.cfg, &url, self.headers()?, &body, None)?;
        let content = ex
            .body
            .get("content")
            .and_then(Value::as_array)
            .ok_or_else(|| ProviderError::BadResponse {
                provider: self.cfg.display_name(),
                reason: "no `content` array".into(),
                body: excerpt(&ex.body.to_string(), 300),
            })?;
        let (text, call_ids, actions) = read_reply(
            content,
            &ArgCtx {
                coords: *coords,
                cursor,
            },
        );
        Ok(Reply {
            text,
            actions,
            call_ids,
            raw: Value::Array(content.clone()),
            usage: usage_of(
                &self.cfg,
                ex.body.get("usage"),
                ex.attempts,
                "input_tokens",
                "output_tokens",
            ),
        })
    }
}

/// One assistant turn as this API would send it (for exports; the inverse of [`read_reply`]):
/// the thought as a text block, then one `tool_use` block per action in the computer tool's
/// schema, ids `{id_prefix}_{n}`. `terminate` (success) is a turn without a tool call, as the
/// API ends an episode; an action the tool has no form for is an error naming it.
pub fn render_content(
    thought: &str,
    actions: &[ComputerAction],
    coords: &Coords,
    id_prefix: &str,
) -> Result<Value, RenderError> {
    let mut blocks = Vec::new();
    if !thought.is_empty() {
        blocks.push(json!({"type": "text", "text": thought}));
    }
    for (i, a) in actions.iter().enumerate() {
        let input = match tool_input(a, coords)? {
            Some(input) => input,
            None if i + 1 == actions.len() => break,
            None => return Err(RenderError::TerminateNotLast { turn: "turn" }),
        };
        blocks.push(
            json!({"type": "tool_use", "id": format!("{id_prefix}_{}", i + 1),
            "name": TOOL, "input": input}),
        );
    }
    Ok(Value::Array(blocks))
}

/// The computer tool's `input` for one action; `None` for a successful `terminate`.
fn tool_input(a: &ComputerAction, coords: &Coords) -> Result<Option<Value>, RenderError> {
    use ComputerAction as A;
    let c = |x: i32, y: i32| {
        let (mx, my) = coords.to_model(x, y);
        json!([super::args::num(mx), super::args::num(my)])
    };
    let scroll = |x: i32, y: i32, amount: i32, neg: &str, pos: &str| {
        json!({"action": "scroll", "coordinate": c(x, y),
            "scroll_direction": if amount < 0 { neg } else { pos }, "scroll_amount": amount.abs()})
    };
    Ok(Some(match a {
        A::Key { key } => json!({"action": "key", "text": key}),
        A::KeyDown { key } => json!({"action": "key_down", "text": key}),
        A::KeyUp { key } => json!({"action": "key_up", "text": key}),
        A::Scroll { x, y, amount } => scroll(*x, *y, *amount, "up", "down"),
        A::Hscroll { x, y, amount } => scroll(*x, *y, *amount, "left", "right"),
        A::Wait { seconds } => json!({"action": "wait", "duration": seconds}),
        A::Terminate { success: true } => return Ok(None),
        A::Terminate { success: false } | A::CallUser { .. } => {
            return Err(RenderError::NoForm {
                tool: TOOL,
                action: super::args::to_args(a, coords)["action"].to_string(),
            })
        }
        other => super::args::to_args(other, coords),
    }))
}
