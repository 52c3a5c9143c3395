//! Scanner configuration (the `[scan]` table of `tuplewright.toml`).

use serde::{Deserialize, Serialize};

use super::{RuleId, ScanReport};

/// How scan findings decide agreement condition C5.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScanConfig {
    /// Rules whose findings are still reported (to the curator and the Discriminator) but do
    /// not fail C5. Empty by default: every rule fails C5. `syntax-error` always fails.
    pub advisory: Vec<RuleId>,
}

impl ScanConfig {
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
