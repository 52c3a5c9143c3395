//! The OpenAI-compatible provider against a stand-in chat-completions server.

use std::time::{Duration, Instant};

use serde_json::json;
use tuplewright::engine::providers::{
    build_provider, ChatRequest, Message, ProviderError, ProviderKind,
};

use crate::providers::config;
use crate::providers::standin::{dropping_server, openai_text, Reply, StandIn};

fn hello() -> ChatRequest {
    ChatRequest {
        system: "SYSTEM-PROMPT".into(),
        messages: vec![Message::User("hello".into())],
        tools: vec![],
    }
}

/// The key header itself is checked in `cli.rs`, in a child process whose environment the test sets
/// (setting variables inside this multi-threaded test binary would race with libc readers).
#[test]
fn openai_standin_plain_reply_tokens_and_cost() {
    let server = StandIn::start(vec![Reply::json(openai_text("hi there", 1000, 500))], None);
    let cfg = config(ProviderKind::Openai, &server.base, "TW_TEST_NEVER_SET_1");
    let provider = build_provider(&cfg).expect("provider");
    let resp = provider.chat(&hello()).expect("reply");
    assert_eq!(resp.text, "hi there");
    assert!(resp.tool_calls.is_empty());
    assert_eq!(resp.stop_reason, "stop");
    assert_eq!(resp.usage.model, "openai:standin-model");
    assert_eq!(resp.usage.calls, 1);
    assert_eq!(
        (resp.usage.input_tokens, resp.usage.output_tokens),
        (1000, 500)
    );
    // 1000 * 2/M + 500 * 8/M = 0.002 + 0.004
    assert!(
        (resp.usage.cost_usd - 0.006).abs() < 1e-12,
        "{}",
        resp.usage.cost_usd
    );

    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].path, "/v1/chat/completions");
    assert_eq!(
        reqs[0].header("authorization"),
        None,
        "the key variable is unset"
    );
    let body = &reqs[0].body;
    assert_eq!(body["model"], "standin-model");
    assert_eq!(
        body["messages"][0],
        json!({"role": "system", "content": "SYSTEM-PROMPT"})
    );
    assert_eq!(
        body["messages"][1],
        json!({"role": "user", "content": "hello"})
    );
    assert!(body.get("tools").is_none(), "no tools were offered");
    assert_eq!(body["max_tokens"], 8192, "local servers get `max_tokens`");
}

#[test]
fn openai_standin_unset_key_variable_sends_no_authorization() {
    let server = StandIn::start(vec![Reply::json(openai_text("ok", 1, 1))], None);
    let cfg = config(ProviderKind::Openai, &server.base, "TW_TEST_OAI_KEY_UNSET");
    build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .expect("reply");
    assert_eq!(server.requests()[0].header("authorization"), None);
}

