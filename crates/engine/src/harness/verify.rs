//! Re-verifying existing tuples with no agent involved: the stored (or imported) scripts of a task's
//! latest round are replayed through the same round harness — C1–C5, determinism and the reward
//! probes (noop, empty state, destructive). The replay is recorded as a round with source `verify`
//! and its outcome as a decision: an unverified tuple (`imported`, `verify_failed`) that passes is
//! promoted (`final`, or `vote_rejected` when its bundle says `reject: true`); any tuple that fails
//! becomes `verify_failed` with the failing checks as the reason. An infrastructure failure
//! changes nothing.

use std::sync::atomic::AtomicBool;

use serde::Serialize;
use serde_json::json;

use crate::agents::replay::StoredScripts;
use tuplewright_base::agreement::ProbeCheck;
use tuplewright_base::store::{DecisionSource, StoredTask, TupleStatus};

use super::execute::Runner;
use super::round::RoundCtx;
use super::task::{brief_for, LoopRuntime};
use super::{Bus, HarnessError};

/// The result of verifying one tuple.
#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    /// The task.
    pub task_id: String,
    /// True iff C1–C5 hold, the reward is deterministic and every probe scores at most the
    /// threshold.
    pub ok: bool,
    /// Checks that failed: `C1`..`C5`, then `probe:noop`, `probe:empty_state`, `probe:destructive`.
    pub failing: Vec<String>,
    /// The noop probe's score (None = not run, or the reward errored there).
    pub noop_score: Option<f64>,
    /// Every probe, judged (empty when C1–C5 failed and the probes were not run).
    pub probes: Vec<ProbeCheck>,
    /// The tuple's status before the replay.
    pub status_before: String,
    /// Its status after (the decision recorded, if any).
    pub status: String,
    /// The REVIEW.md of the replay.
    pub review_md: String,
}

const ACTOR: &str = "verify";

/// The status a replay moves `task` to, or `None` to leave it.
fn next_status(task: &StoredTask, ok: bool) -> Option<TupleStatus> {
    let current = TupleStatus::parse(&task.status)?;
    if ok {
        let rejected = task
            .task
            .original_json
            .pointer("/config.json/reject")
            .and_then(serde_json::Value::as_bool)
            == Some(true);
        return current.unverified().then_some(if rejected {
            TupleStatus::VoteRejected
        } else {
            TupleStatus::Final
        });
    }
    let settled = matches!(
        current,
        TupleStatus::Pending
            | TupleStatus::InLoop
            | TupleStatus::LoopFailed
            | TupleStatus::VoteRejected
            | TupleStatus::RolloutRejected
            | TupleStatus::Dropped
            | TupleStatus::VerifyFailed
    );
    (!settled).then_some(TupleStatus::VerifyFailed)
}

/// Verifies one stored task by replaying its latest round's scripts; records the replay as a round
/// with source `verify` and the resulting decision (see the module doc).
pub fn verify_task(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    task_id: &str,
) -> Result<Verification, HarnessError> {
    let task = bus.read(|s| s.task(task_id))?;
    let rounds = bus.read(|s| s.rounds(task_id))?;
    let last = rounds
        .iter()
        .rev()
        .find(|r| r.round.scripts.reward.is_some())
        .ok_or_else(|| {
            HarnessError::Task(format!("task {task_id} has no stored round with scripts"))
        })?;
    let brief = brief_for(
        &task,
        rt.cfg,
        rt.fleet.resolver(),
        Some(&last.round.scripts),
    )?;
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
    let failing = outcome.verdict.failing_names();
    let ok = outcome.verdict.pass;
    let probes = outcome.verdict.probes.clone();
    let noop_score = probes
        .iter()
        .find(|p| p.probe == crate::probes::ProbeKind::Noop.name())
        .and_then(|p| p.score);
    outcome.record.source = "verify".into();
    let next = next_status(&task, ok);
    let reason = if ok {
        "verified by this harness: C1–C5 and the probes hold".to_string()
    } else {
        format!("verification failed: {}", failing.join(", "))
    };
    bus.write(|tx| {
        tx.record_round_with_states(&outcome.record, &outcome.states)?;
        if let Some(to) = next {
            tx.record_decision(task_id, to, ACTOR, DecisionSource::Policy, &reason, None)?;
        }
        tx.append_event(
            "tuple.verified",
            Some(task_id),
            &json!({"ok": ok, "failing": failing, "noop_score": noop_score,
                    "status": next.map(TupleStatus::as_str)}),
        )
        .map(|_| ())
    })?;
    let status = next.map_or(task.status.clone(), |s| s.as_str().to_string());
    Ok(Verification {
        task_id: task_id.to_string(),
        ok,
        failing,
        noop_score,
        probes,
        status_before: task.status.clone(),
        status,
        review_md: outcome.record.review_md,
    })
}
