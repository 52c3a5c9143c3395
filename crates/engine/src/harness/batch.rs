//! Many tasks on `jobs` worker threads. Workers stop taking new tasks once Ctrl-C is pressed or the
//! job is cancelled; a task in flight stops at its next step and is left pending, so `--resume`
//! picks it up. A paused job starts no new task until resumed ([`JobControl`]).
//!
//! Before a worker starts a task it claims the task's lease ([`tuplewright_base::lease`]) in one
//! transaction with the eligibility check: a task another live process holds is skipped (counted
//! in [`BatchSummary::leased`]), as is one that is no longer eligible or was decided by someone
//! else since the batch started ([`BatchSummary::skipped`]). Every write of the task is fenced by
//! the lease; the lease is renewed by heartbeat while the task runs and released when it ends.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;

use super::job::JobControl;
use super::task::{run_task_fenced, LoopRuntime, TaskOutcome};
use super::Bus;
use tuplewright_base::lease::{Claim, LeaseKeeper, LeaseSettings};
use tuplewright_base::store::{StoreError, TupleStatus};

/// The lease stage name of the agreement loop.
pub const STAGE: &str = "loop";

/// Options of a batch.
#[derive(Clone, Default)]
pub struct BatchOptions {
    /// Worker threads.
    pub jobs: usize,
    /// Start a task only if its status is one of these (`None` = any status: a re-run).
    pub statuses: Option<Vec<TupleStatus>>,
    /// The lease keeper to claim tasks with; `None` = one of the batch's own with the default
    /// [`LeaseSettings`] on the bus's store.
    pub leases: Option<Arc<LeaseKeeper>>,
}

impl std::fmt::Debug for BatchOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchOptions")
            .field("jobs", &self.jobs)
            .field("statuses", &self.statuses)
            .field(
                "leases",
                &self.leases.as_ref().map(|k| k.owner().id.clone()),
            )
            .finish()
    }
}

impl BatchOptions {
    /// `jobs` workers taking any task, with the batch's own lease keeper.
    pub fn jobs(jobs: usize) -> Self {
        BatchOptions {
            jobs,
            ..Default::default()
        }
    }

    /// The statuses a resumed run (`--resume`, the workbench) takes: `pending` and `in_loop`.
    pub fn resumable() -> Vec<TupleStatus> {
        vec![TupleStatus::Pending, TupleStatus::InLoop]
    }
}

/// What a batch did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BatchSummary {
    /// Tasks attempted.
    pub tasks: usize,
    /// Accepted by the loop.
    pub accepted: Vec<String>,
    /// Rejected after K rounds.
    pub rejected: Vec<String>,
    /// For rejected tasks: how often each condition failed in their last round.
    pub rejected_by_condition: BTreeMap<String, usize>,
    /// Infrastructure failures: (task, message). Never counted as rejections.
    pub infra_failures: Vec<(String, String)>,
    /// Tasks whose data could not be run: (task, message).
    pub invalid: Vec<(String, String)>,
    /// Tasks interrupted by Ctrl-C.
    pub cancelled: Vec<String>,
    /// Tasks skipped because another live process holds their lease: (task, holder).
    pub leased: Vec<(String, String)>,
    /// Tasks skipped because their status is not one this batch takes, or another process
    /// decided them since the batch started: (task, status).
    pub skipped: Vec<(String, String)>,
    /// Rounds used → number of accepted tasks.
    pub rounds_to_accept: BTreeMap<u32, usize>,
    /// Wall seconds per finished task (accepted or rejected).
    pub task_seconds: BTreeMap<String, f64>,
    /// Wall time of the batch.
    pub elapsed_seconds: f64,
}

impl BatchSummary {
    /// Median seconds per finished task.
    pub fn median_task_seconds(&self) -> Option<f64> {
        let mut v: Vec<f64> = self.task_seconds.values().copied().collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        Some(v[v.len() / 2])
    }

    fn add(&mut self, task: &str, outcome: TaskOutcome, secs: f64) {
        match outcome {
            TaskOutcome::Accepted { rounds } => {
                self.accepted.push(task.to_string());
                *self.rounds_to_accept.entry(rounds).or_default() += 1;
                self.task_seconds.insert(task.to_string(), secs);
            }
            TaskOutcome::Rejected { failing, .. } => {
                self.rejected.push(task.to_string());
                for c in failing {
                    *self.rejected_by_condition.entry(c).or_default() += 1;
                }
                self.task_seconds.insert(task.to_string(), secs);
            }
            TaskOutcome::Infra(m) => self.infra_failures.push((task.to_string(), m)),
            TaskOutcome::Invalid(m) => self.invalid.push((task.to_string(), m)),
            TaskOutcome::Cancelled => self.cancelled.push(task.to_string()),
        }
    }
}

/// Runs the loop on `tasks`; `on_done(task, outcome)` is called as each finishes. Cancelled by
/// the runtime's flag (Ctrl-C); see [`run_batch_controlled`] for pause/resume/cancel.
pub fn run_batch(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    tasks: &[String],
    opts: &BatchOptions,
    on_done: &(dyn Fn(&str, &TaskOutcome) + Sync),
) -> BatchSummary {
    // The handle's own flag stays unset: Ctrl-C reaches the rounds through `rt.cancel`.
    let control = JobControl::new(JobControl::new_id("run"), Default::default());
    run_batch_controlled(rt, bus, tasks, opts, &control, on_done)
}

fn outcome_name(o: &TaskOutcome) -> &'static str {
    match o {
        TaskOutcome::Accepted { .. } => "accepted",
        TaskOutcome::Rejected { .. } => "rejected",
        TaskOutcome::Infra(_) => "infra",
        TaskOutcome::Invalid(_) => "invalid",
        TaskOutcome::Cancelled => "cancelled",
    }
}

