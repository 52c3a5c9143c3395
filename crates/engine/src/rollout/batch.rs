//! Rollouts over many tuples as one job the workbench can pause, resume and cancel
//! ([`JobControl`]), with the same `job.*` events as a loop batch (`kind: "rollout"`).
//!
//! `jobs` tuples run at once (`tuplewright rollout --jobs`; the workbench runs one). Cancel and
//! pause take effect between tuples: the tuple in flight finishes its trials, because every trial is stored on its own
//! and abandoning one mid-way would record a policy failure that did not happen. Give the job a
//! cancel flag of its own (not the runtime's) to get exactly that.
//!
//! Each tuple is claimed (task lease, stage `rollout`) before its trials start and released after;
//! a tuple another live process holds is skipped (`job.task` outcome `leased`) and counted in
//! `job.finished` as `leased`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde_json::json;

use crate::harness::task::LoopRuntime;
use crate::harness::{Bus, JobControl};
use tuplewright_base::lease::LeaseKeeper;
use tuplewright_base::store::TupleStatus;

use super::stage::{rollout_task, StageOptions, TaskRollouts};
use super::{Policy, RolloutError};

/// One tuple's result in a rollout job.
#[derive(Debug)]
pub enum TupleResult {
    /// The tuple was claimed and rolled out (or its rollout failed).
    Done(Result<TaskRollouts, RolloutError>),
    /// The claim was refused (another live owner, or no longer eligible): why.
    Skipped(String),
    /// Claiming failed (the lease store): why.
    ClaimFailed(String),
}

/// One tuple's result, with its id.
pub type RolloutResult = (String, TupleResult);

/// The lease stage name of the rollout stage.
pub const STAGE: &str = "rollout";

/// Told about each tuple as soon as it is done: its id, outcome word and result.
pub type OnTupleDone<'a> = dyn Fn(&str, &'static str, &TupleResult) + Sync + 'a;

/// Which tuples a rollout batch takes and how many at once.
#[derive(Clone, Copy)]
pub struct BatchScope<'a> {
    /// Tuples rolled out at once (each with its own environment and screen).
    pub jobs: usize,
    /// Claim a tuple only in one of these statuses (`None` = any status).
    pub wanted: Option<&'a [TupleStatus]>,
    /// Told about each tuple as soon as it is done (from the worker thread that did it), with
    /// its outcome word (`ok`, `error`, `leased`) — so a face shows progress while the batch runs.
    pub on_done: Option<&'a OnTupleDone<'a>>,
}

/// Runs the rollout stage on `ids` under `control`, `scope.jobs` tuples at once, each claimed
/// through `leases`; results keep the order of `ids`; tuples not started because of a cancel are
/// absent from the result (and counted as `cancelled` in `job.finished`).
#[allow(clippy::too_many_arguments)]
pub fn rollout_batch(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    ids: &[String],
    policy: &dyn Policy,
    opts: &StageOptions<'_>,
    control: &JobControl,
    leases: &LeaseKeeper,
    scope: BatchScope<'_>,
) -> Vec<RolloutResult> {
    let started = Instant::now();
    control.set_total(ids.len());
    let _ = bus.emit(
        "job.started",
        None,
        json!({"job": control.id(), "kind": "rollout", "total": ids.len(), "jobs": scope.jobs,
               "policy": policy.name(), "trials": opts.trials}),
    );
    let stop = AtomicBool::new(false);
    let out = for_each_parallel(ids, scope.jobs, &stop, |id| {
        if rt.cancel.load(Ordering::Relaxed) || !control.wait_turn() {
            stop.store(true, Ordering::SeqCst);
            return None;
        }
        control.task_started();
        let t0 = Instant::now();
        let claimed = leases.run_claimed(id, STAGE, scope.wanted, || {
            rollout_task(rt, bus, id, policy, opts)
        });
        let done = control.task_finished();
        let (outcome, r) = match claimed {
            Ok(Ok(r)) => (if r.is_ok() { "ok" } else { "error" }, TupleResult::Done(r)),
            Ok(Err(claim)) => (
                "leased",
                TupleResult::Skipped(claim.refusal().unwrap_or_default()),
            ),
            Err(e) => ("error", TupleResult::ClaimFailed(e.to_string())),
        };
        if let Some(f) = scope.on_done {
            f(id, outcome, &r);
        }
        let _ = bus.emit(
            "job.task",
            Some(id),
            json!({"job": control.id(), "outcome": outcome,
                   "secs": t0.elapsed().as_secs_f64(), "done": done, "total": ids.len()}),
        );
        Some(r)
    });
    let out: Vec<RolloutResult> = out
        .into_iter()
        .filter_map(|(id, r)| r.map(|r| (id, r)))
        .collect();
    if rt.cancel.load(Ordering::Relaxed) {
        control.note_external_cancel(bus);
    }
    let failed = out
        .iter()
        .filter(|(_, r)| matches!(r, TupleResult::Done(Err(_)) | TupleResult::ClaimFailed(_)))
        .count();
    let leased = out
        .iter()
        .filter(|(_, r)| matches!(r, TupleResult::Skipped(_)))
        .count();
    let _ = bus.emit(
        "job.finished",
        None,
        json!({"job": control.id(), "total": ids.len(), "ok": out.len() - failed - leased,
               "failed": failed, "leased": leased,
               "cancelled": ids.len() - out.len(),
               "elapsed_secs": started.elapsed().as_secs_f64()}),
    );
    out
}

/// Runs `f` on every id with at most `jobs` at once (threads pulling the next id in order) and
/// returns the results in the order of `ids`. Ids not started because `cancel` was set are
/// absent. Each call owns whatever it starts (its environment, its screen with a display of its
/// own), so the results are those of a serial run apart from timing; screens started meanwhile
/// still take their host slot (`[worker] screens`) and wait while every slot is held.
pub fn for_each_parallel<T: Send>(
    ids: &[String],
    jobs: usize,
    cancel: &std::sync::atomic::AtomicBool,
    f: impl Fn(&str) -> T + Sync,
) -> Vec<(String, T)> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::with_capacity(ids.len()));
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, ids.len().max(1)) {
            s.spawn(|| loop {
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(id) = ids.get(i) else { break };
                let out = f(id);
                done.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((i, out));
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|p| p.into_inner());
    done.sort_by_key(|(i, _)| *i);
    done.into_iter()
        .map(|(i, out)| (ids[i].clone(), out))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::for_each_parallel;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn parallel_runs_at_most_jobs_at_once_and_keeps_the_order_of_the_ids() {
        let ids: Vec<String> = (0..12).map(|i| format!("t{i}")).collect();
        let (running, peak) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let out = for_each_parallel(&ids, 3, &AtomicBool::new(false), |id| {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(20));
            running.fetch_sub(1, Ordering::SeqCst);
            id.len()
        });
        let order: Vec<&str> = out.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(order, ids.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(peak.load(Ordering::SeqCst) <= 3);
        assert!(peak.load(Ordering::SeqCst) >= 2, "some ran at once");
        let cancelled = for_each_parallel(&ids, 2, &AtomicBool::new(true), |_| ());
        assert!(cancelled.is_empty());
    }
}
