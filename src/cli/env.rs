//! `tuplewright env …`: serve the built-in apps' state API, list the apps.

use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Subcommand};

use crate::engine::env::apps::AppKind;
use crate::engine::env::{self, AppRegistry, ServerConfig};

/// `tuplewright env`.
#[derive(Debug, Args)]
pub struct EnvArgs {
    #[command(subcommand)]
    command: EnvCommand,
}

#[derive(Debug, Subcommand)]
enum EnvCommand {
    /// Serve one or more apps' state API (POST /post, GET /go, GET /state, POST /upload,
    /// GET /files/<sid>/<name>, DELETE /session, GET /health), each app on its own port.
    ///
    /// Prints one JSON line `{"app": …, "url": …}` per app once it is listening, then serves
    /// until Ctrl-C (or SIGTERM). Example: `tuplewright env serve --app team-chat --port 0`.
    Serve(Box<ServeArgs>),
    /// List the built-in apps (name, kind, conventional port, title).
    Apps(AppsArgs),
    /// Try a stored task by hand: provisions V_init with its screen and prints how to use it
    /// (a desktop: a VNC port on 127.0.0.1 without password, or with --vnc-host one with a password; a web app: its
    /// UI's URL). When you are done (Enter, Ctrl-C or the --until file), reward.py scores the
    /// final state and the trial is recorded as a `human` rollout.
    /// Example: `tuplewright env try files_tidy_001`.
    Try(super::env_try::TryArgs),
}

#[derive(Debug, Args)]
struct ServeArgs {
    /// App to serve (repeatable). See `tuplewright env apps`. With --osworld: the app(s) whose
    /// environment (with its screen) is served, e.g. `files`, `mail` (several: one environment
    /// on a combined screen).
    #[arg(long = "app", value_name = "NAME", required_unless_present_any = ["all", "osworld"])]
    apps: Vec<String>,
    /// Serve ONE environment with its screen on OSWorld's guest-server protocol (/screenshot,
    /// /execute, /run_python, /setup/upload, /file, …) instead of the state API; commands run in
    /// the sandbox with DISPLAY set to the screen. Prints `{"osworld": URL, "display": …}`.
    #[arg(long, conflicts_with = "all")]
    osworld: bool,
    /// With --osworld: a stored task whose initial_setup.py prepares the environment (V_init).
    #[arg(long, value_name = "ID", requires = "osworld", conflicts_with = "apps")]
    task: Option<String>,
    /// With --osworld: run commands WITHOUT the bubblewrap sandbox (recorded). Dangerous.
    #[arg(long, requires = "osworld")]
    unsafe_no_sandbox: bool,
    /// Serve every state-API app.
    #[arg(long, conflicts_with = "apps")]
    all: bool,
    /// Port of the first app; the next apps take the following ports. Default: `[env] port`,
    /// else each app's conventional port. 0 = ephemeral ports (read the URLs from the JSON lines).
    #[arg(long)]
    port: Option<u16>,
    /// Address to listen on. Default: `[env] host` (127.0.0.1). Any other address needs access
    /// control (a token and/or --allow-from), or the server refuses to start.
    #[arg(long)]
    host: Option<IpAddr>,
    #[command(flatten)]
    access: AccessArgs,
    /// Directory where sessions are stored (kept across restarts). Default: `[env] state_dir`
    /// (tuplewright-env-state).
    #[arg(long, value_name = "DIR")]
    state_dir: Option<PathBuf>,
    /// Directory of app overrides: `<dir>/<app>/manifest.toml` and `seed.json`. Default:
    /// `[env] apps_dir`.
    #[arg(long, value_name = "DIR")]
    apps_dir: Option<PathBuf>,
    /// Sessions untouched for this many seconds are deleted. Default: `[env] session_ttl_secs`
    /// (3600).
    #[arg(long)]
    ttl_secs: Option<u64>,
    /// Largest accepted request body in bytes (larger gets 413). Default: `[env]
    /// body_limit_bytes` (16 MiB).
    #[arg(long)]
    body_limit_bytes: Option<usize>,
    /// Most bytes the loaded sessions may hold in memory together; idle sessions are evicted to
    /// disk beyond it, and a state that cannot fit is refused (507). Default: `[env]
    /// cache_bytes` (256 MiB).
    #[arg(long)]
    cache_bytes: Option<u64>,
    /// Most open connections per app (the next one gets 503 too_many_connections). Default:
    /// `[env] max_connections` (4096).
    #[arg(long)]
    max_connections: Option<usize>,
    /// A request head must arrive within this many milliseconds of its first byte. Default:
    /// `[env] header_timeout_ms` (10000).
    #[arg(long)]
    header_timeout_ms: Option<u64>,
    /// A connection on which nothing moves for this many milliseconds is closed. Default:
    /// `[env] idle_timeout_ms` (60000).
    #[arg(long)]
    idle_timeout_ms: Option<u64>,
}

