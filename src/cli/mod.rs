//! The command-line face: argument parsing (clap) and one small module per subcommand.
//! Each subcommand module only translates arguments into engine calls and prints results.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod agents;
mod apps;
mod apps_check;
mod config_cmd;
mod context;
pub mod env;
mod env_osworld;
mod env_try;
mod envgen;
mod export;
mod export_traj;
mod filter;
mod import;
mod job;
mod loop_env;
mod osworld;
mod override_bulk;
mod override_cmd;
mod rollout;
pub mod run;
mod run_agents;
mod run_output;
mod run_plan;
pub mod sandbox;
pub mod scan;
mod screen;
mod stats;
mod store_cmd;
mod synth;
mod taskgen;
mod tasks;
mod tasks_views;
pub mod verify;
mod worker;
mod worker_stages;

/// Global options shared by every subcommand.
#[derive(Debug, Parser)]
#[command(
    name = "tuplewright",
    version,
    about = "Manufacture verified RLVR training tuples (t, s_init, s_gold, r) for computer-use agents",
    long_about = "tuplewright runs the CUA-Gym pipeline as code: task generation, the \
Generator/Discriminator agreement loop under an OS-enforced information barrier, the critic filter and \
teacher rollouts. Everything is kept in one SQLite store; verified tuples export to OSWorld-compatible \
bundles.\n\nWith no subcommand it opens the terminal workbench on the store."
)]
pub struct Cli {
    /// The store holding tasks, rounds, votes, decisions and events: a SQLite file, or a
    /// PostgreSQL database as `postgres://user:password@host:port/db` (docs/scale-out.md).
    #[arg(
        long,
        global = true,
        env = "TUPLEWRIGHT_STORE",
        default_value = "tuplewright.db"
    )]
    pub store: PathBuf,
    /// Configuration file (TOML). Missing file = built-in defaults.
    #[arg(
        long,
        global = true,
        env = "TUPLEWRIGHT_CONFIG",
        default_value = "tuplewright.toml"
    )]
    pub config: PathBuf,
    /// Headless mode: plain output, no terminal user interface.
    #[arg(long, global = true)]
    pub no_tui: bool,
    /// Workbench: observe only — no decisions or runs are started from the terminal UI.
    #[arg(long, global = true)]
    pub readonly: bool,
    /// Workbench: keymap file whose `[keys]` table overrides only the actions it names
    /// (e.g. `down = ["j", "ctrl-n"]`; press `?` in the workbench for the action names).
    #[arg(
        long,
        global = true,
        env = "TUPLEWRIGHT_KEYMAP",
        default_value = "tuplewright-keys.toml"
    )]
    pub keymap: PathBuf,
    /// Workbench: colour theme, `dark`, `light` or a theme TOML file (see themes/). NO_COLOR is honoured.
    #[arg(long, global = true, env = "TUPLEWRIGHT_THEME", default_value = "dark")]
    pub theme: String,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Import task-generation JSON and public-layout bundle directories into the store.
    Import(import::ImportArgs),
    /// Export verified tuples as OSWorld-compatible bundles.
    Export(export::ExportArgs),
    /// Dataset statistics of the paper's Appendix F, from the store.
    Stats(stats::StatsArgs),
    /// List tasks or show one task.
    Tasks(tasks::TasksArgs),
    /// Print the effective or the documented default configuration.
    Config(config_cmd::ConfigArgs),
    /// Build a clearly-marked synthetic store (benchmarks and tests).
    Synth(synth::SynthArgs),
    /// Environments: serve the built-in apps' state API, list the apps.
    Env(env::EnvArgs),
    /// App packs: list the environments, check a pack's conformance, copy a pack to a new app.
    Apps(apps::AppsArgs),
    /// Web apps from a spec (issue #32): compile a spec pack, check it in a real browser, plan
    /// or build one with the LLM agents.
    Envgen(envgen::EnvgenArgs),
    /// LLM providers for the agents: check a provider spec with one tiny request.
    Agents(agents::AgentsArgs),
    /// Run agent-written Python in the bubblewrap sandbox (`run`), or build its virtualenv (`setup`).
    #[command(subcommand)]
    Sandbox(sandbox::SandboxCommand),
    /// Run the agreement loop on task files (headless) and export verified tuples.
    Run(run::RunArgs),
    /// Re-verify existing tuples (C1-C5, determinism, noop probe) with no agent.
    Verify(verify::VerifyArgs),
    /// Scan reward scripts for forbidden patterns (agreement condition C5).
    #[command(long_about = scan::LONG_ABOUT)]
    Scan(scan::ScanArgs),
    /// Critic majority vote over loop-accepted tuples.
    Filter(filter::FilterArgs),
    /// Decide a tuple by hand, undo a decision, or apply a rules file.
    Override(override_cmd::OverrideArgs),
    /// Roll a policy out on tuples (oracle/noop probes, or a teacher deciding inclusion).
    Rollout(rollout::RolloutArgs),
    /// Export stored rollout trials as training data (osworld, sft, sliced).
    ExportTrajectories(export_traj::ExportTrajArgs),
    /// Generate tasks from the feature taxonomies, or report coverage (A.2.5 targets).
    #[command(long_about = taskgen::LONG_ABOUT)]
    Taskgen(taskgen::TaskgenArgs),
    /// Screens: a virtual display with Chromium on a page — screenshot it or hold it open.
    Screen(screen::ScreenArgs),
    /// OSWorld guest endpoints (VMs) as environments: check them, verify a bundle on them.
    Osworld(osworld::OsworldArgs),
    /// Drain the store's queue by task lease (many workers on one PostgreSQL store).
    Worker(worker::WorkerArgs),
    /// Store maintenance: copy a store between backends (SQLite <-> PostgreSQL).
    #[command(subcommand)]
    Store(store_cmd::StoreCommand),
    /// Pause, resume or cancel the job of every worker on the store; its token budget.
    #[command(subcommand)]
    Job(job::JobCommand),
}

