//! Policy spec strings, shared by `rollout --policy`, the workbench's launch form and
//! `[rollout]`: `oracle`, `noop`, `ui-oracle`, `command:CMD`, and the VLM teachers
//! (`vlm:openai:MODEL[@URL]`, `anthropic:MODEL[@URL]`, `openai-responses:MODEL[@URL]`).

use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use super::command::CommandPolicy;
use super::judge::{Judge, LlmJudge};
use super::policy::{NoopPolicy, OraclePolicy, Policy};
use super::ui_oracle::UiOraclePolicy;
use super::vlm::judge::{is_screen_judge_spec, ScreenJudge};
use super::vlm::vlm_policy;
use super::RolloutConfig;
use crate::screen::ScreenConfig;
use tuplewright_models::providers::{ProviderConfig, ProviderKind};

/// A rollout policy, parsed once from its spec string (`rollout --policy`, `worker --policy`,
/// the workbench's launch form, `[rollout] policies`). `Display` gives the spec back.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PolicySpec {
    /// `oracle`: replays golden_patch.py (probe, must score 1.0).
    Oracle,
    /// `noop`: does nothing (probe, must score 0.0).
    Noop,
    /// `ui-oracle`: the task through its screen only (probe, must score 1.0).
    UiOracle,
    /// `command:CMD`: an external agent run with `sh -c` (teacher).
    Command(String),
    /// A VLM teacher acting through the task's screen.
    Vlm(VlmSpec),
}

/// The VLM teachers' wire protocols, each with its provider spec.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum VlmSpec {
    /// `vlm:openai:MODEL[@URL]`: chat completions; holds `openai:MODEL[@URL]`.
    Chat(String),
    /// `anthropic:MODEL[@URL]`: the computer-use tool; holds the whole spec.
    Anthropic(String),
    /// `openai-responses:MODEL[@URL]`: the Responses API; holds `MODEL[@URL]`.
    Responses(String),
}

/// Why a string is not a rollout policy spec.
#[derive(Debug, thiserror::Error)]
pub enum PolicySpecError {
    /// Nothing given.
    #[error("empty rollout policy (oracle, noop, ui-oracle, command:CMD, vlm:openai:MODEL[@URL], anthropic:MODEL, openai-responses:MODEL)")]
    Empty,
    /// `command` or `command:` without a command line.
    #[error("rollout policy `{0}` names no command (command:CMD)")]
    NoCommand(String),
    /// No policy has this name.
    #[error("unknown rollout policy `{0}` (oracle, noop, ui-oracle, command:CMD, vlm:openai:MODEL[@URL], anthropic:MODEL, openai-responses:MODEL)")]
    Unknown(String),
    /// `vlm:` over something other than an OpenAI-compatible endpoint.
    #[error("policy `{0}`: vlm: takes an OpenAI-compatible endpoint (vlm:openai:MODEL[@URL])")]
    NotOpenai(String),
    /// The provider part of a VLM spec is malformed.
    #[error("policy `{spec}`: {source}")]
    Provider {
        /// The spec as given.
        spec: String,
        /// What the provider parser refused.
        #[source]
        source: tuplewright_models::providers::ProviderError,
    },
}

/// Why a well-formed policy spec cannot be built with the configuration.
#[derive(Debug, thiserror::Error)]
pub enum PolicyBuildError {
    /// The spec does not parse.
    #[error(transparent)]
    Spec(#[from] PolicySpecError),
    /// The VLM teacher's settings (`[rollout.vlm]`: format, coords, endpoint) are unusable.
    #[error("{source}")]
    Vlm {
        /// The spec.
        spec: String,
        /// What is wrong.
        #[source]
        source: crate::rollout::vlm::error::SpecError,
    },
}

impl FromStr for PolicySpec {
    type Err = PolicySpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let provider = |p: &str| {
            ProviderConfig::from_spec(p, &ProviderConfig::default()).map_err(|source| {
                PolicySpecError::Provider {
                    spec: s.to_string(),
                    source,
                }
            })
        };
        Ok(match s {
            "" => return Err(PolicySpecError::Empty),
            "oracle" => PolicySpec::Oracle,
            "noop" => PolicySpec::Noop,
            "ui-oracle" => PolicySpec::UiOracle,
            "command" | "command:" => return Err(PolicySpecError::NoCommand(s.to_string())),
            _ if s.starts_with("command:") => {
                PolicySpec::Command(s["command:".len()..].to_string())
            }
            _ if s.starts_with("vlm:") => {
                let rest = &s["vlm:".len()..];
                if provider(rest)?.kind != ProviderKind::Openai {
                    return Err(PolicySpecError::NotOpenai(s.to_string()));
                }
                PolicySpec::Vlm(VlmSpec::Chat(rest.to_string()))
            }
            _ if s.starts_with("anthropic:") => {
                provider(s)?;
                PolicySpec::Vlm(VlmSpec::Anthropic(s.to_string()))
            }
            _ if s.starts_with("openai-responses:") => {
                let rest = &s["openai-responses:".len()..];
                provider(&format!("openai:{rest}"))?;
                PolicySpec::Vlm(VlmSpec::Responses(rest.to_string()))
            }
            other => return Err(PolicySpecError::Unknown(other.to_string())),
        })
    }
}

