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
use crate::engine::limits::EndpointSlots;
use crate::engine::providers::gate;
use crate::engine::worker::stages::Stage;
use crate::engine::worker::{run_worker, StopReason, WorkerOptions};

/// Exit status of a worker that stopped because the store's job was cancelled.
pub const EXIT_CANCELLED: u8 = 3;
/// Exit status of a worker that stopped because the store's token or cost budget is spent.
pub const EXIT_BUDGET: u8 = 4;

/// How long an LLM call slot lasts unless given back (a worker killed on another host holds its
/// slots this long at most; on the same host they are reclaimed at once).
const SLOT_TTL: Duration = Duration::from_secs(30 * 60);

/// Arguments of `worker`.
#[derive(Debug, Args)]
#[command(
    about = "Drain the store's queue: claim tasks by lease, run the agreement loop (and --stages), until none is left",
    long_about = "Takes the store's pending and in-loop tasks (recorded by `import` or `run`), one \
per slot at a time, each claimed by a task lease (SELECT ... FOR UPDATE SKIP LOCKED on PostgreSQL), \
and runs the agreement loop on it, continuing from its last recorded round. Any number of workers on \
any hosts can share one --store postgres://... URL; a killed worker's tasks are taken over when its \
leases lapse ([store] lease_ttl_ms; at once on its own host). Infrastructure failures are retried with \
backoff up to --max-infra-attempts per task (counted in the store, never scored).\n\n\
Every worker obeys the store's controls (`tuplewright job`): paused, it claims nothing and lets \
the tasks in flight finish; cancelled, it abandons them like Ctrl-C (left pending, resumable) and \
exits; when the store's token or cost budget is spent it claims nothing more, finishes and exits. \
[worker] screens / sandboxes cap the screens and sandbox runs at once on this host, over every \
worker process of it.\n\n\
Exit status: 0 queue drained, 1 infrastructure failures occurred or the store failed, 2 usage error, \
3 the store's job was cancelled, 4 the store's token or cost budget is spent.\n\n\
Example: tuplewright --store postgres://tw:pw@db/tw worker --slots 4"
)]
pub struct WorkerArgs {
    /// Stages to run on each claimed task, comma-separated, in pipeline order under one lease:
    /// `loop` (pending tasks), `filter` (the [filter] critics' vote on loop-accepted tuples),
    /// `rollout` (--policy on voted tuples, [rollout] trials), `verify` (the replay check). A
    /// stage already done for the tuple's current round is skipped.
    #[arg(long, default_value = "loop", value_delimiter = ',')]
    pub stages: Vec<String>,
    /// The rollout stage's policy (`oracle`, `noop`, a VLM spec; as for `rollout --policy`).
    #[arg(long, default_value = "oracle")]
    pub policy: crate::engine::rollout::spec::PolicySpec,
    /// Tasks run at once by this worker.
    #[arg(long, default_value_t = 1)]
    pub slots: usize,
    /// Infrastructure failures of one task (all workers together) before workers leave it alone.
    #[arg(long, default_value_t = 3)]
    pub max_infra_attempts: u32,
    /// First retry delay after an infrastructure failure, in ms (doubles per attempt).
    #[arg(long, default_value_t = 500)]
    pub backoff_ms: u64,
    /// How often the store's job control is re-read while tasks are in flight, in ms (a `job
    /// cancel` abandons them within about this long).
    #[arg(long, default_value_t = 500)]
    pub control_poll_ms: u64,
    /// Maximum rounds per task (default: [loop].max_rounds, 5).
    #[arg(long)]
    pub max_rounds: Option<u32>,
    /// Generator (as for `run`; default: [agents].generator).
    #[arg(long)]
    pub generator: Option<crate::engine::agents::spec::AgentSpec>,
    /// Discriminator (as for `run`; default: [agents].discriminator).
    #[arg(long)]
    pub discriminator: Option<crate::engine::agents::spec::AgentSpec>,
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

/// Installs this process's per-host caps (`[worker] screens`, `sandboxes`): every screen and
/// sandbox run it starts from now on takes a host slot first.
pub fn install_host_caps(config: &crate::engine::config::Config) -> anyhow::Result<()> {
    let caps = config.worker.caps().map_err(anyhow::Error::msg)?;
    if caps.screens.is_some() || caps.sandboxes.is_some() {
        crate::engine::hostcap::install(caps);
    }
    Ok(())
}

/// Runs `worker`.
pub fn run(cli: &Cli, args: &WorkerArgs) -> anyhow::Result<ExitCode> {
    let stages = super::worker_stages::parse(&args.stages)?;
    if args.slots == 0 {
        anyhow::bail!("--slots must be at least 1");
    }
    let mut config = load_config(cli)?;
    install_host_caps(&config)?;
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
        rerun: Vec::new(),
        events_jsonl: None,
        unsafe_no_sandbox: args.unsafe_no_sandbox,
        environments: None,
    };
    // Before the agents are built: their providers take call slots of the store's endpoint caps.
    let timeout = Duration::from_millis(config.store.busy_timeout_ms);
    let slots = EndpointSlots::open(&cli.store, timeout, SLOT_TTL)
        .context("the store's endpoint call slots")?;
    gate::install(slots);
    // Calls of providers without a price of their own are costed at [stats.prices].
    gate::install_prices(config.stats.prices.clone());
    let (generator, discriminator) = super::run_agents::build(&agent_args, &config, cancel.clone())
        .context("building the agents")?;
    let built = super::worker_stages::build(&stages, &args.policy, &config)?;
    let post = built.post(&config, &cli.store);
    let bus = Bus::new(store, Vec::new())?;
    let leases = open_leases(cli, &config)?;
    let opts = WorkerOptions {
        slots: args.slots,
        max_infra_attempts: args.max_infra_attempts.max(1),
        backoff: Duration::from_millis(args.backoff_ms),
        control_poll: Duration::from_millis(args.control_poll_ms.max(10)),
        with_loop: stages.contains(&Stage::Loop),
        ..WorkerOptions::default()
    };
    let stop = AtomicBool::new(false);
    let summary = with_loop_runtime(
        &config,
        args.unsafe_no_sandbox,
        (generator.as_ref(), discriminator.as_ref()),
        &cancel,
        |rt| {
            run_worker(rt, &bus, &leases, &opts, &post, &stop, &|task, report| {
                if cli.no_tui {
                    eprintln!("{task}: {report:?}");
                }
            })
        },
    )??;
    println!("{}", serde_json::to_string(&summary)?);
    match summary.stopped_by {
        Some(StopReason::Cancelled) => {
            eprintln!(
                "worker stopped: the store's job is cancelled ({} task(s) in flight abandoned, \
                 left pending); `tuplewright job resume` lets workers run again",
                summary.cancelled.len()
            );
            return Ok(ExitCode::from(EXIT_CANCELLED));
        }
        Some(StopReason::Budget { used, budget }) => {
            eprintln!(
                "worker stopped: the store's token budget is spent ({used} of {budget} tokens \
                 used); raise it with `tuplewright job budget --tokens N` or remove it with \
                 `--clear`"
            );
            return Ok(ExitCode::from(EXIT_BUDGET));
        }
        Some(StopReason::CostBudget {
            used_usd,
            budget_usd,
        }) => {
            eprintln!(
                "worker stopped: the store's cost budget is spent (${used_usd:.4} of \
                 ${budget_usd:.4} used); raise it with `tuplewright job budget --usd X` or \
                 remove it with `--clear`"
            );
            return Ok(ExitCode::from(EXIT_BUDGET));
        }
        Some(StopReason::Interrupted) | None => {}
    }
    Ok(if summary.infra_failures > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
