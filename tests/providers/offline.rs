//! Parts that need no server: spec strings, config validation, the fenced-block parser, prompts.

use std::sync::Arc;

use tuplewright::engine::agents::llm::reply::{extract_files, fenced_blocks};
use tuplewright::engine::agents::llm::{LlmAgentConfig, LlmDiscriminator, LlmGenerator};
use tuplewright::engine::providers::{
    build_provider, provider_from_spec, ProviderConfig, ProviderError, ProviderKind,
};

use crate::providers::agent_config;

#[test]
fn spec_strings_parse_kind_model_and_base_url() {
    let d = ProviderConfig::default();
    let c = ProviderConfig::from_spec("openai:qwen2.5-coder@http://127.0.0.1:8000/v1", &d)
        .expect("spec");
    assert_eq!(c.kind, ProviderKind::Openai);
    assert_eq!(c.model, "qwen2.5-coder");
    assert_eq!(c.base_url_or_default(), "http://127.0.0.1:8000/v1");
    assert_eq!(c.api_key_env_or_default(), "OPENAI_API_KEY");
    assert_eq!(c.max_tokens_field_or_default(), "max_tokens");
    let hosted = ProviderConfig::from_spec("openai:gpt-x", &d).expect("hosted");
    assert_eq!(hosted.base_url_or_default(), "https://api.openai.com/v1");
    assert_eq!(
        hosted.max_tokens_field_or_default(),
        "max_completion_tokens"
    );

    let c = ProviderConfig::from_spec("openai:llama3.1:8b@http://localhost:11434/v1/", &d)
        .expect("ollama spec");
    assert_eq!(c.model, "llama3.1:8b");
    assert_eq!(c.base_url_or_default(), "http://localhost:11434/v1");

    let c = ProviderConfig::from_spec("anthropic:claude-x@2025", &d).expect("model with @");
    assert_eq!(c.kind, ProviderKind::Anthropic);
    assert_eq!(c.model, "claude-x@2025");
    assert_eq!(c.base_url_or_default(), "https://api.anthropic.com");
    assert_eq!(c.api_key_env_or_default(), "ANTHROPIC_API_KEY");
    assert_eq!(c.display_name(), "anthropic:claude-x@2025");
}

#[test]
fn spec_strings_keep_timeouts_and_prices_of_the_defaults() {
    let d = ProviderConfig {
        request_timeout_secs: 42.0,
        input_price_per_mtok: 3.0,
        api_key_env: "MY_KEY".into(),
        ..ProviderConfig::default()
    };
    let c = ProviderConfig::from_spec("openai:m", &d).expect("spec");
    assert_eq!(c.request_timeout_secs, 42.0);
    assert_eq!(c.input_price_per_mtok, 3.0);
    assert_eq!(c.api_key_env_or_default(), "MY_KEY");
    // Switching kind drops the other kind's key variable and URL.
    let c = ProviderConfig::from_spec("anthropic:m", &d).expect("spec");
    assert_eq!(c.api_key_env_or_default(), "ANTHROPIC_API_KEY");
}

#[test]
fn bad_specs_and_configs_are_clear_errors() {
    let d = ProviderConfig::default();
    for (spec, needle) in [
        ("gpt-4", "no `kind:`"),
        ("gemini:pro", "unknown provider kind \"gemini\""),
        ("openai:", "empty model name"),
        ("openai:m@ftp://x", "must start with http"),
    ] {
        let err = ProviderConfig::from_spec(spec, &d).unwrap_err().to_string();
        assert!(err.contains(needle), "{spec}: {err}");
    }
    let too_many = ProviderConfig {
        model: "m".into(),
        max_retries: 9,
        ..ProviderConfig::default()
    };
    let err = build_provider(&too_many)
        .err()
        .expect("rejected")
        .to_string();
    assert!(
        err.contains("max_retries") && err.contains("at most 5"),
        "{err}"
    );
    let bad_timeout = ProviderConfig {
        model: "m".into(),
        request_timeout_secs: 0.0,
        ..ProviderConfig::default()
    };
    let err = build_provider(&bad_timeout)
        .err()
        .expect("rejected")
        .to_string();
    assert!(err.contains("request_timeout_secs"), "{err}");
    assert!(matches!(
        provider_from_spec("nope", &d).err(),
        Some(ProviderError::Config(_))
    ));
}

