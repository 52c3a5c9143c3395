//! The optional judge of a rollout (A.4.2): from the instruction, a checklist distilled from it, the
//! final state and — for a judge that looks at screens ([`super::vlm::judge::ScreenJudge`]) — the
//! trial's last screenshots, it returns a typed verdict with a score in [0, 1]. A judge that fails
//! is an error, never a 0.

use std::path::Path;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use tuplewright_models::providers::reply::extract_object;
use tuplewright_models::providers::{ChatProvider, ChatRequest, Message};

use super::RolloutError;

/// A judge's score of one final state.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JudgeScore {
    /// 0.0–1.0.
    pub score: f64,
    /// The judge's per-item findings, verbatim.
    pub checklist: Value,
    /// Why.
    pub reasoning: String,
    /// Tokens in/out.
    pub tokens: (u64, u64),
    /// Model.
    pub model: String,
    /// Cost of the call in USD at the configured prices.
    pub cost_usd: f64,
    /// How many screenshots the judge was shown (0 = it read the final state only).
    pub screenshots: usize,
}

/// What a judge is shown of one trial.
#[derive(Debug, Clone, Copy)]
pub struct JudgeInput<'a> {
    /// The task instruction (the revised query when there is one).
    pub instruction: &'a str,
    /// One line per requirement ([`distill_checklist`]).
    pub checklist: &'a [String],
    /// Each web app's `/go` answer and the home's files ([`super::trial::final_state`]).
    pub final_state: &'a Value,
    /// The trial's last screenshots (PNG), oldest first, the final screen last; at most
    /// [`Judge::screenshots`]; empty for a trial without a screen.
    pub screenshots: &'a [&'a [u8]],
}

/// Scores a trial.
pub trait Judge: Send + Sync {
    /// How many of the trial's last screenshots this judge looks at (0 = none).
    fn screenshots(&self) -> usize {
        0
    }
    /// Scores the trial. A failure (provider down, unreadable verdict) is an error, never 0.
    fn score(&self, input: &JudgeInput<'_>) -> Result<JudgeScore, RolloutError>;
}

/// A judge's reply read as a verdict: `{"score": 0..1, "checklist": …, "reasoning": …}` (the
/// first JSON object in the text). Anything else is a judge failure naming what was wrong.
pub fn read_verdict(text: &str) -> Result<(f64, Value, String), RolloutError> {
    let obj = extract_object(text).ok_or_else(|| {
        RolloutError::Judge(format!(
            "no JSON object in the reply: {}",
            tuplewright_models::providers::excerpt(text, 120)
        ))
    })?;
    let v: Value = serde_json::from_str(obj)
        .map_err(|e| RolloutError::Judge(format!("invalid JSON in the reply: {e}")))?;
    let score = v
        .get("score")
        .and_then(Value::as_f64)
        .filter(|s| (0.0..=1.0).contains(s))
        .ok_or_else(|| RolloutError::Judge("field `score`: missing or not in [0, 1]".into()))?;
    let reasoning = v
        .get("reasoning")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    Ok((
        score,
        v.get("checklist").cloned().unwrap_or(Value::Null),
        reasoning,
    ))
}

/// The judge's user message: the instruction, the checklist, and the final state when `state`.
pub fn judge_prompt(input: &JudgeInput<'_>, state: bool) -> String {
    let list: String = input.checklist.iter().map(|c| format!("- {c}\n")).collect();
    let mut text = format!(
        "## Instruction\n{}\n\n## Checklist\n{list}\n",
        input.instruction
    );
    if state {
        let state = tuplewright_models::providers::head_tail(
            &serde_json::to_string_pretty(input.final_state).unwrap_or_default(),
            20_000,
        );
        text.push_str(&format!("## Final state\n```json\n{state}\n```\n\n"));
    }
    if !input.screenshots.is_empty() {
        text.push_str(&format!(
            "## Screenshots\nThe last {} screenshot(s) of the trial follow, oldest first; the last one is the final screen.\n\n",
            input.screenshots.len()
        ));
    }
    text.push_str("Reply with exactly one JSON object.");
    text
}

/// One checklist line per requirement: the instruction's sentences, then clauses joined by "and".
pub fn distill_checklist(instruction: &str) -> Vec<String> {
    let mut items = Vec::new();
    for sentence in instruction.split_inclusive(['.', '!', '?', ';']) {
        for part in sentence.split(", and ").flat_map(|p| p.split(" and then ")) {
            let item = part.trim().trim_end_matches(['.', '!', ';']).trim();
            if item.split_whitespace().count() >= 2 {
                items.push(item.to_string());
            }
        }
    }
    if items.is_empty() && !instruction.trim().is_empty() {
        items.push(instruction.trim().to_string());
    }
    items
}

/// A judge backed by a chat model, system prompt `prompts/judge.md`.
pub struct LlmJudge {
    provider: Arc<dyn ChatProvider>,
    system: String,
}

impl LlmJudge {
    /// Reads `prompts_dir/judge.md`.
    pub fn new(provider: Arc<dyn ChatProvider>, prompts_dir: &Path) -> Result<Self, RolloutError> {
        let path = prompts_dir.join("judge.md");
        let system = std::fs::read_to_string(&path).map_err(|e| {
            RolloutError::Judge(format!(
                "cannot read the judge prompt {}: {e}",
                path.display()
            ))
        })?;
        Ok(Self { provider, system })
    }
}

impl Judge for LlmJudge {
    fn score(&self, input: &JudgeInput<'_>) -> Result<JudgeScore, RolloutError> {
        let request = ChatRequest {
            system: self.system.clone(),
            messages: vec![Message::User(judge_prompt(input, true))],
            tools: vec![],
        };
        let resp = self
            .provider
            .chat(&request)
            .map_err(|e| RolloutError::Judge(e.to_string()))?;
        let (score, checklist, reasoning) = read_verdict(&resp.text)?;
        Ok(JudgeScore {
            score,
            checklist,
            reasoning,
            tokens: (resp.usage.input_tokens, resp.usage.output_tokens),
            model: self.provider.name(),
            cost_usd: resp.usage.cost_usd,
            screenshots: 0,
        })
    }
}
