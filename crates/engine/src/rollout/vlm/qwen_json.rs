//! `qwen-json`: Qwen2.5-VL / Qwen3-VL's Hermes-style tool calls, one JSON object per
//! `<tool_call>` block (several blocks run in order):
//!
//! ```text
//! <tool_call>
//! {"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [500, 300]}}
//! </tool_call>
//! ```

use serde_json::{json, Map, Value};

use super::args::to_args;
use super::coords::Coords;
use super::error::{bad_reply, ReplyError};
use super::{tool_call_blocks, TOOL_NAME};
use crate::rollout::screen::ComputerAction;

/// The argument objects of every `<tool_call>` in the reply, in order.
pub fn calls(reply: &str) -> Result<Vec<Map<String, Value>>, ReplyError> {
    let mut out = Vec::new();
    for (i, block) in tool_call_blocks(reply)?.into_iter().enumerate() {
        let v: Value = serde_json::from_str(block.trim()).map_err(|e| {
            bad_reply!(
                "<tool_call> block {} is not valid JSON ({e}); write {{\"name\": \"{TOOL_NAME}\", \"arguments\": {{...}}}}",
                i + 1
            )
        })?;
        let name = v.get("name").and_then(Value::as_str).unwrap_or_default();
        if name != TOOL_NAME {
            return Err(bad_reply!(
                "<tool_call> block {} calls \"{name}\"; the only function is {TOOL_NAME}",
                i + 1
            ));
        }
        let args = match v.get("arguments") {
            Some(Value::Object(m)) => m.clone(),
            // Some servers double-encode the arguments as a JSON string.
            Some(Value::String(s)) => match serde_json::from_str(s) {
                Ok(Value::Object(m)) => m,
                _ => {
                    return Err(bad_reply!(
                        "<tool_call> block {}: `arguments` is not a JSON object",
                        i + 1
                    ))
                }
            },
            _ => {
                return Err(bad_reply!(
                    "<tool_call> block {} has no `arguments` object",
                    i + 1
                ))
            }
        };
        out.push(args);
    }
    Ok(out)
}

/// One turn in this format: the thought, then one `<tool_call>` block per action.
pub fn render(thought: &str, actions: &[ComputerAction], coords: &Coords) -> String {
    let mut out = thought.to_string();
    for a in actions {
        if !out.is_empty() {
            out.push('\n');
        }
        let call = json!({"name": TOOL_NAME, "arguments": to_args(a, coords)});
        out.push_str(&format!("<tool_call>\n{call}\n</tool_call>"));
    }
    out
}
