//! Re-verifying existing tuples with no agent involved: the stored (or imported) scripts of a task's
//! latest round are replayed through the same round harness — C1–C5 and determinism — plus a *noop
//! probe*: the reward on an environment where nothing was set up must not already score 1.0.

use std::sync::atomic::AtomicBool;

use serde::Serialize;
use serde_json::json;

use crate::engine::agents::replay::StoredScripts;
use crate::engine::sandbox::{parse_reward, Role};

use super::execute::Runner;
use super::round::RoundCtx;
use super::task::{brief_of, LoopRuntime};
use super::{Bus, HarnessError};

/// The result of verifying one tuple.
#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    /// The task.
    pub task_id: String,
    /// True iff C1–C5 hold, the reward is deterministic and the noop probe is below 1.0.
    pub ok: bool,
    /// Conditions that failed (`C1`..`C5`), plus `noop` when the untouched environment scores 1.0.
    pub failing: Vec<String>,
    /// The noop probe's score (None = the reward errored there).
    pub noop_score: Option<f64>,
    /// The REVIEW.md of the replay.
    pub review_md: String,
}

/// Verifies one stored task by replaying its latest round's scripts; records the replay as a round
/// with source `verify` (the tuple's status is not changed).
pub fn verify_task(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    task_id: &str,
) -> Result<Verification, HarnessError> {
    let task = bus.read(|s| s.task(task_id))?;
    let brief = brief_of(&task, rt.cfg)?;
    let rounds = bus.read(|s| s.rounds(task_id))?;
    let last = rounds
        .iter()
        .rev()
        .find(|r| r.round.scripts.reward.is_some())
        .ok_or_else(|| {
            HarnessError::Task(format!("task {task_id} has no stored round with scripts"))
        })?;
    let fixed = StoredScripts {
        scripts: &last.round.scripts,
        name: "verify:stored",
    };
    let cancel = AtomicBool::new(false);
    let phase = |_: &str, _: serde_json::Value| {};
    let runner = Runner {
        rt: &rt.rt,
        cfg: rt.sandbox,
        isolation: rt.isolation,
    };
    let ctx = RoundCtx {
        runner,
        fleet: rt.fleet,
        cfg: rt.cfg,
        generator: &fixed,
        discriminator: &fixed,
        brief: &brief,
        cancel: &cancel,
        phase: &phase,
    };
    // The replay is the task's next stored round; its REVIEW.md heading says so.
    let round = bus.read(|s| s.last_round_no(task_id))? + 1;
    let mut outcome = ctx.run(round, None)?;
    outcome.record.round_no = Some(i64::from(round));
    // Noop probe: a fresh environment, no setup at all.
    let noop_env = rt.fleet.provision(task_id, "noop", &brief.apps)?;
    let reward = fixed.scripts.reward.clone().unwrap_or_default();
    let limits = crate::engine::sandbox::Limits {
        wall_seconds: rt.cfg.reward_timeout_secs,
        ..rt.sandbox.limits.clone()
    };
    let run = ctx
        .runner
        .run(&noop_env, Role::Reader, "reward.py", &reward, &limits)?;
    drop(noop_env);
    let noop_score = if run.succeeded() {
        parse_reward(&run.stdout.text).ok().map(|r| r.score)
    } else {
        None
    };
    let mut failing: Vec<String> = outcome
        .verdict
        .failing()
        .iter()
        .map(|c| format!("{c:?}"))
        .collect();
    if noop_score.is_some_and(|s| s >= 1.0 - 1e-6) {
        failing.push("noop".into());
    }
    outcome.record.source = "verify".into();
    bus.write(|tx| {
        tx.record_round_with_states(&outcome.record, &outcome.states)?;
        tx.append_event(
            "tuple.verified",
            Some(task_id),
            &json!({"ok": failing.is_empty(), "failing": failing, "noop_score": noop_score}),
        )
        .map(|_| ())
    })?;
    Ok(Verification {
        task_id: task_id.to_string(),
        ok: failing.is_empty(),
        failing,
        noop_score,
        review_md: outcome.record.review_md,
    })
}
