//! The bounded tool loop shared by both LLM agents: send, run the requested tools, repeat until the
//! model answers without tool calls; check that answer (re-prompting with the parser's error at most
//! `max_reprompts` times); give up after `max_turns` model turns.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::agents::{AgentError, Usage};
use tuplewright_models::providers::{ChatProvider, ChatRequest, Message, ToolCall, ToolSpec};

use super::LlmAgentConfig;

/// The answer to one tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutcome {
    /// Text shown to the model.
    pub content: String,
    /// Whether the call was refused or failed.
    pub is_error: bool,
}

impl ToolOutcome {
    /// A successful result.
    pub fn ok(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            is_error: false,
        }
    }

    /// A refusal or failure.
    pub fn err(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            is_error: true,
        }
    }
}

/// What an agent exposes to the model and how it judges the final answer.
pub trait Toolbox {
    /// The tools offered.
    fn specs(&self) -> Vec<ToolSpec>;
    /// Runs one tool call. `Err` aborts the whole agent call (infrastructure failure, cancellation);
    /// refusals and tool-level failures are `Ok` outcomes with `is_error`.
    fn call(&mut self, call: &ToolCall) -> Result<ToolOutcome, AgentError>;
    /// Accepts the model's final text (fenced-block fallback); `Err` is the parser's message.
    fn finish(&mut self, text: &str) -> Result<(), String>;
}

fn check_cancel(cancel: Option<&AtomicBool>) -> Result<(), AgentError> {
    match cancel {
        Some(flag) if flag.load(Ordering::SeqCst) => Err(AgentError::Cancelled),
        _ => Ok(()),
    }
}

/// Runs the loop; returns the summed usage once `toolbox.finish` accepts an answer. `cancel` is
/// checked before every model turn and every tool call (an HTTP request in flight is bounded by the
/// provider's timeout, not interrupted).
pub fn run(
    provider: &dyn ChatProvider,
    config: &LlmAgentConfig,
    system: String,
    user: String,
    toolbox: &mut dyn Toolbox,
    cancel: Option<&AtomicBool>,
) -> Result<Usage, AgentError> {
    let mut request = ChatRequest {
        system,
        messages: vec![Message::User(user)],
        tools: toolbox.specs(),
    };
    let mut usage = Usage {
        model: provider.name(),
        ..Usage::default()
    };
    let mut reprompts = 0u32;
    for turn in 1..=config.max_turns.max(1) {
        check_cancel(cancel)?;
        let response = provider
            .chat(&request)
            .map_err(|e| AgentError::Infra(e.to_string()))?;
        tracing::info!(
            provider = %response.usage.model,
            turn,
            requests = response.usage.calls,
            input_tokens = response.usage.input_tokens,
            output_tokens = response.usage.output_tokens,
            cost_usd = response.usage.cost_usd,
            tool_calls = response.tool_calls.len(),
            "provider call"
        );
        usage.add(&response.usage);
        request.messages.push(Message::Assistant {
            text: response.text.clone(),
            tool_calls: response.tool_calls.clone(),
        });
        if !response.tool_calls.is_empty() {
            for call in &response.tool_calls {
                check_cancel(cancel)?;
                let outcome = toolbox.call(call)?;
                tracing::debug!(turn, tool = %call.name, is_error = outcome.is_error, "tool call");
                request.messages.push(Message::ToolResult {
                    call_id: call.id.clone(),
                    content: outcome.content,
                    is_error: outcome.is_error,
                });
            }
            continue;
        }
        match toolbox.finish(&response.text) {
            Ok(()) => return Ok(usage),
            Err(why) if reprompts < config.max_reprompts => {
                reprompts += 1;
                tracing::info!(turn, reprompts, error = %why, "re-prompting after an unusable reply");
                request.messages.push(Message::User(format!(
                    "Your reply could not be used: {why}\n\nFix this and answer again in the required \
format (the write_file tool, or fenced blocks whose info string is the file name)."
                )));
            }
            Err(why) => {
                return Err(AgentError::MalformedAfter {
                    why: format!("{why} (still unusable after {reprompts} re-prompts)"),
                    usage,
                })
            }
        }
    }
    Err(AgentError::MalformedAfter {
        why: format!(
            "no usable final answer within {} model turns",
            config.max_turns.max(1)
        ),
        usage,
    })
}

/// Reads a required string argument of a tool call.
pub fn str_arg<'a>(call: &'a ToolCall, key: &str) -> Result<&'a str, ToolOutcome> {
    if !call.arguments.is_object() {
        return Err(ToolOutcome::err(format!(
            "the arguments of `{}` must be a JSON object, got: {}",
            call.name,
            tuplewright_models::providers::excerpt(&call.arguments.to_string(), 200)
        )));
    }
    call.arguments
        .get(key)
        .and_then(|v| v.as_str())
        .ok_or_else(|| ToolOutcome::err(format!("`{}` needs a string argument `{key}`", call.name)))
}
