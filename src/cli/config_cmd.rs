//! `tuplewright config`: print the documented default or the effective configuration.

use std::process::ExitCode;

use clap::Args;

use super::context::load_config;
use super::Cli;
use crate::engine::config::DEFAULT_TOML;

/// Arguments of `config`.
#[derive(Debug, Args)]
#[command(
    about = "Print the effective configuration (or the documented default with --default)",
    long_about = "tuplewright reads tuplewright.toml (or --config PATH). Every key is optional; unknown \
keys are rejected with their path. `tuplewright config --default > tuplewright.toml` writes a \
commented starting point; `tuplewright config` shows the values in effect (file merged over defaults)."
)]
pub struct ConfigArgs {
    /// Print the documented default configuration instead of the effective one.
    #[arg(long)]
    pub default: bool,
}

/// Runs `config`.
pub fn run(cli: &Cli, args: &ConfigArgs) -> anyhow::Result<ExitCode> {
    if args.default {
        print!("{DEFAULT_TOML}");
    } else {
        let config = load_config(cli)?;
        println!("# effective configuration (file: {})", cli.config.display());
        print!("{}", config.to_toml());
    }
    Ok(ExitCode::SUCCESS)
}
