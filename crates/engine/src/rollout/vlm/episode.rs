//! The step loop (paper C.1.3): screenshot → model → actions → execute → repeat, until
//! `terminate`, `call_user` or `max_turns`. Only the last `history_n` screenshots stay in the
//! context (older ones become [`super::wire::HISTORY_PLACEHOLDER`]); a reply that cannot be parsed is
//! re-prompted with the parser's error; an action the screen refuses returns its error as the
//! observation (the rest of that turn's batch is skipped); a sampler that still fails after its
//! retries, or a screen that dies, ends the episode as infrastructure — never a score.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::image::model_image;
use super::pointer;
use super::wire::{Conversation, Observation, Reply, Sampling, Wire};
use crate::agents::Usage;
use crate::rollout::drive::{screenshot, LocalDisplay};
use crate::rollout::live_steps::{NoFeed, StepSink};
use crate::rollout::screen::{ComputerAction, Screen};
use crate::rollout::ui_plan::Step;
use crate::rollout::RolloutError;
use crate::screen::{Screen as Display, Settle};

/// Budgets of one episode (`[rollout.vlm]`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoopLimits {
    /// Model turns at most.
    pub max_turns: u32,
    /// Screenshots kept in the context.
    pub history_n: u32,
    /// A fixed pause after a turn's actions, before the settle wait (`[rollout.vlm] settle_ms`).
    pub settle: Duration,
    /// The settle wait before the screenshot that ends a turn (the model's next observation):
    /// no damage for the quiet period, bounded (`[screen] settle_quiet_ms`, `settle_max_ms`).
    pub display: Settle,
    /// Decoding.
    pub sampling: Sampling,
}

/// How an episode ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// The model called `terminate`.
    Terminated {
        /// Its verdict on itself.
        success: bool,
    },
    /// The model called `call_user` (not allowed during rollouts: the trial has no score).
    AskedUser {
        /// What it asked.
        question: String,
    },
    /// `max_turns` ran out; the reward scores the state reached.
    MaxTurns,
}

/// What an episode did.
#[derive(Debug, Clone)]
pub struct Episode {
    /// How it ended.
    pub ending: Ending,
    /// The first screenshot (PNG, native size): the observation before the first turn.
    pub first_screenshot: Vec<u8>,
    /// Every action, with its screenshot.
    pub steps: Vec<Step>,
    /// One record per turn: the verbatim reply, the actions, errors, tokens and cost.
    pub turns: Vec<Value>,
    /// Tokens and cost of every turn together.
    pub usage: Usage,
}

/// The user turn that answers a reply the parser could not read.
pub fn reprompt(parse_error: &str) -> String {
    format!("Your last reply could not be used: {parse_error}\nReply again in the required format.")
}

/// Collapses every screenshot but the last `keep` into the placeholder.
fn collapse(convo: &mut Conversation, keep: u32) {
    let mut seen = 0u32;
    for (obs, _) in convo.turns.iter_mut().rev() {
        if obs.image.is_some() {
            seen += 1;
            if seen > keep {
                obs.image = None;
                obs.collapsed = true;
            }
        }
    }
}

/// Runs one episode of `wire` on `screen`.
pub fn run_episode(
    screen: &mut Display,
    wire: &dyn Wire,
    instruction: &str,
    limits: &LoopLimits,
    cancel: &AtomicBool,
) -> Result<Episode, RolloutError> {
    run_episode_fed(screen, wire, instruction, limits, cancel, &NoFeed)
}

/// [`run_episode`], handing each turn's steps to `feed` with the turn's reply once the turn's
/// screenshot is taken (a turn that ends the episode: at once).
pub fn run_episode_fed(
    screen: &mut Display,
    wire: &dyn Wire,
    instruction: &str,
    limits: &LoopLimits,
    cancel: &AtomicBool,
    feed: &dyn StepSink,
) -> Result<Episode, RolloutError> {
    let screen = LocalDisplay::new(screen);
    run_episode_on(&screen, wire, instruction, limits, cancel, feed)
}

