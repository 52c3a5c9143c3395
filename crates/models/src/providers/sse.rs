//! Server-sent events (streaming responses) for both wire formats. Each stream is folded back into
//! the JSON body the non-streaming endpoint would have returned, so one response parser serves both
//! modes. A stream that ends before its terminal event is a dropped connection (retried); an
//! `error` event is a server-side failure (retried); an unreadable event is a protocol error (not).

use std::collections::BTreeMap;
use std::io::BufRead;

use serde_json::{json, Value};

/// Why a stream could not be folded into a response.
#[derive(Debug)]
pub enum StreamError {
    /// Read failure, timeout between chunks, or end of stream before the terminal event.
    Io(String),
    /// The server reported an error inside the stream.
    Remote(String),
    /// An event that is not the expected JSON.
    Protocol(String),
}

/// Calls `on_event(event_name, data)` for every event of the stream; stops when it returns `true`.
/// Returns whether a callback asked to stop (the terminal event was seen).
fn for_each_event(
    reader: &mut dyn BufRead,
    on_event: &mut dyn FnMut(&str, &str) -> Result<bool, StreamError>,
) -> Result<bool, StreamError> {
    let mut event = String::new();
    let mut data: Vec<String> = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        let n = reader
            .read_line(&mut line)
            .map_err(|e| StreamError::Io(format!("stream read failed: {e}")))?;
        // End of stream: an event not yet closed by a blank line is incomplete and dropped (SSE
        // rules), so a connection cut mid-event reads as truncation, not as a bad event.
        if n == 0 || !line.ends_with('\n') {
            return Ok(false);
        }
        let text = line.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if !data.is_empty() {
                let name = if event.is_empty() { "message" } else { &event };
                if on_event(name, &data.join("\n"))? {
                    return Ok(true);
                }
            }
            event.clear();
            data.clear();
            continue;
        }
        if text.starts_with(':') {
            continue;
        }
        let (field, value) = text.split_once(':').unwrap_or((text, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => event = value.to_string(),
            "data" => data.push(value.to_string()),
            _ => {}
        }
    }
}

fn parse(data: &str) -> Result<Value, StreamError> {
    serde_json::from_str(data).map_err(|e| {
        StreamError::Protocol(format!(
            "event data is not JSON ({e}): {}",
            super::excerpt(data, 200)
        ))
    })
}

#[derive(Default)]
struct OpenAiCall {
    id: String,
    name: String,
    arguments: String,
}

/// Folds an OpenAI chat-completions stream into a `chat.completion` body.
pub fn fold_openai(reader: &mut dyn BufRead) -> Result<Value, StreamError> {
    let mut content = String::new();
    let mut calls: BTreeMap<u64, OpenAiCall> = BTreeMap::new();
    let mut finish: Option<String> = None;
    let mut usage = Value::Null;
    let done = for_each_event(reader, &mut |_, data| {
        if data.trim() == "[DONE]" {
            return Ok(true);
        }
        let chunk = parse(data)?;
        if let Some(err) = chunk.get("error") {
            return Err(StreamError::Remote(super::excerpt(&err.to_string(), 300)));
        }
        if let Some(u) = chunk.get("usage").filter(|u| !u.is_null()) {
            usage = u.clone();
        }
        let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else {
            return Ok(false);
        };
        if let Some(r) = choice.get("finish_reason").and_then(Value::as_str) {
            finish = Some(r.to_string());
        }
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        if let Some(t) = delta.get("content").and_then(Value::as_str) {
            content.push_str(t);
        }
        for (pos, tc) in delta
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let index = tc
                .get("index")
                .and_then(Value::as_u64)
                .unwrap_or(pos as u64);
            let call = calls.entry(index).or_default();
            if let Some(id) = tc.get("id").and_then(Value::as_str) {
                call.id = id.to_string();
            }
            let f = tc.get("function").unwrap_or(&Value::Null);
            if let Some(name) = f.get("name").and_then(Value::as_str) {
                call.name.push_str(name);
            }
            if let Some(args) = f.get("arguments").and_then(Value::as_str) {
                call.arguments.push_str(args);
            }
        }
        Ok(false)
    })?;
    // Some servers close the stream after the finish reason without `[DONE]`.
    if !done && finish.is_none() {
        return Err(StreamError::Io(
            "the stream ended before its finish reason (connection dropped?)".into(),
        ));
    }
    let mut message = json!({"role": "assistant", "content": content});
    if !calls.is_empty() {
        let list: Vec<Value> = calls
            .into_values()
            .map(|c| {
                json!({"id": c.id, "type": "function",
                            "function": {"name": c.name, "arguments": c.arguments}})
            })
            .collect();
        message["tool_calls"] = Value::Array(list);
    }
    Ok(json!({
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage,
    }))
}

