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

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;

use crate::engine::harness::batch::STAGE;
use crate::engine::harness::task::{run_task_fenced, LoopRuntime, TaskOutcome};
use crate::engine::harness::{BatchOptions, Bus};
use crate::engine::lease::LeaseKeeper;
use crate::engine::store::db::params;
use crate::engine::store::{StoreError, TupleStatus, Tx};

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
    /// How long to wait before looking again when every remaining task is leased elsewhere.
    pub poll: Duration,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        WorkerOptions {
            slots: 1,
            max_infra_attempts: 3,
            backoff: Duration::from_millis(500),
            poll: Duration::from_millis(250),
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
    /// Wall time.
    pub elapsed_seconds: f64,
}

/// The tasks a worker may still take: `pending` or `in_loop`, fewer than `max` infrastructure
/// failures recorded, by task id.
pub fn queue(bus: &Bus, max_infra_attempts: u32) -> Result<Vec<String>, StoreError> {
    bus.read(|s| {
        s.conn()
            .query_map(
                "SELECT u.task_id FROM tuples u WHERE u.status IN (?1, ?2) \
                 AND (SELECT COUNT(*) FROM events e WHERE e.task_id = u.task_id AND e.kind = ?3) < ?4 \
                 ORDER BY u.task_id",
                params![
                    TupleStatus::Pending.as_str(),
                    TupleStatus::InLoop.as_str(),
                    INFRA_EVENT,
                    i64::from(max_infra_attempts)
                ],
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

/// Runs the worker until the queue is drained or `stop` is set; `on_done(task, outcome)` is
/// called as each task ends.
pub fn run_worker(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    keeper: &LeaseKeeper,
    opts: &WorkerOptions,
    stop: &AtomicBool,
    on_done: &(dyn Fn(&str, &TaskOutcome) + Sync),
) -> Result<WorkerSummary, StoreError> {
    let started = Instant::now();
    let summary = Mutex::new(WorkerSummary::default());
    let statuses = BatchOptions::resumable();
    let errors: Mutex<Vec<StoreError>> = Mutex::new(Vec::new());
    // Per task, when this process may retry it after an infrastructure failure.
    let not_before: Mutex<HashMap<String, Instant>> = Mutex::new(HashMap::new());
    let stopped = || stop.load(Ordering::Relaxed) || rt.cancel.load(Ordering::Relaxed);
    std::thread::scope(|s| {
        for _ in 0..opts.slots.max(1) {
            s.spawn(|| {
                let step = || -> Result<bool, StoreError> {
                    let now = Instant::now();
                    let waiting = not_before.lock().unwrap_or_else(|p| p.into_inner()).clone();
                    let all = queue(bus, opts.max_infra_attempts)?;
                    if all.is_empty() {
                        return Ok(false);
                    }
                    let ids: Vec<String> = all
                        .into_iter()
                        .filter(|t| waiting.get(t).is_none_or(|at| *at <= now))
                        .collect();
                    let t0 = Instant::now();
                    let claimed = keeper.claim_first(&ids, STAGE, Some(&statuses))?;
                    let Some(task) = claimed else {
                        // Everything left is leased elsewhere or backing off: look again soon.
                        std::thread::sleep(opts.poll);
                        return Ok(true);
                    };
                    let claim_secs = t0.elapsed().as_secs_f64();
                    let fence = |tx: &Tx<'_>| keeper.fence(tx, &task);
                    let outcome = run_task_fenced(rt, bus, &task, &fence);
                    if let TaskOutcome::Infra(why) = &outcome {
                        bus.emit(INFRA_EVENT, Some(&task), json!({"error": why}))?;
                    }
                    keeper.release(&task)?;
                    let mut sum = summary.lock().unwrap_or_else(|p| p.into_inner());
                    sum.claims += 1;
                    sum.claim_seconds += claim_secs;
                    match &outcome {
                        TaskOutcome::Accepted { .. } => sum.accepted.push(task.clone()),
                        TaskOutcome::Rejected { .. } => sum.rejected.push(task.clone()),
                        TaskOutcome::Invalid(m) => sum.invalid.push((task.clone(), m.clone())),
                        TaskOutcome::Cancelled => {}
                        TaskOutcome::Infra(_) => {
                            sum.infra_failures += 1;
                            let n = infra_count(bus, &task)?;
                            if n >= i64::from(opts.max_infra_attempts) {
                                sum.gave_up.push(task.clone());
                            } else {
                                let shift = u32::try_from(n.clamp(1, 6) - 1).unwrap_or(0);
                                let delay =
                                    (opts.backoff * 2u32.pow(shift)).min(Duration::from_secs(30));
                                not_before
                                    .lock()
                                    .unwrap_or_else(|p| p.into_inner())
                                    .insert(task.clone(), Instant::now() + delay);
                            }
                        }
                    }
                    drop(sum);
                    on_done(&task, &outcome);
                    Ok(true)
                };
                while !stopped() {
                    match step() {
                        Ok(true) => {}
                        Ok(false) => break,
                        Err(e) => {
                            errors.lock().unwrap_or_else(|p| p.into_inner()).push(e);
                            break;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = errors
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .next()
    {
        return Err(e);
    }
    let mut sum = summary.into_inner().unwrap_or_else(|p| p.into_inner());
    sum.elapsed_seconds = started.elapsed().as_secs_f64();
    Ok(sum)
}
