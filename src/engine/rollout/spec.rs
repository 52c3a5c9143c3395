//! Policy spec strings, shared by `rollout --policy`, the workbench's launch form and
//! `[rollout]`: `oracle`, `noop`, `ui-oracle`, `command:CMD`, and the VLM teachers
//! (`vlm:openai:MODEL[@URL]`, `anthropic:MODEL[@URL]`, `openai-responses:MODEL[@URL]`).

use std::path::Path;
use std::time::Duration;

use super::command::CommandPolicy;
use super::judge::{Judge, LlmJudge};
use super::policy::{NoopPolicy, OraclePolicy, Policy};
use super::ui_oracle::UiOraclePolicy;
use super::vlm::judge::{is_screen_judge_spec, ScreenJudge};
use super::vlm::{is_vlm_spec, vlm_policy};
use super::RolloutConfig;
use crate::engine::screen::ScreenConfig;

/// The policy a spec names, with `[rollout]` and `[screen]` applied.
pub fn policy_from_spec(
    spec: &str,
    rollout: &RolloutConfig,
    screen: &ScreenConfig,
) -> Result<Box<dyn Policy + Send>, String> {
    let spec = spec.trim();
    Ok(match spec {
        "oracle" => Box::new(OraclePolicy),
        "noop" => Box::new(NoopPolicy),
        "ui-oracle" => Box::new(UiOraclePolicy::new(screen.clone())),
        s if s.starts_with("command:") && s.len() > "command:".len() => Box::new(CommandPolicy {
            command: s["command:".len()..].to_string(),
            timeout: Duration::from_secs_f64(rollout.command_timeout_secs.max(1.0)),
        }),
        s if is_vlm_spec(s) => Box::new(vlm_policy(s, &rollout.vlm, screen)?),
        other => {
            return Err(format!(
                "unknown rollout policy `{other}` (oracle, noop, ui-oracle, command:CMD, \
                 vlm:openai:MODEL[@URL], anthropic:MODEL, openai-responses:MODEL)"
            ))
        }
    })
}

/// The judge a spec names: a judge on screenshots for the VLM prefixes (`vlm:openai:`,
/// `anthropic:`, `openai-responses:`; `[rollout] judge_screenshots` of them, `[rollout.vlm]`'s
/// timeouts, retries and prices), else a text judge of the final state (`openai:MODEL[@URL]`).
/// Prompts come from `prompts_dir` (`judge_screen.md`, `judge.md`).
pub fn judge_from_spec(
    spec: &str,
    rollout: &RolloutConfig,
    prompts_dir: &Path,
) -> Result<Box<dyn Judge>, String> {
    if is_screen_judge_spec(spec) {
        let judge = ScreenJudge::from_spec(
            spec,
            rollout.judge_screenshots as usize,
            &rollout.vlm.provider_defaults(),
            prompts_dir,
        )
        .map_err(|e| e.to_string())?;
        return Ok(Box::new(judge));
    }
    let provider = crate::engine::providers::provider_from_spec(
        spec.trim(),
        &crate::engine::providers::ProviderConfig::default(),
    )
    .map_err(|e| format!("judge `{spec}`: {e}"))?;
    Ok(Box::new(
        LlmJudge::new(provider, prompts_dir).map_err(|e| e.to_string())?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rollout::PolicyKind;

    #[test]
    fn specs_name_their_policies_and_bad_ones_say_why() {
        let (r, s) = (RolloutConfig::default(), ScreenConfig::default());
        let p = |spec: &str| policy_from_spec(spec, &r, &s);
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
            .unwrap_or_default();
        assert!(e.contains("unknown action format `xml`"), "{e}");
    }
}
