//! N trials of one tuple, each stored as it finishes, then the stage's conclusion: for a probe,
//! the trials that missed the expected score (reward defects); for a teacher, the A.4.2 category
//! and — when the tuple is in `voted` — a decision: accepted → final; unsolvable → rollout_rejected;
//! trivial → rollout_rejected unless kept by down-sampling; disagreement → with `refine` on, up to
//! two Discriminator refinement passes ([`super::refine`]) each followed by a re-roll, then dropped
//! (offline analysis) if still disagreeing; without it, needs_human; unclassified → needs_human.
//! A trial that failed (policy, reward or judge error) means no decision at all.

use serde::Serialize;
use serde_json::Value;
use sha2::Digest as _;

use crate::agents::TaskBrief;
use crate::harness::task::{brief_for, LoopRuntime};
use crate::harness::Bus;
use tuplewright_base::store::{
    sha256_of_bytes, Decision, DecisionSource, Scripts, StoredStep, TupleStatus, Usage,
};
use tuplewright_records::bundle::meta::final_round;
use tuplewright_records::filter::effective_outcome;

use super::inclusion::{classify, Classified, Inclusion};
use super::judge::{distill_checklist, Judge};
use super::live_steps::BusFeed;
use super::policy::{Policy, PolicyKind};
use super::refine::{disagreement_review, refine_reward};
use super::screen::SCREENSHOT_DETAIL_KEY;
use super::trial::{record_steps, run_trial, Trial};
use super::RolloutError;

/// Actor of the stage's decisions.
pub const ACTOR: &str = "teacher-rollout";

/// How to run the stage.
pub struct StageOptions<'a> {
    /// Trials per tuple.
    pub trials: u32,
    /// δ of the inclusion rule.
    pub delta: f64,
    /// Share of trivial tuples kept.
    pub trivial_keep_fraction: f64,
    /// The judge, if any.
    pub judge: Option<&'a dyn Judge>,
    /// Route disagreements to the runtime's Discriminator (at most two passes).
    pub refine: bool,
}

/// Most refinement passes per tuple (A.4.2).
pub const MAX_REFINE_PASSES: u32 = 2;

/// One trial as reported.
#[derive(Debug, Clone, Serialize)]
pub struct TrialSummary {
    /// Trial number.
    pub trial: u32,
    /// reward.py score.
    pub reward: Option<f64>,
    /// Judge score.
    pub judge: Option<f64>,
    /// Why there is no score.
    pub failure: Option<String>,
    /// The trial's row id in the store.
    pub rollout_id: i64,
    /// Screen trials: every recorded step as stored (screenshots by sha256, files in the
    /// store's screenshot directory).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<StoredStep>,
}

/// The stage's conclusion for one tuple.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Conclusion {
    /// A probe with at least one trial scored: `defects` lists each trial that missed
    /// `expected`, then any that failed. A probe none of whose trials was scored and none missed
    /// is [`Conclusion::Failed`] (no verdict on the reward).
    Probe {
        /// The score every trial had to reach.
        expected: f64,
        /// Empty = the reward behaves.
        defects: Vec<String>,
    },
    /// A teacher with every trial scored.
    Teacher {
        /// Means and category.
        classified: Classified,
        /// Why the judge is absent, when it is.
        note: Option<String>,
        /// The decision recorded (only for tuples in `voted`).
        decision: Option<Box<Decision>>,
        /// Refinement passes made (each followed by a re-roll).
        refine_passes: u32,
    },
    /// A teacher with a failed trial, or a probe whose trials failed without a miss: no decision.
    Failed {
        /// The failures.
        failures: Vec<String>,
    },
}

/// Everything the stage did on one tuple.
#[derive(Debug, Clone, Serialize)]
pub struct TaskRollouts {
    /// The task.
    pub task_id: String,
    /// The policy.
    pub policy: String,
    /// The trials.
    pub trials: Vec<TrialSummary>,
    /// The conclusion.
    pub conclusion: Conclusion,
}

fn kept_by_downsampling(task_id: &str, fraction: f64) -> bool {
    let h = sha2::Sha256::digest(task_id.as_bytes());
    let x = u16::from_be_bytes([h[0], h[1]]) as f64 / 65536.0;
    x < fraction
}