/// [`run_episode_fed`] on any screen: this machine's display or an OSWorld guest's.
pub fn run_episode_on(
    screen: &dyn Screen,
    wire: &dyn Wire,
    instruction: &str,
    limits: &LoopLimits,
    cancel: &AtomicBool,
    feed: &dyn StepSink,
) -> Result<Episode, RolloutError> {
    let (w, h) = screen.size()?;
    let coords = wire
        .coords(w, h)
        .map_err(|e| RolloutError::Policy(format!("coordinate space on a {w}x{h} screen: {e}")))?;
    let started = Instant::now();
    let first = screenshot(screen)?;
    // The first observation is the trial's step 0 (see the VLM policy).
    feed.step(
        &Step {
            action: ComputerAction::Screenshot,
            at_ms: 0,
            duration_ms: 0,
            error: None,
            settle_ms: None,
            screenshot_png: Some(first.png.clone()),
        },
        None,
    );
    let mut convo = Conversation {
        instruction: instruction.to_string(),
        turns: vec![(
            Observation {
                image: Some(model_image(&first, &coords)?),
                ..Default::default()
            },
            None,
        )],
    };
    let (mut steps, mut turns, mut usage) = (Vec::new(), Vec::new(), Usage::default());
    let mut cursor = None;
    for turn in 1..=limits.max_turns.max(1) {
        if cancel.load(Ordering::Relaxed) {
            return Err(RolloutError::Infra("cancelled".into()));
        }
        collapse(&mut convo, limits.history_n.max(1));
        let t0 = Instant::now();
        let reply: Reply = wire
            .send(&convo, &coords, &limits.sampling, cursor)
            .map_err(|e| RolloutError::Infra(format!("the model failed on turn {turn}: {e}")))?;
        let model_ms = t0.elapsed().as_millis() as u64;
        usage.add(&reply.usage);
        let mut record = json!({"turn": turn, "reply": reply.text, "model_ms": model_ms,
            "input_tokens": reply.usage.input_tokens, "output_tokens": reply.usage.output_tokens,
            "cost_usd": reply.usage.cost_usd, "model": reply.usage.model});
        if turn == 1 {
            // The system prompt as sent, once per trial (the training exports replay it).
            if let Some(system) = wire.system_prompt(&coords) {
                record["system"] = json!(system);
            }
        }
        let n_calls = reply.call_ids.len();
        let actions = match &reply.actions {
            Ok(a) => a.clone(),
            Err(e) => {
                let e = e.to_string();
                record["parse_error"] = json!(e);
                turns.push(record);
                let text = reprompt(&e);
                if let Some(t) = convo.turns.last_mut() {
                    t.1 = Some(reply.clone());
                }
                convo.turns.push((
                    Observation {
                        text,
                        results: vec![Some(e.clone()); n_calls],
                        ..Default::default()
                    },
                    None,
                ));
                continue;
            }
        };
        record["actions"] = json!(actions);
        let turn_start = steps.len();
        let mut results: Vec<Option<String>> = Vec::with_capacity(actions.len());
        let mut ending = None;
        let mut failure: Option<String> = None;
        for (i, action) in actions.iter().enumerate() {
            match action {
                ComputerAction::Terminate { success } => {
                    ending = Some(Ending::Terminated { success: *success });
                }
                ComputerAction::CallUser { question } => {
                    ending = Some(Ending::AskedUser {
                        question: question.clone(),
                    });
                }
                _ => {}
            }
            if ending.is_some() {
                steps.push(Step {
                    action: action.clone(),
                    at_ms: started.elapsed().as_millis() as u64,
                    duration_ms: 0,
                    error: None,
                    settle_ms: None,
                    screenshot_png: None,
                });
                break;
            }
            let at = started.elapsed();
            let error = match screen.perform(action) {
                Ok(()) => None,
                Err(RolloutError::Policy(e)) => Some(e),
                Err(e) => return Err(e),
            };
            let duration = started.elapsed().saturating_sub(at);
            if let Some(p) = pointer(action).filter(|_| error.is_none()) {
                cursor = Some(p);
            }
            steps.push(Step {
                action: action.clone(),
                at_ms: at.as_millis() as u64,
                duration_ms: duration.as_millis() as u64,
                error: error.clone(),
                settle_ms: None,
                screenshot_png: None,
            });
            results.push(error.clone());
            if let Some(e) = error {
                let skipped = actions.len() - i - 1;
                failure = Some(if skipped > 0 {
                    format!(
                        "Action {} failed: {e}. The {skipped} action(s) after it were not run.",
                        i + 1
                    )
                } else {
                    format!("Action {} failed: {e}", i + 1)
                });
                break;
            }
        }
        // Calls never reached still need an answer (native tool APIs).
        while results.len() < n_calls {
            results.push(Some(
                "not run: an earlier action in this turn failed".into(),
            ));
        }
        record["error"] = json!(failure);
        turns.push(record);
        if let Some(ending) = ending {
            for step in &steps[turn_start..] {
                feed.step(step, Some(&reply.text));
            }
            return Ok(Episode {
                ending,
                first_screenshot: first.png,
                steps,
                turns,
                usage,
            });
        }
        if !limits.settle.is_zero() {
            std::thread::sleep(limits.settle);
        }
        // The next observation is the settled screen, never a frame the turn has not drawn yet.
        let settle = match steps[turn_start..].last() {
            Some(step) => limits.display.for_action(&step.action),
            None => limits.display,
        };
        let settled = screen.settle(settle)?;
        let shot = screenshot(screen)?;
        let image = model_image(&shot, &coords)?;
        if let Some(last) = steps.last_mut() {
            last.screenshot_png = Some(shot.png);
            last.settle_ms = Some(settled.ms());
        }
        for step in &steps[turn_start..] {
            feed.step(step, Some(&reply.text));
        }
        if let Some(t) = convo.turns.last_mut() {
            t.1 = Some(reply);
        }
        convo.turns.push((
            Observation {
                image: Some(image),
                collapsed: false,
                text: failure.unwrap_or_default(),
                results,
            },
            None,
        ));
    }
    Ok(Episode {
        ending: Ending::MaxTurns,
        first_screenshot: first.png,
        steps,
        turns,
        usage,
    })
}
