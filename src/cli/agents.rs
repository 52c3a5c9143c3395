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
    ///   tuplewright agents check vlm:openai:Qwen/Qwen2.5-VL-7B-Instruct@http://127.0.0.1:8000/v1 --screen
    ///
    /// With --screen (VLM policy specs: vlm:openai:…, anthropic:…, openai-responses:…) a page
    /// with a red disc at a known place is shown on a real screen, the model is asked to click
    /// it, and the error in pixels is printed.
    ///
    /// Exit codes: 0 the provider answered (and, with --screen, clicked within --tolerance);
    /// 1 it did not (the error says why); 2 bad arguments.
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
    /// Calibrate a VLM policy's coordinates on a real screen (Xvfb + Chromium).
    #[arg(long)]
    pub screen: bool,
    /// With --screen: the coordinate space to assume (pixels, smart-resize[:F:MIN:MAX],
    /// smart-resize:paper, rel1000, rel1) [default: the model family's].
    #[arg(long, value_name = "SPACE")]
    pub coords: Option<String>,
    /// With --screen: the action format of a vlm:openai model (qwen-xml, qwen-json, uitars).
    #[arg(long)]
    pub format: Option<String>,
    /// With --screen: the largest acceptable error, pixels.
    #[arg(long, default_value_t = 12.0)]
    pub tolerance: f64,
}

/// Runs `agents ...`.
pub fn run(args: AgentsArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        AgentsCommand::Check(check) => run_check(check),
    }
}

fn run_check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    if args.screen {
        return run_screen_check(&args);
    }
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

fn run_screen_check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    use crate::engine::rollout::vlm::{calibrate, is_vlm_spec, wire_from_spec, VlmConfig};
    if !is_vlm_spec(&args.spec) {
        anyhow::bail!(
            "--screen takes a VLM policy spec (vlm:openai:MODEL[@URL], anthropic:MODEL, \
             openai-responses:MODEL), got `{}`",
            args.spec
        );
    }
    let cfg = VlmConfig {
        api_key_env: args.key_env.clone().unwrap_or_default(),
        request_timeout_secs: args.timeout,
        max_retries: args.retries,
        backoff_base_ms: 500,
        max_new_tokens: 512,
        temperature: 0.0,
        coords: args.coords.clone().unwrap_or_default(),
        format: args.format.clone().unwrap_or_default(),
        ..VlmConfig::default()
    };
    let wire = wire_from_spec(&args.spec, &cfg).map_err(|e| anyhow::anyhow!(e))?;
    let screen = crate::engine::screen::ScreenConfig::default();
    let size = screen.size_for("calibration");
    let started = Instant::now();
    let c = match calibrate::calibrate(wire.as_ref(), &screen, size, &cfg.limits()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    println!("policy    {}", wire.name());
    println!(
        "screen    {}x{}, image sent {}x{}, coordinates {}",
        c.screen.0, c.screen.1, c.image.0, c.image.1, c.space
    );
    println!(
        "reply     {:?}",
        crate::engine::providers::excerpt(&c.reply, 200)
    );
    println!("target    ({}, {})", c.target.0, c.target.1);
    println!("latency   {:.2} s", started.elapsed().as_secs_f64());
    match (c.clicked, c.error_px) {
        (Some((x, y)), Some(err)) => {
            println!("clicked   ({x}, {y})");
            println!("error     {err:.1} px (tolerance {:.1})", args.tolerance);
            if err > args.tolerance {
                eprintln!(
                    "error: the click missed by {err:.1} px: the model probably answers in another \
                     coordinate space than {} (try --coords)",
                    c.space
                );
                return Ok(ExitCode::from(1));
            }
            Ok(ExitCode::SUCCESS)
        }
        _ => {
            eprintln!(
                "error: no click to measure: {}",
                c.problem
                    .unwrap_or_else(|| "the reply had no pointer action".into())
            );
            Ok(ExitCode::from(1))
        }
    }
}
