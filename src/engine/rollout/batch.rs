//! Rollouts over many tuples as one job the workbench can pause, resume and cancel
//! ([`JobControl`]), with the same `job.*` events as a loop batch (`kind: "rollout"`).
//!
//! Tuples run one after another (as `tuplewright rollout` does). Cancel and pause take effect
//! between tuples: the tuple in flight finishes its trials, because every trial is stored on its own
//! and abandoning one mid-way would record a policy failure that did not happen. Give the job a
//! cancel flag of its own (not the runtime's) to get exactly that.

use std::sync::atomic::Ordering;
use std::time::Instant;

use serde_json::json;

use crate::engine::harness::task::LoopRuntime;
use crate::engine::harness::{Bus, JobControl};

use super::stage::{rollout_task, StageOptions, TaskRollouts};
use super::{Policy, RolloutError};

/// One tuple's result in a rollout job.
pub type RolloutResult = (String, Result<TaskRollouts, RolloutError>);

/// Runs the rollout stage on `ids` under `control`; tuples not started because of a cancel are
/// absent from the result (and counted as `cancelled` in `job.finished`).
pub fn rollout_batch(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    ids: &[String],
    policy: &dyn Policy,
    opts: &StageOptions<'_>,
    control: &JobControl,
) -> Vec<RolloutResult> {
    let started = Instant::now();
    control.set_total(ids.len());
    let _ = bus.emit(
        "job.started",
        None,
        json!({"job": control.id(), "kind": "rollout", "total": ids.len(), "jobs": 1,
               "policy": policy.name(), "trials": opts.trials}),
    );
    let mut out = Vec::new();
    for id in ids {
        if rt.cancel.load(Ordering::Relaxed) || !control.wait_turn() {
            break;
        }
        control.task_started();
        let t0 = Instant::now();
        let r = rollout_task(rt, bus, id, policy, opts);
        let done = control.task_finished();
        let _ = bus.emit(
            "job.task",
            Some(id),
            json!({"job": control.id(), "outcome": if r.is_ok() { "ok" } else { "error" },
                   "secs": t0.elapsed().as_secs_f64(), "done": done, "total": ids.len()}),
        );
        out.push((id.clone(), r));
    }
    if rt.cancel.load(Ordering::Relaxed) {
        control.note_external_cancel(bus);
    }
    let failed = out.iter().filter(|(_, r)| r.is_err()).count();
    let _ = bus.emit(
        "job.finished",
        None,
        json!({"job": control.id(), "total": ids.len(), "ok": out.len() - failed,
               "failed": failed, "cancelled": ids.len() - out.len(),
               "elapsed_secs": started.elapsed().as_secs_f64()}),
    );
    out
}
