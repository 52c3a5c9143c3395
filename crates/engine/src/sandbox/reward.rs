//! The reward protocol: what a reward script's stdout means.
//!
//! The LAST non-empty stdout line must be `REWARD: <float>` with a finite value in [0, 1]; that is
//! the score. `COMPONENT: {"name","weight","score","detail"}` lines give the breakdown. When a
//! script prints no `COMPONENT:` line, its `PASS:` / `FAIL:` / `ERROR:` lines are read as
//! unweighted pass/fail components instead (the public convention). A missing or malformed
//! `REWARD:` line, or a value outside [0, 1] or not finite, is a [`RewardError`] — never a 0.0 score.

use serde::{Deserialize, Serialize};

/// Where a component came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComponentSource {
    /// A `COMPONENT: {json}` line.
    Json,
    /// A `PASS:` line.
    Pass,
    /// A `FAIL:` line.
    Fail,
    /// An `ERROR:` line.
    Error,
}

/// One part of the score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Component {
    /// What was checked.
    pub name: String,
    /// Its weight, when given.
    pub weight: Option<f64>,
    /// Its score in [0, 1] (PASS = 1, FAIL/ERROR = 0).
    pub score: f64,
    /// Free text.
    pub detail: String,
    /// The line kind it came from.
    pub source: ComponentSource,
    /// 1-based stdout line number.
    pub line: usize,
}

/// A parsed reward.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RewardReport {
    /// The score from the final `REWARD:` line.
    pub score: f64,
    /// The breakdown.
    pub components: Vec<Component>,
    /// Lines that looked like protocol lines but could not be read (the score still stands).
    pub warnings: Vec<String>,
}

/// Why stdout does not carry a valid reward.
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RewardError {
    /// No `REWARD:` line at all (or empty output).
    #[error("no `REWARD: <float>` line in stdout")]
    Missing,
    /// A `REWARD:` line exists but is not the last non-empty line.
    #[error("the `REWARD:` line (line {line}) is not the last stdout line; last line is `{last}`")]
    NotLast {
        /// Line number of the last `REWARD:` line.
        line: usize,
        /// The actual last line.
        last: String,
    },
    /// The value after `REWARD:` is not a number.
    #[error("malformed reward on line {line}: `{text}` is not a number")]
    Malformed {
        /// Line number.
        line: usize,
        /// The text after `REWARD:`.
        text: String,
    },
    /// The reward script itself did not exit 0 (crash, timeout, limit): no score exists.
    #[error("the reward script did not finish cleanly: {outcome}")]
    ScriptFailed {
        /// The run outcome, as JSON text.
        outcome: String,
    },
    /// Not finite or outside [0, 1].
    #[error("reward {value} on line {line} is outside [0, 1]")]
    OutOfRange {
        /// Line number.
        line: usize,
        /// The value as written.
        value: String,
    },
}

#[derive(Deserialize)]
struct JsonComponent {
    name: String,
    #[serde(default)]
    weight: Option<f64>,
    score: f64,
    #[serde(default)]
    detail: serde_json::Value,
}

fn parse_json_component(text: &str, line: usize) -> Result<Component, String> {
    let c: JsonComponent =
        serde_json::from_str(text).map_err(|e| format!("line {line}: bad COMPONENT JSON: {e}"))?;
    let unit = |v: f64| v.is_finite() && (0.0..=1.0).contains(&v);
    if !unit(c.score) || !c.weight.is_none_or(unit) {
        return Err(format!(
            "line {line}: COMPONENT score/weight outside [0, 1]"
        ));
    }
    let detail = match c.detail {
        serde_json::Value::String(s) => s,
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    };
    Ok(Component {
        name: c.name,
        weight: c.weight,
        score: c.score,
        detail,
        source: ComponentSource::Json,
        line,
    })
}

/// The reward of a finished reward-script run: its stdout parsed with [`parse_reward`], or
/// [`RewardError::ScriptFailed`] when the script did not exit 0 (a crash is never a 0.0 score).
pub fn reward_from_run(run: &super::result::RunResult) -> Result<RewardReport, RewardError> {
    if !run.succeeded() {
        let outcome =
            serde_json::to_string(&run.outcome).unwrap_or_else(|_| format!("{:?}", run.outcome));
        return Err(RewardError::ScriptFailed { outcome });
    }
    parse_reward(&run.stdout.text)
}

