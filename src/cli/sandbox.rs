//! `tuplewright sandbox …`: run one script in the sandbox, or build the script virtualenv.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};
use serde_json::json;

use crate::engine::sandbox::{
    parse_reward, run_script, setup, Isolation, Role, SandboxConfig, SandboxError, SandboxSpec,
    Script,
};

/// `tuplewright sandbox` subcommands.
#[derive(Debug, Subcommand)]
pub enum SandboxCommand {
    /// Run one Python script in the sandbox against an environment and print the typed result as JSON.
    ///
    /// Example: `tuplewright sandbox run --role reader --home envs/e1/home --sid e1 --app team-chat
    /// --state-url http://127.0.0.1:8101 --api-port 3000 reward.py`. Exit status: 0 if the script
    /// exited 0, 1 if it failed (exit code, timeout, limit), 3 if the sandbox is unavailable or broken.
    Run(RunArgs),
    /// Build the script virtualenv (Debian python3 -m venv + pinned packages from
    /// assets/python/requirements.txt). Needs PyPI reachable; run as root for /opt.
    Setup(SetupArgs),
}

/// Arguments of `tuplewright sandbox run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Role: `setup` (initial_setup.py), `golden` (golden_patch.py) or `reader` (reward.py, read-only).
    #[arg(long)]
    pub role: Role,
    /// The environment's home directory (seen as /home/user; read-only for `reader`).
    #[arg(long)]
    pub home: PathBuf,
    /// The environment's state-API session id (written to /tmp/task_web_sid, TW_SID).
    #[arg(long, default_value = "local")]
    pub sid: String,
    /// App name exported as TW_APP.
    #[arg(long, default_value = "")]
    pub app: String,
    /// The host-side state API server, e.g. http://127.0.0.1:8101 (omit for files-only environments).
    #[arg(long)]
    pub state_url: Option<String>,
    /// Port the API answers on inside the sandbox (`http://localhost:<port>`): the app's conventional port.
    #[arg(long, default_value_t = 8000)]
    pub api_port: u16,
    /// Wall-clock timeout in seconds (default from config: 120).
    #[arg(long)]
    pub timeout: Option<f64>,
    /// Path of the bubblewrap binary (default /usr/bin/bwrap).
    #[arg(long)]
    pub bwrap: Option<PathBuf>,
    /// Parse stdout with the reward protocol and add a `reward` (or `reward_error`) field.
    #[arg(long)]
    pub reward: bool,
    /// DANGEROUS: run without bubblewrap if it is missing (no isolation); recorded on the result.
    #[arg(long)]
    pub unsafe_no_sandbox: bool,
    /// The Python script to run.
    pub script: PathBuf,
}

/// Arguments of `tuplewright sandbox setup`.
#[derive(Debug, Args)]
pub struct SetupArgs {
    /// Where to build the virtualenv (default /opt/tuplewright/venv).
    #[arg(long)]
    pub venv: Option<PathBuf>,
}

fn upstream_addr(url: &str) -> anyhow::Result<SocketAddr> {
    let rest = url.strip_prefix("http://").with_context(|| {
        format!("--state-url `{url}` must start with http:// (e.g. http://127.0.0.1:8101)")
    })?;
    let hostport = rest.split('/').next().unwrap_or(rest);
    let hostport = hostport.replace("localhost", "127.0.0.1");
    hostport
        .parse()
        .with_context(|| format!("--state-url `{url}`: `{hostport}` is not an IP:port address"))
}

/// Dispatch `tuplewright sandbox …`; settings come from the `[sandbox]` table of `--config`.
pub fn run(cmd: SandboxCommand, cli: &super::Cli) -> anyhow::Result<ExitCode> {
    let mut cfg = super::context::load_config(cli)?.sandbox;
    match cmd {
        SandboxCommand::Setup(args) => {
            if let Some(v) = args.venv {
                cfg.venv_dir = v;
            }
            setup::build_venv(&cfg)?;
            println!("{}", json!({"venv": cfg.venv_dir, "ok": true}));
            Ok(ExitCode::SUCCESS)
        }
        SandboxCommand::Run(args) => run_one(cfg, args),
    }
}

fn run_one(mut cfg: SandboxConfig, args: RunArgs) -> anyhow::Result<ExitCode> {
    if let Some(b) = args.bwrap {
        cfg.bwrap_path = b;
    }
    let mut limits = cfg.limits.clone();
    if let Some(t) = args.timeout {
        anyhow::ensure!(
            t > 0.0 && t.is_finite(),
            "--timeout must be a positive number of seconds"
        );
        limits.wall_seconds = t;
    }
    let source = std::fs::read_to_string(&args.script)
        .with_context(|| format!("reading script {}", args.script.display()))?;
    let name = args
        .script
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("script.py")
        .to_string();
    let upstream = args.state_url.as_deref().map(upstream_addr).transpose()?;
    let home = std::fs::canonicalize(&args.home)
        .with_context(|| format!("--home {} does not exist", args.home.display()))?;
    let spec = SandboxSpec {
        home,
        sid: args.sid,
        app: args.app,
        upstream,
        api_port: args.api_port,
        extra_apis: vec![],
        hand_home_to_reader: false,
        localise: Default::default(),
        forward_headers: Default::default(),
        display: None,
        run_as: None,
    };
    let isolation = if args.unsafe_no_sandbox {
        Isolation::UnsafeNoSandbox
    } else {
        Isolation::Required
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let script = Script { name, source };
    match rt.block_on(run_script(
        &cfg, &spec, args.role, &script, &limits, isolation,
    )) {
        Ok(result) => {
            let mut out = serde_json::to_value(&result)?;
            if args.reward {
                match parse_reward(&result.stdout.text) {
                    Ok(r) => out["reward"] = serde_json::to_value(r)?,
                    Err(e) => out["reward_error"] = json!({"message": e.to_string(), "error": e}),
                }
            }
            println!("{}", serde_json::to_string_pretty(&out)?);
            Ok(if result.succeeded() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Err(e) => {
            let kind = match e {
                SandboxError::Unavailable { .. } => "sandbox_unavailable",
                SandboxError::Invalid(_) => "invalid_request",
                SandboxError::Setup(_) => "sandbox_setup_failed",
                SandboxError::Io { .. } => "sandbox_io_error",
            };
            println!(
                "{}",
                json!({"outcome": {"kind": kind, "message": e.to_string()}})
            );
            eprintln!("error: {e}");
            Ok(ExitCode::from(3))
        }
    }
}
