//! `tuplewright env try TASK_ID`: a person tries a task on its screen; the harness scores the
//! final state with reward.py and records the trial as a `human` rollout.

use std::io::Write as _;
use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;
use clap::Args;

use super::context::{load_config, open_existing_store};
use super::loop_env::with_loop_runtime;
use super::Cli;
use crate::engine::access::vnc::password_for;
use crate::engine::agents::replay::NoAgent;
use crate::engine::bundle::meta::final_round;
use crate::engine::harness::task::{brief_for, LoopRuntime};
use crate::engine::harness::Bus;
use crate::engine::rollout::human::{HumanPolicy, TryAccess};
use crate::engine::rollout::live_steps::NoFeed;
use crate::engine::rollout::stage::store_trial;
use crate::engine::rollout::trial::run_trial;

/// Arguments of `env try`.
#[derive(Debug, Args)]
pub struct TryArgs {
    /// The task to try (its final-round scripts set up V_init and score the result).
    pub task_id: String,
    /// Done when this file appears (instead of Enter or Ctrl-C): for scripted use.
    #[arg(long, value_name = "FILE")]
    pub until: Option<PathBuf>,
    /// The VNC server program.
    #[arg(long, default_value = "x11vnc")]
    pub x11vnc: PathBuf,
    /// Address the VNC server listens on. Off loopback it always asks for a password (from
    /// --vnc-password-file, else a fresh one printed once); prefer an SSH tunnel to loopback.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub vnc_host: IpAddr,
    /// The VNC password (one line, 6-8 printable ASCII characters), also on loopback.
    #[arg(long, value_name = "FILE")]
    pub vnc_password_file: Option<PathBuf>,
    /// Print the access line and the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Run scripts WITHOUT the bubblewrap sandbox (recorded). Dangerous.
    #[arg(long)]
    pub unsafe_no_sandbox: bool,
}

fn announce(json: bool) -> impl Fn(&TryAccess) + Send + Sync {
    move |access| {
        let mut out = std::io::stdout().lock();
        let _ = match (access, json) {
            (
                TryAccess::Vnc {
                    host,
                    port,
                    display,
                    password,
                },
                true,
            ) => writeln!(
                out,
                "{}",
                serde_json::json!({"vnc": std::net::SocketAddr::new(*host, *port).to_string(),
                    "display": display, "password": password})
            ),
            (
                TryAccess::Vnc {
                    host,
                    port,
                    display,
                    password: None,
                },
                false,
            ) => writeln!(
                out,
                "The desktop ({display}) is on VNC at {host}:{port} (loopback only, no \
                 password): e.g. `vncviewer {host}:{port}`, or from another machine \
                 `ssh -L {port}:127.0.0.1:{port} HOST` first.\nPress Enter (or Ctrl-C) when done."
            ),
            (
                TryAccess::Vnc {
                    host,
                    port,
                    display,
                    password: Some(p),
                },
                false,
            ) => writeln!(
                out,
                "The desktop ({display}) is on VNC at {}: password {p} (shown only now; \
                 VNC traffic is not encrypted, an SSH tunnel to loopback is safer).\nPress \
                 Enter (or Ctrl-C) when done.",
                std::net::SocketAddr::new(*host, *port)
            ),
            (TryAccess::Url(url), true) => {
                writeln!(out, "{}", serde_json::json!({"url": url}))
            }
            (TryAccess::Url(url), false) => writeln!(
                out,
                "Open {url} in your browser and do the task.\nPress Enter (or Ctrl-C) when done."
            ),
        };
        let _ = out.flush();
    }
}

/// The configuration, the store, and task `id` with its final-round scripts (what a trial of
/// it needs, with [`brief_in`]); `what` names the command in errors.
pub fn tuple_of(
    cli: &Cli,
    id: &str,
    what: &str,
) -> anyhow::Result<(
    crate::engine::config::Config,
    crate::engine::store::Store,
    crate::engine::store::StoredTask,
    crate::engine::store::Scripts,
)> {
    let config = load_config(cli)?;
    config.screen.validate().map_err(anyhow::Error::msg)?;
    let store = open_existing_store(cli, &config)?;
    let task = store.task(id).with_context(|| format!("{what} {id}"))?;
    let rounds = store.rounds(id)?;
    let scripts = final_round(&rounds)
        .map(|r| r.round.scripts.clone())
        .with_context(|| {
            format!("task {id} has no round with all three scripts: nothing to set up or score")
        })?;
    Ok((config, store, task, scripts))
}

/// The brief of `task` as a trial sees it: its app names resolved by the fleet (`[apps]`
/// aliases, `[[apps.external]]` apps) and a category such as `mock_websites` by what its
/// `scripts` reach — as `rollout` and `verify` resolve it.
pub fn brief_in(
    rt: &LoopRuntime<'_>,
    task: &crate::engine::store::StoredTask,
    scripts: &crate::engine::store::Scripts,
) -> anyhow::Result<crate::engine::agents::TaskBrief> {
    Ok(brief_for(task, rt.cfg, rt.fleet.resolver(), Some(scripts))?)
}

/// Runs `env try`.
pub fn run(cli: &Cli, args: &TryArgs) -> anyhow::Result<ExitCode> {
    let vnc_password = password_for(args.vnc_host, args.vnc_password_file.as_deref())?;
    let (config, store, task, scripts) = tuple_of(cli, &args.task_id, "env try")?;
    let bus = Bus::new(store, vec![])?;
    let done = Arc::new(AtomicBool::new(false));
    if args.until.is_none() {
        let flag = done.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            if std::io::stdin().read_line(&mut line).is_ok() {
                flag.store(true, Ordering::SeqCst);
            }
        });
    }
    let policy = HumanPolicy {
        screen: config.screen.clone(),
        x11vnc: args.x11vnc.clone(),
        vnc_host: args.vnc_host,
        vnc_password,
        done,
        until: args.until.clone(),
        announce: Box::new(announce(args.json)),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let trial = with_loop_runtime(
        &config,
        args.unsafe_no_sandbox,
        (&NoAgent, &NoAgent),
        &cancel,
        |rt| -> anyhow::Result<_> {
            let brief = brief_in(rt, &task, &scripts)?;
            Ok(run_trial(rt, &brief, &scripts, &policy, None, 1, &NoFeed))
        },
    )??;
    let summary = store_trial(&bus, 1, &trial)?;
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        match (&summary.reward, &summary.failure) {
            (Some(r), _) => println!(
                "reward {r} (recorded as human trial {})",
                summary.rollout_id
            ),
            (None, Some(f)) => println!("no score: {f}"),
            (None, None) => println!("no score"),
        }
    }
    Ok(if summary.failure.is_none() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