impl fmt::Display for PolicySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicySpec::Oracle => f.write_str("oracle"),
            PolicySpec::Noop => f.write_str("noop"),
            PolicySpec::UiOracle => f.write_str("ui-oracle"),
            PolicySpec::Command(c) => write!(f, "command:{c}"),
            PolicySpec::Vlm(VlmSpec::Chat(p)) => write!(f, "vlm:{p}"),
            PolicySpec::Vlm(VlmSpec::Anthropic(p)) => f.write_str(p),
            PolicySpec::Vlm(VlmSpec::Responses(p)) => write!(f, "openai-responses:{p}"),
        }
    }
}

impl PolicySpec {
    /// Whether the policy is a VLM teacher (acts through a screen, takes `[rollout.vlm]`).
    pub fn is_vlm(&self) -> bool {
        matches!(self, PolicySpec::Vlm(_))
    }

    /// Whether the policy is a teacher (its trials decide inclusion) rather than a probe.
    pub fn is_teacher(&self) -> bool {
        matches!(self, PolicySpec::Command(_) | PolicySpec::Vlm(_))
    }

    /// The policy, with `[rollout]` and `[screen]` applied.
    pub fn build(
        &self,
        rollout: &RolloutConfig,
        screen: &ScreenConfig,
    ) -> Result<Box<dyn Policy + Send>, PolicyBuildError> {
        Ok(match self {
            PolicySpec::Oracle => Box::new(OraclePolicy),
            PolicySpec::Noop => Box::new(NoopPolicy),
            PolicySpec::UiOracle => Box::new(UiOraclePolicy::new(screen.clone())),
            PolicySpec::Command(c) => Box::new(CommandPolicy {
                command: c.clone(),
                timeout: Duration::from_secs_f64(rollout.command_timeout_secs.max(1.0)),
            }),
            PolicySpec::Vlm(_) => {
                let spec = self.to_string();
                let p = vlm_policy(&spec, &rollout.vlm, screen)
                    .map_err(|source| PolicyBuildError::Vlm { spec, source })?;
                Box::new(p)
            }
        })
    }
}

/// The policy a spec string names, with `[rollout]` and `[screen]` applied (parse + build).
pub fn policy_from_spec(
    spec: &str,
    rollout: &RolloutConfig,
    screen: &ScreenConfig,
) -> Result<Box<dyn Policy + Send>, PolicyBuildError> {
    let spec: PolicySpec = spec.parse()?;
    spec.build(rollout, screen)
}

/// Policy specs in a configuration file (`[rollout] policies`) are read as their strings; a bad
/// one fails the load, naming the file and key.
impl serde::Serialize for PolicySpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for PolicySpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A rollout judge, parsed once from its spec string (`[rollout] judge`, `rollout --judge`).
/// `Display` gives the spec back.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum JudgeSpec {
    /// A judge on the trial's last screenshots: the VLM prefixes (`vlm:openai:MODEL[@URL]`,
    /// `anthropic:MODEL[@URL]`, `openai-responses:MODEL[@URL]`); holds the whole spec.
    Screen(String),
    /// A text judge of the final state: a provider spec (`openai:MODEL[@URL]`).
    State(String),
}

impl FromStr for JudgeSpec {
    type Err = JudgeSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if is_screen_judge_spec(s) {
            // The screen judges speak the VLM teachers' wire formats: the same spec grammar.
            return match s.parse::<PolicySpec>() {
                Ok(PolicySpec::Vlm(_)) => Ok(JudgeSpec::Screen(s.to_string())),
                Ok(_) => Err(JudgeSpecError::NotAJudge(s.to_string())),
                Err(source) => Err(JudgeSpecError::Screen {
                    spec: s.to_string(),
                    source: Box::new(source),
                }),
            };
        }
        ProviderConfig::from_spec(s, &ProviderConfig::default()).map_err(|source| {
            JudgeSpecError::Provider {
                spec: s.to_string(),
                source: Box::new(source),
            }
        })?;
        Ok(JudgeSpec::State(s.to_string()))
    }
}