/// Runs `opts.trials` trials with the tuple's current final-round scripts, storing each.
fn roll(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    brief: &TaskBrief,
    policy: &dyn Policy,
    opts: &StageOptions<'_>,
) -> Result<(Scripts, Vec<TrialSummary>, Vec<Value>), RolloutError> {
    let task_id = brief.task_id.as_str();
    let rounds = bus.read(|s| s.rounds(task_id))?;
    let scripts = final_round(&rounds)
        .map(|r| r.round.scripts.clone())
        .ok_or_else(|| {
            RolloutError::Task(format!(
                "task {task_id} has no round with all three scripts"
            ))
        })?;
    let checklist = distill_checklist(&brief.instruction);
    let (mut trials, mut details) = (Vec::new(), Vec::new());
    for n in 1..=opts.trials.max(1) {
        let judge = opts.judge.map(|j| (j, checklist.as_slice()));
        // Progress for the workbench; the trial itself lands as `rollout.recorded`.
        let _ = bus.emit(
            "rollout.trial",
            Some(task_id),
            serde_json::json!({"trial": n, "of": opts.trials.max(1), "policy": policy.name()}),
        );
        let feed = BusFeed::new(bus, task_id, &policy.name(), n);
        let t = run_trial(rt, brief, &scripts, policy, judge, n, &feed);
        trials.push(store_trial(bus, n, &t)?);
        details.push(t.record.detail);
    }
    Ok((scripts, trials, details))
}

/// Stores one trial (record, final states, steps, judge usage) in one transaction and returns
/// its summary with the steps as stored.
pub fn store_trial(bus: &Bus, n: u32, t: &Trial) -> Result<TrialSummary, RolloutError> {
    let task_id = t.record.task_id.as_str();
    // The workbench's Rollouts screen shows the trial's last screenshot (a file of the store).
    let mut record = t.record.clone();
    if let Some(png) = t
        .steps
        .iter()
        .rev()
        .find_map(|s| s.screenshot_png.as_deref())
    {
        let path = bus.read(|s| s.screenshots().path_of(&sha256_of_bytes(png)))?;
        if let Some(detail) = record.detail.as_object_mut() {
            detail.insert(
                SCREENSHOT_DETAIL_KEY.into(),
                path.display().to_string().into(),
            );
        }
    }
    let rollout_id = bus.write(|tx| {
        let id = tx.record_rollout(&record)?;
        tx.record_rollout_states(id, &t.states)?;
        record_steps(tx, id, &t.steps)?;
        // A model policy's tokens, one row per turn, under the `rollout` stage.
        for turn in t.record.detail["actions"].as_array().into_iter().flatten() {
            let tokens = |k: &str| turn.get(k).and_then(serde_json::Value::as_i64);
            if let (Some(input), Some(output)) = (tokens("input_tokens"), tokens("output_tokens")) {
                let usage = Usage {
                    stage: super::batch::STAGE.into(),
                    model: turn["model"].as_str().unwrap_or_default().to_string(),
                    input_tokens: input,
                    output_tokens: output,
                    cost_usd: turn.get("cost_usd").and_then(serde_json::Value::as_f64),
                };
                tx.record_usage(Some(task_id), None, &usage)?;
            }
        }
        let rj = &t.record.detail["reward_judge"];
        if let Some(model) = rj["model"].as_str() {
            let usage = Usage {
                stage: "judge".into(),
                model: model.to_string(),
                input_tokens: rj["input_tokens"].as_i64().unwrap_or(0),
                output_tokens: rj["output_tokens"].as_i64().unwrap_or(0),
                cost_usd: rj["cost_usd"].as_f64(),
            };
            tx.record_usage(Some(task_id), None, &usage)?;
        }
        if let Some(j) = &t.judge {
            let usage = Usage {
                stage: "judge".into(),
                model: j.model.clone(),
                input_tokens: j.tokens.0 as i64,
                output_tokens: j.tokens.1 as i64,
                cost_usd: Some(j.cost_usd),
            };
            tx.record_usage(Some(task_id), None, &usage)?;
        }
        Ok(id)
    })?;
    let steps = if t.steps.is_empty() {
        Vec::new()
    } else {
        bus.read(|s| s.trial_steps(rollout_id))?
    };
    Ok(TrialSummary {
        trial: n,
        reward: t.record.reward,
        judge: t.judge.as_ref().map(|j| j.score),
        failure: t.record.failure.clone(),
        rollout_id,
        steps,
    })
}

fn failures_of(trials: &[TrialSummary]) -> Vec<String> {
    trials
        .iter()
        .filter_map(|t| {
            t.failure
                .as_ref()
                .map(|f| format!("trial {}: {f}", t.trial))
        })
        .collect()
}

