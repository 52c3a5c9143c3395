//! `tuplewright --no-tui run TASKS.json…`: the agreement loop over task files, headless.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context as _;
use clap::Args;

use super::context::{load_config, open_leases, open_store};
use super::loop_env::with_loop_runtime;
use super::run_output::{events_listener, print_summary, Exported, Progress};
use super::Cli;
use crate::engine::bundle::export::{export, ExportOptions};
use crate::engine::bundle::import::import_paths;
use crate::engine::bundle::taskgen::parse_file;
use crate::engine::harness::{run_batch, BatchOptions, Bus};
use crate::engine::store::TupleStatus;

/// Arguments of `run`.
#[derive(Debug, Args)]
#[command(
    about = "Run the agreement loop on task files and export the verified tuples",
    long_about = "Imports the task files into the store, then runs the Generator/Discriminator agreement \
loop (at most K rounds per task) with the harness checking C1-C5 itself, and exports every accepted tuple \
as a bundle.\n\nWith no agent options it uses the embedded scripted agents: no network, no API key.\n\n\
Exit status: 0 done (tasks may still have been rejected), 1 infrastructure failures occurred, 2 usage error.\n\
Ctrl-C stops gracefully (environments torn down, store consistent; `--resume` continues); a second Ctrl-C \
forces.\n\nExample: tuplewright --no-tui run assets/tasks/*.json --jobs 4"
)]
pub struct RunArgs {
    /// Task-generation JSON files.
    #[arg(required = true)]
    pub tasks: Vec<PathBuf>,
    /// Tasks run concurrently (default: [loop].jobs).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Maximum rounds per task (default: [loop].max_rounds, 5).
    #[arg(long)]
    pub max_rounds: Option<u32>,
    /// Generator: `scripted` (default: [agents].generator), `openai:MODEL[@BASE_URL]`,
    /// `anthropic:MODEL`, or an external coding-agent CLI `command:claude|codex|kimi|<argv template>`
    /// (see docs/command-agents.md).
    #[arg(long)]
    pub generator: Option<String>,
    /// Discriminator (default: [agents].discriminator): `scripted`, `openai:MODEL[@BASE_URL]`,
    /// `anthropic:MODEL`, or `command:claude|codex|kimi|<argv template>`.
    #[arg(long)]
    pub discriminator: Option<String>,
    /// Scripted Generator only: probability of a realistic mistake in early rounds (0.0-1.0;
    /// default: [agents.scripted].fault_rate, 0).
    #[arg(long)]
    pub fault_rate: Option<f64>,
    /// Scripted Generator only: most mistakes per task (1-3); above 1, a crash can hide a
    /// regression that only the next round reveals (default: [agents.scripted].fault_depth, 1).
    #[arg(long)]
    pub fault_depth: Option<u32>,
    /// Seed of the scripted agents (default: [agents.scripted].seed, 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Where accepted bundles are exported (default: [export].out_dir, output/final).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Do not export accepted bundles.
    #[arg(long)]
    pub no_export: bool,
    /// Skip tasks the store already finished (continue an interrupted run).
    #[arg(long)]
    pub resume: bool,
    /// Also write every event as a JSON line to PATH (`-` = stdout).
    #[arg(long, value_name = "PATH")]
    pub events_jsonl: Option<PathBuf>,
    /// Run scripts WITHOUT the bubblewrap sandbox (recorded on every result). Dangerous.
    #[arg(long)]
    pub unsafe_no_sandbox: bool,
}

/// Task ids of the given files, in order, without duplicates.
fn task_ids(paths: &[PathBuf]) -> anyhow::Result<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut ids = Vec::new();
    for p in paths {
        let text =
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
        let items =
            parse_file(&text, &p.display().to_string()).map_err(|e| anyhow::anyhow!("{e}"))?;
        for t in items.into_iter().flatten() {
            if seen.insert(t.task_id.clone()) {
                ids.push(t.task_id);
            }
        }
    }
    Ok(ids)
}

/// Runs `run`.
pub fn run(cli: &Cli, args: &RunArgs) -> anyhow::Result<ExitCode> {
    let mut config = load_config(cli)?;
    if let Some(j) = args.jobs {
        config.agreement.jobs = j;
    }
    if let Some(k) = args.max_rounds {
        config.agreement.max_rounds = k;
    }
    config
        .agreement
        .validate()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(f) = args.fault_rate.filter(|f| !(0.0..=1.0).contains(f)) {
        anyhow::bail!("--fault-rate {f} is outside 0.0..=1.0");
    }
    let mut store = open_store(cli, &config)?;
    let imported = import_paths(&mut store, &args.tasks, &mut |_, _| {})?;
    for p in &imported.problems {
        eprintln!("skipped: {p}");
    }
    let mut ids = task_ids(&args.tasks)?;
    if args.resume {
        ids.retain(|id| {
            store.effective_status(id).is_ok_and(|s| {
                s == TupleStatus::Pending.as_str() || s == TupleStatus::InLoop.as_str()
            })
        });
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let (generator, discriminator) =
        super::run_agents::build(args, &config, cancel.clone()).context("building the agents")?;
    let progress = Arc::new(Progress::new(ids.len(), cli.no_tui));
    let mut listeners = vec![progress.listener()];
    if let Some(path) = &args.events_jsonl {
        listeners.push(events_listener(path)?);
    }
    let bus = Bus::new(store, listeners)?;
    let leases = open_leases(cli, &config)?;
    let elsewhere = leases.held_elsewhere(&ids)?;
    if !elsewhere.is_empty() {
        eprintln!(
            "{} of {} task(s) are leased by another live process and will be skipped",
            elsewhere.len(),
            ids.len()
        );
    }
    let opts = BatchOptions {
        jobs: config.agreement.jobs,
        statuses: args.resume.then(BatchOptions::resumable),
        leases: Some(leases),
    };
    let summary = with_loop_runtime(
        &config,
        args.unsafe_no_sandbox,
        (generator.as_ref(), discriminator.as_ref()),
        &cancel,
        |runtime| {
            run_batch(runtime, &bus, &ids, &opts, &|task, outcome| {
                progress.task_done(task, outcome)
            })
        },
    )?;
    progress.finish();
    let exported = if args.no_export || summary.accepted.is_empty() {
        None
    } else {
        let out = args
            .out
            .clone()
            .unwrap_or_else(|| config.export.out_dir.clone());
        let mut done = 0;
        let mut skipped = Vec::new();
        for task in &summary.accepted {
            let opts = ExportOptions {
                out: out.clone(),
                url_prefix: config.export.url_prefix.clone(),
                statuses: vec![],
                task: Some(task.clone()),
            };
            let s = bus.read(|store| export(store, &opts))?;
            done += s.written + s.unchanged;
            skipped.extend(s.skipped);
        }
        Some(Exported {
            out,
            count: done,
            skipped,
        })
    };
    print_summary(&summary, exported.as_ref(), cancel.load(Ordering::Relaxed));
    Ok(if summary.infra_failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
