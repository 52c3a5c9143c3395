//! Many tasks on `jobs` worker threads. Workers stop taking new tasks once Ctrl-C is pressed; a task
//! in flight stops at its next step and is left pending, so `--resume` picks it up.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;

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
                    *self
                        .rejected_by_condition
                        .entry(format!("{c:?}"))
                        .or_default() += 1;
                }
                self.task_seconds.insert(task.to_string(), secs);
            }
            TaskOutcome::Infra(m) => self.infra_failures.push((task.to_string(), m)),
            TaskOutcome::Invalid(m) => self.invalid.push((task.to_string(), m)),
            TaskOutcome::Cancelled => self.cancelled.push(task.to_string()),
        }
    }
}

/// Runs the loop on `tasks`; `on_done(task, outcome)` is called as each finishes.
pub fn run_batch(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    tasks: &[String],
    opts: &BatchOptions,
    on_done: &(dyn Fn(&str, &TaskOutcome) + Sync),
) -> BatchSummary {
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let summary = Mutex::new(BatchSummary {
        tasks: tasks.len(),
        ..Default::default()
    });
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.max(1) {
            s.spawn(|| loop {
                if rt.cancel.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(task) = tasks.get(i) else { break };
                let t0 = Instant::now();
                let outcome = run_task(rt, bus, task);
                on_done(task, &outcome);
                let mut sum = summary.lock().unwrap_or_else(|p| p.into_inner());
                sum.add(task, outcome, t0.elapsed().as_secs_f64());
            });
        }
    });
    let mut sum = summary.into_inner().unwrap_or_else(|p| p.into_inner());
    // Tasks never started because of Ctrl-C are cancelled too.
    let started_count = next.load(Ordering::Relaxed).min(tasks.len());
    for t in &tasks[started_count..] {
        sum.cancelled.push(t.clone());
    }
    sum.elapsed_seconds = started.elapsed().as_secs_f64();
    sum
}
