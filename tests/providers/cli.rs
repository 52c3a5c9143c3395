//! `tuplewright agents check` against the stand-in servers.

use assert_cmd::Command;
use predicates::str::contains;

use crate::standin::{openai_tools, Reply, StandIn};

#[test]
fn openai_standin_agents_check_reports_reply_tool_call_and_usage() {
    let server = StandIn::start(
        vec![Reply::json(openai_tools(
            &[("c1", "echo", serde_json::json!({"text": "OK"}))],
            12,
            3,
        ))],
        None,
    );
    std::env::set_var("TW_TEST_CLI_KEY", "sk-cli");
    Command::cargo_bin("tuplewright")
        .expect("binary")
        .args(["agents", "check", "--tools", "--key-env", "TW_TEST_CLI_KEY"])
        .arg(format!("openai:tiny@{}/v1", server.base))
        .assert()
        .success()
        .stdout(contains("openai:tiny"))
        .stdout(contains("tool call echo"))
        .stdout(contains("12 input + 3 output tokens"))
        .stdout(contains("TW_TEST_CLI_KEY: set"));
    let reqs = server.requests();
    assert_eq!(reqs[0].header("authorization"), Some("Bearer sk-cli"));
    assert_eq!(reqs[0].body["tools"][0]["function"]["name"], "echo");
}

#[test]
fn anthropic_standin_agents_check_failure_exits_1_with_the_status() {
    let server = StandIn::start(vec![], Some(Reply::raw(401, "invalid x-api-key")));
    Command::cargo_bin("tuplewright")
        .expect("binary")
        .args(["agents", "check", "--key-env", "TW_TEST_CLI_KEY_UNSET_X"])
        .arg(format!("anthropic:m@{}", server.base))
        .assert()
        .code(1)
        .stderr(contains("HTTP 401"))
        .stderr(contains("invalid x-api-key"))
        .stderr(contains("TW_TEST_CLI_KEY_UNSET_X is not set"));
}

#[test]
fn agents_check_bad_spec_is_a_usage_error() {
    Command::cargo_bin("tuplewright")
        .expect("binary")
        .args(["agents", "check", "gemini:pro"])
        .assert()
        .code(2)
        .stderr(contains("unknown provider kind"));
}
