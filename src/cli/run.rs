//! `tuplewright --no-tui run TASKS.json…`: the agreement loop over task files, headless.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context as _;
use clap::Args;

use super::context::{load_config, open_leases, open_store};
use super::loop_env::isolation;
use super::run_output::{events_listener, print_summary, Exported, Progress};
use super::Cli;
use crate::engine::agents::spec::AgentSpec;
use crate::engine::bundle::deliver::Delivery;
use crate::engine::bundle::import::import_paths;
use crate::engine::bundle::nofollow::read_regular;
use crate::engine::bundle::taskgen::parse_file;
use crate::engine::harness::{BatchSummary, Bus, JobControl};
use crate::engine::jobs::run::{RunEnv, RunSpec};
use crate::engine::jobs::{JobEvent, JobEventKind};
use crate::engine::store::TupleStatus;

/// Arguments of `run`.
#[derive(Debug, Args)]
#[command(
    about = "Run the agreement loop on task files and export the verified tuples",
    long_about = "Imports the task files into the store, then runs the Generator/Discriminator agreement \
loop (at most K rounds per task) with the harness checking C1-C5 itself, and exports each tuple as a \
bundle the moment it is accepted (atomically). At the end --out holds every accepted tuple of the task \
files, also those an earlier, interrupted run accepted, and none a person rejected meanwhile.\n\n\
Running the same task files again works only on the unfinished tasks (pending, or interrupted in \
the loop: they continue from their last recorded round). Finished tasks — accepted, failed, decided \
by the critics or a person, imported — are left as they are and counted per status; `--rerun ID…` \
runs those ids again as a new attempt, recording (and printing) which decision it overrides.\n\n\
With no agent options it uses the embedded scripted agents: no network, no API key.\n\n\
Exit status: 0 done (tasks may still have been rejected, some may have been invalid), 1 infrastructure \
failures occurred (sandbox, store or export; resumable), 2 usage error or bad input: unreadable task files, \
or not one valid task.\n\
Ctrl-C stops gracefully (environments torn down, store consistent; `--resume` continues); a second Ctrl-C \
forces.\n\nExample: tuplewright --no-tui run crates/engine/src/apps/*/tasks.json assets/tasks/*.json --jobs 4"
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
    pub generator: Option<AgentSpec>,
    /// Discriminator (default: [agents].discriminator): `scripted`, `openai:MODEL[@BASE_URL]`,
    /// `anthropic:MODEL`, or `command:claude|codex|kimi|<argv template>`.
    #[arg(long)]
    pub discriminator: Option<AgentSpec>,
    /// Scripted Generator only: probability of a realistic mistake in early rounds (0.0-1.0;
    /// default: [agents.scripted].fault_rate, 0).
    #[arg(long)]
    pub fault_rate: Option<f64>,
    /// Scripted Generator only: most mistakes per task (1-3); above 1, a crash can hide a
    /// regression that only the next round reveals (default: [agents.scripted].fault_depth, 1).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=3))]
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
    /// Continue an interrupted run: what every run does (finished tasks are left as they are,
    /// half-done ones continue from their last recorded round; K counts every round of the
    /// attempt). Kept for scripts.
    #[arg(long)]
    pub resume: bool,
    /// Run these finished tasks again (ids of the task files), as a new attempt: each re-run is a
    /// decision by you, kept in the task's history, naming the decision it overrides (a person's
    /// reject or modify_query included). The stored round numbers continue.
    #[arg(long, value_name = "ID", num_args = 1.., value_delimiter = ',')]
    pub rerun: Vec<String>,
    /// Also write every event as a JSON line to PATH (`-` = stdout).
    #[arg(long, value_name = "PATH")]
    pub events_jsonl: Option<PathBuf>,
    /// Run scripts WITHOUT the bubblewrap sandbox (recorded on every result). Dangerous.
    #[arg(long)]
    pub unsafe_no_sandbox: bool,
    /// Where each round's V_init and V_gold come from: `local`, or `osworld` (two guests of the
    /// [osworld] pool, reverted by their hooks; files-domain tasks). Overrides [loop] environments.
    #[arg(long = "env", value_name = "local|osworld")]
    pub environments: Option<String>,
}

