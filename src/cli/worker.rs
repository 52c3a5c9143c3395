//! `tuplewright --store postgres://… worker`: drain the store's queue with leases (see
//! [`crate::engine::worker`]); start as many on as many hosts as wanted (docs/scale-out.md).

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;

use super::context::{load_config, open_leases, open_store};
use super::loop_env::with_loop_runtime;
use super::run::RunArgs;
use super::Cli;
use crate::engine::harness::Bus;
use crate::engine::worker::{run_worker, WorkerOptions};

/// The stages a worker runs today.
const STAGES: &[&str] = &["loop"];

/// Arguments of `worker`.
#[derive(Debug, Args)]
#[command(
    about = "Drain the store's queue: claim tasks by lease, run the agreement loop, until none is left",
    long_about = "Takes the store's pending and in-loop tasks (recorded by `import` or `run`), one \
per slot at a time, each claimed by a task lease (SELECT ... FOR UPDATE SKIP LOCKED on PostgreSQL), \
and runs the agreement loop on it, continuing from its last recorded round. Any number of workers on \
any hosts can share one --store postgres://... URL; a killed worker's tasks are taken over when its \
leases lapse ([store] lease_ttl_ms; at once on its own host). Infrastructure failures are retried with \
backoff up to --max-infra-attempts per task (counted in the store, never scored).\n\n\
Exit status: 0 queue drained, 1 infrastructure failures occurred or the store failed, 2 usage error.\n\n\
Example: tuplewright --store postgres://tw:pw@db/tw worker --slots 4"
)]
pub struct WorkerArgs {
    /// Stages to run, comma-separated (today: `loop`).
    #[arg(long, default_value = "loop", value_delimiter = ',')]
    pub stages: Vec<String>,
    /// Tasks run at once by this worker.
    #[arg(long, default_value_t = 1)]
    pub slots: usize,
    /// Infrastructure failures of one task (all workers together) before workers leave it alone.
    #[arg(long, default_value_t = 3)]
    pub max_infra_attempts: u32,
    /// First retry delay after an infrastructure failure, in ms (doubles per attempt).
    #[arg(long, default_value_t = 500)]
    pub backoff_ms: u64,
    /// Maximum rounds per task (default: [loop].max_rounds, 5).
    #[arg(long)]
    pub max_rounds: Option<u32>,
    /// Generator (as for `run`; default: [agents].generator).
    #[arg(long)]
    pub generator: Option<String>,
    /// Discriminator (as for `run`; default: [agents].discriminator).
    #[arg(long)]
    pub discriminator: Option<String>,
    /// Scripted Generator only: probability of a realistic mistake in early rounds.
    #[arg(long)]
    pub fault_rate: Option<f64>,
    /// Seed of the scripted agents (default: [agents.scripted].seed, 0).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run scripts WITHOUT the bubblewrap sandbox (recorded on every result). Dangerous.
    #[arg(long)]
    pub unsafe_no_sandbox: bool,
}

/// Runs `worker`.
pub fn run(cli: &Cli, args: &WorkerArgs) -> anyhow::Result<ExitCode> {
    if let Some(s) = args.stages.iter().find(|s| !STAGES.contains(&s.as_str())) {
        anyhow::bail!(
            "--stages: `{s}` is not a worker stage (worker stages: {}); run `tuplewright filter`, \
             `rollout` or `verify` on the store for the others",
            STAGES.join(", ")
        );
    }
    if args.slots == 0 {
        anyhow::bail!("--slots must be at least 1");
    }
    let mut config = load_config(cli)?;
    if let Some(k) = args.max_rounds {
        config.agreement.max_rounds = k;
    }
    config
        .agreement
        .validate()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let store = open_store(cli, &config)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let agent_args = RunArgs {
        tasks: Vec::new(),
        jobs: None,
        max_rounds: args.max_rounds,
        generator: args.generator.clone(),
        discriminator: args.discriminator.clone(),
        fault_rate: args.fault_rate,
        fault_depth: None,
        seed: args.seed,
        out: None,
        no_export: true,
        resume: true,
        events_jsonl: None,
        unsafe_no_sandbox: args.unsafe_no_sandbox,
    };
    let (generator, discriminator) = super::run_agents::build(&agent_args, &config, cancel.clone())
        .context("building the agents")?;
    let bus = Bus::new(store, Vec::new())?;
    let leases = open_leases(cli, &config)?;
    let opts = WorkerOptions {
        slots: args.slots,
        max_infra_attempts: args.max_infra_attempts.max(1),
        backoff: Duration::from_millis(args.backoff_ms),
        ..WorkerOptions::default()
    };
    let stop = AtomicBool::new(false);
    let summary = with_loop_runtime(
        &config,
        args.unsafe_no_sandbox,
        (generator.as_ref(), discriminator.as_ref()),
        &cancel,
        |rt| {
            run_worker(rt, &bus, &leases, &opts, &stop, &|task, outcome| {
                if cli.no_tui {
                    eprintln!("{task}: {outcome:?}");
                }
            })
        },
    )??;
    println!("{}", serde_json::to_string(&summary)?);
    Ok(if summary.infra_failures > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
