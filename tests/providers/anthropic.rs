//! The Anthropic provider and the LLM Discriminator against a stand-in Messages API server.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde_json::json;
use tuplewright::engine::agents::llm::LlmDiscriminator;
use tuplewright::engine::agents::{AgentError, Discriminator, DiscriminatorInput};
use tuplewright::engine::providers::{
    build_provider, ChatRequest, Message, ProviderError, ProviderKind,
};

use crate::providers::standin::{anthropic_text, anthropic_tools, Reply, StandIn};
use crate::providers::{agent_config, brief, config, RecordingProbe};

#[test]
fn anthropic_standin_plain_reply_headers_system_and_tokens() {
    let mut body = anthropic_text("hello from claude", 100, 20);
    body["usage"]["cache_read_input_tokens"] = json!(50);
    let server = StandIn::start(vec![Reply::json(body)], None);
    let cfg = config(ProviderKind::Anthropic, &server.base, "TW_TEST_NEVER_SET_2");
    let req = ChatRequest {
        system: "SYS".into(),
        messages: vec![Message::User("hi".into())],
        tools: vec![],
    };
    let resp = build_provider(&cfg)
        .expect("provider")
        .chat(&req)
        .expect("reply");
    assert_eq!(resp.text, "hello from claude");
    assert_eq!(resp.stop_reason, "end_turn");
    assert_eq!(resp.usage.model, "anthropic:standin-model");
    assert_eq!(
        (resp.usage.input_tokens, resp.usage.output_tokens),
        (150, 20)
    );
    // 100 plain at 2/M, 50 cache reads at the default 0.1 x 2/M, 20 output at 8/M.
    let expected = (100.0 * 2.0 + 50.0 * 0.2 + 20.0 * 8.0) / 1e6;
    assert!(
        (resp.usage.cost_usd - expected).abs() < 1e-12,
        "{}",
        resp.usage.cost_usd
    );

    let r = &server.requests()[0];
    assert_eq!(r.path, "/v1/messages");
    assert_eq!(
        r.header("x-api-key"),
        None,
        "the key variable is unset (see cli.rs)"
    );
    assert_eq!(r.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(r.header("authorization"), None);
    assert_eq!(r.body["max_tokens"], 8192);
    // Prompt caching (the default): system and first user turn carry cache breakpoints.
    let ephemeral = json!({"type": "ephemeral"});
    assert_eq!(
        r.body["system"],
        json!([{"type": "text", "text": "SYS", "cache_control": ephemeral}])
    );
    assert_eq!(
        r.body["messages"],
        json!([{"role": "user", "content": [
            {"type": "text", "text": "hi", "cache_control": ephemeral}]}])
    );
}

#[test]
fn anthropic_standin_without_prompt_cache_sends_a_plain_system_string() {
    let mut body = anthropic_text("ok", 1000, 0);
    body["usage"]["cache_creation_input_tokens"] = json!(1000);
    let server = StandIn::start(vec![Reply::json(body)], None);
    let mut cfg = config(ProviderKind::Anthropic, &server.base, "");
    cfg.prompt_cache = false;
    cfg.cache_write_price_per_mtok = Some(10.0);
    let req = ChatRequest {
        system: "SYS".into(),
        messages: vec![Message::User("hi".into())],
        tools: vec![],
    };
    let resp = build_provider(&cfg)
        .expect("provider")
        .chat(&req)
        .expect("reply");
    assert_eq!(resp.usage.input_tokens, 2000);
    assert!((resp.usage.cost_usd - (1000.0 * 2.0 + 1000.0 * 10.0) / 1e6).abs() < 1e-12);
    let r = &server.requests()[0];
    assert_eq!(r.body["system"], "SYS");
    assert_eq!(
        r.body["messages"],
        json!([{"role": "user", "content": [{"type": "text", "text": "hi"}]}])
    );
}

#[test]
fn anthropic_standin_429_and_529_then_success() {
    let server = StandIn::start(
        vec![
            Reply::raw(
                429,
                r#"{"type":"error","error":{"type":"rate_limit_error"}}"#,
            )
            .header("retry-after", "0"),
            Reply::raw(
                529,
                r#"{"type":"error","error":{"type":"overloaded_error"}}"#,
            ),
            Reply::json(anthropic_text("ok", 1, 1)),
        ],
        None,
    );
    let cfg = config(ProviderKind::Anthropic, &server.base, "");
    let req = ChatRequest {
        system: "s".into(),
        messages: vec![Message::User("u".into())],
        tools: vec![],
    };
    let resp = build_provider(&cfg)
        .expect("provider")
        .chat(&req)
        .expect("reply");
    assert_eq!(resp.usage.calls, 3);
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn anthropic_standin_400_is_typed_and_not_retried() {
    let server = StandIn::start(
        vec![],
        Some(Reply::raw(
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens too large"}}"#,
        )),
    );
    let cfg = config(ProviderKind::Anthropic, &server.base, "");
    let req = ChatRequest {
        system: "s".into(),
        messages: vec![Message::User("u".into())],
        tools: vec![],
    };
    let err = build_provider(&cfg)
        .expect("provider")
        .chat(&req)
        .unwrap_err();
    assert!(
        matches!(err, ProviderError::Status { status: 400, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("max_tokens too large"), "{err}");
    assert_eq!(server.requests().len(), 1);
}

/// The Discriminator offers exactly three tools, the two environment tools reach only the probe, and
/// every attempt to read or write anything else is refused.
#[test]
fn anthropic_standin_discriminator_tools_expose_only_the_probe() {
    let reward = "import json\nprint('REWARD: 1.0')\n";
    let server = StandIn::start(
        vec![
            Reply::json(anthropic_tools(
                &[
                    ("t1", "read_state", json!({"env": "init"})),
                    ("t2", "read_state", json!({"env": "gold"})),
                ],
                100,
                10,
            )),
            Reply::json(anthropic_tools(
                &[
                    (
                        "t3",
                        "read_file",
                        json!({"path": "/work/gen/golden_patch.py"}),
                    ),
                    (
                        "t4",
                        "write_file",
                        json!({"path": "golden_patch.py", "content": "x"}),
                    ),
                    (
                        "t5",
                        "write_file",
                        json!({"path": "../reward.py", "content": "x"}),
                    ),
                    ("t6", "read_state", json!({"env": "/proc/1/root"})),
                ],
                100,
                10,
            )),
            Reply::json(anthropic_tools(
                &[
                    (
                        "t7",
                        "write_file",
                        json!({"path": "reward.py", "content": reward}),
                    ),
                    ("t8", "dry_run_reward", json!({"env": "gold"})),
                ],
                100,
                10,
            )),
            Reply::json(anthropic_text("reward.py is saved.", 100, 10)),
        ],
        None,
    );
    let provider = build_provider(&config(ProviderKind::Anthropic, &server.base, "")).expect("p");
    let disc = LlmDiscriminator::new(provider, agent_config()).expect("prompts");
    let probe = RecordingProbe::default();
    let brief = brief();
    let out = disc
        .write_reward(
            &DiscriminatorInput {
                brief: &brief,
                round: 1,
                previous_review: None,
            },
            &probe,
        )
        .expect("reward");
    assert_eq!(out.reward, reward);
    assert_eq!(out.usage.calls, 4);
    assert_eq!((out.usage.input_tokens, out.usage.output_tokens), (400, 40));

    let reqs = server.requests();
    let names: Vec<&str> = reqs[0].body["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(names, ["write_file", "read_state", "dry_run_reward"]);
    assert_eq!(
        reqs[0].body["tools"][0]["input_schema"]["properties"]["path"]["enum"],
        json!(["reward.py"])
    );
    // The probe saw exactly the two reads and the dry run of the saved draft; nothing else.
    assert_eq!(
        *probe.calls.lock().expect("lock"),
        [
            "read_state:Init".to_string(),
            "read_state:Gold".to_string(),
            format!("dry_run:Gold:{}", reward.trim()),
        ]
    );
    // Round trip 2: four tool_result blocks merged into one user message, all refused.
    let msgs = reqs[2].body["messages"].as_array().expect("messages");
    let results = msgs[msgs.len() - 1]["content"].as_array().expect("blocks");
    assert_eq!(results.len(), 4);
    for (block, id) in results.iter().zip(["t3", "t4", "t5", "t6"]) {
        assert_eq!(block["type"], "tool_result");
        assert_eq!(block["tool_use_id"], id);
        assert_eq!(block["is_error"], true, "{block}");
    }
    assert!(results[0]["content"]
        .as_str()
        .unwrap_or("")
        .contains("unknown tool"));
    assert!(results[1]["content"]
        .as_str()
        .unwrap_or("")
        .contains("only write reward.py"));
    // The previous assistant turn is replayed with its tool_use blocks.
    let assistant = &msgs[msgs.len() - 2];
    assert_eq!(assistant["role"], "assistant");
    assert_eq!(assistant["content"][1]["type"], "tool_use");
    assert_eq!(assistant["content"][1]["id"], "t3");
    // The dry run's stdout went back to the model.
    let last = reqs[3].body["messages"].as_array().expect("messages");
    let dry = &last[last.len() - 1]["content"][1];
    assert_eq!(dry["tool_use_id"], "t8");
    assert_eq!(dry["content"], "REWARD: 1.0");
}

#[test]
fn anthropic_standin_discriminator_probe_infra_failure_is_infra() {
    let server = StandIn::start(
        vec![Reply::json(anthropic_tools(
            &[("t1", "read_state", json!({"env": "gold"}))],
            1,
            1,
        ))],
        None,
    );
    let provider = build_provider(&config(ProviderKind::Anthropic, &server.base, "")).expect("p");
    let disc = LlmDiscriminator::new(provider, agent_config()).expect("prompts");
    let probe = RecordingProbe {
        fail_infra: true,
        ..RecordingProbe::default()
    };
    let brief = brief();
    let input = DiscriminatorInput {
        brief: &brief,
        round: 1,
        previous_review: None,
    };
    let err = disc.write_reward(&input, &probe).unwrap_err();
    assert!(
        matches!(err, AgentError::Infra(ref m) if m.contains("sandbox missing")),
        "{err:?}"
    );
    assert_eq!(
        server.requests().len(),
        1,
        "no further model turn after an infra failure"
    );
}

#[test]
fn anthropic_standin_discriminator_provider_down_is_infra_after_retries() {
    let server = StandIn::start(vec![], Some(Reply::raw(500, "down")));
    let mut cfg = config(ProviderKind::Anthropic, &server.base, "");
    cfg.max_retries = 2;
    let disc = LlmDiscriminator::new(build_provider(&cfg).expect("p"), agent_config()).expect("p");
    let brief = brief();
    let input = DiscriminatorInput {
        brief: &brief,
        round: 2,
        previous_review: Some("# REVIEW\nC3 failed"),
    };
    let err = disc
        .write_reward(&input, &RecordingProbe::default())
        .unwrap_err();
    assert!(
        matches!(err, AgentError::Infra(ref m) if m.contains("3 attempts")),
        "{err:?}"
    );
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn anthropic_standin_discriminator_accepts_a_single_python_block() {
    let server = StandIn::start(
        vec![Reply::json(anthropic_text(
            "Here it is:\n```python\nprint('REWARD: 0.0')\n```\n",
            5,
            5,
        ))],
        None,
    );
    let provider = build_provider(&config(ProviderKind::Anthropic, &server.base, "")).expect("p");
    let disc = LlmDiscriminator::new(provider, agent_config()).expect("prompts");
    let brief = brief();
    let input = DiscriminatorInput {
        brief: &brief,
        round: 1,
        previous_review: None,
    };
    let out = disc
        .write_reward(&input, &RecordingProbe::default())
        .expect("reward");
    assert_eq!(out.reward, "print('REWARD: 0.0')\n");
}

#[test]
fn anthropic_standin_discriminator_cancel_stops_between_tool_calls() {
    let server = StandIn::start(
        vec![],
        Some(Reply::json(anthropic_tools(
            &[
                ("t1", "read_state", json!({"env": "init"})),
                ("t2", "read_state", json!({"env": "gold"})),
            ],
            1,
            1,
        ))),
    );
    let flag = Arc::new(AtomicBool::new(false));
    let provider = build_provider(&config(ProviderKind::Anthropic, &server.base, "")).expect("p");
    let disc = LlmDiscriminator::new(provider, agent_config())
        .expect("prompts")
        .with_cancel(flag.clone());
    let probe = RecordingProbe {
        cancel_on_read: Some(flag),
        ..RecordingProbe::default()
    };
    let brief = brief();
    let input = DiscriminatorInput {
        brief: &brief,
        round: 1,
        previous_review: None,
    };
    let err = disc.write_reward(&input, &probe).unwrap_err();
    assert!(matches!(err, AgentError::Cancelled), "{err:?}");
    assert_eq!(*probe.calls.lock().expect("lock"), ["read_state:Init"]);
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn anthropic_standin_closing_snippet_does_not_replace_a_saved_reward() {
    let saved = "print('REWARD: 0.0')  # the real one\n";
    let server = StandIn::start(
        vec![
            Reply::json(anthropic_tools(
                &[(
                    "t1",
                    "write_file",
                    json!({"path": "reward.py", "content": saved}),
                )],
                1,
                1,
            )),
            Reply::json(anthropic_text(
                "Saved. It uses:\n```python\nstate['x']\n```",
                1,
                1,
            )),
        ],
        None,
    );
    let provider = build_provider(&config(ProviderKind::Anthropic, &server.base, "")).expect("p");
    let disc = LlmDiscriminator::new(provider, agent_config()).expect("prompts");
    let brief = brief();
    let input = DiscriminatorInput {
        brief: &brief,
        round: 1,
        previous_review: None,
    };
    let out = disc
        .write_reward(&input, &RecordingProbe::default())
        .expect("reward");
    assert_eq!(out.reward, saved);
}