impl fmt::Display for JudgeSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeSpec::Screen(s) | JudgeSpec::State(s) => f.write_str(s),
        }
    }
}

/// `[rollout] judge` as written in a configuration file: `""` = no judge, else a [`JudgeSpec`]
/// (a bad one fails the load, naming the file and key).
pub mod judge_field {
    use super::JudgeSpec;
    use serde::{Deserialize, Deserializer, Serializer};

    /// `""` for no judge, else the spec.
    pub fn serialize<S: Serializer>(j: &Option<JudgeSpec>, s: S) -> Result<S::Ok, S::Error> {
        match j {
            Some(j) => s.collect_str(j),
            None => s.serialize_str(""),
        }
    }

    /// `""` (or blanks) = no judge; anything else must parse.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<JudgeSpec>, D::Error> {
        let text = String::deserialize(d)?;
        if text.trim().is_empty() {
            return Ok(None);
        }
        text.parse().map(Some).map_err(serde::de::Error::custom)
    }
}

/// Why a judge spec cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum JudgeSpecError {
    /// A screen judge's spec (`vlm:openai:…`, `anthropic:…`, `openai-responses:…`) is malformed.
    #[error("judge `{spec}`: {source}")]
    Screen {
        /// The spec as given.
        spec: String,
        /// What the spec parser refused.
        #[source]
        source: Box<PolicySpecError>,
    },
    /// The spec names a policy that is no judge.
    #[error("judge `{0}`: not a judge (openai:MODEL[@URL], or a screen judge: vlm:openai:MODEL[@URL], anthropic:MODEL, openai-responses:MODEL)")]
    NotAJudge(String),
    /// The judge's provider part is malformed.
    #[error("judge `{spec}`: {source}")]
    Provider {
        /// The spec as given.
        spec: String,
        /// What the provider parser refused.
        #[source]
        source: Box<tuplewright_models::providers::ProviderError>,
    },
    /// The judge could not be built (its prompt, its endpoint).
    #[error(transparent)]
    Build(#[from] super::RolloutError),
}

