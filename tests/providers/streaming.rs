//! Streaming (server-sent events) for both wire formats against stand-ins: folding text, tool-call
//! fragments and usage; a stream dropped mid-way or stalled is retried; a steady slow stream
//! outlives the request timeout; error events and unreadable events.

use std::time::Duration;

use serde_json::{json, Value};
use tuplewright::engine::agents::{Generator, GeneratorInput};
use tuplewright::engine::providers::{
    build_provider, ChatRequest, Message, ProviderConfig, ProviderError, ProviderKind,
};

use crate::providers::standin::{http_head, raw_server, sse, sse_reply, Reply, StandIn};
use crate::providers::{agent_config, brief, config};

fn streaming(kind: ProviderKind, base: &str) -> ProviderConfig {
    ProviderConfig {
        stream: true,
        ..config(kind, base, "")
    }
}

fn hello() -> ChatRequest {
    ChatRequest {
        system: "s".into(),
        messages: vec![Message::User("u".into())],
        tools: vec![],
    }
}

fn oai_delta(delta: Value, finish: Value) -> (&'static str, Value) {
    (
        "",
        json!({"object": "chat.completion.chunk",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}),
    )
}

fn oai_text_stream(pieces: &[&str], input: u64, output: u64) -> String {
    let mut events = vec![oai_delta(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    for p in pieces {
        events.push(oai_delta(json!({"content": p}), Value::Null));
    }
    events.push(oai_delta(json!({}), json!("stop")));
    events.push((
        "",
        json!({"choices": [], "usage": {"prompt_tokens": input, "completion_tokens": output}}),
    ));
    let mut body = sse(&events);
    body.push_str("data: [DONE]\n\n");
    body
}

#[test]
fn openai_standin_stream_folds_text_and_usage() {
    let body = oai_text_stream(&["Hel", "lo, ", "world"], 40, 7);
    let server = StandIn::start(vec![sse_reply(body)], None);
    let resp = build_provider(&streaming(ProviderKind::Openai, &server.base))
        .expect("provider")
        .chat(&hello())
        .expect("reply");
    assert_eq!(resp.text, "Hello, world");
    assert_eq!(resp.stop_reason, "stop");
    assert_eq!((resp.usage.input_tokens, resp.usage.output_tokens), (40, 7));
    assert!((resp.usage.cost_usd - (40.0 * 2.0 + 7.0 * 8.0) / 1e6).abs() < 1e-12);
    let req = &server.requests()[0].body;
    assert_eq!(req["stream"], true);
    assert_eq!(req["stream_options"]["include_usage"], true);
}

#[test]
fn openai_standin_stream_tool_call_fragments_drive_the_generator() {
    let args1 = json!({"path": "initial_setup.py", "content": "print('setup')\n"}).to_string();
    let args2 = json!({"path": "golden_patch.py", "content": "print('patch')\n"}).to_string();
    let (a, b) = args1.split_at(10);
    let call = |index: u64, id: Option<&str>, name: Option<&str>, args: &str| {
        let mut f = json!({"arguments": args});
        if let Some(n) = name {
            f["name"] = json!(n);
        }
        let mut tc = json!({"index": index, "function": f});
        if let Some(id) = id {
            tc["id"] = json!(id);
            tc["type"] = json!("function");
        }
        oai_delta(json!({"tool_calls": [tc]}), Value::Null)
    };
    let mut first = sse(&[
        call(0, Some("c1"), Some("write_file"), ""),
        call(0, None, None, a),
        call(0, None, None, b),
        call(1, Some("c2"), Some("write_file"), &args2),
        oai_delta(json!({}), json!("tool_calls")),
    ]);
    first.push_str("data: [DONE]\n\n");
    let server = StandIn::start(
        vec![
            sse_reply(first),
            sse_reply(oai_text_stream(&["done"], 5, 1)),
        ],
        None,
    );
    let provider = build_provider(&streaming(ProviderKind::Openai, &server.base)).expect("p");
    let generator =
        tuplewright::engine::agents::llm::LlmGenerator::new(provider, agent_config()).expect("p");
    let brief = brief();
    let out = generator
        .generate(&GeneratorInput {
            brief: &brief,
            round: 1,
            previous_review: None,
        })
        .expect("files");
    assert_eq!(out.initial_setup, "print('setup')\n");
    assert_eq!(out.golden_patch, "print('patch')\n");
    let replay = &server.requests()[1].body["messages"][2];
    assert_eq!(replay["tool_calls"][0]["function"]["arguments"], args1);
}

#[test]
fn openai_standin_stream_dropped_mid_way_is_retried() {
    let full = oai_text_stream(&["complete"], 3, 3);
    let cut = full[..full.find("complete").expect("piece")].to_string();
    let (base, accepted) = raw_server(vec![
        vec![(Duration::ZERO, http_head("text/event-stream") + &cut)],
        vec![(Duration::ZERO, http_head("text/event-stream") + &full)],
    ]);
    let resp = build_provider(&streaming(ProviderKind::Openai, &base))
        .expect("provider")
        .chat(&hello())
        .expect("reply");
    assert_eq!(resp.text, "complete");
    assert_eq!(resp.usage.calls, 2);
    assert_eq!(*accepted.lock().expect("lock"), 2);
}

#[test]
fn openai_standin_stream_paces_past_the_timeout_but_a_stall_is_retried() {
    // Steady stream: 6 chunks 400 ms apart (2.4 s in all) with a 1.5 s per-read timeout succeeds.
    let body = oai_text_stream(&["a", "b", "c", "d"], 1, 4);
    let events: Vec<String> = body.split_inclusive("\n\n").map(str::to_string).collect();
    let mut steady = vec![(Duration::ZERO, http_head("text/event-stream"))];
    steady.extend(
        events
            .iter()
            .map(|e| (Duration::from_millis(400), e.clone())),
    );
    // Stalled stream: one chunk, then 6 s of silence.
    let stalled = vec![
        (Duration::ZERO, http_head("text/event-stream") + &events[0]),
        (Duration::from_secs(6), events[1].clone()),
    ];
    let (base, accepted) = raw_server(vec![steady, stalled, {
        let mut ok = vec![(Duration::ZERO, http_head("text/event-stream"))];
        ok.extend(events.iter().map(|e| (Duration::ZERO, e.clone())));
        ok
    }]);
    let mut cfg = streaming(ProviderKind::Openai, &base);
    // The timeout is per read: 400 ms gaps pass it (with room for a loaded machine's
    // scheduling), the 6 s stall does not.
    cfg.request_timeout_secs = 1.5;
    let provider = build_provider(&cfg).expect("provider");
    let started = std::time::Instant::now();
    let resp = provider.chat(&hello()).expect("steady stream");
    assert_eq!(resp.text, "abcd");
    assert!(
        started.elapsed() > Duration::from_secs_f64(1.5),
        "the stream was paced past the timeout"
    );
    assert_eq!(resp.usage.calls, 1);
    let resp = provider.chat(&hello()).expect("stall then retry");
    assert_eq!(resp.text, "abcd");
    assert_eq!(resp.usage.calls, 2);
    assert_eq!(*accepted.lock().expect("lock"), 3);
}

#[test]
fn openai_standin_stream_garbage_event_is_a_typed_error() {
    let server = StandIn::start(vec![sse_reply("data: {not json\n\n".into())], None);
    let err = build_provider(&streaming(ProviderKind::Openai, &server.base))
        .expect("provider")
        .chat(&hello())
        .unwrap_err();
    assert!(matches!(err, ProviderError::BadResponse { .. }), "{err:?}");
    assert!(err.to_string().contains("not JSON"), "{err}");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn openai_standin_stream_requested_but_json_answered_still_works() {
    let server = StandIn::start(
        vec![Reply::json(crate::providers::standin::openai_text(
            "plain json",
            2,
            2,
        ))],
        None,
    );
    let resp = build_provider(&streaming(ProviderKind::Openai, &server.base))
        .expect("provider")
        .chat(&hello())
        .expect("reply");
    assert_eq!(resp.text, "plain json");
}

fn anthropic_stream(tail: &[(&str, Value)]) -> String {
    let mut events = vec![
        (
            "message_start",
            json!({"type": "message_start", "message": {"id": "msg_1",
            "type": "message", "role": "assistant", "content": [], "model": "m",
            "stop_reason": null, "usage": {"input_tokens": 25, "output_tokens": 1}}}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "text", "text": ""}}),
        ),
        ("ping", json!({"type": "ping"})),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "text_delta", "text": "Reading "}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "text_delta", "text": "the state."}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
    ];
    events.extend(tail.iter().cloned());
    sse(&events)
}