/// Task ids of the given files, in order, without duplicates.
fn task_ids(paths: &[PathBuf]) -> anyhow::Result<Vec<String>> {
    let mut seen = BTreeSet::new();
    let mut ids = Vec::new();
    for p in paths {
        let text = read_regular(p).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
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
    super::worker::install_host_caps(&config)?;
    if let Some(j) = args.jobs {
        config.agreement.jobs = j;
    }
    if let Some(k) = args.max_rounds {
        config.agreement.max_rounds = k;
    }
    if let Some(e) = &args.environments {
        config.agreement.environments = e.parse().map_err(|m| anyhow::anyhow!("--env: {m}"))?;
    }
    config
        .agreement
        .validate()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(f) = args.fault_rate.filter(|f| !(0.0..=1.0).contains(f)) {
        anyhow::bail!("--fault-rate {f} is outside 0.0..=1.0");
    }
    // Every task file is readable and holds tasks before the store is touched.
    let all_ids = task_ids(&args.tasks)?;
    let mut store = open_store(cli, &config)?;
    let imported = import_paths(&mut store, &args.tasks, &mut |_, _| {})?;
    for p in &imported.problems {
        eprintln!("skipped: {p}");
    }
    let reruns = super::run_plan::rerun_ids(&args.rerun, &all_ids)?;
    let plan = crate::engine::harness::rerun::plan(&store, &all_ids, &reruns)?;
    let cancel = Arc::new(AtomicBool::new(false));
    // A spec that names no usable agent is refused before any task is touched.
    drop(super::run_agents::build(args, &config, cancel.clone()).context("building the agents")?);
    let progress = Arc::new(Progress::new(plan.run.len(), cli.no_tui));
    let mut listeners = vec![progress.listener()];
    if let Some(path) = &args.events_jsonl {
        listeners.push(events_listener(path)?);
    }
    let bus = Bus::new(store, listeners)?;
    let leases = open_leases(cli, &config)?;
    let ids = super::run_plan::start(&bus, &leases, &plan)?;
    let elsewhere = leases.held_elsewhere(&ids)?;
    if !elsewhere.is_empty() {
        eprintln!(
            "{} of {} task(s) are leased by another live process and will be skipped",
            elsewhere.len(),
            ids.len()
        );
    }
    let (generator, discriminator) = super::run_agents::specs(args, &config);
    let spec = RunSpec {
        tasks: ids,
        scope: all_ids.clone(),
        generator,
        discriminator,
        scripted: super::run_agents::scripted(args, &config),
        delivery: (!args.no_export).then(|| Delivery {
            out: args
                .out
                .clone()
                .unwrap_or_else(|| config.export.out_dir.clone()),
            url_prefix: config.export.url_prefix.clone(),
        }),
        isolation: isolation(args.unsafe_no_sandbox),
    };
    // The runtime's flag is the job's: Ctrl-C stops the rounds in flight at their next step.
    let control = JobControl::new(JobControl::new_id("run"), cancel.clone());
    let on_start = |rt: &tokio::runtime::Runtime| {
        super::loop_env::on_start(rt, &cancel, args.unsafe_no_sandbox)
    };
    let env = RunEnv {
        config: &config,
        bus: &bus,
        leases,
        control: &control,
        on_start: &on_start,
    };
    let sink = |e: &JobEvent| {
        if let JobEventKind::TaskDone { task, outcome } = &e.kind {
            let stored = bus.read(|s| s.last_round_no(task)).ok();
            progress.task_done(task, outcome, stored);
        }
    };
    let result = crate::engine::jobs::run::run(&spec, &env, &sink)?;
    let summary = result.summary;
    progress.finish();
    // Every accepted tuple of the task files present (also those a previous, killed run accepted),
    // none a person rejected meanwhile.
    let mut export_failed = false;
    let exported = match (&spec.delivery, result.delivery) {
        (Some(d), Some(Ok(sum))) => Some(Exported {
            out: d.out.clone(),
            by_status: bus.read(|s| exported_statuses(s, &all_ids)),
            count: sum.present,
            skipped: sum.skipped,
            withdrawn: sum.withdrawn,
        }),
        (Some(d), Some(Err(e))) => {
            export_failed = true;
            for (task, why) in &result.failed_exports {
                eprintln!("export of {task} failed: {why}");
            }
            eprintln!("exporting to {} failed: {e}", d.out.display());
            None
        }
        _ => None,
    };
    print_summary(
        &summary,
        &plan,
        exported.as_ref(),
        cancel.load(Ordering::Relaxed),
    );
    if all_ids.is_empty() && !imported.problems.is_empty() {
        eprintln!("no usable task in the task files");
        return Ok(ExitCode::from(2));
    }
    Ok(exit_code(&summary, export_failed))
}

/// The documented exit status of a run: 1 when infrastructure (sandbox, store, export) failed —
/// resumable; else 2 when no task could run because every one was invalid (bad input, like a usage
/// error); else 0, also when some tasks were rejected or invalid (listed in the summary).
pub fn exit_code(summary: &BatchSummary, export_failed: bool) -> ExitCode {
    if !summary.infra_failures.is_empty() || export_failed {
        ExitCode::from(1)
    } else if summary.tasks > 0 && summary.invalid.len() == summary.tasks {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// How many of `ids` are in each status a run delivers (verified and not out), pipeline order.
fn exported_statuses(
    store: &crate::engine::store::Store,
    ids: &[String],
) -> Vec<(TupleStatus, usize)> {
    let statuses: Vec<String> = ids
        .iter()
        .filter_map(|id| store.effective_status(id).ok())
        .collect();
    TupleStatus::exported_by_default()
        .into_iter()
        .map(|s| (s, statuses.iter().filter(|x| *x == s.as_str()).count()))
        .filter(|(_, n)| *n > 0)
        .collect()
}
