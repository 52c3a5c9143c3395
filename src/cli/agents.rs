//! `tuplewright agents check SPEC`: one tiny request to an LLM provider, to verify a base URL, model
//! name and API key before a long run.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand};
use serde_json::json;

use crate::engine::providers::{build_provider, ChatRequest, Message, ProviderConfig, ToolSpec};

/// `tuplewright agents ...`
#[derive(Debug, Args)]
pub struct AgentsArgs {
    #[command(subcommand)]
    pub command: AgentsCommand,
}

/// The `agents` subcommands.
#[derive(Debug, Subcommand)]
pub enum AgentsCommand {
    /// Send one tiny request to an LLM provider and print the reply, tokens, cost and latency.
    ///
    /// Examples:
    ///   tuplewright agents check openai:gpt-4.1-mini
    ///   tuplewright agents check openai:qwen2.5-coder-32b@http://127.0.0.1:8000/v1 --tools
    ///   tuplewright agents check openai:llama3.1:8b@http://localhost:11434/v1
    ///   tuplewright agents check anthropic:claude-sonnet-4-5 --key-env MY_ANTHROPIC_KEY
    ///
    /// Exit codes: 0 the provider answered; 1 it did not (the error says why); 2 bad arguments.
    #[command(verbatim_doc_comment)]
    Check(CheckArgs),
}

/// Arguments of `agents check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Provider spec: `openai:MODEL[@BASE_URL]` (any OpenAI-compatible server; BASE_URL includes
    /// `/v1`) or `anthropic:MODEL[@BASE_URL]`.
    pub spec: String,
    /// Name of the environment variable holding the API key [default: OPENAI_API_KEY or
    /// ANTHROPIC_API_KEY]. An unset variable sends no key (fine for local servers).
    #[arg(long, value_name = "VAR")]
    pub key_env: Option<String>,
    /// Whole-request timeout in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Retries on 429, 5xx, timeouts and dropped connections (0 to 5).
    #[arg(long, default_value_t = 1)]
    pub retries: u32,
    /// Also offer a tool and report whether the model called it (the agents rely on tool calls).
    #[arg(long)]
    pub tools: bool,
}

/// Runs `agents ...`.
pub fn run(args: AgentsArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        AgentsCommand::Check(check) => run_check(check),
    }
}

fn run_check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let mut config = ProviderConfig::from_spec(&args.spec, &ProviderConfig::default())?;
    if let Some(var) = &args.key_env {
        config.api_key_env.clone_from(var);
    }
    config.request_timeout_secs = args.timeout;
    config.max_retries = args.retries;
    config.max_tokens = 256;
    config.backoff_base_ms = 500;
    config.backoff_max_ms = 10_000;
    let provider = build_provider(&config)?;
    let mut request = ChatRequest {
        system: "You are a connectivity check. Follow the instruction exactly.".into(),
        messages: vec![Message::User("Reply with the single word OK.".into())],
        tools: Vec::new(),
    };
    if args.tools {
        request.messages = vec![Message::User(
            "Call the `echo` tool once with text \"OK\". Do not answer in prose.".into(),
        )];
        request.tools.push(ToolSpec {
            name: "echo".into(),
            description: "Echoes its text argument.".into(),
            parameters: json!({"type": "object", "properties": {"text": {"type": "string"}},
                               "required": ["text"]}),
        });
    }
    println!(
        "provider  {} at {} (key from {}: {})",
        provider.name(),
        config.base_url_or_default(),
        config.api_key_env_or_default(),
        if config.api_key().is_some() {
            "set"
        } else {
            "not set"
        }
    );
    let started = Instant::now();
    match provider.chat(&request) {
        Ok(resp) => {
            let u = &resp.usage;
            println!(
                "reply     {:?}",
                crate::engine::providers::excerpt(&resp.text, 200)
            );
            for call in &resp.tool_calls {
                println!("tool call {}({})", call.name, call.arguments);
            }
            println!("stop      {}", resp.stop_reason);
            println!(
                "usage     {} requests, {} input + {} output tokens, ${:.6}",
                u.calls, u.input_tokens, u.output_tokens, u.cost_usd
            );
            println!("latency   {:.2} s", started.elapsed().as_secs_f64());
            if args.tools && resp.tool_calls.is_empty() {
                eprintln!(
                    "warning: the model did not call the offered tool; the agents will fall back \
to fenced blocks"
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(err) => {
            eprintln!("error: {err}");
            Ok(ExitCode::from(1))
        }
    }
}