/// Where a teacher's category sends a tuple in `voted`.
fn destination(
    inclusion: &Inclusion,
    task_id: &str,
    opts: &StageOptions<'_>,
    passes: u32,
) -> (TupleStatus, String) {
    match inclusion {
        Inclusion::Accepted => (TupleStatus::Final, "accepted".into()),
        Inclusion::Unsolvable => (TupleStatus::RolloutRejected, "unsolvable: both means 0".into()),
        Inclusion::Trivial if kept_by_downsampling(task_id, opts.trivial_keep_fraction) => {
            (TupleStatus::Final, "trivial, kept by down-sampling".into())
        }
        Inclusion::Trivial => (
            TupleStatus::RolloutRejected,
            "trivial: 1.0 on the first trial".into(),
        ),
        Inclusion::Disagreement { gap } if opts.refine => (
            TupleStatus::Dropped,
            format!("reward/judge disagreement {gap:.2} >= delta after {passes} refinement pass(es); offline analysis"),
        ),
        Inclusion::Disagreement { gap } => (
            TupleStatus::NeedsHuman,
            format!("reward/judge disagreement {gap:.2} >= delta; no Discriminator configured for refinement, queued"),
        ),
        Inclusion::Unclassified => (TupleStatus::NeedsHuman, "unclassified means; queued".into()),
    }
}

/// Runs the stage on one stored tuple.
pub fn rollout_task(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    task_id: &str,
    policy: &dyn Policy,
    opts: &StageOptions<'_>,
) -> Result<TaskRollouts, RolloutError> {
    let task = bus.read(|s| s.task(task_id))?;
    let rounds = bus.read(|s| s.rounds(task_id))?;
    let scripts = rounds
        .iter()
        .rev()
        .map(|r| &r.round.scripts)
        .find(|s| s.reward.is_some());
    let mut brief = brief_for(&task, rt.cfg, rt.fleet.resolver(), scripts)?;
    if let Some(q) = bus
        .read(|s| effective_outcome(s, task_id))?
        .and_then(|o| o.revised_query)
    {
        brief.instruction = q;
    }
    let voted = task.status == TupleStatus::Voted.as_str();
    let mut passes = 0;
    let (trials, conclusion) = loop {
        let (scripts, trials, details) = roll(rt, bus, &brief, policy, opts)?;
        let failures = failures_of(&trials);
        if let PolicyKind::Probe { expected } = policy.kind() {
            let mut defects = Vec::new();
            for t in &trials {
                if let Some(r) = t.reward.filter(|r| (r - expected).abs() > 1e-6) {
                    defects.push(format!(
                        "trial {}: reward {r} instead of {expected}",
                        t.trial
                    ));
                }
            }
            // A probe whose trials could not run (policy or infrastructure) says nothing about
            // the reward: no verdict, not a defect.
            if defects.is_empty() && !failures.is_empty() {
                break (trials, Conclusion::Failed { failures });
            }
            defects.extend(failures);
            break (trials, Conclusion::Probe { expected, defects });
        }
        if !failures.is_empty() {
            break (trials, Conclusion::Failed { failures });
        }
        let scored: Vec<(f64, Option<f64>)> = trials
            .iter()
            .filter_map(|t| t.reward.map(|r| (r, t.judge)))
            .collect();
        let classified = classify(&scored, opts.delta);
        let disagree = matches!(classified.inclusion, Inclusion::Disagreement { .. });
        if disagree && opts.refine && voted && passes < MAX_REFINE_PASSES {
            passes += 1;
            let feedback = disagreement_review(&classified, &trials, &details);
            // A pass whose round fails C1–C5 leaves the old reward in place; the re-roll shows it.
            refine_reward(rt, bus, &brief, &scripts, &feedback)?;
            continue;
        }
        let note =
            (!classified.judged).then(|| "no judge configured: reward score alone".to_string());
        let decision = if voted {
            let (to, why) = destination(&classified.inclusion, task_id, opts, passes);
            let reason = format!(
                "{why} (policy {}, {} trials, reward mean {:.3}, judge mean {:.3}{})",
                policy.name(),
                scored.len(),
                classified.reward_mean,
                classified.judge_mean,
                note.as_deref()
                    .map(|n| format!("; {n}"))
                    .unwrap_or_default()
            );
            Some(Box::new(bus.write(|tx| {
                tx.record_decision(task_id, to, ACTOR, DecisionSource::Policy, &reason, None)
            })?))
        } else {
            None
        };
        break (
            trials,
            Conclusion::Teacher {
                classified,
                note,
                decision,
                refine_passes: passes,
            },
        );
    };
    Ok(TaskRollouts {
        task_id: task_id.into(),
        policy: policy.name(),
        trials,
        conclusion,
    })
}
