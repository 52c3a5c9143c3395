//! The LLM Generator over the OpenAI-compatible provider, against a stand-in server: tool round trip,
//! fenced-block fallback, re-prompting with the parser's error, and the limits.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use serde_json::json;
use tuplewright::engine::agents::llm::{LlmAgentConfig, LlmGenerator};
use tuplewright::engine::agents::{AgentError, Generator, GeneratorInput, GeneratorOutput};
use tuplewright::engine::providers::{build_provider, ProviderKind};

use crate::providers::standin::{openai_text, openai_tools, Reply, StandIn};
use crate::providers::{agent_config, brief, config};

fn generate(server: &StandIn, agents: LlmAgentConfig) -> Result<GeneratorOutput, AgentError> {
    let provider = build_provider(&config(ProviderKind::Openai, &server.base, "")).expect("p");
    let generator = LlmGenerator::new(provider, agents).expect("prompts");
    let brief = brief();
    generator.generate(&GeneratorInput {
        brief: &brief,
        round: 2,
        previous_review: Some("REVIEW-TEXT: C3 failed, pinned flag missing"),
    })
}

fn last_user_text(body: &serde_json::Value) -> String {
    let msgs = body["messages"].as_array().expect("messages");
    let last = msgs.last().expect("a message");
    assert_eq!(last["role"], "user");
    last["content"].as_str().unwrap_or("").to_string()
}

