//! `qwen-xml`: the paper's format (C.1.1, Qwen3-Coder style XML tool calls). One turn holds a
//! `<tool_call>` block with up to ten `<function=computer_use>` blocks, run in order without a
//! screenshot in between:
//!
//! ```text
//! <tool_call>
//! <function=computer_use>
//! <parameter=action>
//! left_click
//! </parameter>
//! <parameter=coordinate>
//! [500, 300]
//! </parameter>
//! </function>
//! </tool_call>
//! ```

use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value};

use super::args::to_args;
use super::coords::Coords;
use super::error::{bad_reply, ReplyError};
use super::{regex, tool_call_blocks, TOOL_NAME};
use crate::rollout::screen::ComputerAction;

static FUNCTION: OnceLock<Option<Regex>> = OnceLock::new();
static PARAMETER: OnceLock<Option<Regex>> = OnceLock::new();

/// Parameters whose value is text, never JSON.
const TEXT_PARAMS: &[&str] = &["action", "text", "question", "status"];

/// The argument objects of every `<function>` in the reply, in order.
pub fn calls(reply: &str) -> Result<Vec<Map<String, Value>>, ReplyError> {
    let function = regex(
        &FUNCTION,
        r"(?s)<function=([^>\s]*)\s*>(.*?)(?:</function>|\z)",
    )?;
    let parameter = regex(
        &PARAMETER,
        r"(?s)<parameter=([^>\s]*)\s*>(.*?)(?:</parameter>|\z)",
    )?;
    let mut out = Vec::new();
    for block in tool_call_blocks(reply)? {
        let mut found = false;
        for f in function.captures_iter(block) {
            found = true;
            let name = &f[1];
            if name != TOOL_NAME {
                return Err(bad_reply!(
                    "function \"{name}\" does not exist; the only function is {TOOL_NAME}"
                ));
            }
            let mut args = Map::new();
            for p in parameter.captures_iter(&f[2]) {
                let key = p[1].to_string();
                let raw = p[2].strip_prefix('\n').unwrap_or(&p[2]);
                let raw = raw.strip_suffix('\n').unwrap_or(raw);
                let value = if TEXT_PARAMS.contains(&key.as_str()) {
                    Value::String(raw.to_string())
                } else {
                    serde_json::from_str(raw.trim())
                        .unwrap_or_else(|_| Value::String(raw.to_string()))
                };
                args.insert(key, value);
            }
            if args.is_empty() {
                return Err(bad_reply!(
                    "<function={TOOL_NAME}> has no <parameter=...> blocks (it needs at least <parameter=action>)"
                ));
            }
            out.push(args);
        }
        if !found {
            return Err(bad_reply!(
                "a <tool_call> block holds no <function={TOOL_NAME}> block"
            ));
        }
    }
    Ok(out)
}

/// One turn in this format: the thought, then one `<tool_call>` with every action.
pub fn render(thought: &str, actions: &[ComputerAction], coords: &Coords) -> String {
    let mut out = String::new();
    if !thought.is_empty() {
        out.push_str(thought);
        out.push('\n');
    }
    out.push_str("<tool_call>\n");
    for a in actions {
        out.push_str(&format!("<function={TOOL_NAME}>\n"));
        if let Value::Object(args) = to_args(a, coords) {
            for (k, v) in args {
                let v = match v {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                out.push_str(&format!("<parameter={k}>\n{v}\n</parameter>\n"));
            }
        }
        out.push_str("</function>\n");
    }
    out.push_str("</tool_call>");
    out
}
