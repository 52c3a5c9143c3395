//! `openai-responses:MODEL[@BASE_URL]`: the Responses API with the `computer_use_preview` tool.
//! Output items of type `computer_call` carry one `action` (`click`, `double_click`, `drag`,
//! `keypress`, `move`, `screenshot`, `scroll`, `type`, `wait`) and a `call_id`; the next request
//! echoes the output items and answers each call with a `computer_call_output` holding a
//! `computer_screenshot` (pending safety checks are acknowledged: rollouts run in a sandbox).
//! The conversation is sent in full (`truncation: "auto"`), never by `previous_response_id`, so
//! the history limit applies. A response without a `computer_call` ends the episode.

use reqwest::blocking::Client;
use serde_json::{json, Map, Value};

use super::chat::{bearer, usage_of};
use super::coords::{CoordSpace, Coords};
use super::error::{bad_reply, CoordError, RenderError, ReplyError};
use super::turn_verdict;
use super::wire::{Conversation, Observation, Reply, Sampling, Wire, HISTORY_PLACEHOLDER};
use crate::rollout::screen::ComputerAction;
use tuplewright_models::providers::http::{build_client, post_json};
use tuplewright_models::providers::{excerpt, ProviderConfig, ProviderError};

/// A 1×1 grey PNG: what a collapsed `computer_call_output` carries (the API requires an image
/// there); the placeholder text follows it as a message.
const BLANK_PNG: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg==";

/// Pixels per wheel click when converting `scroll_y`.
pub const PIXELS_PER_CLICK: f64 = 100.0;

/// The Responses API's computer-use tool.
pub struct ResponsesWire {
    cfg: ProviderConfig,
    client: Client,
    space: CoordSpace,
}

impl ResponsesWire {
    /// The wire for an `openai` provider config.
    pub fn new(cfg: ProviderConfig, space: CoordSpace) -> Result<ResponsesWire, ProviderError> {
        cfg.validate()?;
        let client = build_client(&cfg)?;
        Ok(ResponsesWire { cfg, client, space })
    }
}

fn image_url(obs: &Observation) -> String {
    obs.image
        .as_ref()
        .map(|i| i.data_url())
        .unwrap_or_else(|| BLANK_PNG.to_string())
}

/// The pending safety checks of the call `id` in a previous output.
fn pending(raw: &Value, id: &str) -> Value {
    raw.as_array()
        .into_iter()
        .flatten()
        .find(|i| i["type"] == "computer_call" && i["call_id"] == id)
        .and_then(|i| i.get("pending_safety_checks").cloned())
        .unwrap_or_else(|| json!([]))
}

/// The request body (public to the crate for wire tests).
pub(crate) fn request_body(
    cfg: &ProviderConfig,
    convo: &Conversation,
    coords: &Coords,
    s: &Sampling,
) -> Value {
    let mut input = Vec::new();
    let mut prev: Option<&Reply> = None;
    for (i, (obs, reply)) in convo.turns.iter().enumerate() {
        if i == 0 {
            input.push(json!({"role": "user", "content": [
                {"type": "input_text", "text": convo.instruction},
                {"type": "input_image", "image_url": image_url(obs)}]}));
        } else if let Some(p) = prev {
            for id in &p.call_ids {
                input.push(json!({"type": "computer_call_output", "call_id": id,
                    "acknowledged_safety_checks": pending(&p.raw, id),
                    "output": {"type": "computer_screenshot", "image_url": image_url(obs)}}));
            }
            let mut text = obs.text.clone();
            if obs.collapsed {
                text = format!("{HISTORY_PLACEHOLDER}\n{text}").trim().to_string();
            }
            if p.call_ids.is_empty() && obs.image.is_some() {
                input.push(json!({"role": "user", "content": [
                    {"type": "input_text", "text": text},
                    {"type": "input_image", "image_url": image_url(obs)}]}));
            } else if !text.is_empty() {
                input.push(
                    json!({"role": "user", "content": [{"type": "input_text", "text": text}]}),
                );
            }
        }
        if let Some(r) = reply {
            input.extend(r.raw.as_array().cloned().unwrap_or_default());
            prev = Some(r);
        }
    }
    let mut body = json!({
        "model": cfg.model,
        "tools": [{"type": "computer_use_preview", "display_width": coords.image.0,
                   "display_height": coords.image.1, "environment": "browser"}],
        "input": input,
        "truncation": "auto",
        "max_output_tokens": s.max_new_tokens,
        "temperature": s.temperature,
    });
    if s.top_p < 1.0 {
        body["top_p"] = json!(s.top_p);
    }
    body
}

