//! One tuple after another under a [`JobControl`]: the shape of the per-tuple stages (critic vote,
//! verify) as jobs. Pause holds before the next tuple, cancel stops before it (the tuple in flight
//! always finishes: a stage's write is one transaction at the tuple's end). Every step is a `job.*`
//! event written through the [`Bus`], so the Live screen of any process shows the job exactly as it
//! shows a run: `job.started` (kind, total), one `job.task` per tuple (its outcome word, seconds,
//! done/total), `job.finished` with a count per outcome word and `cancelled` for those never started.

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::{json, Value};

use crate::harness::{Bus, JobControl};

/// Runs `f` on each id in order under `control`; `f` returns its result and an outcome word
/// (`kept`, `failed`, `passed`…) counted in `job.finished`. `extra` is merged into `job.started`.
/// Ids not started because of a cancel are absent from the result.
pub fn each_controlled<T>(
    bus: &Bus,
    control: &JobControl,
    kind: &str,
    extra: Value,
    ids: &[String],
    mut f: impl FnMut(&str) -> (T, &'static str),
) -> Vec<(String, T)> {
    let started = Instant::now();
    control.set_total(ids.len());
    let mut payload = json!({"job": control.id(), "kind": kind, "total": ids.len(), "jobs": 1});
    if let (Some(p), Value::Object(x)) = (payload.as_object_mut(), extra) {
        p.extend(x);
    }
    let _ = bus.emit("job.started", None, payload);
    let mut out = Vec::with_capacity(ids.len());
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    for id in ids {
        if !control.wait_turn() {
            break;
        }
        control.task_started();
        let t0 = Instant::now();
        let (r, outcome) = f(id);
        let done = control.task_finished();
        *counts.entry(outcome).or_default() += 1;
        let _ = bus.emit(
            "job.task",
            Some(id),
            json!({"job": control.id(), "outcome": outcome,
                   "secs": t0.elapsed().as_secs_f64(), "done": done, "total": ids.len()}),
        );
        out.push((id.clone(), r));
    }
    let mut fin = json!({"job": control.id(), "kind": kind, "total": ids.len(),
                         "cancelled": ids.len() - out.len(),
                         "elapsed_secs": started.elapsed().as_secs_f64()});
    for (k, n) in counts {
        fin[k] = json!(n);
    }
    let _ = bus.emit("job.finished", None, fin);
    out
}
