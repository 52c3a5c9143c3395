//! HTTP providers and LLM agents, tested against local stand-in servers that speak the real wire
//! formats (tests named `*_standin_*`). No real model is reachable here; the code path is the one
//! used against hosted and local endpoints.

mod agents;
mod anthropic;
mod cli;
mod offline;
mod openai;
pub(crate) mod standin;
mod streaming;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tuplewright::engine::agents::llm::LlmAgentConfig;
use tuplewright::engine::agents::{AgentError, Endpoint, EnvProbe, TaskBrief};
use tuplewright::engine::providers::{ProviderConfig, ProviderKind};

/// A config pointing at a stand-in, with fast backoff.
pub fn config(kind: ProviderKind, base: &str, key_env: &str) -> ProviderConfig {
    ProviderConfig {
        kind,
        model: "standin-model".into(),
        base_url: match kind {
            ProviderKind::Openai => format!("{base}/v1"),
            ProviderKind::Anthropic => base.to_string(),
        },
        api_key_env: key_env.into(),
        connect_timeout_secs: 2.0,
        request_timeout_secs: 5.0,
        max_retries: 5,
        backoff_base_ms: 1,
        backoff_max_ms: 20,
        input_price_per_mtok: 2.0,
        output_price_per_mtok: 8.0,
        ..ProviderConfig::default()
    }
}

/// Agent settings using the repository's prompts.
pub fn agent_config() -> LlmAgentConfig {
    LlmAgentConfig {
        prompts_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("prompts"),
        ..LlmAgentConfig::default()
    }
}

pub fn brief() -> TaskBrief {
    TaskBrief {
        task_id: "team-chat_pin_001".into(),
        instruction: "Pin the message 'Deploy at 5pm' in #ops.".into(),
        context: "Channel #ops holds three messages; none is pinned.".into(),
        difficulty: "easy".into(),
        apps: vec!["team-chat".into()],
        skills: vec![("team-chat".into(), "SKILL-TEXT-team-chat".into())],
        structured: serde_json::json!({"channel": "ops"}),
    }
}

/// A probe that records what it was asked and answers canned text.
#[derive(Default)]
pub struct RecordingProbe {
    pub calls: Mutex<Vec<String>>,
    pub fail_infra: bool,
    /// Set this flag when `read_state` is called (simulates Ctrl-C during a tool call).
    pub cancel_on_read: Option<Arc<AtomicBool>>,
}

impl EnvProbe for RecordingProbe {
    fn read_state(&self, which: Endpoint) -> Result<serde_json::Value, AgentError> {
        self.calls
            .lock()
            .expect("lock")
            .push(format!("read_state:{which:?}"));
        if let Some(flag) = &self.cancel_on_read {
            flag.store(true, Ordering::SeqCst);
        }
        if self.fail_infra {
            return Err(AgentError::Infra("sandbox missing".into()));
        }
        Ok(serde_json::json!({"current_state": {"pinned": which == Endpoint::Gold}}))
    }

    fn dry_run_reward(&self, which: Endpoint, reward: &str) -> Result<String, AgentError> {
        self.calls
            .lock()
            .expect("lock")
            .push(format!("dry_run:{which:?}:{}", reward.trim()));
        Ok(format!(
            "REWARD: {}",
            if which == Endpoint::Gold {
                "1.0"
            } else {
                "0.0"
            }
        ))
    }
}