/// Access control of a served face (`[env]` keys; see docs/state-server.md, "Serving beyond
/// this machine").
#[derive(Debug, Args)]
struct AccessArgs {
    /// Require the token held in FILE (one line, 16-1024 printable ASCII characters), sent as
    /// `Authorization: Bearer TOKEN` or `X-Tuplewright-Token: TOKEN`. Default: `[env] token_file`.
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// Require the token held in environment variable VAR. Default: `[env] token_env`.
    #[arg(long, value_name = "VAR")]
    token_env: Option<String>,
    /// Require a fresh random token, printed once at start (`{"token": …}` on stdout).
    #[arg(long)]
    generate_token: bool,
    /// Serve only clients from these CIDR blocks or addresses (repeatable, or several after one
    /// flag), e.g. `--allow-from 10.0.0.0/8 192.0.2.7`. Default: `[env] allow_from`.
    #[arg(long, value_name = "CIDR", num_args = 1..)]
    allow_from: Vec<String>,
    /// Serve HTTPS with this certificate chain (PEM); needs --tls-key. Default: `[env] tls_cert`.
    #[arg(long, value_name = "PEM", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The private key (PEM) of --tls-cert. Default: `[env] tls_key`.
    #[arg(long, value_name = "PEM", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct AppsArgs {
    /// Directory of app overrides, as for `env serve`.
    #[arg(long, value_name = "DIR")]
    apps_dir: Option<PathBuf>,
    /// Print JSON lines instead of a table.
    #[arg(long)]
    json: bool,
}

/// Runs `tuplewright env …`.
pub fn run(cli: &super::Cli, args: EnvArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        EnvCommand::Serve(a) if a.osworld => {
            let cfg = server_config(cli, &a)?;
            super::env_osworld::run(
                cli,
                &super::env_osworld::OsworldServe {
                    apps: a.apps,
                    task: a.task,
                    port: a.port.unwrap_or(5000),
                    host: cfg.host,
                    access: cfg.access_settings(),
                    unsafe_no_sandbox: a.unsafe_no_sandbox,
                },
            )
        }
        EnvCommand::Serve(a) => serve(cli, *a),
        EnvCommand::Apps(a) => apps(a),
        EnvCommand::Try(a) => super::env_try::run(cli, &a),
    }
}

