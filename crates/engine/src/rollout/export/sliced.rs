//! The paper's trajectory slices (C.1.2). Slice k of a trajectory of n turn-pairs has
//! `collapsed_length` = k·interval: its prompt is the system message and the first
//! `collapsed_length` turn-pairs with their screenshots replaced by `"<image collapsed>"`; its
//! response is the next `interval` turn-pairs (up to the end) in full. Slices thus partition the
//! trajectory's turns, so every reply is trained on exactly once. `loss_mask` is false on the
//! prompt and on every user message, true on each assistant message of the response except one
//! with more than 10 tool calls. Every slice carries the episode's reward. A slice whose tokens
//! exceed the context budget becomes a dummy (no messages, `loss_mask` all false) so the batch
//! keeps its shape.

use serde_json::{json, Value};

use super::chat::{pairs, system_message, trainable, user_message, Images, Part};
use super::errors::TokenError;
use super::load::Trajectory;
use super::tokens::TokenCounter;
use super::ExportError;

/// How to slice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SliceOptions {
    /// Turn-pairs per slice (`traj_slice_interval`, 10).
    pub interval: usize,
    /// Tokens a slice may hold (the paper's context cap, 144K).
    pub budget: usize,
}

impl Default for SliceOptions {
    fn default() -> Self {
        SliceOptions {
            interval: 10,
            budget: 144_000,
        }
    }
}

/// A message of a slice: the message, its loss mask, the sizes of its images.
type Rendered = (Value, bool, Vec<(u32, u32)>);

/// Tokens of one message as rendered (text parts, and images unless collapsed).
fn tokens_of(m: &Value, counter: &TokenCounter, sizes: &[(u32, u32)]) -> Result<usize, TokenError> {
    let mut n = counter.text(m["role"].as_str().unwrap_or_default())?;
    match &m["content"] {
        Value::String(s) => n += counter.text(s)?,
        Value::Array(parts) => {
            let mut img = 0;
            for p in parts {
                if p["type"] == "image_url" {
                    let (w, h) = sizes.get(img).copied().unwrap_or((1280, 800));
                    n += counter.image(w, h);
                    img += 1;
                } else if let Some(t) = p["text"].as_str() {
                    n += counter.text(t)?;
                } else {
                    // A tool call's block or item: its JSON is what the model writes.
                    n += counter.text(&p.to_string())?;
                }
            }
        }
        _ => {}
    }
    Ok(n)
}

/// The slices of one trajectory, in order.
pub fn slices(
    t: &Trajectory,
    opts: &SliceOptions,
    counter: &TokenCounter,
    images: &mut Images,
) -> Result<Vec<Value>, ExportError> {
    let all = pairs(t);
    let interval = opts.interval.max(1);
    let mut out = Vec::new();
    let mut start = 0;
    while start < all.len() {
        let end = (start + interval).min(all.len());
        let mut msgs: Vec<Rendered> = Vec::new();
        if let Some(s) = system_message(t) {
            msgs.push((s, false, Vec::new()));
        }
        for (i, p) in all[..end].iter().enumerate() {
            let collapsed = i < start;
            let sizes = if collapsed {
                Vec::new()
            } else {
                p.user
                    .iter()
                    .filter_map(|x| match x {
                        Part::Image(s) => Some((s.width, s.height)),
                        Part::Text(_) => None,
                    })
                    .collect()
            };
            msgs.push((user_message(&p.user, collapsed, images)?, false, sizes));
            let assistant = json!({"role": "assistant", "content": p.assistant});
            msgs.push((assistant, !collapsed && trainable(p), Vec::new()));
        }
        let mut tokens = 0;
        for (m, _, sizes) in &msgs {
            tokens += tokens_of(m, counter, sizes)?;
        }
        let mut slice = json!({"task_id": t.task_id, "rollout_id": t.rollout_id,
            "trial": t.trial, "model": t.model, "slice": out.len(), "collapsed_length": start,
            "response_turns": end - start, "reward": t.reward, "tokens": tokens});
        if tokens > opts.budget {
            slice["dummy"] = json!(true);
            slice["messages"] = json!([]);
            slice["loss_mask"] = json!([]);
        } else {
            slice["dummy"] = json!(false);
            slice["loss_mask"] = msgs.iter().map(|(_, l, _)| json!(l)).collect();
            slice["messages"] = msgs
                .into_iter()
                .map(|(mut m, l, _)| {
                    m["loss_mask"] = json!(l);
                    m
                })
                .collect();
        }
        out.push(slice);
        start = end;
    }
    Ok(out)
}
