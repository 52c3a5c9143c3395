//! `tuplewright synth`: build a clearly-marked synthetic store (benchmarks, tests, demos).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::context::{load_config, open_store};
use super::Cli;
use crate::engine::synth;

/// Arguments of `synth`.
#[derive(Debug, Args)]
#[command(
    about = "Fill the store with SYNTHETIC labelled tuples shaped like the paper's corpus (for benchmarks and tests)",
    long_about = "Write N synthetic final tuples (default 32,112, the paper's corpus size) plus vote- and \
rollout-rejected ones in the paper's proportions into --store, with labels sampled from the paper's \
Appendix F tables. Synthetic tasks have ids starting with synth_, origin synthetic:..., and `stats` \
announces them. Use a separate store: tuplewright --store synth.db synth\n\
With --bundles DIR, write N synthetic public-layout bundle directories instead (import benchmarks)."
)]
pub struct SynthArgs {
    /// Number of final tuples.
    #[arg(long, default_value_t = 32_112)]
    pub n: usize,
    /// Random seed (same seed, same data).
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// Write bundle directories here instead of filling the store.
    #[arg(long)]
    pub bundles: Option<PathBuf>,
    /// Allow adding synthetic tuples to a store that already holds real tasks.
    #[arg(long)]
    pub force: bool,
}

/// Runs `synth`.
pub fn run(cli: &Cli, args: &SynthArgs) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &args.bundles {
        synth::write_bundles(dir, args.n, args.seed)?;
        println!(
            "wrote {} SYNTHETIC bundle(s) under {}",
            args.n,
            dir.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let config = load_config(cli)?;
    let mut store = open_store(cli, &config)?;
    let real: i64 = store.conn().query_row(
        "SELECT COUNT(*) FROM tasks WHERE origin NOT LIKE 'synthetic:%'",
        [],
        |r| r.get(0),
    )?;
    if real > 0 && !args.force {
        anyhow::bail!(
            "{} holds {real} real task(s); synthetic tuples would mix into its statistics. \
             Use another --store (or --force)",
            cli.store.display()
        );
    }
    let total = synth::populate(&mut store, args.n, args.seed)?;
    println!(
        "wrote {total} SYNTHETIC tuple(s) ({} final) into {}",
        args.n,
        cli.store.display()
    );
    Ok(ExitCode::SUCCESS)
}
