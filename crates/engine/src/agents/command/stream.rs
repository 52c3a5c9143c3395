//! What the engine reads from a CLI's stdout: token usage from stream-json / JSONL events, and
//! the texts that may hold fenced-block files (a fallback when the CLI did not write them).
//!
//! Claude Code ends with a `{"type":"result", "usage":{…}, "total_cost_usd":…, "result":"…"}`
//! event (cumulative); Codex prints `{"type":"turn.completed","usage":{…}}` per turn and
//! `item.completed` events whose `item` is an `agent_message` with `text`; Kimi prints
//! `{"role":"assistant","content":"…"}` messages. Other CLIs: any event
//! with a `usage` object is summed when there is no `result` event. No usage at all = zero.

use serde_json::Value;

use crate::agents::Usage;

fn events(stdout: &str) -> impl Iterator<Item = Value> + '_ {
    stdout
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('{'))
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
}

fn num(v: &Value, keys: &[&str]) -> u64 {
    keys.iter().filter_map(|k| v.get(*k)?.as_u64()).sum()
}

fn usage_of(u: &Value) -> (u64, u64) {
    let input = num(
        u,
        &[
            "input_tokens",
            "prompt_tokens",
            "cache_creation_input_tokens",
            "cache_read_input_tokens",
        ],
    );
    let output = num(u, &["output_tokens", "completion_tokens"]);
    (input, output)
}

/// Token usage and cost printed by the CLI (zero when it prints none). `calls` is left at 0.
pub fn usage(stdout: &str) -> Usage {
    let mut from_result: Option<Usage> = None;
    let mut summed = Usage::default();
    for ev in events(stdout) {
        let kind = ev.get("type").and_then(Value::as_str).unwrap_or("");
        if kind == "result" {
            let (i, o) = ev.get("usage").map(usage_of).unwrap_or((0, 0));
            let cost = ev
                .get("total_cost_usd")
                .or_else(|| ev.get("cost_usd"))
                .and_then(Value::as_f64)
                .unwrap_or(0.0);
            from_result = Some(Usage {
                input_tokens: i,
                output_tokens: o,
                cost_usd: cost,
                ..Usage::default()
            });
        } else if let Some(u) = ev.get("usage").filter(|u| u.is_object()) {
            let (i, o) = usage_of(u);
            summed.input_tokens += i;
            summed.output_tokens += o;
        }
    }
    from_result.unwrap_or(summed)
}

/// Texts of the CLI's final answer(s) found in its event stream, last first: `result` strings and
/// agent-message texts. A stdout that is not an event stream is returned whole.
pub fn answer_texts(stdout: &str) -> Vec<String> {
    let mut texts = Vec::new();
    let mut any_event = false;
    for ev in events(stdout) {
        any_event = true;
        let kind = ev.get("type").and_then(Value::as_str).unwrap_or("");
        if kind == "result" {
            if let Some(t) = ev.get("result").and_then(Value::as_str) {
                texts.push(t.to_string());
            }
        }
        if let Some(item) = ev.get("item") {
            if item.get("type").and_then(Value::as_str) == Some("agent_message") {
                if let Some(t) = item.get("text").and_then(Value::as_str) {
                    texts.push(t.to_string());
                }
            }
        }
        // Kimi: `{"role":"assistant","content":"…"}` messages (tool-call turns carry `tool_calls`).
        if ev.get("role").and_then(Value::as_str) == Some("assistant")
            && ev.get("tool_calls").is_none()
        {
            if let Some(t) = ev.get("content").and_then(Value::as_str) {
                texts.push(t.to_string());
            }
        }
        if kind == "assistant" {
            let content = ev.pointer("/message/content").and_then(Value::as_array);
            for part in content.into_iter().flatten() {
                if let Some(t) = part.get("text").and_then(Value::as_str) {
                    texts.push(t.to_string());
                }
            }
        }
    }
    if !any_event {
        texts.push(stdout.to_string());
    }
    texts.reverse();
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_result_event_wins_over_per_message_usage() {
        let out = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":5,"output_tokens":1}}}
{"type":"result","subtype":"success","result":"done","usage":{"input_tokens":100,"cache_read_input_tokens":20,"output_tokens":30},"total_cost_usd":0.0123}
"#;
        let u = usage(out);
        assert_eq!((u.input_tokens, u.output_tokens), (120, 30));
        assert!((u.cost_usd - 0.0123).abs() < 1e-12);
        assert_eq!(
            answer_texts(out),
            vec!["done".to_string(), "hi".to_string()]
        );
    }

    #[test]
    fn codex_turns_are_summed_and_plain_text_is_one_answer() {
        let out = "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":10,\"output_tokens\":2}}\n\
                   {\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":7,\"output_tokens\":3}}\n";
        let u = usage(out);
        assert_eq!((u.input_tokens, u.output_tokens, u.cost_usd), (17, 5, 0.0));
        assert_eq!(answer_texts("plain\ntext"), vec!["plain\ntext".to_string()]);
        let kimi = "{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[]}\n\
                    {\"role\":\"tool\",\"content\":\"x\"}\n{\"role\":\"assistant\",\"content\":\"final\"}\n";
        assert_eq!(answer_texts(kimi), vec!["final".to_string()]);
        assert_eq!(usage("no json here"), Usage::default());
    }
}
