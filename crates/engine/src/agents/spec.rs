//! [`AgentSpec`]: a Generator or Discriminator spec string (`scripted`, `openai:MODEL[@BASE_URL]`,
//! `anthropic:MODEL[@BASE_URL]`, `command:claude|codex|kimi|<argv template>`), parsed once at the
//! edge (flags, `[agents]`, the workbench) and handed to the engine typed.

use std::fmt;
use std::str::FromStr;

use crate::agents::command::config::CommandAgentConfig;
use tuplewright_models::providers::{ProviderConfig, ProviderError};

/// What an agent spec names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AgentSpec {
    /// The embedded scripted agents.
    Scripted,
    /// An external coding-agent CLI; the text after `command:` (trimmed).
    Command(String),
    /// An LLM endpoint: the provider spec as given (`openai:MODEL[@URL]`, `anthropic:MODEL[@URL]`).
    Provider(String),
}

/// Why a string is not an agent spec.
#[derive(Debug, thiserror::Error)]
pub enum AgentSpecError {
    /// Nothing given.
    #[error("empty agent spec (scripted, openai:MODEL[@BASE_URL], anthropic:MODEL, command:…)")]
    Empty,
    /// A `command:` spec whose command line is unusable.
    #[error("agent spec `{spec}`: {source}")]
    Command {
        /// The spec as given.
        spec: String,
        /// What is wrong with the command.
        #[source]
        source: crate::agents::command::SpecError,
    },
    /// Not `scripted`, not `command:`, and not a provider spec.
    #[error("agent spec `{spec}`: {source}")]
    Provider {
        /// The spec as given.
        spec: String,
        /// What the provider parser refused.
        #[source]
        source: ProviderError,
    },
}

impl FromStr for AgentSpec {
    type Err = AgentSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.is_empty() {
            return Err(AgentSpecError::Empty);
        }
        if s == "scripted" {
            return Ok(AgentSpec::Scripted);
        }
        if let Some(rest) = s.strip_prefix("command:") {
            let spec = format!("command:{}", rest.trim());
            // Named configurations (`[agents.command.NAME]`) resolve later; a generic command
            // line must at least split into words.
            if !rest.trim().is_empty() && !rest.trim().contains(' ') {
                return Ok(AgentSpec::Command(rest.trim().to_string()));
            }
            CommandAgentConfig::from_spec(&spec)
                .map_err(|source| AgentSpecError::Command { spec, source })?;
            return Ok(AgentSpec::Command(rest.trim().to_string()));
        }
        ProviderConfig::from_spec(s, &ProviderConfig::default()).map_err(|source| {
            AgentSpecError::Provider {
                spec: s.to_string(),
                source,
            }
        })?;
        Ok(AgentSpec::Provider(s.to_string()))
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Scripted => f.write_str("scripted"),
            AgentSpec::Command(c) => write!(f, "command:{c}"),
            AgentSpec::Provider(p) => f.write_str(p),
        }
    }
}

impl serde::Serialize for AgentSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for AgentSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_specs_round_trip_and_bad_ones_say_what_is_wrong() {
        for s in [
            "scripted",
            "command:claude",
            "command:/bin/agent --prompt {prompt_file}",
            "openai:gpt-4o",
            "openai:llama3:8b@http://127.0.0.1:8000/v1",
            "anthropic:claude-sonnet-4-5",
        ] {
            let spec: AgentSpec = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(spec.to_string(), s);
            assert_eq!(spec.to_string().parse::<AgentSpec>().ok(), Some(spec));
        }
        assert!(matches!(
            "".parse::<AgentSpec>(),
            Err(AgentSpecError::Empty)
        ));
        let e = "nonsense:x"
            .parse::<AgentSpec>()
            .err()
            .map(|e| e.to_string());
        assert!(
            e.as_deref().is_some_and(|e| e.contains("nonsense:x")),
            "{e:?}"
        );
        let e = "command:".parse::<AgentSpec>().err();
        assert!(matches!(e, Some(AgentSpecError::Command { .. })), "{e:?}");
        let e = "command:agent 'unbalanced".parse::<AgentSpec>().err();
        assert!(matches!(e, Some(AgentSpecError::Command { .. })), "{e:?}");
        let e = "openai:".parse::<AgentSpec>().err().map(|e| e.to_string());
        assert!(
            e.as_deref().is_some_and(|e| e.contains("empty model")),
            "{e:?}"
        );
    }
}
