//! A trajectory as a chat in the OpenAI messages shape, shared by the `sft` and `sliced`
//! exports: the system prompt, the instruction with the first screenshot, then each turn-pair —
//! the model's verbatim reply (assistant) and what it saw next (user: the error text, the next
//! screenshot). Images are files of the export (`images/<sha256>.png`, referenced by relative
//! URL) or inline data URLs.

use std::collections::BTreeMap;
use std::path::PathBuf;

use base64::Engine as _;
use serde_json::{json, Value};

use super::load::{Shot, Trajectory};
use super::ExportError;
use crate::rollout::vlm::{HISTORY_PLACEHOLDER, MAX_ACTIONS_PER_TURN};

/// One part of a user message.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Text.
    Text(String),
    /// A screenshot.
    Image(Shot),
}

/// One turn-pair: the observation the model acted on, then its reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The user message.
    pub user: Vec<Part>,
    /// The assistant's reply, verbatim.
    pub reply: String,
    /// The assistant message's content: the reply as a string, or a tool API's blocks/items.
    pub assistant: Value,
    /// Tool calls in the reply (the malformed-output guard masks more than 10).
    pub calls: usize,
}

/// Tool calls in a reply: its parsed actions, or — for a reply the parser refused — its
/// `<function=` (qwen-xml) or `<tool_call>` (qwen-json) blocks.
pub fn tool_calls(reply: &str, actions: usize) -> usize {
    let xml = reply.matches("<function=").count();
    let json = reply.matches("<tool_call>").count();
    actions.max(if xml > 0 { xml } else { json })
}

/// The turn-pairs of a trajectory.
pub fn pairs(t: &Trajectory) -> Vec<Pair> {
    let mut user = vec![Part::Text(t.instruction.clone())];
    user.extend(t.first.clone().map(Part::Image));
    let mut out = Vec::with_capacity(t.turns.len());
    for turn in &t.turns {
        let next: Vec<Part> = (!turn.feedback.is_empty())
            .then(|| Part::Text(turn.feedback.clone()))
            .into_iter()
            .chain(turn.after.clone().map(Part::Image))
            .collect();
        out.push(Pair {
            user: std::mem::replace(&mut user, next),
            reply: turn.reply.clone(),
            assistant: turn
                .assistant
                .clone()
                .unwrap_or_else(|| Value::String(turn.reply.clone())),
            calls: tool_calls(&turn.reply, turn.actions.len()),
        });
    }
    out
}

/// Whether an assistant message is trained on (C.1.2's guard: at most 10 tool calls).
pub fn trainable(p: &Pair) -> bool {
    p.calls <= MAX_ACTIONS_PER_TURN
}

/// Where the images of an export go.
pub struct Images {
    inline: bool,
    /// Files to copy into the export: relative name → source.
    pub files: BTreeMap<String, PathBuf>,
}

impl Images {
    /// `inline` = data URLs in the JSON; otherwise files under `images/`.
    pub fn new(inline: bool) -> Images {
        Images {
            inline,
            files: BTreeMap::new(),
        }
    }

    /// The URL a message gives for `shot`.
    pub fn url(&mut self, shot: &Shot) -> Result<String, ExportError> {
        if self.inline {
            let png = std::fs::read(&shot.path).map_err(|e| ExportError::io(&shot.path, e))?;
            return Ok(format!(
                "data:image/png;base64,{}",
                base64::engine::general_purpose::STANDARD.encode(png)
            ));
        }
        let name = format!("images/{}.png", shot.sha256);
        self.files.insert(name.clone(), shot.path.clone());
        Ok(name)
    }
}

/// A user message; `collapse` replaces its images with the placeholder.
pub fn user_message(
    parts: &[Part],
    collapse: bool,
    images: &mut Images,
) -> Result<Value, ExportError> {
    let mut content = Vec::with_capacity(parts.len());
    for p in parts {
        content.push(match p {
            Part::Text(t) => json!({"type": "text", "text": t}),
            Part::Image(_) if collapse => json!({"type": "text", "text": HISTORY_PLACEHOLDER}),
            Part::Image(s) => json!({"type": "image_url", "image_url": {"url": images.url(s)?}}),
        });
    }
    Ok(json!({"role": "user", "content": content}))
}

/// The system message, when the trial recorded its prompt.
pub fn system_message(t: &Trajectory) -> Option<Value> {
    t.system
        .as_ref()
        .map(|s| json!({"role": "system", "content": s}))
}

/// The whole trajectory as messages.
pub fn messages(t: &Trajectory, images: &mut Images) -> Result<Vec<Value>, ExportError> {
    let mut out: Vec<Value> = system_message(t).into_iter().collect();
    for p in pairs(t) {
        out.push(user_message(&p.user, false, images)?);
        out.push(json!({"role": "assistant", "content": p.assistant}));
    }
    Ok(out)
}
