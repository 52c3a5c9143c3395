//! `tuplewright agents check` against the stand-in servers.

use assert_cmd::Command;
use predicates::str::contains;

use crate::providers::standin::{anthropic_text, openai_tools, Reply, StandIn};

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
    Command::cargo_bin("tuplewright")
        .expect("binary")
        .env("TW_TEST_CLI_KEY", "sk-cli")
        .env("OPENAI_API_KEY", "sk-wrong-variable")
        .args(["agents", "check", "--tools", "--key-env", "TW_TEST_CLI_KEY"])
        .arg(format!("openai:tiny@{}/v1", server.base))
        .assert()
        .success()
        .stdout(contains("openai:tiny"))
        .stdout(contains("tool call echo"))
        .stdout(contains("12 input + 3 output tokens"))
        .stdout(contains("TW_TEST_CLI_KEY: set"));
    let reqs = server.requests();
    assert_eq!(
        reqs[0].header("authorization"),
        Some("Bearer sk-cli"),
        "key from the named var"
    );
    assert_eq!(reqs[0].header("x-api-key"), None);
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

#[test]
fn anthropic_standin_agents_check_sends_the_key_as_x_api_key() {
    let server = StandIn::start(vec![Reply::json(anthropic_text("OK", 9, 1))], None);
    Command::cargo_bin("tuplewright")
        .expect("binary")
        .env("ANTHROPIC_API_KEY", "sk-ant-default")
        .env("TW_TEST_CLI_ANT_KEY", "sk-ant-named")
        .args(["agents", "check", "--key-env", "TW_TEST_CLI_ANT_KEY"])
        .arg(format!("anthropic:claude-standin@{}", server.base))
        .assert()
        .success()
        .stdout(contains("\"OK\""))
        .stdout(contains("9 input + 1 output tokens"));
    let r = &server.requests()[0];
    assert_eq!(r.header("x-api-key"), Some("sk-ant-named"));
    assert_eq!(r.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(r.header("authorization"), None);

    // Without --key-env the kind's default variable is used.
    let server = StandIn::start(vec![Reply::json(anthropic_text("OK", 1, 1))], None);
    Command::cargo_bin("tuplewright")
        .expect("binary")
        .env("ANTHROPIC_API_KEY", "sk-ant-default")
        .args(["agents", "check"])
        .arg(format!("anthropic:claude-standin@{}", server.base))
        .assert()
        .success();
    assert_eq!(
        server.requests()[0].header("x-api-key"),
        Some("sk-ant-default")
    );
}
