//! `tuplewright screen …`: start a screen by hand — take a screenshot of a page or of a task's
//! s_init on its own UI, or hold a display open (to look at it, or to test the sweep of killed
//! runs).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Subcommand};

use crate::engine::screen::{BrowserSpec, Screen, ScreenSize};

use super::Cli;

/// `tuplewright screen`.
#[derive(Debug, Args)]
pub struct ScreenArgs {
    #[command(subcommand)]
    command: ScreenCommand,
}

#[derive(Debug, Subcommand)]
enum ScreenCommand {
    /// Open URL in Chromium on a fresh screen, wait until it is drawn, write a PNG screenshot;
    /// or, with --task, the screen a trial of that task starts on (its s_init on its app's UI).
    Shot(ShotArgs),
    /// Start a screen (with Chromium on URL if given), print `{"display": …, "work_dir": …}`
    /// once it is drawn, and keep it until SIGTERM/Ctrl-C or --seconds pass.
    Hold(HoldArgs),
}

#[derive(Debug, Args)]
struct Common {
    /// Page to open in Chromium (kiosk mode). Its host:port is the only origin it may reach.
    #[arg(long)]
    url: Option<String>,
    /// Display width (default: `[screen] width`).
    #[arg(long)]
    width: Option<u16>,
    /// Display height (default: `[screen] height`).
    #[arg(long)]
    height: Option<u16>,
}

#[derive(Debug, Args)]
struct ShotArgs {
    #[command(flatten)]
    common: Common,
    /// Where to write the PNG.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// A task of the store: set up its V_init with its final-round initial_setup.py (sandboxed)
    /// and shoot the screen a trial starts on. Nothing is recorded.
    #[arg(long, value_name = "ID", conflicts_with = "url")]
    task: Option<String>,
    /// With --task: the app the task must be of (an error names the task's apps otherwise).
    #[arg(long, requires = "task")]
    app: Option<String>,
    /// With --task: run the setup WITHOUT the bubblewrap sandbox. Dangerous.
    #[arg(long, requires = "task")]
    unsafe_no_sandbox: bool,
}

/// The first screen of a trial of `a.task` (s_init on its UI): a `noop --screen` trial whose
/// screenshot is kept and whose record is not.
fn task_shot(cli: &Cli, a: &ShotArgs, id: &str) -> anyhow::Result<Vec<u8>> {
    use crate::engine::agents::replay::NoAgent;
    use crate::engine::rollout::live_steps::NoFeed;
    use crate::engine::rollout::trial::run_trial;
    use crate::engine::rollout::ui_oracle::NoopScreenPolicy;

    let (config, _store, task, scripts) = super::env_try::tuple_of(cli, id, "screen shot --task")?;
    let mut screen = config.screen.clone();
    // --width/--height win over `[screen.apps.<app>]` too: the task's app decides nothing here.
    screen.override_size(a.common.width, a.common.height);
    let policy = NoopScreenPolicy { screen };
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let trial = super::loop_env::with_loop_runtime(
        &config,
        a.unsafe_no_sandbox,
        (&NoAgent, &NoAgent),
        &cancel,
        |rt| -> anyhow::Result<_> {
            let brief = super::env_try::brief_in(rt, &task, &scripts)?;
            if let Some(app) = &a.app {
                anyhow::ensure!(
                    brief.apps.iter().any(|x| x == app),
                    "task {id} is of {}, not {app}",
                    brief.apps.join(" + ")
                );
            }
            Ok(run_trial(rt, &brief, &scripts, &policy, None, 1, &NoFeed))
        },
    )??;
    if let Some(f) = &trial.record.failure {
        anyhow::bail!("screen shot --task {id}: {f}");
    }
    trial
        .steps
        .into_iter()
        .find_map(|s| s.screenshot_png)
        .with_context(|| format!("screen shot --task {id}: the trial took no screenshot"))
}

#[derive(Debug, Args)]
struct HoldArgs {
    #[command(flatten)]
    common: Common,
    /// Give up the screen after this many seconds (default: until killed).
    #[arg(long)]
    seconds: Option<f64>,
}

/// The origin (`host:port`) of an http(s) URL.
fn origin(url: &str) -> anyhow::Result<String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .with_context(|| format!("--url {url}: only http:// and https:// URLs can be opened"))?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    anyhow::ensure!(!host.is_empty(), "--url {url}: no host");
    Ok(host.to_string())
}

fn open(cli: &Cli, c: &Common) -> anyhow::Result<(Screen, Option<Vec<u8>>)> {
    let cfg = super::context::load_config(cli)?.screen;
    cfg.validate().map_err(anyhow::Error::msg)?;
    let size = ScreenSize {
        width: c.width.unwrap_or(cfg.width),
        height: c.height.unwrap_or(cfg.height),
    };
    let mut screen = Screen::start(&cfg, size)?;
    let png = match &c.url {
        Some(url) => {
            let spec = BrowserSpec {
                url: url.clone(),
                allow: origin(url)?,
            };
            Some(screen.open_browser(&cfg, &spec)?.png)
        }
        None => None,
    };
    Ok((screen, png))
}

/// Runs `tuplewright screen …`.
pub fn run(cli: &Cli, args: &ScreenArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        ScreenCommand::Shot(a) => {
            let png = match &a.task {
                Some(id) => task_shot(cli, a, id)?,
                None => {
                    let (mut screen, png) = open(cli, &a.common)?;
                    match png {
                        Some(p) => p,
                        None => screen.screenshot()?.png,
                    }
                }
            };
            let tmp = a.out.with_extension("png.tmp");
            std::fs::write(&tmp, &png).with_context(|| format!("writing {}", tmp.display()))?;
            std::fs::rename(&tmp, &a.out)
                .with_context(|| format!("writing {}", a.out.display()))?;
            println!("{}", a.out.display());
        }
        ScreenCommand::Hold(a) => {
            let (mut screen, _) = open(cli, &a.common)?;
            let line = serde_json::json!({
                "display": screen.display_name(),
                "work_dir": screen.work_dir(),
                "pid": std::process::id(),
            });
            let mut out = std::io::stdout().lock();
            writeln!(out, "{line}")?;
            out.flush()?;
            drop(out);
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .context("starting the signal runtime")?;
            let seconds = a.seconds.map(|s| Duration::from_secs_f64(s.max(0.0)));
            rt.block_on(async {
                let limit = async {
                    match seconds {
                        Some(d) => tokio::time::sleep(d).await,
                        None => std::future::pending().await,
                    }
                };
                let watch = async {
                    loop {
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        if let Err(e) = screen.check() {
                            return e;
                        }
                    }
                };
                tokio::select! {
                    r = super::env::wait_for_signal() => r,
                    () = limit => Ok(()),
                    e = watch => Err(e.into()),
                }
            })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
