//! Many tasks on `jobs` worker threads. Workers stop taking new tasks once Ctrl-C is pressed or the
//! job is cancelled; a task in flight stops at its next step and is left pending, so `--resume`
//! picks it up. A paused job starts no new task until resumed ([`JobControl`]).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;
use serde_json::json;

use super::job::JobControl;
use super::task::{run_task, LoopRuntime, TaskOutcome};
use super::Bus;

/// Options of a batch.
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// Worker threads.
    pub jobs: usize,
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
                let outcome = run_task(rt, bus, task);
                let secs = t0.elapsed().as_secs_f64();
                let done = control.task_finished();
                let _ = bus.emit(
                    "job.task",
                    Some(task),
                    json!({"job": control.id(), "outcome": outcome_name(&outcome),
                           "secs": secs, "done": done, "total": tasks.len()}),
                );
                on_done(task, &outcome);
                let mut sum = summary.lock().unwrap_or_else(|p| p.into_inner());
                sum.add(task, outcome, secs);
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
               "cancelled": sum.cancelled.len(), "elapsed_secs": sum.elapsed_seconds}),
    );
    sum
}