#[test]
fn openai_standin_generator_tool_round_trip_then_final() {
    let server = StandIn::start(
        vec![
            Reply::json(openai_tools(
                &[
                    (
                        "c1",
                        "write_file",
                        json!({"path": "initial_setup.py", "content": "SETUP\n"}),
                    ),
                    (
                        "c2",
                        "write_file",
                        json!({"path": "golden_patch.py", "content": "PATCH\n"}),
                    ),
                ],
                1200,
                300,
            )),
            Reply::json(openai_text("Both files are written.", 1500, 20)),
        ],
        None,
    );
    let out = generate(&server, agent_config()).expect("files");
    assert_eq!(out.initial_setup, "SETUP\n");
    assert_eq!(out.golden_patch, "PATCH\n");
    assert_eq!(out.usage.model, "openai:standin-model");
    assert_eq!(out.usage.calls, 2);
    assert_eq!(
        (out.usage.input_tokens, out.usage.output_tokens),
        (2700, 320)
    );
    let expected_cost = (2700.0 * 2.0 + 320.0 * 8.0) / 1e6;
    assert!((out.usage.cost_usd - expected_cost).abs() < 1e-12);

    let reqs = server.requests();
    let first = &reqs[0].body;
    let system = first["messages"][0]["content"].as_str().expect("system");
    assert!(
        system.starts_with("# Orchestrator notes"),
        "orchestrator.md comes first"
    );
    assert!(system.contains("# Generator — environment setup author"));
    let user = first["messages"][1]["content"].as_str().expect("user");
    for needle in [
        "Pin the message 'Deploy at 5pm' in #ops.",
        "Channel #ops holds three messages",
        "SKILL-TEXT-team-chat",
        "REVIEW-TEXT: C3 failed",
        "round 2",
    ] {
        assert!(user.contains(needle), "user message lacks {needle:?}");
    }
    let tools = first["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["function"]["name"], "write_file");
    assert_eq!(
        tools[0]["function"]["parameters"]["properties"]["path"]["enum"],
        json!(["initial_setup.py", "golden_patch.py"])
    );
    // Second request replays the tool calls and answers each with a `tool` message.
    let msgs = reqs[1].body["messages"].as_array().expect("messages");
    assert_eq!(msgs[2]["role"], "assistant");
    assert_eq!(
        msgs[2]["content"],
        serde_json::Value::Null,
        "no text beside tool calls"
    );
    assert_eq!(msgs[2]["tool_calls"][1]["id"], "c2");
    assert_eq!(msgs[2]["tool_calls"][1]["function"]["name"], "write_file");
    assert_eq!(msgs[3]["role"], "tool");
    assert_eq!(msgs[3]["tool_call_id"], "c1");
    assert!(msgs[3]["content"]
        .as_str()
        .unwrap_or("")
        .contains("still to write: golden_patch.py"));
    assert_eq!(msgs[4]["tool_call_id"], "c2");
}

#[test]
fn openai_standin_generator_fenced_blocks_fallback() {
    let reply = "Here you go.\n\n```initial_setup.py\nimport requests\nprint('setup')\n```\n\n\
                 ```python golden_patch.py\nprint('patch')\n```\n";
    let server = StandIn::start(vec![Reply::json(openai_text(reply, 10, 10))], None);
    let out = generate(&server, agent_config()).expect("files");
    assert_eq!(out.initial_setup, "import requests\nprint('setup')\n");
    assert_eq!(out.golden_patch, "print('patch')\n");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn openai_standin_malformed_reply_is_reprompted_with_the_parser_error_then_fixed() {
    let server = StandIn::start(
        vec![
            Reply::json(openai_text(
                "```initial_setup.py\nprint('s')\n```\n",
                10,
                10,
            )),
            Reply::json(openai_text("```golden_patch.py\nprint('g')\n", 10, 10)),
            Reply::json(openai_text("```golden_patch.py\nprint('g')\n```\n", 10, 10)),
        ],
        None,
    );
    let out = generate(&server, agent_config()).expect("files after re-prompts");
    assert_eq!(
        out.initial_setup, "print('s')\n",
        "files from earlier replies are kept"
    );
    assert_eq!(out.golden_patch, "print('g')\n");
    assert_eq!(out.usage.calls, 3);
    let reqs = server.requests();
    let first_fix = last_user_text(&reqs[1].body);
    assert!(first_fix.contains("missing golden_patch.py"), "{first_fix}");
    let second_fix = last_user_text(&reqs[2].body);
    assert!(second_fix.contains("never closed"), "{second_fix}");
}

#[test]
fn openai_standin_malformed_after_two_reprompts_is_malformed() {
    let server = StandIn::start(
        vec![],
        Some(Reply::json(openai_text(
            "I think the task is easy.",
            10,
            10,
        ))),
    );
    let err = generate(&server, agent_config()).unwrap_err();
    match &err {
        AgentError::MalformedAfter { why: m, usage } => {
            assert!(
                m.contains("missing initial_setup.py and golden_patch.py"),
                "{m}"
            );
            assert!(m.contains("2 re-prompts"), "{m}");
            // The three paid calls are kept for the round's usage and the cost tables.
            assert_eq!(
                (usage.calls, usage.input_tokens, usage.output_tokens),
                (3, 30, 30)
            );
        }
        other => panic!("expected MalformedAfter, got {other:?}"),
    }
    assert_eq!(
        server.requests().len(),
        3,
        "one reply + exactly two re-prompts"
    );
}

#[test]
fn openai_standin_generator_write_outside_its_files_is_refused() {
    let server = StandIn::start(
        vec![
            Reply::json(openai_tools(
                &[
                    (
                        "c1",
                        "write_file",
                        json!({"path": "reward.py", "content": "x"}),
                    ),
                    (
                        "c2",
                        "write_file",
                        json!({"path": "/etc/passwd", "content": "x"}),
                    ),
                    ("c3", "dry_run_reward", json!({"env": "gold"})),
                    ("c4", "write_file", json!("{not json")),
                ],
                1,
                1,
            )),
            Reply::json(openai_text(
                "```initial_setup.py\na=1\n```\n```golden_patch.py\nb=2\n```",
                1,
                1,
            )),
        ],
        None,
    );
    let out = generate(&server, agent_config()).expect("files");
    assert_eq!(out.initial_setup, "a=1\n");
    let msgs = server.requests()[1].body["messages"].clone();
    let tool_msgs: Vec<String> = msgs
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(tool_msgs.len(), 4);
    assert!(
        tool_msgs.iter().all(|c| c.starts_with("ERROR: ")),
        "{tool_msgs:?}"
    );
    assert!(tool_msgs[0].contains("only write initial_setup.py, golden_patch.py"));
    assert!(tool_msgs[2].contains("unknown tool `dry_run_reward`"));
    assert!(
        tool_msgs[3].contains("must be a JSON object"),
        "{}",
        tool_msgs[3]
    );
}

#[test]
fn openai_standin_generator_turn_limit_is_malformed() {
    let call = openai_tools(
        &[(
            "c",
            "write_file",
            json!({"path": "initial_setup.py", "content": "x=1"}),
        )],
        1,
        1,
    );
    let server = StandIn::start(vec![], Some(Reply::json(call)));
    let agents = LlmAgentConfig {
        max_turns: 3,
        ..agent_config()
    };
    let err = generate(&server, agents).unwrap_err();
    assert!(
        matches!(err, AgentError::MalformedAfter { ref why, ref usage } if why.contains("3 model turns") && usage.calls == 3),
        "{err:?}"
    );
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn openai_standin_generator_cancelled_before_start_sends_nothing() {
    let server = StandIn::start(vec![], Some(Reply::json(openai_text("x", 1, 1))));
    let provider = build_provider(&config(ProviderKind::Openai, &server.base, "")).expect("p");
    let flag = Arc::new(AtomicBool::new(true));
    let generator = LlmGenerator::new(provider, agent_config())
        .expect("prompts")
        .with_cancel(flag);
    let brief = brief();
    let err = generator
        .generate(&GeneratorInput {
            brief: &brief,
            round: 1,
            previous_review: None,
        })
        .unwrap_err();
    assert!(matches!(err, AgentError::Cancelled), "{err:?}");
    assert!(server.requests().is_empty());
}