#[test]
fn provider_config_reads_from_toml_with_defaults() {
    let c: ProviderConfig = toml::from_str(
        "kind = \"anthropic\"\nmodel = \"claude\"\napi_key_env = \"K\"\nmax_retries = 3\n",
    )
    .expect("toml");
    assert_eq!(c.kind, ProviderKind::Anthropic);
    assert_eq!(c.max_retries, 3);
    assert_eq!(
        c.request_timeout_secs,
        ProviderConfig::default().request_timeout_secs
    );
    let agents: LlmAgentConfig = toml::from_str("max_turns = 4").expect("toml");
    assert_eq!(agents.max_turns, 4);
    assert_eq!(agents.max_reprompts, 2);
}

#[test]
fn fenced_parser_names_blocks_and_reports_unclosed_ones() {
    let text = "x\n```python\n# file: reward.py\nprint(1)\n```\n````golden_patch.py\n```\ninner\n```\n````\n";
    let blocks = fenced_blocks(text).expect("blocks");
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].name.as_deref(), Some("reward.py"));
    assert_eq!(blocks[1].name.as_deref(), Some("golden_patch.py"));
    assert_eq!(blocks[1].body, "```\ninner\n```\n");

    let err = fenced_blocks("ok\n```initial_setup.py\nprint(1)\n").unwrap_err();
    assert!(
        err.contains("opened at line 2") && err.contains("never closed"),
        "{err}"
    );

    let err = extract_files("```initial_setup.py\na\n```", &["reward.py"], true).unwrap_err();
    assert!(err.contains("writes only reward.py"), "{err}");
    // Two unnamed python blocks are ambiguous: nothing is taken.
    let two = "```python\na\n```\n```python\nb\n```\n";
    assert!(extract_files(two, &["reward.py"], true)
        .expect("ok")
        .is_empty());
}

#[test]
fn a_missing_prompt_file_is_an_error_naming_the_path() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("orchestrator.md"), "notes").expect("write");
    let agents = LlmAgentConfig {
        prompts_dir: dir.path().to_path_buf(),
        ..LlmAgentConfig::default()
    };
    let cfg = ProviderConfig {
        model: "m".into(),
        base_url: "http://127.0.0.1:9/v1".into(),
        ..ProviderConfig::default()
    };
    let provider = build_provider(&cfg).expect("provider");
    let err = LlmGenerator::new(Arc::clone(&provider), agents.clone())
        .err()
        .expect("missing generator.md")
        .to_string();
    assert!(
        err.contains(&dir.path().join("generator.md").display().to_string()),
        "{err}"
    );
    let err = LlmDiscriminator::new(provider, agents)
        .err()
        .expect("missing discriminator.md")
        .to_string();
    assert!(err.contains("discriminator.md"), "{err}");
    // The shipped prompts are all present.
    assert!(agent_config()
        .check_prompts(tuplewright::engine::agents::llm::prompt::Role::Generator)
        .is_ok());
}

#[test]
fn long_tool_output_keeps_its_head_and_its_reward_line() {
    use tuplewright::engine::providers::head_tail;
    let stdout = format!("START\n{}\nREWARD: 1.0\n", "x".repeat(10_000));
    let cut = head_tail(&stdout, 200);
    assert!(cut.len() < 300, "{}", cut.len());
    assert!(cut.starts_with("START"));
    assert!(cut.ends_with("REWARD: 1.0\n"));
    assert!(cut.contains("characters cut"));
    assert_eq!(head_tail("short", 200), "short");
}
