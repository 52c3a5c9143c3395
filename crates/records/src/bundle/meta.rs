//! `meta.json`: tuplewright's own record of a bundle — labels, rounds, scores, votes summary,
//! decisions and provenance. Built only from stored data, so it is byte-stable across exports.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use tuplewright_base::store::{
    Store, StoreError, StoredRound, StoredTask, TupleStatus, Vote, SCHEMA_VERSION,
};

pub use tuplewright_base::store::final_round;

fn reward_of(round: &StoredRound, endpoint: &str) -> Value {
    round
        .round
        .reward_runs
        .iter()
        .rev()
        .find(|r| r.endpoint == endpoint)
        .map(|r| json!(r.reward))
        .unwrap_or(Value::Null)
}

fn votes_summary(votes: &[Vote]) -> Value {
    let count = |verdict: &str| {
        votes
            .iter()
            .filter(|v| v.vote.get("verdict").and_then(Value::as_str) == Some(verdict))
            .count()
    };
    let by_critic: Vec<Value> = votes
        .iter()
        .map(|v| {
            json!({
                "critic": v.critic,
                "model": v.model,
                "verdict": v.vote.get("verdict"),
                "severity": v.vote.get("severity"),
                "confidence": v.vote.get("confidence"),
                "training_pool_fit": v.vote.get("training_pool_fit"),
            })
        })
        .collect();
    json!({
        "count": votes.len(),
        "keep": count("keep"),
        "modify_query": count("modify_query"),
        "reject": count("reject"),
        "failed": count("failed"),
        "votes": by_critic,
    })
}

/// Builds `meta.json` for a task.
pub fn meta_json(
    store: &Store,
    task: &StoredTask,
    rounds: &[StoredRound],
    votes: &[Vote],
) -> Result<Value, StoreError> {
    let id = &task.task.task_id;
    let mut models = BTreeSet::new();
    let (mut input_tokens, mut output_tokens) = (0i64, 0i64);
    let rounds_json: Vec<Value> = rounds
        .iter()
        .map(|r| {
            let rr = &r.round;
            models.extend(rr.generator_model.iter().cloned());
            models.extend(rr.discriminator_model.iter().cloned());
            for u in &rr.usage {
                input_tokens += u.input_tokens;
                output_tokens += u.output_tokens;
            }
            let failures: Vec<&str> = rr
                .script_runs
                .iter()
                .filter_map(|s| s.failure.as_deref())
                .chain(rr.reward_runs.iter().filter_map(|s| s.failure.as_deref()))
                .collect();
            json!({
                "round": rr.round_no,
                "verdict": rr.verdict,
                "source": rr.source,
                "started_at": rr.started_at,
                "finished_at": rr.finished_at,
                "scripts_sha256": {
                    "initial_setup.py": r.script_shas[0],
                    "golden_patch.py": r.script_shas[1],
                    "reward.py": r.script_shas[2],
                },
                "generator_model": rr.generator_model,
                "discriminator_model": rr.discriminator_model,
                "rewards": {"initial": reward_of(r, "initial"), "golden": reward_of(r, "golden")},
                "scan_findings": rr.scan_findings.as_array().map_or(0, Vec::len),
                "infra_failures": failures,
            })
        })
        .collect();
    models.extend(votes.iter().filter_map(|v| v.model.clone()));
    let rollouts = store.rollouts(id)?;
    models.extend(rollouts.iter().map(|r| r.model.clone()));
    let scored: Vec<f64> = rollouts.iter().filter_map(|r| r.reward).collect();
    // Screen trials carry their steps (screenshots by sha256: `<store>.screens/<aa>/<sha>.png`).
    let mut screen_trials = Vec::new();
    for (r, rid) in rollouts.iter().zip(store.rollout_ids(id)?) {
        let steps = store.trial_steps(rid)?;
        if !steps.is_empty() {
            screen_trials.push(
                json!({"policy": r.model, "trial": r.trial, "reward": r.reward,
                "failure": r.failure, "steps": steps}),
            );
        }
    }
    let decisions: Vec<Value> = store
        .decisions(id)?
        .into_iter()
        .map(|d| {
            let mut j = json!({
                "id": d.id, "actor": d.actor, "source": d.source, "before": d.before,
                "after": d.after, "reason": d.reason, "time": d.created_at,
                "compensates": d.compensates,
            });
            if let Some(g) = d.group_id {
                j["group"] = json!(g);
            }
            j
        })
        .collect();
    let notes = store.notes(id)?;
    let scores = final_round(rounds).map_or(
        Value::Null,
        |r| json!({"initial": reward_of(r, "initial"), "golden": reward_of(r, "golden")}),
    );
    let status = TupleStatus::parse(&task.status);
    let mut meta = json!({
        "task_id": id,
        "status": task.status,
        // The status in README.md's words ("Words"), so a bundle explains itself.
        "status_meaning": status.map(TupleStatus::meaning),
        "verified": status.is_some_and(TupleStatus::verified),
        "labels": task.task.labels,
        "scores": scores,
        "rounds": rounds_json,
        "votes": votes_summary(votes),
        "rollouts": {
            "count": rollouts.len(),
            "mean_reward": if scored.is_empty() { Value::Null }
                else { json!(scored.iter().sum::<f64>() / scored.len() as f64) },
        },
        "decisions": decisions,
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
        "provenance": {
            "tool": "tuplewright",
            "tool_version": env!("CARGO_PKG_VERSION"),
            "schema_version": SCHEMA_VERSION,
            "origin": task.task.origin,
            "created_at": task.created_at,
            "agent_models": models,
        },
    });
    if !screen_trials.is_empty() {
        meta["rollouts"]["screen_trials"] = Value::Array(screen_trials);
    }
    // Curators' notes (issue #33): every note, and the tags in force (the newest note's).
    if let Some(last) = notes.last() {
        meta["tags"] = json!(last.tags);
        meta["notes"] = json!(notes
            .iter()
            .map(|n| json!({"author": n.author, "text": n.text, "tags": n.tags, "time": n.created_at}))
            .collect::<Vec<_>>());
    }
    Ok(meta)
}