#[test]
fn anthropic_standin_stream_folds_text_tool_use_and_usage() {
    let body = anthropic_stream(&[
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 1,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "read_state",
                              "input": {}}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": "{\"env\": "}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": "\"gold\"}"}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 1}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": null},
            "usage": {"output_tokens": 15}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ]);
    let server = StandIn::start(vec![sse_reply(body)], None);
    let resp = build_provider(&streaming(ProviderKind::Anthropic, &server.base))
        .expect("provider")
        .chat(&hello())
        .expect("reply");
    assert_eq!(resp.text, "Reading the state.");
    assert_eq!(resp.stop_reason, "tool_use");
    assert_eq!(resp.tool_calls.len(), 1);
    assert_eq!(resp.tool_calls[0].id, "toolu_1");
    assert_eq!(resp.tool_calls[0].arguments, json!({"env": "gold"}));
    assert_eq!(
        (resp.usage.input_tokens, resp.usage.output_tokens),
        (25, 15)
    );
    assert_eq!(server.requests()[0].body["stream"], true);
}

#[test]
fn anthropic_standin_stream_error_event_and_truncation_are_retried() {
    let overloaded = anthropic_stream(&[(
        "error",
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    )]);
    let truncated = anthropic_stream(&[]); // no message_stop
    let ok = anthropic_stream(&[
        (
            "message_delta",
            json!({"type": "message_delta",
            "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 4}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ]);
    let server = StandIn::start(
        vec![sse_reply(overloaded), sse_reply(truncated), sse_reply(ok)],
        None,
    );
    let resp = build_provider(&streaming(ProviderKind::Anthropic, &server.base))
        .expect("provider")
        .chat(&hello())
        .expect("reply");
    assert_eq!(resp.text, "Reading the state.");
    assert_eq!(resp.usage.calls, 3);

    let server = StandIn::start(vec![], Some(sse_reply(anthropic_stream(&[]))));
    let mut cfg = streaming(ProviderKind::Anthropic, &server.base);
    cfg.max_retries = 2;
    let err = build_provider(&cfg).expect("p").chat(&hello()).unwrap_err();
    assert!(
        matches!(err, ProviderError::Exhausted { attempts: 3, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("message_stop"), "{err}");
}
