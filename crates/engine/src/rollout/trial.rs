//! One trial: fresh V_init (setup script in the setup role), the policy acts, the harness reads the
//! final state (GET /go of each web app, the home directory's files) and runs reward.py in the
//! reader role (components kept), then the judge if one is configured. Any failure on the way is
//! recorded as the trial's `failure` with no score.

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sha2::Digest as _;

use crate::agents::TaskBrief;
use crate::harness::execute::{describe, judge_usage, reward_run, tail, Runner};
use crate::harness::snapshot::capture;
use crate::harness::task::LoopRuntime;
use crate::harness::TaskEnv;
use crate::sandbox::{Limits, Role};
use tuplewright_base::store::{NewStep, Rollout, Scripts, StateEndpoint, StateSnapshot};

use super::judge::{Judge, JudgeInput, JudgeScore};
use super::live_steps::StepSink;
use super::policy::{Policy, PolicyCtx, PolicyRun};
use super::ui_plan::Step;
use super::RolloutError;

/// A trial's result, ready to store.
#[derive(Debug, Clone)]
pub struct Trial {
    /// The record (reward, judge verdict, failure, detail).
    pub record: Rollout,
    /// The judge's score, when it scored.
    pub judge: Option<JudgeScore>,
    /// The final state of each environment (empty when the trial failed before the policy ended).
    pub states: Vec<StateSnapshot>,
    /// Screen policies: every action with its time, error and screenshot, in order.
    pub steps: Vec<Step>,
}

/// Stores a trial's steps with rollout `rollout_id` (in the caller's transaction).
pub fn record_steps(
    tx: &tuplewright_base::store::Tx<'_>,
    rollout_id: i64,
    steps: &[Step],
) -> Result<(), tuplewright_base::store::StoreError> {
    let actions = steps
        .iter()
        .map(|s| serde_json::to_value(&s.action))
        .collect::<Result<Vec<_>, _>>()?;
    let rows: Vec<NewStep<'_>> = steps
        .iter()
        .zip(&actions)
        .map(|(s, action)| NewStep {
            action,
            at_ms: s.at_ms,
            duration_ms: s.duration_ms,
            error: s.error.as_deref(),
            settle_ms: s.settle_ms,
            screenshot_png: s.screenshot_png.as_deref(),
        })
        .collect();
    tx.record_trial_steps(rollout_id, &rows)
}

/// Largest file whose text is included in the final state.
const MAX_TEXT: usize = 16 * 1024;

/// The final state: each web app's `/go` answer (read in the reader role) and the home's files.
pub fn final_state(env: &TaskEnv) -> Result<Value, RolloutError> {
    tuplewright_models::providers::http::ensure_crypto_provider();
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| RolloutError::Infra(format!("http client: {e}")))?;
    let mut apps = serde_json::Map::new();
    for w in &env.web {
        let url = format!("http://{}/go?sid={}", w.addr, env.sid);
        let body: Value = client
            .get(&url)
            // The reader role, honoured because this process's forwarder secret goes with it.
            .headers(tuplewright_base::access::forwarder::header_map(
                "reader",
                w.is_builtin(),
            ))
            .send()
            .and_then(|r| r.error_for_status())
            .and_then(|r| r.json())
            .map_err(|e| RolloutError::Infra(format!("reading {url}: {e}")))?;
        apps.insert(w.app.clone(), body);
    }
    if let Some(remote) = &env.remote {
        // The guest's home, in the same shape (its walker keeps the same text limit).
        let home = remote
            .home_state()
            .map_err(|e| RolloutError::Infra(e.to_string()))?;
        let files: Vec<Value> = home
            .as_object()
            .into_iter()
            .flatten()
            .map(|(rel, f)| {
                let mut f = f.clone();
                f["path"] = json!(format!("/home/user/{rel}"));
                f
            })
            .collect();
        return Ok(json!({"apps": apps, "files": files}));
    }
    let mut files = Vec::new();
    for e in walkdir::WalkDir::new(&env.home)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .take(400)
    {
        let rel = e.path().strip_prefix(&env.home).unwrap_or(e.path());
        let bytes = std::fs::read(e.path()).unwrap_or_default();
        let mut f = json!({"path": format!("/home/user/{}", rel.display()),
            "size": bytes.len(), "sha256": hex::encode(sha2::Sha256::digest(&bytes))});
        // Small text files travel with their content (what a judge of the files domain reads).
        if bytes.len() <= MAX_TEXT {
            if let Ok(text) = std::str::from_utf8(&bytes) {
                f["text"] = json!(text);
            }
        }
        files.push(f);
    }
    Ok(json!({"apps": apps, "files": files}))
}

/// Runs trial `trial` of `policy` on the tuple; a screen policy hands each step to `feed` as it
/// completes (see [`super::live_steps`]).
pub fn run_trial(
    rt: &LoopRuntime<'_>,
    brief: &TaskBrief,
    scripts: &Scripts,
    policy: &dyn Policy,
    judge: Option<(&dyn Judge, &[String])>,
    trial: u32,
    feed: &dyn StepSink,
) -> Trial {
    let start = Instant::now();
    let mut detail = json!({"policy": policy.name(), "kind": policy.kind(),
        "judge_configured": judge.is_some()});
    let mut record = Rollout {
        task_id: brief.task_id.clone(),
        model: policy.name(),
        trial: trial as i64,
        reward: None,
        judge_verdict: None,
        failure: None,
        detail: Value::Null,
        created_at: None,
    };
    let mut judged = None;
    let mut states = Vec::new();
    let mut recorded = Vec::new();
    let result = steps(
        rt,
        brief,
        scripts,
        policy,
        judge,
        (trial, feed),
        &mut detail,
        &mut record,
        &mut states,
        &mut recorded,
    );
    match result {
        Ok(j) => judged = j,
        Err(e) => record.failure = Some(e.to_string()),
    }
    detail["duration_ms"] = json!(start.elapsed().as_millis() as u64);
    record.detail = detail;
    Trial {
        record,
        judge: judged,
        states,
        steps: recorded,
    }
}

