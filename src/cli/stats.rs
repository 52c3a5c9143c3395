//! `tuplewright stats`: the Appendix F tables from the store.

use std::process::ExitCode;

use clap::Args;

use super::context::{load_config, open_existing_store};
use super::Cli;
use crate::engine::stats::{compute_with, render, Population};

/// Arguments of `stats`.
#[derive(Debug, Args)]
#[command(
    about = "Dataset statistics (paper Appendix F): scenarios, domain x difficulty, verbs, app pairs, lengths, yield, coverage, cost",
    long_about = "Reproduce the paper's Appendix F tables from the store: tasks per scenario with shares; \
the domain x difficulty matrix; top first imperative verbs (fillers like \"Please\", \"I want to\" \
skipped); cross-app pair co-occurrence; instruction-length buckets with mean and percentiles; yield per \
stage; the A.2.5 coverage targets (largest category <= 21%, hard >= 40%, cross-app >= 35%) met or not; \
token and cost totals at the prices of [stats.prices] in tuplewright.toml.\n\n\
By default the tables describe the final tuples, or every task when none is final yet.\n\
Example: tuplewright stats --json > stats.json"
)]
pub struct StatsArgs {
    /// Stable JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Which tuples the distribution tables describe.
    #[arg(long, value_enum, default_value_t = Population::Auto)]
    pub population: Population,
}

/// Runs `stats`.
pub fn run(cli: &Cli, args: &StatsArgs) -> anyhow::Result<ExitCode> {
    let config = load_config(cli)?;
    let store = open_existing_store(cli, &config)?;
    let stats = compute_with(
        &store,
        &config.stats,
        args.population,
        &config.taskgen.targets,
    )?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&stats)?);
    } else {
        print!("{}", render(&stats));
    }
    Ok(ExitCode::SUCCESS)
}
