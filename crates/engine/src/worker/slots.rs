//! What the slot threads of one worker share and do: read the store's controls, claim the next
//! task, run its stages under the lease, record the outcome (see [`super`]).

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::harness::task::{run_task_fenced, LoopRuntime, TaskOutcome};
use crate::harness::Bus;
use tuplewright_base::lease::LeaseKeeper;
use tuplewright_base::store::{StoreError, TupleStatus, Tx};

use super::control::{self, JobState};
use super::stages::{run_stage, PostStages, Stage, StageRun};
use super::INFRA_EVENT;
use super::{infra_count, queue_for, StopReason, TaskReport, WorkerOptions, WorkerSummary};

/// What one slot step did.
pub(super) enum Step {
    /// Nothing claimed (paused, or everything leased elsewhere): look again.
    Again,
    /// Worked on this task.
    Ran(String, TaskReport),
    /// Stop this slot (queue drained, cancelled, budget spent).
    Stop,
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What the slots of one worker share while it runs.
pub(super) struct Run<'a> {
    pub bus: &'a Bus,
    pub keeper: &'a LeaseKeeper,
    pub opts: &'a WorkerOptions,
    pub post: &'a PostStages<'a>,
    /// The stages, in pipeline order, and the statuses they take.
    pub stages: Vec<Stage>,
    pub statuses: Vec<TupleStatus>,
    pub summary: Mutex<WorkerSummary>,
    /// Per task, when this process may retry it after an infrastructure failure.
    pub not_before: Mutex<HashMap<String, Instant>>,
    /// Tasks none of this worker's stages has anything to do on (not claimed again here).
    pub settled: Mutex<BTreeSet<String>>,
    /// Why the worker stops (the first reason found wins).
    pub stop_reason: Mutex<Option<StopReason>>,
    /// Whether this process has noted the job's pause (one `worker.paused` event per pause).
    pub paused: AtomicBool,
    pub in_flight: AtomicUsize,
}

impl<'a> Run<'a> {
    pub fn new(
        bus: &'a Bus,
        keeper: &'a LeaseKeeper,
        opts: &'a WorkerOptions,
        post: &'a PostStages<'a>,
    ) -> Self {
        let stages = post.stages(opts.with_loop);
        let mut statuses: Vec<TupleStatus> = Vec::new();
        for s in stages.iter().flat_map(|s| s.takes()) {
            if !statuses.contains(s) {
                statuses.push(*s);
            }
        }
        Run {
            bus,
            keeper,
            opts,
            post,
            stages,
            statuses,
            summary: Mutex::new(WorkerSummary::default()),
            not_before: Mutex::new(HashMap::new()),
            settled: Mutex::new(BTreeSet::new()),
            stop_reason: Mutex::new(None),
            paused: AtomicBool::new(false),
            in_flight: AtomicUsize::new(0),
        }
    }

    pub fn stop_for(&self, why: StopReason) {
        lock(&self.stop_reason).get_or_insert(why);
    }

    fn worker_event(&self, kind: &str) -> Result<(), StoreError> {
        let o = self.keeper.owner();
        let v = json!({"owner": o.id, "host": o.host, "pid": o.pid,
            "in_flight": self.in_flight.load(Ordering::Relaxed)});
        self.bus.emit(kind, None, v)
    }

    /// Reads the store's controls before a claim: `Ok(true)` to claim, `Ok(false)` to wait
    /// (paused); sets the stop reason when cancelled or out of budget.
    fn may_claim(&self, cancel: &AtomicBool) -> Result<bool, StoreError> {
        let state = self.bus.read(|s| control::job_state(s.conn()))?;
        match state {
            JobState::Cancelled => {
                self.stop_for(StopReason::Cancelled);
                cancel.store(true, Ordering::SeqCst);
                return Ok(false);
            }
            JobState::Paused => {
                if !self.paused.swap(true, Ordering::SeqCst) {
                    self.worker_event("worker.paused")?;
                }
                return Ok(false);
            }
            JobState::Running => {
                if self.paused.swap(false, Ordering::SeqCst) {
                    self.worker_event("worker.resumed")?;
                }
            }
        }
        if let Some((used, budget)) = self.bus.read(|s| control::budget_spent(s.conn()))? {
            self.stop_for(StopReason::Budget { used, budget });
            return Ok(false);
        }
        if let Some((used_usd, budget_usd)) =
            self.bus.read(|s| control::usd_budget_spent(s.conn()))?
        {
            self.stop_for(StopReason::CostBudget {
                used_usd,
                budget_usd,
            });
            return Ok(false);
        }
        Ok(true)
    }

    /// One claim and its task.
    pub fn step(&self, rt: &LoopRuntime<'_>) -> Result<Step, StoreError> {
        let now = Instant::now();
        let waiting = lock(&self.not_before).clone();
        let settled = lock(&self.settled).clone();
        let all: Vec<String> = queue_for(self.bus, self.opts.max_infra_attempts, &self.statuses)?
            .into_iter()
            .filter(|t| !settled.contains(t))
            .collect();
        if all.is_empty() {
            // The queue is drained: a worker killed after finishing a task but before releasing
            // its lease left that lease behind, and no claim will ever take it over now.
            self.keeper.clear_stale()?;
            return Ok(Step::Stop);
        }
        if !self.may_claim(rt.cancel)? {
            if lock(&self.stop_reason).is_some() {
                return Ok(Step::Stop);
            }
            std::thread::sleep(self.opts.poll);
            return Ok(Step::Again);
        }
        let ids: Vec<String> = all
            .into_iter()
            .filter(|t| waiting.get(t).is_none_or(|at| *at <= now))
            .collect();
        let lease_stage = self.stages.first().copied().unwrap_or(Stage::Loop).as_str();
        let t0 = Instant::now();
        let claimed = self
            .keeper
            .claim_first(&ids, lease_stage, Some(&self.statuses))?;
        let Some(task) = claimed else {
            // Everything left is leased elsewhere or backing off: look again soon.
            std::thread::sleep(self.opts.poll);
            return Ok(Step::Again);
        };
        let claim_secs = t0.elapsed().as_secs_f64();
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        let report = self.work(rt, &task);
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        self.keeper.release(&task)?;
        let report = report?;
        self.record(&task, &report, claim_secs)?;
        Ok(Step::Ran(task, report))
    }