/// Parse a reward script's stdout.
pub fn parse_reward(stdout: &str) -> Result<RewardReport, RewardError> {
    let lines: Vec<&str> = stdout.lines().map(|l| l.trim_end_matches('\r')).collect();
    let last_idx = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .ok_or(RewardError::Missing)?;
    let last = lines[last_idx].trim();
    let Some(value_text) = last.strip_prefix("REWARD:") else {
        return match lines
            .iter()
            .rposition(|l| l.trim_start().starts_with("REWARD:"))
        {
            Some(i) => Err(RewardError::NotLast {
                line: i + 1,
                last: last.to_string(),
            }),
            None => Err(RewardError::Missing),
        };
    };
    let line = last_idx + 1;
    let value_text = value_text.trim();
    let score: f64 = value_text.parse().map_err(|_| RewardError::Malformed {
        line,
        text: value_text.to_string(),
    })?;
    if !score.is_finite() || !(0.0..=1.0).contains(&score) {
        return Err(RewardError::OutOfRange {
            line,
            value: value_text.to_string(),
        });
    }
    let mut json = Vec::new();
    let mut flagged = Vec::new();
    let mut warnings = Vec::new();
    for (i, raw) in lines.iter().enumerate().take(last_idx) {
        let l = raw.trim();
        let n = i + 1;
        if let Some(rest) = l.strip_prefix("COMPONENT:") {
            match parse_json_component(rest.trim(), n) {
                Ok(c) => json.push(c),
                Err(w) => warnings.push(w),
            }
            continue;
        }
        let tagged = [
            ("PASS:", ComponentSource::Pass, 1.0),
            ("FAIL:", ComponentSource::Fail, 0.0),
            ("ERROR:", ComponentSource::Error, 0.0),
        ];
        for (tag, source, score) in tagged {
            if let Some(rest) = l.strip_prefix(tag) {
                flagged.push(Component {
                    name: rest.trim().to_string(),
                    weight: None,
                    score,
                    detail: String::new(),
                    source,
                    line: n,
                });
            }
        }
    }
    let components = if json.is_empty() { flagged } else { json };
    Ok(RewardReport {
        score,
        components,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_line_is_the_score_with_json_components() {
        let out = "COMPONENT: {\"name\":\"a\",\"weight\":0.6,\"score\":1,\"detail\":\"ok\"}\nPASS: a\nScore: 0.6/1.0\nREWARD: 0.6\n\n";
        let r = parse_reward(out).unwrap();
        assert_eq!(r.score, 0.6);
        assert_eq!(r.components.len(), 1);
        assert_eq!(r.components[0].weight, Some(0.6));
        assert_eq!(r.components[0].source, ComponentSource::Json);
    }

    #[test]
    fn pass_fail_lines_become_components_without_json() {
        let r = parse_reward("PASS: title\nFAIL: owner\nERROR: db\nREWARD: 0.5").unwrap();
        let kinds: Vec<_> = r
            .components
            .iter()
            .map(|c| (c.name.as_str(), c.score))
            .collect();
        assert_eq!(kinds, vec![("title", 1.0), ("owner", 0.0), ("db", 0.0)]);
    }

    #[test]
    fn errors_are_typed_never_zero() {
        assert_eq!(parse_reward(""), Err(RewardError::Missing));
        assert_eq!(parse_reward("PASS: x\n"), Err(RewardError::Missing));
        assert!(matches!(
            parse_reward("REWARD: 1\nbye"),
            Err(RewardError::NotLast { line: 1, .. })
        ));
        assert!(matches!(
            parse_reward("REWARD: abc"),
            Err(RewardError::Malformed { .. })
        ));
        assert!(matches!(
            parse_reward("REWARD: nan"),
            Err(RewardError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_reward("REWARD: inf"),
            Err(RewardError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_reward("REWARD: 1.5"),
            Err(RewardError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_reward("REWARD: -0.1"),
            Err(RewardError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_reward("REWARD: "),
            Err(RewardError::Malformed { .. })
        ));
    }

    #[test]
    fn bounds_and_crlf_are_accepted() {
        assert_eq!(parse_reward("REWARD: 0\r\n").unwrap().score, 0.0);
        assert_eq!(parse_reward("REWARD:1.0").unwrap().score, 1.0);
        assert_eq!(parse_reward("REWARD: 1e-1").unwrap().score, 0.1);
    }

    #[test]
    fn bad_component_is_a_warning_not_a_failure() {
        let r = parse_reward(
            "COMPONENT: {broken\nCOMPONENT: {\"name\":\"x\",\"score\":2}\nREWARD: 0.3",
        )
        .unwrap();
        assert_eq!(r.score, 0.3);
        assert!(r.components.is_empty());
        assert_eq!(r.warnings.len(), 2);
    }
}