/// Like [`run_batch`], steered by `control` (pause, resume, cancel from another thread). Records
/// `job.started`, one `job.task` per finished task (outcome, seconds, done/total) and
/// `job.finished` with the counts; `job.cancelled` when Ctrl-C (the runtime's flag) stopped it.
/// For cancel to abandon the rounds in flight, `control`'s flag must be `rt.cancel`.
pub fn run_batch_controlled(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    tasks: &[String],
    opts: &BatchOptions,
    control: &JobControl,
    on_done: &(dyn Fn(&str, &TaskOutcome) + Sync),
) -> BatchSummary {
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let jobs = opts.jobs.max(1);
    control.set_total(tasks.len());
    let _ = bus.emit(
        "job.started",
        None,
        json!({"job": control.id(), "kind": "run", "total": tasks.len(), "jobs": jobs}),
    );
    let summary = Mutex::new(BatchSummary {
        tasks: tasks.len(),
        ..Default::default()
    });
    let stopped = || rt.cancel.load(Ordering::Relaxed);
    let keeper = batch_keeper(bus, opts);
    let mark = keeper.as_ref().ok().and_then(|k| k.decision_mark().ok());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                if stopped() || !control.wait_turn() || stopped() {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(task) = tasks.get(i) else { break };
                control.task_started();
                let t0 = Instant::now();
                let (outcome, skip) = match &keeper {
                    Ok(k) => claim_and_run(rt, bus, k, opts, mark, task),
                    Err(e) => (TaskOutcome::Infra(format!("task leases: {e}")), None),
                };
                let secs = t0.elapsed().as_secs_f64();
                let done = control.task_finished();
                let name = match &skip {
                    Some(Skip::Leased(_)) => "leased",
                    Some(Skip::Ineligible(_)) => "skipped",
                    None => outcome_name(&outcome),
                };
                let _ = bus.emit(
                    "job.task",
                    Some(task),
                    json!({"job": control.id(), "outcome": name,
                           "secs": secs, "done": done, "total": tasks.len()}),
                );
                let mut sum = summary.lock().unwrap_or_else(|p| p.into_inner());
                match skip {
                    Some(Skip::Leased(holder)) => sum.leased.push((task.clone(), holder)),
                    Some(Skip::Ineligible(status)) => sum.skipped.push((task.clone(), status)),
                    None => {
                        drop(sum);
                        on_done(task, &outcome);
                        sum = summary.lock().unwrap_or_else(|p| p.into_inner());
                        sum.add(task, outcome, secs);
                    }
                }
            });
        }
    });
    let mut sum = summary.into_inner().unwrap_or_else(|p| p.into_inner());
    // Tasks never started because of Ctrl-C or a cancel are cancelled too.
    let started_count = next.load(Ordering::Relaxed).min(tasks.len());
    for t in &tasks[started_count..] {
        sum.cancelled.push(t.clone());
    }
    if stopped() {
        control.note_external_cancel(bus);
    }
    sum.elapsed_seconds = started.elapsed().as_secs_f64();
    let _ = bus.emit(
        "job.finished",
        None,
        json!({"job": control.id(), "total": tasks.len(),
               "accepted": sum.accepted.len(), "rejected": sum.rejected.len(),
               "infra": sum.infra_failures.len(), "invalid": sum.invalid.len(),
               "cancelled": sum.cancelled.len(), "leased": sum.leased.len(),
               "skipped": sum.skipped.len(), "elapsed_secs": sum.elapsed_seconds}),
    );
    sum
}

/// Why a task was not started.
enum Skip {
    /// Another live process holds it (holder).
    Leased(String),
    /// Its status is not taken, or it was decided meanwhile (status).
    Ineligible(String),
}

fn batch_keeper(bus: &Bus, opts: &BatchOptions) -> Result<Arc<LeaseKeeper>, StoreError> {
    if let Some(k) = &opts.leases {
        return Ok(k.clone());
    }
    let path = bus.read(|s| s.path().to_path_buf());
    let keeper = LeaseKeeper::open(&path, Duration::from_secs(5), LeaseSettings::default())?;
    Ok(Arc::new(keeper))
}

/// Claims `task`, runs it with its writes fenced by the lease, releases it.
fn claim_and_run(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    keeper: &LeaseKeeper,
    opts: &BatchOptions,
    mark: Option<i64>,
    task: &str,
) -> (TaskOutcome, Option<Skip>) {
    let claim = keeper.claim(task, STAGE, opts.statuses.as_deref(), mark);
    match claim {
        Err(StoreError::UnknownTask(t)) => {
            return (
                TaskOutcome::Invalid(format!("no task `{t}` in the store")),
                None,
            )
        }
        Err(e) => return (TaskOutcome::Infra(format!("claiming the task: {e}")), None),
        Ok(Claim::Held(l)) => return (TaskOutcome::Cancelled, Some(Skip::Leased(l.describe()))),
        Ok(Claim::Ineligible { status } | Claim::Changed { status }) => {
            return (TaskOutcome::Cancelled, Some(Skip::Ineligible(status)))
        }
        Ok(Claim::Taken { .. }) => {}
    }
    let fence = |tx: &tuplewright_base::store::Tx<'_>| keeper.fence(tx, task);
    let outcome = run_task_fenced(rt, bus, task, &fence);
    if let Err(e) = keeper.release(task) {
        tracing::warn!("releasing the lease on {task}: {e}");
    }
    (outcome, None)
}
