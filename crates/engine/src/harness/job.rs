//! A control handle on a running batch: pause (the tasks in flight finish, no new task starts until
//! resumed), resume, cancel. Every state change is an event (`job.paused`, `job.resumed`,
//! `job.cancelled`) written through the [`Bus`] — to the store first, then to listeners — so a
//! workbench in another process sees the same job history.
//!
//! Cancel abandons the tasks in flight exactly like Ctrl-C and the infrastructure-failure path: the
//! shared cancel flag is the one every round checks before each step, the round in progress is never
//! stored (a round is written in one transaction at its end), and the task goes back to `pending`.
//! Rounds the task finished before the cancel stay stored, as after Ctrl-C; `--resume` or a new run
//! continues the task from the round after them, with their REVIEW.md ([`super::resume`]).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use serde_json::json;

use tuplewright_base::store::StoreError;

use super::Bus;

/// Where a job is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobPhase {
    /// Starting tasks.
    Running,
    /// Finishing the tasks in flight, starting none.
    Paused,
    /// Cancel requested: no new task starts, tasks in flight are abandoned.
    Cancelled,
}

/// Shared handle on one batch. Cheap to share behind an `Arc`; every method is thread-safe.
#[derive(Debug)]
pub struct JobControl {
    id: String,
    phase: Mutex<JobPhase>,
    wake: Condvar,
    cancel: Arc<AtomicBool>,
    total: AtomicUsize,
    done: AtomicUsize,
    in_flight: AtomicUsize,
}

impl JobControl {
    /// A running job named `id` whose cancel flag is `cancel` (pass the same flag as the
    /// `LoopRuntime`'s, so cancelling stops the rounds in flight at their next step).
    pub fn new(id: impl Into<String>, cancel: Arc<AtomicBool>) -> Self {
        JobControl {
            id: id.into(),
            phase: Mutex::new(JobPhase::Running),
            wake: Condvar::new(),
            cancel,
            total: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            in_flight: AtomicUsize::new(0),
        }
    }

    /// A fresh job id (`run-` + 8 hex digits).
    pub fn new_id(kind: &str) -> String {
        let u = uuid::Uuid::new_v4().simple().to_string();
        format!("{kind}-{}", &u[..8])
    }

    /// The job's id (in every `job.*` event payload as `job`).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The current phase.
    pub fn phase(&self) -> JobPhase {
        if self.cancel.load(Ordering::Relaxed) {
            return JobPhase::Cancelled;
        }
        *self.phase.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The cancel flag shared with the rounds.
    pub fn cancel_flag(&self) -> &Arc<AtomicBool> {
        &self.cancel
    }

    /// (done, total, in flight).
    pub fn counts(&self) -> (usize, usize, usize) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
            self.in_flight.load(Ordering::Relaxed),
        )
    }

    fn counts_json(&self) -> serde_json::Value {
        let (done, total, in_flight) = self.counts();
        json!({"job": self.id, "done": done, "total": total, "in_flight": in_flight})
    }

    fn set(&self, from: JobPhase, to: JobPhase) -> bool {
        let mut p = self.phase.lock().unwrap_or_else(|p| p.into_inner());
        if *p != from || self.cancel.load(Ordering::Relaxed) {
            return false;
        }
        *p = to;
        self.wake.notify_all();
        true
    }

    /// Pauses a running job and records `job.paused`. Returns false (no event) when it was not
    /// running. The pause holds even when recording the event fails (that error is returned).
    pub fn pause(&self, bus: &Bus) -> Result<bool, StoreError> {
        if !self.set(JobPhase::Running, JobPhase::Paused) {
            return Ok(false);
        }
        bus.emit("job.paused", None, self.counts_json())?;
        Ok(true)
    }

    /// Resumes a paused job and records `job.resumed`. Returns false when it was not paused.
    pub fn resume(&self, bus: &Bus) -> Result<bool, StoreError> {
        if !self.set(JobPhase::Paused, JobPhase::Running) {
            return Ok(false);
        }
        bus.emit("job.resumed", None, self.counts_json())?;
        Ok(true)
    }

    /// Cancels the job (running or paused) and records `job.cancelled`. Returns false when it was
    /// already cancelled.
    pub fn cancel(&self, bus: &Bus) -> Result<bool, StoreError> {
        if !self.mark_cancelled() {
            return Ok(false);
        }
        bus.emit("job.cancelled", None, self.counts_json())?;
        Ok(true)
    }

    /// Sets the cancel flag and wakes paused workers; true if this call cancelled.
    fn mark_cancelled(&self) -> bool {
        let mut p = self.phase.lock().unwrap_or_else(|p| p.into_inner());
        let was = *p == JobPhase::Cancelled;
        *p = JobPhase::Cancelled;
        self.cancel.store(true, Ordering::SeqCst);
        self.wake.notify_all();
        !was
    }

    /// Blocks while the job is paused. Returns false when the job is cancelled (start nothing).
    pub(crate) fn wait_turn(&self) -> bool {
        let mut p = self.phase.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if self.cancel.load(Ordering::Relaxed) {
                return false;
            }
            if *p == JobPhase::Running {
                return true;
            }
            p = self.wake.wait(p).unwrap_or_else(|p| p.into_inner());
        }
    }

    pub(crate) fn set_total(&self, n: usize) {
        self.total.store(n, Ordering::Relaxed);
    }

    pub(crate) fn task_started(&self) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
    }

    /// Marks a task finished; returns the new done count.
    pub(crate) fn task_finished(&self) -> usize {
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
        self.done.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Records `job.cancelled` (reason `interrupted`) once, for a stop that came from outside the
    /// handle (Ctrl-C on the runtime's flag); nothing when the handle already recorded the cancel.
    pub(crate) fn note_external_cancel(&self, bus: &Bus) {
        let mut p = self.phase.lock().unwrap_or_else(|p| p.into_inner());
        if *p == JobPhase::Cancelled {
            return;
        }
        *p = JobPhase::Cancelled;
        drop(p);
        let mut v = self.counts_json();
        v["reason"] = json!("interrupted");
        let _ = bus.emit("job.cancelled", None, v);
    }
}
