//! An LLM critic over any [`ChatProvider`]: system prompt `prompts/critic.md`, the instruction and
//! the three scripts as the user message, the reply validated against the vote schema. An invalid
//! reply is answered with the validation error and retried (`max_invalid_retries` times); a provider
//! failure or a reply still invalid after the retries is a [`Ballot::Failed`] — never a keep.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tuplewright_models::providers::{ChatProvider, ChatRequest, Message};

use super::aggregate::Ballot;
use super::critic::{Critic, CriticInput, Review};
use super::vote::parse_vote;

/// A critic backed by a chat model.
pub struct LlmCritic {
    provider: Arc<dyn ChatProvider>,
    system: String,
    max_invalid_retries: u32,
}

/// The critic prompt file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read the critic prompt {path}: {source}")]
pub struct PromptMissing {
    /// The path looked for.
    pub path: PathBuf,
    /// Why.
    #[source]
    pub source: std::io::Error,
}

/// The user message: instruction, then each script in a fenced block.
pub fn user_message(input: &CriticInput) -> String {
    format!(
        "Task {}\n\n## Instruction\n{}\n\n## initial_setup.py\n```python\n{}\n```\n\n## golden_patch.py\n```python\n{}\n```\n\n## reward.py\n```python\n{}\n```\n\nReply with exactly one JSON object as specified.",
        input.task_id,
        input.instruction.trim(),
        input.setup.trim_end(),
        input.golden.trim_end(),
        input.reward.trim_end()
    )
}

impl LlmCritic {
    /// A critic with the system prompt read from `prompts_dir/critic.md`.
    pub fn new(
        provider: Arc<dyn ChatProvider>,
        prompts_dir: &Path,
        max_invalid_retries: u32,
    ) -> Result<Self, PromptMissing> {
        let path = prompts_dir.join("critic.md");
        let system =
            std::fs::read_to_string(&path).map_err(|source| PromptMissing { path, source })?;
        Ok(Self {
            provider,
            system,
            max_invalid_retries,
        })
    }
}

impl Critic for LlmCritic {
    fn name(&self) -> String {
        self.provider.name()
    }
    fn is_heuristic(&self) -> bool {
        false
    }
    fn review(&self, input: &CriticInput) -> Review {
        let mut messages = vec![Message::User(user_message(input))];
        let mut review = Review {
            ballot: Ballot::Failed("no attempt made".into()),
            raw: String::new(),
            attempts: 0,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0.0,
        };
        for attempt in 0..=self.max_invalid_retries {
            let request = ChatRequest {
                system: self.system.clone(),
                messages: messages.clone(),
                tools: vec![],
            };
            let resp = match self.provider.chat(&request) {
                Ok(r) => r,
                Err(e) => {
                    review.ballot = Ballot::Failed(format!("provider failed: {e}"));
                    return review;
                }
            };
            review.attempts += resp.usage.calls.max(1);
            review.input_tokens += resp.usage.input_tokens;
            review.output_tokens += resp.usage.output_tokens;
            review.cost_usd += resp.usage.cost_usd;
            review.raw = resp.text.clone();
            match parse_vote(&resp.text) {
                Ok(v) => {
                    review.ballot = Ballot::Valid(v);
                    return review;
                }
                Err(e) => {
                    review.ballot = Ballot::Failed(format!(
                        "invalid vote after {} repl{}: {e}",
                        attempt + 1,
                        if attempt == 0 { "y" } else { "ies" }
                    ));
                    messages.push(Message::Assistant {
                        text: resp.text,
                        tool_calls: vec![],
                    });
                    messages.push(Message::User(format!(
                        "Your reply is not a valid vote: {e}. Reply again with exactly one JSON object following the schema."
                    )));
                }
            }
        }
        review
    }
}
