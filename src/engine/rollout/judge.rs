//! The optional judge of a rollout (A.4.2): from the instruction, a checklist distilled from it and
//! the final state it returns a score in [0, 1]. A judge that fails is an error, never a 0.

use std::path::Path;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::engine::filter::vote::extract_object;
use crate::engine::providers::{ChatProvider, ChatRequest, Message};

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
}

/// Scores a final state.
pub trait Judge: Send + Sync {
    /// Scores `final_state` against `instruction` and `checklist`.
    fn score(
        &self,
        instruction: &str,
        checklist: &[String],
        final_state: &Value,
    ) -> Result<JudgeScore, RolloutError>;
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
    fn score(
        &self,
        instruction: &str,
        checklist: &[String],
        final_state: &Value,
    ) -> Result<JudgeScore, RolloutError> {
        let list: String = checklist.iter().map(|c| format!("- {c}\n")).collect();
        let state = crate::engine::providers::head_tail(
            &serde_json::to_string_pretty(final_state).unwrap_or_default(),
            20_000,
        );
        let request = ChatRequest {
            system: self.system.clone(),
            messages: vec![Message::User(format!(
                "## Instruction\n{instruction}\n\n## Checklist\n{list}\n## Final state\n```json\n{state}\n```\n\nReply with exactly one JSON object."
            ))],
            tools: vec![],
        };
        let resp = self
            .provider
            .chat(&request)
            .map_err(|e| RolloutError::Judge(e.to_string()))?;
        let obj = extract_object(&resp.text).ok_or_else(|| {
            RolloutError::Judge(format!(
                "no JSON object in the reply: {}",
                crate::engine::providers::excerpt(&resp.text, 120)
            ))
        })?;
        let v: Value = serde_json::from_str(obj)
            .map_err(|e| RolloutError::Judge(format!("invalid JSON in the reply: {e}")))?;
        let score = v
            .get("score")
            .and_then(Value::as_f64)
            .filter(|s| (0.0..=1.0).contains(s))
            .ok_or_else(|| RolloutError::Judge("field `score`: missing or not in [0, 1]".into()))?;
        Ok(JudgeScore {
            score,
            checklist: v.get("checklist").cloned().unwrap_or(Value::Null),
            reasoning: v
                .get("reasoning")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            tokens: (resp.usage.input_tokens, resp.usage.output_tokens),
            model: self.provider.name(),
            cost_usd: resp.usage.cost_usd,
        })
    }
}
