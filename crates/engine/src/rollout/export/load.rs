//! Stored trials read back as trajectories: the first observation, then one [`Turn`] per model
//! turn (the verbatim reply, its actions, what the model was told next and the screenshot it saw
//! next), from the trial's `actions` records and its steps. Trials of policies without a model
//! (ui-oracle, a person) become one turn per step with an empty reply.

use std::path::PathBuf;

use serde_json::Value;

use crate::rollout::vlm::episode::reprompt;
use tuplewright_base::store::{Store, StoreError, StoredStep};
use tuplewright_records::filter::effective_outcome;

/// A screenshot file of the store.
#[derive(Debug, Clone, PartialEq)]
pub struct Shot {
    /// Content hash (the file's name).
    pub sha256: String,
    /// The file in the store's screenshot directory.
    pub path: PathBuf,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// One model turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// The model's reply, verbatim (empty for a policy without a model).
    pub reply: String,
    /// The assistant turn in a tool API's shape (Anthropic content blocks, Responses output
    /// items) when it is not text; rendered trials only.
    pub assistant: Option<Value>,
    /// The actions it asked for (screen pixels), in order.
    pub actions: Vec<Value>,
    /// What the next user turn told the model (a parse or action error; empty when all went well).
    pub feedback: String,
    /// The screenshot taken after the turn (the model's next observation), if one was.
    pub after: Option<Shot>,
    /// How long the display took to settle before that screenshot, milliseconds (when recorded).
    pub settle_ms: Option<u64>,
    /// Milliseconds since the trial began, when the turn's first action began.
    pub at_ms: u64,
}

/// One scored trial.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    /// The task.
    pub task_id: String,
    /// The instruction the policy was given (the revised query when there is one).
    pub instruction: String,
    /// The trial's row in the store.
    pub rollout_id: i64,
    /// Trial number.
    pub trial: i64,
    /// The policy (`vlm:openai:MODEL`, `ui-oracle`, …).
    pub model: String,
    /// reward.py's score.
    pub reward: f64,
    /// When the trial was stored (RFC 3339).
    pub created_at: Option<String>,
    /// How long the trial took, milliseconds.
    pub duration_ms: u64,
    /// The system prompt as sent, when the policy recorded it.
    pub system: Option<String>,
    /// The first observation.
    pub first: Option<Shot>,
    /// The turns.
    pub turns: Vec<Turn>,
    /// Whether a model wrote the replies (otherwise SFT and slices render the actions).
    pub has_model: bool,
    /// The task's domain (its label, else the task id's first part).
    pub domain: String,
}

impl Trajectory {
    /// Where the assistant turns come from: `model`, or the policy without a model
    /// (`ui-oracle`, `human`, …).
    pub fn source(&self) -> &str {
        if self.has_model {
            "model"
        } else {
            &self.model
        }
    }
}

fn shot(store: &Store, s: &StoredStep) -> Result<Option<Shot>, StoreError> {
    s.screenshot
        .as_ref()
        .map(|r| {
            Ok(Shot {
                sha256: r.sha256.clone(),
                path: store.screenshots().path_of(&r.sha256)?,
                width: r.width,
                height: r.height,
            })
        })
        .transpose()
}

fn is_ending(s: &StoredStep) -> bool {
    matches!(
        s.action["action"].as_str(),
        Some("terminate") | Some("call_user")
    )
}

/// Every scored trial of `task_id` (failed trials have no score and are never exported), oldest
/// first.
pub fn trajectories(store: &Store, task_id: &str) -> Result<Vec<Trajectory>, StoreError> {
    let task = store.task(task_id)?;
    let domain = task
        .task
        .labels
        .domain
        .clone()
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| task_id.split('_').next().unwrap_or(task_id).to_string());
    let instruction = effective_outcome(store, task_id)?
        .and_then(|o| o.revised_query)
        .unwrap_or(task.task.instruction);
    let ids = store.rollout_ids(task_id)?;
    let rows = store.rollouts(task_id)?;
    let mut out = Vec::new();
    for (id, r) in ids.into_iter().zip(rows) {
        let Some(reward) = r.reward.filter(|_| r.failure.is_none()) else {
            continue;
        };
        let steps = store.trial_steps(id)?;
        let records = r.detail["actions"].as_array().cloned().unwrap_or_default();
        let has_model = records.iter().any(|t| t.get("reply").is_some());
        let mut steps = steps.into_iter().peekable();
        let mut first = None;
        // The first observation: a model trial's screenshot at 0 ms; a trial without a model
        // opens with one when its policy took it (ui-oracle since issue #36).
        if let Some(s) =
            steps.next_if(|s| s.action["action"] == "screenshot" && (s.at_ms == 0 || !has_model))
        {
            first = shot(store, &s)?;
        }
        let mut turns = Vec::new();
        if has_model {
            for rec in &records {
                let actions = rec["actions"].as_array().cloned().unwrap_or_default();
                let mut turn = Turn {
                    reply: rec["reply"].as_str().unwrap_or_default().to_string(),
                    assistant: None,
                    actions,
                    feedback: String::new(),
                    after: None,
                    settle_ms: None,
                    at_ms: 0,
                };
                if let Some(e) = rec["parse_error"].as_str() {
                    turn.feedback = reprompt(e);
                } else {
                    turn.feedback = rec["error"].as_str().unwrap_or_default().to_string();
                    // The turn's steps run up to the one with its screenshot (or its ending).
                    let mut began = None;
                    for s in steps.by_ref() {
                        began.get_or_insert(s.at_ms);
                        if is_ending(&s) {
                            break;
                        }
                        if s.screenshot.is_some() {
                            turn.after = shot(store, &s)?;
                            turn.settle_ms = s.settle_ms;
                            break;
                        }
                    }
                    turn.at_ms = began.unwrap_or(0);
                }
                turns.push(turn);
            }
        } else {
            for s in steps {
                turns.push(Turn {
                    reply: String::new(),
                    assistant: None,
                    actions: vec![s.action.clone()],
                    feedback: s.error.clone().unwrap_or_default(),
                    after: shot(store, &s)?,
                    settle_ms: s.settle_ms,
                    at_ms: s.at_ms,
                });
            }
        }
        out.push(Trajectory {
            task_id: task_id.to_string(),
            instruction: instruction.clone(),
            rollout_id: id,
            trial: r.trial,
            model: r.model.clone(),
            reward,
            created_at: r.created_at.clone(),
            duration_ms: r.detail["duration_ms"].as_u64().unwrap_or(0),
            system: records
                .first()
                .and_then(|t| t["system"].as_str())
                .map(str::to_string),
            first,
            turns,
            has_model,
            domain: domain.clone(),
        });
    }
    Ok(out)
}
