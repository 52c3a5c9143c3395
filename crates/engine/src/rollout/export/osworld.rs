//! OSWorld's result layout per trial (`lib_run_single.py`), so its tooling reads our trials:
//! `traj.jsonl` with one line per action — `step_num` (from 1), `action_timestamp`
//! (`%Y%m%d@%H%M%S`), `action`, `response` (the turn's verbatim reply), `reward` (0 per step, as
//! the environment reports it), `done`, `info`, `screenshot_file` — the screenshots
//! `step_N_<ts>.png`, and `result.txt` holding the reward; `settle_ms` (ours) is how long the
//! display took to settle before that screenshot was taken (null when not recorded). Our loop screenshots once per turn,
//! after its last action, so earlier actions of a batched turn have `screenshot_file: null`. The
//! first observation is `step_0.png`; `tuplewright.json` names the task, instruction and trial.

use chrono::{DateTime, Duration, Utc};
use serde_json::{json, Value};

use super::load::Trajectory;

/// A file of the export: relative name and where its bytes come from.
pub enum Entry {
    /// Bytes written as they are.
    Bytes(String, Vec<u8>),
    /// A file copied from the store.
    Copy(String, std::path::PathBuf),
}

/// The trial's directory in the export: `<model>/<task_id>/trial_<n>_<rollout_id>`, with every
/// character outside `[A-Za-z0-9._-]` in the model's name replaced by `_`.
pub fn trial_dir(t: &Trajectory) -> String {
    let model: String = t
        .model
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{model}/{}/trial_{}_{}", t.task_id, t.trial, t.rollout_id)
}

/// When the trial began: stored-at minus its duration (now, when unknown).
fn started(t: &Trajectory) -> DateTime<Utc> {
    let end = t
        .created_at
        .as_deref()
        .and_then(|s| DateTime::parse_from_rfc3339(s).ok())
        .map(|d| d.with_timezone(&Utc))
        .unwrap_or_else(Utc::now);
    end - Duration::milliseconds(t.duration_ms as i64)
}

/// The files of one trial, relative to its directory.
pub fn render(t: &Trajectory) -> Vec<Entry> {
    let begin = started(t);
    let stamp = |ms: u64| {
        (begin + Duration::milliseconds(ms as i64))
            .format("%Y%m%d@%H%M%S")
            .to_string()
    };
    let mut files = Vec::new();
    if let Some(s) = &t.first {
        files.push(Entry::Copy("step_0.png".into(), s.path.clone()));
    }
    let mut lines = String::new();
    let total: usize = t.turns.iter().map(|x| x.actions.len().max(1)).sum();
    let mut n = 0;
    for turn in &t.turns {
        let ts = stamp(turn.at_ms);
        // A turn the parser refused still happened: one line with no action.
        let actions: Vec<Value> = if turn.actions.is_empty() {
            vec![Value::Null]
        } else {
            turn.actions.clone()
        };
        let last = actions.len() - 1;
        for (i, action) in actions.into_iter().enumerate() {
            n += 1;
            let shot = (i == last).then_some(turn.after.as_ref()).flatten();
            let file = shot.map(|s| {
                let name = format!("step_{n}_{ts}.png");
                files.push(Entry::Copy(name.clone(), s.path.clone()));
                name
            });
            let info = if turn.feedback.is_empty() || i != last {
                json!({})
            } else {
                json!({"error": turn.feedback})
            };
            let settle_ms = file.as_ref().and(turn.settle_ms);
            let line = json!({"step_num": n, "action_timestamp": ts, "action": action,
                "response": turn.reply, "reward": 0, "done": n == total, "info": info,
                "screenshot_file": file, "settle_ms": settle_ms});
            lines.push_str(&line.to_string());
            lines.push('\n');
        }
    }
    files.push(Entry::Bytes("traj.jsonl".into(), lines.into_bytes()));
    files.push(Entry::Bytes(
        "result.txt".into(),
        format!("{:?}\n", t.reward).into_bytes(),
    ));
    let meta = json!({"task_id": t.task_id, "instruction": t.instruction, "model": t.model,
        "trial": t.trial, "rollout_id": t.rollout_id, "reward": t.reward,
        "created_at": t.created_at});
    files.push(Entry::Bytes(
        "tuplewright.json".into(),
        serde_json::to_vec_pretty(&meta).unwrap_or_default(),
    ));
    files
}