#[test]
fn openai_standin_429_honours_retry_after_then_succeeds() {
    let server = StandIn::start(
        vec![
            Reply::raw(429, r#"{"error":{"message":"rate limited"}}"#).header("retry-after", "1"),
            Reply::json(openai_text("after the wait", 3, 4)),
        ],
        None,
    );
    let mut cfg = config(ProviderKind::Openai, &server.base, "");
    cfg.backoff_max_ms = 5_000; // the Retry-After cap
    let started = Instant::now();
    let resp = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .expect("reply");
    let waited = started.elapsed();
    assert_eq!(resp.text, "after the wait");
    assert_eq!(resp.usage.calls, 2, "the retried attempt is counted");
    assert_eq!(server.requests().len(), 2);
    assert!(
        waited >= Duration::from_millis(950),
        "Retry-After ignored: {waited:?}"
    );
}

#[test]
fn openai_standin_500_three_times_then_success() {
    let mut script = vec![Reply::raw(500, "upstream exploded"); 3];
    script.push(Reply::json(openai_text("finally", 10, 2)));
    let server = StandIn::start(script, None);
    let cfg = config(ProviderKind::Openai, &server.base, "");
    let resp = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .expect("reply");
    assert_eq!(resp.text, "finally");
    assert_eq!(resp.usage.calls, 4);
    assert_eq!(server.requests().len(), 4);
}

#[test]
fn openai_standin_gives_up_after_exactly_the_allowed_attempts() {
    let server = StandIn::start(vec![], Some(Reply::raw(503, "overloaded")));
    let mut cfg = config(ProviderKind::Openai, &server.base, "");
    cfg.max_retries = 4; // 1 + 4 = 5 attempts
    let err = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .unwrap_err();
    match &err {
        ProviderError::Exhausted { attempts, last, .. } => {
            assert_eq!(*attempts, 5);
            assert!(
                last.contains("503") && last.contains("overloaded"),
                "{last}"
            );
        }
        other => panic!("expected Exhausted, got {other:?}"),
    }
    assert_eq!(server.requests().len(), 5);
}

#[test]
fn openai_standin_400_is_not_retried_and_names_status_and_body() {
    let server = StandIn::start(
        vec![],
        Some(Reply::raw(
            400,
            r#"{"error":{"message":"unknown model standin-model"}}"#,
        )),
    );
    let cfg = config(ProviderKind::Openai, &server.base, "");
    let err = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .unwrap_err();
    match &err {
        ProviderError::Status { status, body, .. } => {
            assert_eq!(*status, 400);
            assert!(body.contains("unknown model"), "{body}");
        }
        other => panic!("expected Status, got {other:?}"),
    }
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn openai_standin_401_hint_names_the_key_variable() {
    let server = StandIn::start(vec![], Some(Reply::raw(401, "no key")));
    let cfg = config(
        ProviderKind::Openai,
        &server.base,
        "TW_TEST_OAI_KEY_MISSING",
    );
    let err = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("401") && msg.contains("TW_TEST_OAI_KEY_MISSING"),
        "{msg}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn openai_standin_timeout_is_retried_then_succeeds() {
    let server = StandIn::start(
        vec![
            Reply::json(openai_text("too late", 1, 1)).delayed(Duration::from_secs(30)),
            Reply::json(openai_text("in time", 1, 1)),
        ],
        None,
    );
    let mut cfg = config(ProviderKind::Openai, &server.base, "");
    cfg.request_timeout_secs = 0.3;
    let started = Instant::now();
    let resp = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .expect("reply");
    assert_eq!(resp.text, "in time");
    assert_eq!(resp.usage.calls, 2);
    // Far below the slow reply's 30 s, with room for a loaded machine's scheduling.
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn openai_standin_timeouts_exhaust_into_an_error_saying_so() {
    let server = StandIn::start(
        vec![],
        Some(Reply::json(openai_text("never", 1, 1)).delayed(Duration::from_secs(3))),
    );
    let mut cfg = config(ProviderKind::Openai, &server.base, "");
    cfg.request_timeout_secs = 0.2;
    cfg.max_retries = 1;
    let err = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .unwrap_err();
    assert!(
        matches!(err, ProviderError::Exhausted { attempts: 2, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("timed out"), "{err}");
}

#[test]
fn openai_standin_garbage_body_is_a_typed_error_not_retried() {
    let server = StandIn::start(vec![Reply::raw(200, "<html>502 gateway</html>")], None);
    let cfg = config(ProviderKind::Openai, &server.base, "");
    let err = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .unwrap_err();
    match &err {
        ProviderError::BadResponse { reason, body, .. } => {
            assert!(reason.contains("not JSON"), "{reason}");
            assert!(body.contains("<html>"), "{body}");
        }
        other => panic!("expected BadResponse, got {other:?}"),
    }
    assert_eq!(server.requests().len(), 1);

    let server = StandIn::start(
        vec![Reply::json(json!({"object": "chat.completion"}))],
        None,
    );
    let cfg = config(ProviderKind::Openai, &server.base, "");
    let err = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .unwrap_err();
    assert!(err.to_string().contains("choices"), "{err}");
}

#[test]
fn openai_standin_dropped_connection_is_retried() {
    let (base, accepted) = dropping_server(2, openai_text("survived", 5, 5));
    let cfg = config(ProviderKind::Openai, &base, "");
    let resp = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .expect("reply");
    assert_eq!(resp.text, "survived");
    assert_eq!(resp.usage.calls, 3);
    assert_eq!(*accepted.lock().expect("lock"), 3);
}

#[test]
fn openai_standin_connection_refused_exhausts_as_transient() {
    // Bind then drop a listener: nothing listens on that port any more.
    let port = crate::common::quiet_port();
    let mut cfg = config(
        ProviderKind::Openai,
        &format!("http://127.0.0.1:{port}"),
        "",
    );
    cfg.max_retries = 2;
    let err = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .unwrap_err();
    assert!(
        matches!(err, ProviderError::Exhausted { attempts: 3, .. }),
        "{err:?}"
    );
}

/// The agreement loop may drive blocking agents from `tokio::task::spawn_blocking`: the blocking
/// client must work (and be dropped) there without panicking.
#[test]
fn openai_standin_provider_works_inside_tokio_spawn_blocking() {
    let server = StandIn::start(
        vec![Reply::json(openai_text("from a blocking task", 1, 1))],
        None,
    );
    let cfg = config(ProviderKind::Openai, &server.base, "");
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let text = rt
        .block_on(async move {
            tokio::task::spawn_blocking(move || {
                let provider = build_provider(&cfg).expect("provider");
                provider.chat(&hello()).map(|r| r.text)
            })
            .await
        })
        .expect("join")
        .expect("reply");
    assert_eq!(text, "from a blocking task");
}

#[test]
fn openai_standin_cached_prompt_tokens_are_billed_at_the_cache_price() {
    let mut body = openai_text("ok", 1000, 100);
    body["usage"]["prompt_tokens_details"] = json!({"cached_tokens": 800});
    let server = StandIn::start(vec![Reply::json(body)], None);
    let mut cfg = config(ProviderKind::Openai, &server.base, "");
    cfg.cache_read_price_per_mtok = Some(0.5);
    let resp = build_provider(&cfg)
        .expect("provider")
        .chat(&hello())
        .expect("reply");
    assert_eq!(resp.usage.input_tokens, 1000);
    // 200 plain at 2/M + 800 cached at 0.5/M + 100 output at 8/M.
    let expected = (200.0 * 2.0 + 800.0 * 0.5 + 100.0 * 8.0) / 1e6;
    assert!(
        (resp.usage.cost_usd - expected).abs() < 1e-12,
        "{}",
        resp.usage.cost_usd
    );
}
