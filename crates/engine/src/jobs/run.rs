//! The `run` job: the agreement loop over tasks, each accepted tuple delivered to the output folder
//! the moment it is accepted, and the folder reconciled with the store at the end — the same for
//! `--no-tui run` and the workbench.

use std::sync::{Arc, Mutex};

use crate::agents::build::build as build_agents;
use crate::agents::scripted::ScriptedConfig;
use crate::agents::spec::AgentSpec;
use crate::config::Config;
use crate::harness::session::with_loop_runtime;
use crate::harness::{
    run_batch_controlled, BatchOptions, BatchSummary, Bus, JobControl, TaskOutcome,
};
use crate::sandbox::Isolation;
use tuplewright_base::lease::LeaseKeeper;
use tuplewright_records::bundle::deliver::{Delivery, DeliverySummary};
use tuplewright_records::bundle::export::ExportError;

use super::{EventSink, Events, JobError, JobEventKind};

/// What a run job does, typed.
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// The tasks to run (unfinished ones are taken; the claim re-checks each).
    pub tasks: Vec<String>,
    /// The tasks whose bundles the final reconciliation keeps in step with the store (`run`: every
    /// task of its task files; the workbench: the selection).
    pub scope: Vec<String>,
    /// The Generator.
    pub generator: AgentSpec,
    /// The Discriminator.
    pub discriminator: AgentSpec,
    /// Settings of the scripted agents (seed, faults).
    pub scripted: ScriptedConfig,
    /// Where accepted tuples are delivered; `None` = no export.
    pub delivery: Option<Delivery>,
    /// Sandbox isolation of the scripts.
    pub isolation: Isolation,
}

impl RunSpec {
    /// A run of `tasks` with the agents and export folder of `config` (`[agents]`, `[export]`).
    pub fn from_config(config: &Config, tasks: Vec<String>) -> Self {
        RunSpec {
            scope: tasks.clone(),
            tasks,
            generator: config.agents.generator.clone(),
            discriminator: config.agents.discriminator.clone(),
            scripted: config.agents.scripted.clone(),
            delivery: Some(Delivery {
                out: config.export.out_dir.clone(),
                url_prefix: config.export.url_prefix.clone(),
            }),
            isolation: Isolation::Required,
        }
    }
}

/// What the job needs from the process that runs it.
pub struct RunEnv<'a> {
    /// Loop, sandbox, app and worker settings.
    pub config: &'a Config,
    /// The store, with the face's listeners.
    pub bus: &'a Bus,
    /// Task leases.
    pub leases: Arc<LeaseKeeper>,
    /// Pause / resume / cancel; its cancel flag stops the rounds in flight and the agents.
    pub control: &'a JobControl,
    /// Called once the runtime is up (e.g. to install a Ctrl-C handler).
    pub on_start: &'a dyn Fn(&tokio::runtime::Runtime),
}

/// What a run job did.
#[derive(Debug)]
pub struct RunResult {
    /// The loop's summary.
    pub summary: BatchSummary,
    /// The final reconciliation of the output folder (`None` without delivery).
    pub delivery: Option<Result<DeliverySummary, ExportError>>,
    /// Deliveries that failed while the run went on: (task, why).
    pub failed_exports: Vec<(String, String)>,
}

/// Runs the loop on `spec.tasks` and delivers each accepted tuple; see [`RunSpec`].
pub fn run(spec: &RunSpec, env: &RunEnv<'_>, sink: EventSink<'_>) -> Result<RunResult, JobError> {
    let events = Events::new(sink);
    let flag = env.control.cancel_flag().clone();
    let (generator, discriminator) = build_agents(
        &spec.generator,
        &spec.discriminator,
        &spec.scripted,
        flag.clone(),
    )?;
    let opts = BatchOptions {
        jobs: env.config.agreement.jobs,
        // Only unfinished tasks: a task someone decided meanwhile is skipped, never re-run.
        statuses: Some(BatchOptions::resumable()),
        leases: Some(env.leases.clone()),
    };
    let failed = Mutex::new(Vec::new());
    let on_done = |task: &str, outcome: &TaskOutcome| {
        events.emit(JobEventKind::TaskDone {
            task: task.to_string(),
            outcome: outcome.clone(),
        });
        if let (Some(d), TaskOutcome::Accepted { .. }) = (&spec.delivery, outcome) {
            deliver(env.bus, d, task, &events, &failed);
        }
    };
    let summary = with_loop_runtime(
        env.config,
        spec.isolation,
        (generator.as_ref(), discriminator.as_ref()),
        &flag,
        |rt| (env.on_start)(rt),
        |rt| run_batch_controlled(rt, env.bus, &spec.tasks, &opts, env.control, &on_done),
    )?;
    // Every accepted tuple of the scope present (also those an earlier, killed run accepted),
    // none a person rejected meanwhile.
    let delivery = spec
        .delivery
        .as_ref()
        .map(|d| d.reconcile(&spec.scope, &|id| env.bus.read(|s| d.plan(s, id))));
    Ok(RunResult {
        summary,
        delivery,
        failed_exports: failed.into_inner().unwrap_or_else(|p| p.into_inner()),
    })
}

/// Delivered the moment it is accepted: a kill later loses no bundle.
fn deliver(
    bus: &Bus,
    d: &Delivery,
    task: &str,
    events: &Events<'_>,
    failed: &Mutex<Vec<(String, String)>>,
) {
    let done = bus
        .read(|s| d.plan(s, task))
        .map_err(ExportError::from)
        .and_then(|p| d.apply(task, p));
    match done {
        Ok(delivered) => events.emit(JobEventKind::Delivered {
            task: task.to_string(),
            delivered,
        }),
        Err(e) => {
            events.emit(JobEventKind::DeliveryFailed {
                task: task.to_string(),
                why: e.to_string(),
            });
            let mut f = failed.lock().unwrap_or_else(|p| p.into_inner());
            f.push((task.to_string(), e.to_string()));
        }
    }
}