/// Folds an Anthropic Messages stream into a `message` body.
pub fn fold_anthropic(reader: &mut dyn BufRead) -> Result<Value, StreamError> {
    let mut blocks: BTreeMap<u64, Value> = BTreeMap::new();
    let mut partial_json: BTreeMap<u64, String> = BTreeMap::new();
    let mut usage = json!({});
    let mut stop_reason = Value::Null;
    let done = for_each_event(reader, &mut |event, data| {
        let ev = parse(data)?;
        let kind = ev.get("type").and_then(Value::as_str).unwrap_or(event);
        let index = ev.get("index").and_then(Value::as_u64).unwrap_or(0);
        match kind {
            "message_start" => {
                if let Some(u) = ev.pointer("/message/usage").and_then(Value::as_object) {
                    for (k, v) in u {
                        usage[k] = v.clone();
                    }
                }
            }
            "content_block_start" => {
                let block = ev.get("content_block").cloned().unwrap_or(Value::Null);
                blocks.insert(index, block);
            }
            "content_block_delta" => {
                let delta = ev.get("delta").unwrap_or(&Value::Null);
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        let t = delta.get("text").and_then(Value::as_str).unwrap_or("");
                        let block = blocks
                            .entry(index)
                            .or_insert_with(|| json!({"type": "text", "text": ""}));
                        let prev = block["text"].as_str().unwrap_or("").to_string();
                        block["text"] = Value::String(prev + t);
                    }
                    Some("input_json_delta") => {
                        let p = delta
                            .get("partial_json")
                            .and_then(Value::as_str)
                            .unwrap_or("");
                        partial_json.entry(index).or_default().push_str(p);
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(r) = ev.pointer("/delta/stop_reason").filter(|r| !r.is_null()) {
                    stop_reason = r.clone();
                }
                if let Some(u) = ev.get("usage").and_then(Value::as_object) {
                    for (k, v) in u {
                        usage[k] = v.clone();
                    }
                }
            }
            "message_stop" => return Ok(true),
            "error" => {
                let err = ev.get("error").unwrap_or(&ev);
                return Err(StreamError::Remote(super::excerpt(&err.to_string(), 300)));
            }
            _ => {} // ping, content_block_stop, future events
        }
        Ok(false)
    })?;
    if !done {
        return Err(StreamError::Io(
            "the stream ended before message_stop (connection dropped?)".into(),
        ));
    }
    for (index, raw) in partial_json {
        if let Some(block) = blocks.get_mut(&index) {
            // Unparseable input (a reply cut by max_tokens) stays a string: the tool layer tells
            // the model its arguments were not a JSON object.
            block["input"] = if raw.trim().is_empty() {
                json!({})
            } else {
                serde_json::from_str(&raw).unwrap_or(Value::String(raw))
            };
        }
    }
    Ok(json!({
        "type": "message",
        "content": blocks.into_values().collect::<Vec<_>>(),
        "stop_reason": stop_reason,
        "usage": usage,
    }))
}
