//! A worker drains the store's queue: the tasks still `pending` or `in_loop` (what `import` or
//! `run` recorded). Each of its `slots` threads claims the first free task by lease
//! ([`LeaseKeeper::claim_first`]: one `SELECT … FOR UPDATE SKIP LOCKED` on PostgreSQL), runs the
//! agreement loop on it with every write fenced by the lease — a task another worker left half
//! done continues from its last recorded round — and releases it. Any number of worker processes
//! on any hosts share one PostgreSQL store this way; a killed worker's leases lapse (at once on its
//! own host) and its tasks are taken over.
//!
//! An infrastructure failure is never scored: the task goes back to `pending`, a `worker.infra`
//! event records it, and it is retried after a backoff (doubling from `backoff`) until it has
//! failed `max_infra_attempts` times in the store — counted across all workers — after which
//! workers leave it alone (it stays `pending` for a person to look at). The worker stops when no
//! task is left that it may take, or when cancelled.
//!
//! Every worker obeys the store's controls ([`control`]): before each claim it reads the job state
//! (paused: claim nothing, let the tasks in flight finish; cancelled: abandon them like Ctrl-C and
//! exit) and the global token and cost budgets (spent: claim nothing more, finish, exit); a
//! watcher thread re-reads the job state every [`WorkerOptions::control_poll`] so a cancel
//! reaches tasks in flight.

/// The store's controls (job state, budgets, caps) live with the limits they set.
pub use tuplewright_base::limits::control;
mod slots;
pub mod stages;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;

use crate::harness::task::{LoopRuntime, TaskOutcome};
use crate::harness::Bus;
use tuplewright_base::lease::LeaseKeeper;
use tuplewright_base::store::db::params;
use tuplewright_base::store::{StoreError, TupleStatus};

use slots::{lock, Run, Step};
use stages::{PostStages, Stage, StageRun};

/// The event a worker records for each infrastructure failure of a task.
pub const INFRA_EVENT: &str = "worker.infra";

/// How a worker runs.
#[derive(Debug, Clone)]
pub struct WorkerOptions {
    /// Tasks run at once by this process.
    pub slots: usize,
    /// Infrastructure failures of one task (across all workers) after which it is left alone.
    pub max_infra_attempts: u32,
    /// First retry delay after an infrastructure failure (doubled per attempt, at most 30 s).
    pub backoff: Duration,
    /// How long to wait before looking again when every remaining task is leased elsewhere (or
    /// the job is paused).
    pub poll: Duration,
    /// How often the store's job state is re-read while tasks are in flight (a cancel abandons
    /// them within about this long).
    pub control_poll: Duration,
    /// Whether the agreement loop is one of the stages (the others are the [`PostStages`]).
    pub with_loop: bool,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        WorkerOptions {
            slots: 1,
            max_infra_attempts: 3,
            backoff: Duration::from_millis(500),
            poll: Duration::from_millis(250),
            control_poll: Duration::from_millis(500),
            with_loop: true,
        }
    }
}

/// What one worker process did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct WorkerSummary {
    /// Tasks accepted by the loop here.
    pub accepted: Vec<String>,
    /// Tasks rejected after K rounds here.
    pub rejected: Vec<String>,
    /// Tasks whose data cannot be run.
    pub invalid: Vec<(String, String)>,
    /// Infrastructure failures here (each one retried or given up, never scored).
    pub infra_failures: usize,
    /// Tasks left alone after `max_infra_attempts` failures in the store.
    pub gave_up: Vec<String>,
    /// Successful claims.
    pub claims: usize,
    /// Total seconds spent in claims (claim overhead = this / claims).
    pub claim_seconds: f64,
    /// Post-loop stages run here, per stage (`filter`, `rollout`, `verify`).
    pub stages: BTreeMap<String, usize>,
    /// Tasks abandoned in flight by a cancel (left `pending`, resumable).
    pub cancelled: Vec<String>,
    /// Why the worker stopped before the queue was drained, if it did.
    pub stopped_by: Option<StopReason>,
    /// Wall time.
    pub elapsed_seconds: f64,
}

/// Why a worker stopped before draining the queue.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The store's job was cancelled (`tuplewright job cancel`, the workbench).
    Cancelled,
    /// The store's token budget is spent.
    Budget {
        /// Tokens spent when it stopped.
        used: i64,
        /// The budget.
        budget: i64,
    },
    /// The store's cost budget (USD) is spent.
    CostBudget {
        /// US dollars spent when it stopped.
        used_usd: f64,
        /// The budget.
        budget_usd: f64,
    },
    /// Stopped from this process (Ctrl-C, the caller's stop flag).
    Interrupted,
}

/// What a worker did on one claimed task.
#[derive(Debug, Clone, Default)]
pub struct TaskReport {
    /// The agreement loop's outcome, when the loop ran.
    pub loop_outcome: Option<TaskOutcome>,
    /// The post-loop stages tried, in order, with how each ended.
    pub stages: Vec<(Stage, StageRun)>,
    /// Abandoned by a cancel between or during post-loop stages.
    pub cancelled: bool,
}