fn apps(args: AppsArgs) -> anyhow::Result<ExitCode> {
    let reg = AppRegistry::with_overrides(args.apps_dir.as_deref())?;
    for app in reg.iter() {
        let m = &app.manifest;
        let kind = match m.kind {
            AppKind::StateApi => "state-api",
            AppKind::Files => "files", // not the app: the manifest kind
            AppKind::Desktop => "desktop",
        };
        if args.json {
            let line = serde_json::json!({"name": m.name, "kind": kind, "port": m.port, "title": m.title,
                "volatile": m.volatile, "entities": m.entities.iter().map(|e| &e.key).collect::<Vec<_>>()});
            println!("{line}");
        } else {
            let port = m.port.map(|p| p.to_string()).unwrap_or_else(|| "-".into());
            println!("{:<16} {:<10} {:<6} {}", m.name, kind, port, m.title);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The server's configuration: the config file's `[env]` table, each flag given overriding its key.
fn server_config(cli: &super::Cli, args: &ServeArgs) -> anyhow::Result<ServerConfig> {
    let mut cfg = super::context::load_config(cli)?.env;
    fn set<T: Clone>(key: &mut T, flag: &Option<T>) {
        if let Some(v) = flag {
            *key = v.clone();
        }
    }
    if args.port.is_some() {
        cfg.port = args.port;
    }
    if args.apps_dir.is_some() {
        cfg.apps_dir = args.apps_dir.clone();
    }
    set(&mut cfg.host, &args.host);
    set(&mut cfg.state_dir, &args.state_dir);
    set(&mut cfg.session_ttl_secs, &args.ttl_secs);
    set(&mut cfg.body_limit_bytes, &args.body_limit_bytes);
    set(&mut cfg.cache_bytes, &args.cache_bytes);
    set(&mut cfg.max_connections, &args.max_connections);
    set(&mut cfg.header_timeout_ms, &args.header_timeout_ms);
    set(&mut cfg.idle_timeout_ms, &args.idle_timeout_ms);
    let a = &args.access;
    if a.token_file.is_some() || a.token_env.is_some() || a.generate_token {
        // A token flag replaces whichever token source the config named.
        cfg.token_file = a.token_file.clone();
        cfg.token_env = a.token_env.clone();
        cfg.generate_token = a.generate_token;
    }
    if !a.allow_from.is_empty() {
        cfg.allow_from = a.allow_from.clone();
    }
    if a.tls_cert.is_some() {
        cfg.tls_cert = a.tls_cert.clone();
        cfg.tls_key = a.tls_key.clone();
    }
    Ok(cfg)
}

fn serve(cli: &super::Cli, args: ServeArgs) -> anyhow::Result<ExitCode> {
    let cfg = server_config(cli, &args)?;
    let reg = AppRegistry::with_overrides(cfg.apps_dir.as_deref())?;
    let apps: Vec<Arc<env::App>> = if args.all {
        reg.served()
    } else {
        let mut out = Vec::new();
        for name in &args.apps {
            let app = reg.get(name)?;
            anyhow::ensure!(
                app.manifest.kind == AppKind::StateApi,
                "app {name:?} is the files domain (a home directory), it has no state API to serve"
            );
            out.push(app);
        }
        out
    };
    super::init_tracing("info");
    let host = cfg.host;
    let rt = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    rt.block_on(async move {
        let handle = env::spawn(cfg, apps).await?;
        show_token(handle.generated_token.as_deref());
        say_access(host, &handle.access.report());
        for app in &handle.apps {
            let url = handle.url(&app.name).unwrap_or_default();
            println!("{}", serde_json::json!({"app": app.name, "url": url}));
        }
        wait_for_signal().await?;
        eprintln!("shutting down");
        handle.shutdown().await;
        Ok(ExitCode::SUCCESS)
    })
}

/// Says on stderr what protects a face listening off loopback.
pub(super) fn say_access(host: IpAddr, r: &crate::engine::access::AccessReport) {
    if crate::engine::access::is_loopback(host) {
        return;
    }
    let allow = match r.allow_from.is_empty() {
        true => "any address".to_string(),
        false => r.allow_from.join(", "),
    };
    eprintln!(
        "serving on {host}: token {}, clients from {allow}, {}",
        if r.token { "required" } else { "not required" },
        if r.tls { "TLS" } else { "plain HTTP (no TLS)" }
    );
}

/// Prints a generated token, once: `{"token": …}` on stdout, how to send it on stderr.
pub(super) fn show_token(token: Option<&str>) {
    if let Some(t) = token {
        println!("{}", serde_json::json!({"token": t}));
        eprintln!(
            "access token generated (shown only now): send `Authorization: Bearer {t}` (or \
             X-Tuplewright-Token, or a URL http://tw:{t}@HOST:PORT)"
        );
    }
}

pub(super) async fn wait_for_signal() -> anyhow::Result<()> {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .context("installing the SIGTERM handler")?;
    tokio::select! {
        r = tokio::signal::ctrl_c() => r.context("waiting for Ctrl-C")?,
        _ = term.recv() => {}
    }
    Ok(())
}
