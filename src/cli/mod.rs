//! The command-line face: argument parsing (clap) and one small module per subcommand.
//! Each subcommand module only translates arguments into engine calls and prints results.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub mod sandbox;

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
    /// Path of the SQLite store holding tasks, rounds, votes, decisions and events.
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
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run agent-written Python in the bubblewrap sandbox (`run`), or build its virtualenv (`setup`).
    #[command(subcommand)]
    Sandbox(sandbox::SandboxCommand),
}

/// Entry point used by `main.rs`: parse, dispatch, map errors to exit codes.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        None => {
            anyhow::bail!(
                "the terminal workbench is not built yet; run `tuplewright --help` for the available subcommands"
            )
        }
        Some(cmd) => match cmd {
            Command::Sandbox(c) => sandbox::run(c, &cli.config),
        },
    }
}