impl TaskReport {
    /// Whether an infrastructure failure ended the work (the task is retried later).
    pub fn infra(&self) -> bool {
        matches!(self.loop_outcome, Some(TaskOutcome::Infra(_)))
            || self
                .stages
                .iter()
                .any(|(_, r)| matches!(r, StageRun::Infra(_)))
    }

    /// Whether nothing was there to do (no stage took the task).
    pub fn is_idle(&self) -> bool {
        self.loop_outcome.is_none()
            && !self.cancelled
            && self.stages.iter().all(|(_, r)| *r == StageRun::Skipped)
    }
}

/// The tasks a worker running the loop may still take: `pending` or `in_loop`, fewer than `max`
/// infrastructure failures recorded, by task id.
pub fn queue(bus: &Bus, max_infra_attempts: u32) -> Result<Vec<String>, StoreError> {
    queue_for(bus, max_infra_attempts, Stage::Loop.takes())
}

/// The tasks in one of `statuses` with fewer than `max` infrastructure failures, by task id.
pub fn queue_for(
    bus: &Bus,
    max_infra_attempts: u32,
    statuses: &[TupleStatus],
) -> Result<Vec<String>, StoreError> {
    let wanted = serde_json::to_string(&statuses.iter().map(|s| s.as_str()).collect::<Vec<_>>())?;
    bus.read(|s| {
        let c = s.conn();
        // The statuses as a JSON array, unpacked by each backend's JSON table function.
        let set = match c.backend() {
            tuplewright_base::store::db::Backend::Sqlite => "SELECT value FROM json_each(?1)",
            tuplewright_base::store::db::Backend::Postgres => {
                "SELECT jsonb_array_elements_text(?1::jsonb)"
            }
        };
        c.query_map(
            &format!(
                "SELECT u.task_id FROM tuples u WHERE u.status IN ({set}) \
                 AND (SELECT COUNT(*) FROM events e WHERE e.task_id = u.task_id AND e.kind = ?2) < ?3 \
                 ORDER BY u.task_id"
            ),
            params![wanted, INFRA_EVENT, i64::from(max_infra_attempts)],
            |r| r.get(0),
        )?
        .collect()
    })
}

fn infra_count(bus: &Bus, task: &str) -> Result<i64, StoreError> {
    bus.read(|s| {
        s.conn().query_row(
            "SELECT COUNT(*) FROM events WHERE task_id = ?1 AND kind = ?2",
            params![task, INFRA_EVENT],
            |r| r.get(0),
        )
    })
}

/// Runs the worker until the queue is drained, the store's job is cancelled or its budget spent,
/// or `stop` is set; `on_done(task, outcome)` is called as each task ends.
pub fn run_worker(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    keeper: &LeaseKeeper,
    opts: &WorkerOptions,
    post: &PostStages<'_>,
    stop: &AtomicBool,
    on_done: &(dyn Fn(&str, &TaskReport) + Sync),
) -> Result<WorkerSummary, StoreError> {
    let started = Instant::now();
    let run = Run::new(bus, keeper, opts, post);
    let errors: Mutex<Vec<StoreError>> = Mutex::new(Vec::new());
    let done = AtomicBool::new(false);
    let stopped = || stop.load(Ordering::Relaxed) || rt.cancel.load(Ordering::Relaxed);
    std::thread::scope(|s| {
        let watcher = s.spawn(|| run.watch(rt.cancel, &done));
        let slots: Vec<_> = (0..opts.slots.max(1))
            .map(|_| {
                s.spawn(|| {
                    while !stopped() {
                        match run.step(rt) {
                            Ok(Step::Again) => {}
                            Ok(Step::Ran(task, outcome)) => on_done(&task, &outcome),
                            Ok(Step::Stop) => break,
                            Err(e) => {
                                lock(&errors).push(e);
                                break;
                            }
                        }
                    }
                })
            })
            .collect();
        for h in slots {
            let _ = h.join();
        }
        done.store(true, Ordering::SeqCst);
        let _ = watcher.join();
    });
    if let Some(e) = errors
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .next()
    {
        return Err(e);
    }
    let mut sum = run.summary.into_inner().unwrap_or_else(|p| p.into_inner());
    sum.stopped_by = run
        .stop_reason
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .or_else(|| stopped().then_some(StopReason::Interrupted));
    sum.elapsed_seconds = started.elapsed().as_secs_f64();
    if let Some(why) = sum.stopped_by {
        let o = keeper.owner();
        bus.emit(
            "worker.stopped",
            None,
            json!({"owner": o.id, "host": o.host, "pid": o.pid, "reason": why,
                   "cancelled": sum.cancelled}),
        )?;
    }
    Ok(sum)
}
