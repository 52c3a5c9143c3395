//! Scanner configuration (the `[scan]` table of `tuplewright.toml`).

use serde::{Deserialize, Serialize};

use super::{RuleId, ScanReport};

/// Default of [`ScanConfig::judge_max_weight`].
pub const DEFAULT_JUDGE_MAX_WEIGHT: f64 = 0.5;

/// How scan findings decide agreement condition C5, and the one tunable rule limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScanConfig {
    /// Rules whose findings are still reported (to the curator and the Discriminator) but do
    /// not fail C5. Empty by default: every rule fails C5. `syntax-error` always fails.
    pub advisory: Vec<RuleId>,
    /// `judge-delegation` fires when more than this share of the reward (0–1) comes from an
    /// LLM judge's output, or when the reward is the judge's output alone. Default 0.5.
    pub judge_max_weight: f64,
}

impl Default for ScanConfig {
    fn default() -> Self {
        ScanConfig {
            advisory: Vec::new(),
            judge_max_weight: DEFAULT_JUDGE_MAX_WEIGHT,
        }
    }
}

impl ScanConfig {
    /// Check the limits: `judge_max_weight` must be a number in [0, 1].
    pub fn validate(&self) -> Result<(), String> {
        if !(0.0..=1.0).contains(&self.judge_max_weight) {
            return Err(format!(
                "[scan] judge_max_weight = {} is out of range: give a share of the reward \
                 between 0 and 1 (default {DEFAULT_JUDGE_MAX_WEIGHT})",
                self.judge_max_weight
            ));
        }
        Ok(())
    }

    /// True when the report fails condition C5 under this configuration.
    pub fn fails_c5(&self, report: &ScanReport) -> bool {
        report
            .findings
            .iter()
            .any(|f| f.rule == RuleId::SyntaxError || !self.advisory.contains(&f.rule))
    }
}

#[cfg(test)]
mod tests {
    use super::super::scan_source;
    use super::*;

    #[test]
    fn advisory_rules_do_not_fail_c5_but_syntax_errors_always_do() {
        let hack = scan_source("r.py", "def verify():\n    return 1.0\n");
        let strict = ScanConfig::default();
        assert!(strict.fails_c5(&hack));
        let lenient: ScanConfig =
            toml::from_str("advisory = [\"hardcoded-success\"]").expect("valid config");
        assert!(!lenient.fails_c5(&hack));
        let broken = scan_source("r.py", "if x\n");
        let all: ScanConfig =
            toml::from_str("advisory = [\"syntax-error\", \"hardcoded-success\"]")
                .expect("valid config");
        assert!(all.fails_c5(&broken));
        assert!(toml::from_str::<ScanConfig>("advisory = [\"nope\"]").is_err());
    }
}