    /// The stages on one claimed task, in order, while each leaves it for the next.
    fn work(&self, rt: &LoopRuntime<'_>, task: &str) -> Result<TaskReport, StoreError> {
        let mut rep = TaskReport::default();
        let status = self.bus.read(|s| s.effective_status(task))?;
        let takes = |st: Stage| st.takes().iter().any(|s| s.as_str() == status);
        if self.opts.with_loop && takes(Stage::Loop) {
            let fence = |tx: &Tx<'_>| self.keeper.fence(tx, task);
            let outcome = run_task_fenced(rt, self.bus, task, &fence);
            if let TaskOutcome::Infra(why) = &outcome {
                let v = json!({"stage": "loop", "error": why});
                self.bus.emit(INFRA_EVENT, Some(task), v)?;
            }
            let go_on = matches!(outcome, TaskOutcome::Accepted { .. });
            rep.loop_outcome = Some(outcome);
            if !go_on {
                return Ok(rep);
            }
        }
        for stage in self.stages.iter().copied().filter(|s| *s != Stage::Loop) {
            if rt.cancel.load(Ordering::SeqCst) {
                rep.cancelled = true;
                break;
            }
            let run = run_stage(stage, self.post, rt, self.bus, task)?;
            let failed = matches!(run, StageRun::Infra(_) | StageRun::Invalid(_));
            if failed && rt.cancel.load(Ordering::SeqCst) {
                // Stopped by a cancel, not by the infrastructure.
                rep.cancelled = true;
                break;
            }
            if let StageRun::Infra(why) = &run {
                let v = json!({"stage": stage.as_str(), "error": why});
                self.bus.emit(INFRA_EVENT, Some(task), v)?;
            }
            rep.stages.push((stage, run));
            if failed {
                break;
            }
        }
        Ok(rep)
    }

    fn record(&self, task: &str, rep: &TaskReport, claim_secs: f64) -> Result<(), StoreError> {
        let mut sum = lock(&self.summary);
        sum.claims += 1;
        sum.claim_seconds += claim_secs;
        let id = task.to_string();
        let mut settle = false;
        match &rep.loop_outcome {
            Some(TaskOutcome::Accepted { .. }) => sum.accepted.push(id.clone()),
            Some(TaskOutcome::Rejected { .. }) => sum.rejected.push(id.clone()),
            Some(TaskOutcome::Invalid(m)) => {
                sum.invalid.push((id.clone(), m.clone()));
                settle = true;
            }
            Some(TaskOutcome::Cancelled) => sum.cancelled.push(id.clone()),
            Some(TaskOutcome::Infra(_)) | None => {}
        }
        for (stage, run) in &rep.stages {
            match run {
                StageRun::Ran(_) => *sum.stages.entry(stage.as_str().into()).or_default() += 1,
                StageRun::Invalid(m) => {
                    sum.invalid
                        .push((id.clone(), format!("{} stage: {m}", stage.as_str())));
                    settle = true;
                }
                StageRun::Skipped | StageRun::Infra(_) => {}
            }
        }
        if rep.cancelled {
            sum.cancelled.push(id.clone());
        }
        if rep.is_idle() {
            settle = true;
        }
        if rep.infra() {
            sum.infra_failures += 1;
            let n = infra_count(self.bus, task)?;
            if n >= i64::from(self.opts.max_infra_attempts) {
                sum.gave_up.push(id.clone());
            } else {
                let shift = u32::try_from(n.clamp(1, 6) - 1).unwrap_or(0);
                let delay = (self.opts.backoff * 2u32.pow(shift)).min(Duration::from_secs(30));
                lock(&self.not_before).insert(id.clone(), Instant::now() + delay);
            }
        }
        drop(sum);
        if settle {
            lock(&self.settled).insert(id);
        }
        Ok(())
    }

    /// Re-reads the job state while the slots run, so a cancel reaches the tasks in flight.
    pub fn watch(&self, cancel: &AtomicBool, done: &AtomicBool) {
        let tick = Duration::from_millis(20).min(self.opts.control_poll);
        let mut last = Instant::now();
        while !done.load(Ordering::SeqCst) {
            std::thread::sleep(tick);
            if last.elapsed() < self.opts.control_poll || self.in_flight.load(Ordering::SeqCst) == 0
            {
                continue;
            }
            last = Instant::now();
            match self.bus.read(|s| control::job_state(s.conn())) {
                Ok(JobState::Cancelled) => {
                    self.stop_for(StopReason::Cancelled);
                    cancel.store(true, Ordering::SeqCst);
                }
                Ok(_) => {}
                // A store hiccup is not a cancel; the slots see it on their next read.
                Err(e) => tracing::warn!("reading the store's job control failed: {e}"),
            }
        }
    }
}