/// The judge a spec names: a judge on screenshots for the VLM prefixes (`vlm:openai:`,
/// `anthropic:`, `openai-responses:`; `[rollout] judge_screenshots` of them, `[rollout.vlm]`'s
/// timeouts, retries and prices), else a text judge of the final state (`openai:MODEL[@URL]`).
/// Prompts come from `prompts_dir` (`judge_screen.md`, `judge.md`).
pub fn judge_from_spec(
    spec: &str,
    rollout: &RolloutConfig,
    prompts_dir: &Path,
) -> Result<Box<dyn Judge>, JudgeSpecError> {
    if is_screen_judge_spec(spec) {
        let judge = ScreenJudge::from_spec(
            spec,
            rollout.judge_screenshots as usize,
            &rollout.vlm.provider_defaults(),
            prompts_dir,
        )?;
        return Ok(Box::new(judge));
    }
    let provider = tuplewright_models::providers::provider_from_spec(
        spec.trim(),
        &tuplewright_models::providers::ProviderConfig::default(),
    )
    .map_err(|source| JudgeSpecError::Provider {
        spec: spec.to_string(),
        source: Box::new(source),
    })?;
    Ok(Box::new(LlmJudge::new(provider, prompts_dir)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::PolicyKind;

    #[test]
    fn specs_name_their_policies_and_bad_ones_say_why() {
        let (r, s) = (RolloutConfig::default(), ScreenConfig::default());
        let p = |spec: &str| policy_from_spec(spec, &r, &s).map_err(|e| e.to_string());
        assert_eq!(p("oracle").map(|p| p.name()), Ok("oracle".into()));
        assert_eq!(
            p("command:my-agent --x").map(|p| p.kind()),
            Ok(PolicyKind::Teacher)
        );
        let v = p("vlm:openai:Qwen/Qwen2.5-VL-7B@http://127.0.0.1:8000/v1").expect("vlm");
        assert_eq!(v.name(), "vlm:openai:Qwen/Qwen2.5-VL-7B");
        assert_eq!(v.kind(), PolicyKind::Teacher);
        assert_eq!(
            p("anthropic:claude-sonnet-4-5").map(|p| p.name()),
            Ok("anthropic:claude-sonnet-4-5".into())
        );
        assert_eq!(
            p("openai-responses:computer-use-preview").map(|p| p.name()),
            Ok("openai-responses:computer-use-preview".into())
        );
        let e = p("vlm:anthropic:claude").err().unwrap_or_default();
        assert!(e.contains("OpenAI-compatible"), "{e}");
        let e = p("gpt").err().unwrap_or_default();
        assert!(e.contains("unknown rollout policy `gpt`"), "{e}");
        let mut bad = RolloutConfig::default();
        bad.vlm.format = "xml".into();
        let e = policy_from_spec("vlm:openai:m@http://127.0.0.1:1/v1", &bad, &s)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("unknown action format `xml`"), "{e}");
    }

    #[test]
    fn policy_specs_round_trip_and_bad_ones_name_what_is_wrong() {
        for s in [
            "oracle",
            "noop",
            "ui-oracle",
            "command:my-agent --x",
            "vlm:openai:Qwen/Qwen2.5-VL-7B@http://127.0.0.1:8000/v1",
            "anthropic:claude-sonnet-4-5",
            "openai-responses:computer-use-preview",
        ] {
            let spec: PolicySpec = s.parse().unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(spec.to_string(), s);
            assert_eq!(spec.to_string().parse::<PolicySpec>().ok(), Some(spec));
        }
        let err = |s: &str| s.parse::<PolicySpec>().err();
        assert!(matches!(err(" "), Some(PolicySpecError::Empty)));
        assert!(matches!(
            err("command"),
            Some(PolicySpecError::NoCommand(_))
        ));
        assert!(matches!(err("gpt"), Some(PolicySpecError::Unknown(_))));
        assert!(matches!(
            err("vlm:anthropic:c"),
            Some(PolicySpecError::NotOpenai(_))
        ));
        let e = err("vlm:openai:");
        assert!(matches!(e, Some(PolicySpecError::Provider { .. })), "{e:?}");
        assert!(e.is_some_and(|e| e.to_string().contains("empty model")));
        assert!(PolicySpec::Vlm(VlmSpec::Responses("m".into())).is_teacher());
        assert!(!PolicySpec::UiOracle.is_teacher());
    }

    #[test]
    fn config_specs_are_parsed_at_load_and_a_bad_one_names_the_file_and_key() {
        use crate::config::{Config, ConfigError};
        let file = Path::new("/etc/tw/config.toml");
        let text = "[rollout]\njudge = \" vlm:openai:m@http://127.0.0.1:1/v1\"\n\
                    policies = [\"oracle\", \"anthropic:claude-sonnet-4-5\"]\n";
        let ok = Config::parse(text, file).expect("good specs load");
        let judge = JudgeSpec::Screen("vlm:openai:m@http://127.0.0.1:1/v1".into());
        assert_eq!(ok.rollout.judge.as_ref(), Some(&judge));
        let anthropic = PolicySpec::Vlm(VlmSpec::Anthropic("anthropic:claude-sonnet-4-5".into()));
        assert_eq!(ok.rollout.policies, vec![PolicySpec::Oracle, anthropic]);
        assert_eq!(Config::parse(&ok.to_toml(), file).ok(), Some(ok));
        let none = Config::parse("[rollout]\njudge = \"  \"\n", file).expect("blank = none");
        assert_eq!(none.rollout.judge, None);
        let state = Config::parse("[rollout]\njudge = \"openai:gpt-4.1-mini\"\n", file);
        let state = state.expect("text judge").rollout.judge;
        assert_eq!(state, Some(JudgeSpec::State("openai:gpt-4.1-mini".into())));
        for (text, want_key, want) in [
            (
                "[rollout]\njudge = \"gpt\"\n",
                "rollout.judge",
                "judge `gpt`",
            ),
            (
                "[rollout]\njudge = \"vlm:anthropic:c\"\n",
                "rollout.judge",
                "OpenAI-compatible",
            ),
            (
                "[rollout]\npolicies = [\"oracle\", \"gpt\"]\n",
                "rollout.policies[1]",
                "unknown rollout policy `gpt`",
            ),
        ] {
            match Config::parse(text, file) {
                Err(ConfigError::Invalid { path, key, message }) => {
                    assert_eq!(path, file, "{text}");
                    assert_eq!(key, want_key, "{text}");
                    assert!(message.contains(want), "{text}: {message}");
                }
                other => panic!("{text}: loaded or failed otherwise: {other:?}"),
            }
        }
    }
}