/// One `action` object → one action in screen pixels.
pub(crate) fn to_action(
    a: &Map<String, Value>,
    coords: &Coords,
) -> Result<ComputerAction, ReplyError> {
    use ComputerAction as A;
    let kind = a.get("type").and_then(Value::as_str).unwrap_or_default();
    let at = || -> Result<(i32, i32), ReplyError> {
        match (
            a.get("x").and_then(Value::as_f64),
            a.get("y").and_then(Value::as_f64),
        ) {
            (Some(x), Some(y)) => coords.to_screen(x, y).map_err(ReplyError::coords(kind)),
            _ => Err(bad_reply!("{kind} needs numeric x and y")),
        }
    };
    Ok(match kind {
        "click" => {
            let (x, y) = at()?;
            match a.get("button").and_then(Value::as_str).unwrap_or("left") {
                "left" => A::LeftClick { x, y },
                "right" => A::RightClick { x, y },
                "wheel" | "middle" => A::MiddleClick { x, y },
                "back" => A::Key {
                    key: "alt+Left".into(),
                },
                "forward" => A::Key {
                    key: "alt+Right".into(),
                },
                other => return Err(bad_reply!("click: unknown button \"{other}\"")),
            }
        }
        "double_click" => {
            let (x, y) = at()?;
            A::DoubleClick { x, y }
        }
        "move" => {
            let (x, y) = at()?;
            A::MouseMove { x, y }
        }
        "drag" => {
            let path = a
                .get("path")
                .and_then(Value::as_array)
                .filter(|p| p.len() >= 2)
                .ok_or("drag needs a path of at least two points")?;
            let pt = |v: &Value| match (
                v.get("x").and_then(Value::as_f64),
                v.get("y").and_then(Value::as_f64),
            ) {
                (Some(x), Some(y)) => coords.to_screen(x, y).map_err(ReplyError::coords("drag")),
                _ => Err(ReplyError::from("drag: every path point needs x and y")),
            };
            let (x, y) = pt(&path[0])?;
            let (to_x, to_y) = pt(&path[path.len() - 1])?;
            A::LeftClickDrag { x, y, to_x, to_y }
        }
        "keypress" => {
            let keys: Vec<&str> = a
                .get("keys")
                .and_then(Value::as_array)
                .map(|k| k.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if keys.is_empty() {
                return Err("keypress needs keys".into());
            }
            A::Key {
                key: keys.join("+"),
            }
        }
        "type" => A::Type {
            text: a
                .get("text")
                .and_then(Value::as_str)
                .ok_or("type needs text")?
                .to_string(),
        },
        "scroll" => {
            let (x, y) = at()?;
            let clicks = |v: f64| {
                let c = (v / PIXELS_PER_CLICK).round() as i32;
                if c == 0 {
                    v.signum() as i32
                } else {
                    c
                }
            };
            let sy = a.get("scroll_y").and_then(Value::as_f64).unwrap_or(0.0);
            let sx = a.get("scroll_x").and_then(Value::as_f64).unwrap_or(0.0);
            if sy != 0.0 {
                A::Scroll {
                    x,
                    y,
                    amount: clicks(sy),
                }
            } else if sx != 0.0 {
                A::Hscroll {
                    x,
                    y,
                    amount: clicks(sx),
                }
            } else {
                return Err("scroll needs a non-zero scroll_y or scroll_x".into());
            }
        }
        "screenshot" => A::Screenshot,
        "wait" => A::Wait { seconds: 2.0 },
        other => return Err(bad_reply!("unknown action type \"{other}\"")),
    })
}

/// Text, call ids and actions of a Responses API `output`.
pub(crate) fn read_output(
    output: &[Value],
    coords: &Coords,
) -> (String, Vec<String>, Result<Vec<ComputerAction>, ReplyError>) {
    let (mut text, mut ids, mut actions, mut error) = (Vec::new(), Vec::new(), Vec::new(), None);
    for item in output {
        match item.get("type").and_then(Value::as_str) {
            Some("message") => {
                for c in item["content"].as_array().into_iter().flatten() {
                    if let Some(t) = c.get("text").and_then(Value::as_str) {
                        text.push(t.to_string());
                    }
                }
            }
            Some("computer_call") => {
                ids.push(item["call_id"].as_str().unwrap_or_default().to_string());
                let parsed = match item.get("action") {
                    Some(Value::Object(a)) => to_action(a, coords),
                    _ => Err(ReplyError::from("computer_call without an action object")),
                };
                match parsed {
                    Ok(a) => actions.push(a),
                    Err(e) if error.is_none() => {
                        error = Some(e.in_call("computer_call", ids.len(), None))
                    }
                    Err(_) => {}
                }
            }
            _ => {}
        }
    }
    let actions = turn_verdict(error, ids.len(), "computer calls in one response", actions);
    (text.join("\n"), ids, actions)
}

impl Wire for ResponsesWire {
    fn name(&self) -> String {
        format!("openai-responses:{}", self.cfg.model)
    }

    fn coords(&self, width: u32, height: u32) -> Result<Coords, CoordError> {
        Coords::new(self.space, width, height)
    }

    fn send(
        &self,
        convo: &Conversation,
        coords: &Coords,
        sampling: &Sampling,
        _cursor: Option<(i32, i32)>,
    ) -> Result<Reply, ProviderError> {
        let url = format!("{}/responses", self.cfg.base_url_or_default());
        let body = request_body(&self.cfg, convo, coords, sampling);
        let ex = post_json(
            &self.client,
            &self.cfg,
            &url,
            bearer(&self.cfg)?,
            &body,
            None,
        )?;
        let output = ex
            .body
            .get("output")
            .and_then(Value::as_array)
            .ok_or_else(|| ProviderError::BadResponse {
                provider: self.name(),
                reason: "no `output` array".into(),
                body: excerpt(&ex.body.to_string(), 300),
            })?;
        let (text, call_ids, actions) = read_output(output, coords);
        Ok(Reply {
            text,
            actions,
            call_ids,
            raw: Value::Array(output.clone()),
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

/// One response as this API would send it (for exports; the inverse of [`read_output`]): the
/// thought as a `message` item, then one `computer_call` per action (ids `{id_prefix}_{n}`).
/// `terminate` (success) is a response without a call, as the API ends an episode; an action
/// the tool has no form for (triple clicks, held keys or buttons, a wait other than the tool's
/// 2 s, a scroll that is not whole wheel clicks) is an error naming it.
pub fn render_output(
    thought: &str,
    actions: &[ComputerAction],
    coords: &Coords,
    id_prefix: &str,
) -> Result<Value, RenderError> {
    let mut items = Vec::new();
    if !thought.is_empty() {
        items.push(json!({"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": thought}]}));
    }
    for (i, a) in actions.iter().enumerate() {
        let action = match call_action(a, coords)? {
            Some(action) => action,
            None if i + 1 == actions.len() => break,
            None => return Err(RenderError::TerminateNotLast { turn: "response" }),
        };
        items.push(
            json!({"type": "computer_call", "call_id": format!("{id_prefix}_{}", i + 1),
            "action": action, "pending_safety_checks": [], "status": "completed"}),
        );
    }
    Ok(Value::Array(items))
}

/// The `action` object of one computer call; `None` for a successful `terminate`.
fn call_action(a: &ComputerAction, coords: &Coords) -> Result<Option<Value>, RenderError> {
    use ComputerAction as A;
    let p = |x: i32, y: i32| {
        let (mx, my) = coords.to_model(x, y);
        (super::args::num(mx), super::args::num(my))
    };
    let at = |kind: &str, x: i32, y: i32| {
        let (mx, my) = p(x, y);
        json!({"type": kind, "x": mx, "y": my})
    };
    let px = |clicks: i32| f64::from(clicks) * PIXELS_PER_CLICK;
    Ok(Some(match a {
        A::LeftClick { x, y } => at("click", *x, *y),
        A::RightClick { x, y } => {
            let mut v = at("click", *x, *y);
            v["button"] = json!("right");
            v
        }
        A::MiddleClick { x, y } => {
            let mut v = at("click", *x, *y);
            v["button"] = json!("wheel");
            v
        }
        A::DoubleClick { x, y } => at("double_click", *x, *y),
        A::MouseMove { x, y } => at("move", *x, *y),
        A::LeftClickDrag { x, y, to_x, to_y } => {
            let ((ax, ay), (bx, by)) = (p(*x, *y), p(*to_x, *to_y));
            json!({"type": "drag", "path": [{"x": ax, "y": ay}, {"x": bx, "y": by}]})
        }
        A::Key { key } => json!({"type": "keypress", "keys": key.split('+').collect::<Vec<_>>()}),
        A::Type { text } => json!({"type": "type", "text": text}),
        A::Scroll { x, y, amount } if *amount != 0 => {
            let mut v = at("scroll", *x, *y);
            v["scroll_x"] = json!(0);
            v["scroll_y"] = json!(px(*amount));
            v
        }
        A::Hscroll { x, y, amount } if *amount != 0 => {
            let mut v = at("scroll", *x, *y);
            v["scroll_x"] = json!(px(*amount));
            v["scroll_y"] = json!(0);
            v
        }
        A::Screenshot => json!({"type": "screenshot"}),
        A::Wait { seconds } if (*seconds - 2.0).abs() < 1e-9 => json!({"type": "wait"}),
        A::Terminate { success: true } => return Ok(None),
        other => {
            return Err(RenderError::NoForm {
                tool: "computer_use_preview",
                action: serde_json::to_value(other).unwrap_or_default().to_string(),
            })
        }
    }))
}
