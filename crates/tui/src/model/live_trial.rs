//! The trial running now, followed from the event log: `rollout.trial` opens it, every
//! `rollout.step` adds a step (with its screenshot key and the model's reply), `rollout.recorded`
//! of the same task, policy and trial closes it. Events from another process arrive the same way
//! (the store worker polls the log), so a workbench follows a headless `tuplewright rollout`.

use crate::filmstrip_data::{FrameRequest, LIVE};
use tuplewright_base::store::Event;
use tuplewright_engine::rollout::live_steps::{LiveStep, STEP_EVENT};

/// Steps kept of a live trial (the newest; a long episode does not grow the workbench).
pub const MAX_LIVE_STEPS: usize = 500;

/// A trial being watched.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveTrial {
    /// The task.
    pub task_id: String,
    /// The policy (the trial's `model`).
    pub policy: String,
    /// Trial number.
    pub trial: u32,
    /// Trials in its batch, when the opening event said.
    pub of: Option<u32>,
    /// Its steps so far with the seq of their event, oldest first (at most [`MAX_LIVE_STEPS`]).
    pub steps: Vec<(i64, LiveStep)>,
    /// Steps dropped from the front to keep the bound.
    pub dropped: usize,
    /// When the latest event of the trial was written (RFC 3339).
    pub last_time: String,
    /// Once recorded: the stored row id and its reward (`None`: failed, no score).
    pub recorded: Option<(i64, Option<f64>)>,
}

impl LiveTrial {
    fn is(&self, task: Option<&str>, policy: &str, trial: u32) -> bool {
        task == Some(self.task_id.as_str()) && self.policy == policy && self.trial == trial
    }

    /// The latest step, if any.
    pub fn last(&self) -> Option<&(i64, LiveStep)> {
        self.steps.last()
    }

    /// The latest model reply.
    pub fn last_reply(&self) -> Option<&str> {
        self.steps
            .iter()
            .rev()
            .find_map(|(_, s)| s.reply.as_deref())
    }

    /// The frame to show: the latest screenshot, marked with the action of the latest step.
    pub fn frame_request(&self) -> Option<FrameRequest> {
        let (seq, last) = self.last()?;
        let sha = self
            .steps
            .iter()
            .rev()
            .find_map(|(_, s)| s.screenshot.clone())?;
        Some(FrameRequest {
            key: (LIVE, *seq),
            sha,
            action: last.action.clone(),
        })
    }
}

/// Applies new events; returns whether the live trial changed.
pub fn apply(live: &mut Option<LiveTrial>, events: &[Event]) -> bool {
    let mut changed = false;
    for e in events {
        let task = e.task_id.as_deref();
        let p = &e.payload;
        match e.kind.as_str() {
            "rollout.trial" => {
                let (Some(task), Some(policy), Some(trial)) = (
                    task,
                    p.get("policy").and_then(|v| v.as_str()),
                    p.get("trial").and_then(|v| v.as_u64()),
                ) else {
                    continue;
                };
                *live = Some(LiveTrial {
                    task_id: task.to_string(),
                    policy: policy.to_string(),
                    trial: trial as u32,
                    of: p.get("of").and_then(|v| v.as_u64()).map(|n| n as u32),
                    steps: Vec::new(),
                    dropped: 0,
                    last_time: e.time.clone(),
                    recorded: None,
                });
                changed = true;
            }
            k if k == STEP_EVENT => {
                let (Some(task), Ok(step)) = (task, serde_json::from_value::<LiveStep>(p.clone()))
                else {
                    continue;
                };
                let known = live
                    .as_ref()
                    .is_some_and(|l| l.is(Some(task), &step.policy, step.trial));
                if !known {
                    // Its opening event is older than the log window read at start-up.
                    *live = Some(LiveTrial {
                        task_id: task.to_string(),
                        policy: step.policy.clone(),
                        trial: step.trial,
                        of: None,
                        steps: Vec::new(),
                        dropped: 0,
                        last_time: e.time.clone(),
                        recorded: None,
                    });
                }
                if let Some(l) = live.as_mut() {
                    l.steps.push((e.seq, step));
                    if l.steps.len() > MAX_LIVE_STEPS {
                        l.steps.remove(0);
                        l.dropped += 1;
                    }
                    l.last_time = e.time.clone();
                }
                changed = true;
            }
            "rollout.recorded" => {
                let (Some(model), Some(trial)) = (
                    p.get("model").and_then(|v| v.as_str()),
                    p.get("trial").and_then(|v| v.as_u64()),
                ) else {
                    continue;
                };
                if let Some(l) = live.as_mut().filter(|l| l.is(task, model, trial as u32)) {
                    let id = p.get("id").and_then(|v| v.as_i64()).unwrap_or(-1);
                    l.recorded = Some((id, p.get("reward").and_then(|v| v.as_f64())));
                    l.last_time = e.time.clone();
                    changed = true;
                }
            }
            _ => {}
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ev(seq: i64, kind: &str, payload: serde_json::Value) -> Event {
        Event {
            seq,
            time: format!("2026-01-01T00:00:{seq:02}Z"),
            kind: kind.into(),
            task_id: Some("t1".into()),
            payload,
        }
    }

    fn step(seq: u32, shot: Option<&str>, reply: Option<&str>) -> serde_json::Value {
        json!({"policy": "p", "trial": 2, "seq": seq, "action": {"action": "left_click", "x": 1, "y": 2},
               "at_ms": 10, "duration_ms": 5, "error": null, "screenshot": shot, "reply": reply})
    }

    #[test]
    fn a_trial_opens_gathers_steps_and_closes_when_recorded() {
        let mut live = None;
        assert!(apply(
            &mut live,
            &[ev(
                1,
                "rollout.trial",
                json!({"trial": 2, "of": 3, "policy": "p"})
            )]
        ));
        let a = "a".repeat(64);
        apply(
            &mut live,
            &[
                ev(2, STEP_EVENT, step(0, Some(&a), None)),
                ev(3, STEP_EVENT, step(1, None, Some("Thought: click it"))),
            ],
        );
        let l = live.clone().expect("live");
        assert_eq!(
            (l.steps.len(), l.of, l.last_reply()),
            (2, Some(3), Some("Thought: click it"))
        );
        let req = l.frame_request().expect("a frame");
        assert_eq!(
            (req.key, req.sha.as_str()),
            ((LIVE, 3), a.as_str()),
            "latest shot"
        );
        // Another trial's record does not close it; its own does.
        assert!(!apply(
            &mut live,
            &[ev(
                4,
                "rollout.recorded",
                json!({"id": 9, "model": "p", "trial": 1, "reward": 1.0})
            )]
        ));
        apply(
            &mut live,
            &[ev(
                5,
                "rollout.recorded",
                json!({"id": 9, "model": "p", "trial": 2, "reward": null}),
            )],
        );
        assert_eq!(live.as_ref().and_then(|l| l.recorded), Some((9, None)));
        // A step whose trial was never opened (older than the window) opens it.
        let mut live = None;
        apply(&mut live, &[ev(7, STEP_EVENT, step(4, None, None))]);
        assert_eq!(live.map(|l| (l.trial, l.steps.len())), Some((2, 1)));
    }
}