#[allow(clippy::too_many_arguments)]
fn steps(
    rt: &LoopRuntime<'_>,
    brief: &TaskBrief,
    scripts: &Scripts,
    policy: &dyn Policy,
    judge: Option<(&dyn Judge, &[String])>,
    (trial, feed): (u32, &dyn StepSink),
    detail: &mut Value,
    record: &mut Rollout,
    states: &mut Vec<StateSnapshot>,
    recorded: &mut Vec<Step>,
) -> Result<Option<JudgeScore>, RolloutError> {
    let runner = Runner {
        rt: &rt.rt,
        cfg: rt.sandbox,
        isolation: rt.isolation,
    };
    let limits = |secs: f64| Limits {
        wall_seconds: secs,
        ..rt.sandbox.limits.clone()
    };
    let (setup, reward) = match (&scripts.setup, &scripts.reward) {
        (Some(s), Some(r)) => (s, r),
        _ => {
            return Err(RolloutError::Task(
                "the tuple lacks initial_setup.py or reward.py".into(),
            ))
        }
    };
    let env = rt.fleet.provision(&brief.task_id, "rollout", &brief.apps)?;
    let r = runner.run(
        &env,
        Role::Setup,
        "initial_setup.py",
        setup,
        &limits(rt.cfg.script_timeout_secs),
    )?;
    if !r.succeeded() {
        return Err(RolloutError::Task(format!(
            "initial_setup.py failed on a fresh V_init ({}): {}",
            describe(&r.outcome).unwrap_or_default(),
            tail(&r.stderr.text, 3)
        )));
    }
    let ctx = PolicyCtx {
        brief,
        env: &env,
        runner: &runner,
        scripts,
        limits: limits(rt.cfg.script_timeout_secs),
        trial,
        cancel: rt.cancel,
        feed,
    };
    let mut run: PolicyRun = policy.act(&ctx)?;
    detail["steps"] = json!(run.steps.len());
    *recorded = std::mem::take(&mut run.steps);
    detail["actions"] = json!(run.actions);
    detail["transcript"] = json!(run.transcript);
    detail["policy_usage"] = json!({"model": run.usage.model, "input_tokens": run.usage.input_tokens,
        "output_tokens": run.usage.output_tokens, "cost_usd": run.usage.cost_usd});
    let state = final_state(&env)?;
    *states = capture(rt.fleet.registry(), &brief.apps, &env, StateEndpoint::Final)?;
    let diff: serde_json::Map<String, Value> = state["apps"]
        .as_object()
        .map(|apps| {
            apps.iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.get("state_diff").cloned().unwrap_or(Value::Null),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    detail["final_state_diff"] = Value::Object(diff);
    // Stored without the texts (hash and size identify them); the judge sees the texts.
    let mut listed = state["files"].clone();
    if let Some(items) = listed.as_array_mut() {
        for f in items.iter_mut().filter_map(Value::as_object_mut) {
            f.remove("text");
        }
    }
    detail["final_files"] = listed;
    let r = runner.run(
        &env,
        Role::Reader,
        "reward.py",
        reward,
        &limits(rt.cfg.reward_timeout_secs),
    )?;
    let judged = judge_usage(&[&env]);
    if judged.calls > 0 {
        // The reward's own `reward_judge` calls (stored as `judge` usage by the stage).
        detail["reward_judge"] = json!({"model": judged.model, "calls": judged.calls,
            "input_tokens": judged.input_tokens, "output_tokens": judged.output_tokens,
            "cost_usd": judged.cost_usd});
    }
    drop(env);
    let (rec, _) = reward_run("rollout", &r);
    detail["components"] = rec.components.clone();
    // The raw output, for the workbench's Reward screen (head and tail kept).
    detail["reward_output"] = json!({"exit_code": rec.exit_code,
        "stdout": tuplewright_models::providers::head_tail(&rec.stdout, 8000),
        "stderr": tuplewright_models::providers::head_tail(&rec.stderr, 4000)});
    if let Some(f) = rec.failure {
        return Err(RolloutError::Task(format!("reward.py: {f}")));
    }
    record.reward = rec.reward;
    let Some((judge, checklist)) = judge else {
        return Ok(None);
    };
    // A judge on screenshots sees the trial's last N (the final screen last).
    let shots: Vec<&[u8]> = recorded
        .iter()
        .filter_map(|s| s.screenshot_png.as_deref())
        .collect();
    let shots = &shots[shots.len().saturating_sub(judge.screenshots())..];
    let score = judge.score(&JudgeInput {
        instruction: &brief.instruction,
        checklist,
        final_state: &state,
        screenshots: shots,
    })?;
    record.judge_verdict = Some(format!("{:.4}", score.score));
    detail["judge"] = json!({"score": score.score, "checklist": score.checklist,
        "reasoning": score.reasoning, "model": score.model, "cost_usd": score.cost_usd,
        "screenshots": score.screenshots});
    Ok(Some(score))
}