/// Entry point used by `main.rs`: parse, dispatch, map errors to exit codes.
pub fn main() -> ExitCode {
    // Before the arguments are parsed: their help and choices list the apps.
    let config = context::config_path_from_args(std::env::args_os().skip(1));
    if let Err(err) = context::load_local_packs(&config) {
        eprintln!("error: {err:#}");
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Sends the engine's `tracing` events to stderr, filtered by `RUST_LOG` or else `default`
/// (once per process; later calls keep the first).
pub(crate) fn init_tracing(default: &str) {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default)),
        )
        .try_init();
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let mut cli = cli;
    let command = cli.command.take();
    // Headless, the engine's warnings (a pre-started environment discarded, an application
    // started once more) go to stderr; `RUST_LOG` widens or narrows them. `env` sets its own.
    if cli.no_tui && !matches!(command, Some(Command::Env(_))) {
        init_tracing("warn");
    }
    match command {
        None if cli.no_tui => {
            anyhow::bail!(
                "--no-tui needs a subcommand (the workbench is the terminal UI); run `tuplewright --help`"
            )
        }
        None => {
            crate::tui::run(&crate::tui::TuiOptions {
                store: cli.store.clone(),
                readonly: cli.readonly,
                keymap: cli.keymap.clone(),
                theme: cli.theme.clone(),
                config: (cli.config.as_path() != std::path::Path::new("tuplewright.toml")
                    || cli.config.exists())
                .then(|| cli.config.clone()),
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Some(cmd) => match cmd {
            Command::Import(args) => import::run(&cli, &args),
            Command::Export(args) => export::run(&cli, &args),
            Command::Stats(args) => stats::run(&cli, &args),
            Command::Tasks(args) => tasks::run(&cli, &args),
            Command::Config(args) => config_cmd::run(&cli, &args),
            Command::Synth(args) => synth::run(&cli, &args),
            Command::Env(args) => env::run(&cli, args),
            Command::Apps(args) => apps::run(&cli, &args),
            Command::Envgen(args) => envgen::run(&cli, &args),
            Command::Screen(args) => screen::run(&cli, &args),
            Command::Osworld(args) => osworld::run(&cli, &args),
            Command::Agents(args) => agents::run(args),
            Command::Sandbox(c) => sandbox::run(c, &cli),
            Command::Run(args) => run::run(&cli, &args),
            Command::Scan(args) => scan::run(args),
            Command::Verify(args) => verify::run(&cli, &args),
            Command::Filter(args) => filter::run(&cli, &args),
            Command::Override(args) => override_cmd::run(&cli, &args),
            Command::Rollout(args) => rollout::run(&cli, &args),
            Command::ExportTrajectories(args) => export_traj::run(&cli, &args),
            Command::Taskgen(args) => taskgen::run(&cli, &args),
            Command::Worker(args) => worker::run(&cli, &args),
            Command::Store(c) => store_cmd::run(&cli, &c),
            Command::Job(c) => job::run(&cli, &c),
        },
    }
}
