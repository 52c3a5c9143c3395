//! `tuplewright env serve --osworld [--task ID | --app APP…] [--port N]`: one environment with
//! its screen — the files desktop, a web app's UI in Chromium, an external app's page, or the
//! combined screen of several apps — served on OSWorld's guest-server protocol (engine:
//! `engine::osworld`).

use std::net::IpAddr;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use super::context::{load_config, open_store};
use super::env_try::brief_in;
use super::loop_env::with_loop_runtime;
use super::Cli;
use crate::engine::access::Access;
use crate::engine::agents::replay::NoAgent;
use crate::engine::bundle::meta::final_round;
use crate::engine::harness::execute::{describe, tail, Runner};
use crate::engine::osworld::{serve, Guest, GuestOptions, GuestTimeouts};
use crate::engine::rollout::guest_display::open_display;
use crate::engine::sandbox::{Limits, Role};

/// What `env serve --osworld` was asked for.
pub struct OsworldServe {
    /// `--app` (when no task): the environment's apps (none = `files`).
    pub apps: Vec<String>,
    /// `--task`: a stored task whose setup prepares V_init.
    pub task: Option<String>,
    /// The port (0 = any free one).
    pub port: u16,
    /// The address (loopback by default).
    pub host: IpAddr,
    /// Access control (`[env]` keys and flags): needed off loopback.
    pub access: crate::engine::access::AccessSettings,
    /// `--unsafe-no-sandbox`.
    pub unsafe_no_sandbox: bool,
}

/// Runs `env serve --osworld`.
pub fn run(cli: &Cli, args: &OsworldServe) -> anyhow::Result<ExitCode> {
    // Checked before anything is provisioned: an unprotected address never starts.
    let (access, token) = Access::resolve("the OSWorld face", args.host, &args.access)?;
    let mut config = load_config(cli)?;
    // The guest is a local environment, whatever [loop] environments says.
    config.agreement.environments = crate::engine::harness::Environments::Local;
    config.screen.validate().map_err(anyhow::Error::msg)?;
    let setup = match &args.task {
        Some(id) => {
            let store = open_store(cli, &config)?;
            let task = store
                .task(id)
                .with_context(|| format!("env serve --osworld --task {id}"))?;
            let rounds = store.rounds(id)?;
            let scripts = final_round(&rounds)
                .map(|r| r.round.scripts.clone())
                .with_context(|| format!("task {id} has no round with all three scripts"))?;
            Some((task, scripts))
        }
        None => None,
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let out = with_loop_runtime(
        &config,
        args.unsafe_no_sandbox,
        (&NoAgent, &NoAgent),
        &cancel,
        |rt| -> anyhow::Result<()> {
            let (label, apps) = match &setup {
                Some((task, scripts)) => {
                    // Names resolved as `rollout` resolves them: `[apps]` aliases, external
                    // apps, and a `mock_websites` category by what the scripts reach.
                    let brief = brief_in(rt, task, scripts)?;
                    (brief.task_id, brief.apps)
                }
                None if args.apps.is_empty() => ("osworld".to_string(), vec!["files".into()]),
                None => {
                    let r = rt.fleet.resolver();
                    let apps = args
                        .apps
                        .iter()
                        .map(|a| {
                            r.canonical(a).with_context(|| {
                                format!("--app {a}: no such app (see `tuplewright env apps`)")
                            })
                        })
                        .collect::<anyhow::Result<Vec<_>>>()?;
                    ("osworld".to_string(), apps)
                }
            };
            let env = rt.fleet.provision(&label, "osworld", &apps)?;
            if let Some((_, scripts)) = &setup {
                let source = scripts
                    .setup
                    .as_deref()
                    .context("the task has no initial_setup.py")?;
                let runner = Runner {
                    rt: &rt.rt,
                    cfg: rt.sandbox,
                    isolation: rt.isolation,
                };
                let limits = Limits {
                    wall_seconds: rt.cfg.script_timeout_secs,
                    ..rt.sandbox.limits.clone()
                };
                let r = runner.run(&env, Role::Setup, "initial_setup.py", source, &limits)?;
                anyhow::ensure!(
                    r.succeeded(),
                    "initial_setup.py failed on a fresh V_init ({}): {}",
                    describe(&r.outcome).unwrap_or_default(),
                    tail(&r.stderr.text, 3)
                );
            }
            let screen = open_display(&config.screen, &apps, &env)?;
            let kind = screen.kind();
            let opts = GuestOptions {
                sandbox: rt.sandbox.clone(),
                isolation: rt.isolation,
                screen: config.screen.clone(),
                timeouts: GuestTimeouts::default(),
                max_file_bytes: rt.sandbox.limits.request_body_bytes.max(64 << 20),
            };
            let guest = Arc::new(Guest::new(screen, env.spec(), opts)?);
            let display = guest.display_name();
            // The last reference is dropped here, outside the runtime: a web screen's UI origin
            // stops its own runtime when dropped, which cannot happen inside another.
            let keep = guest.clone();
            let stop = cancel.clone();
            rt.rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind((args.host, args.port))
                    .await
                    .with_context(|| format!("listening on {}:{}", args.host, args.port))?;
                let addr = listener.local_addr()?;
                super::env::show_token(token.as_deref());
                super::env::say_access(args.host, &access.report());
                let scheme = access.scheme();
                println!(
                    "{}",
                    serde_json::json!({"osworld": format!("{scheme}://{addr}"), "display": display,
                        "task": args.task, "apps": apps, "screen": kind})
                );
                let shutdown = async move {
                    let poll = async {
                        while !stop.load(Ordering::SeqCst) {
                            tokio::time::sleep(Duration::from_millis(200)).await;
                        }
                    };
                    tokio::select! {
                        _ = super::env::wait_for_signal() => {}
                        _ = poll => {}
                    }
                };
                serve(guest, listener, access, shutdown).await?;
                eprintln!("shutting down");
                anyhow::Ok(())
            })?;
            drop(keep);
            drop(env);
            Ok(())
        },
    )?;
    out?;
    Ok(ExitCode::SUCCESS)
}
