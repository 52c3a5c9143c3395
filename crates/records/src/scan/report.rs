//! Findings and reports: the stable, serialisable output of the scanner.

use serde::{Deserialize, Serialize};

/// The fixed rule ids of condition C5 (paper §A.3.3), plus `syntax-error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuleId {
    /// A verification flag holding a constant truthy value gates or adds score.
    BoolFlagConstant,
    /// A flag left at a constant (never evaluated) conditions a score increment.
    PlaceholderFlag,
    /// A constant success is returned/printed on a path that inspects nothing.
    HardcodedSuccess,
    /// Score awarded on path existence alone, with no content check of that path.
    BareExistenceScore,
    /// The script can run external processes.
    Subprocess,
    /// A score increment justified only by a comment asserting a check.
    CommentOnlyCheck,
    /// `exec`/`eval`/`compile` of a string built at run time.
    DynamicCode,
    /// An error path (except handler, finally, error branch) awards, returns or prints success.
    ErrorPathSuccess,
    /// The script reads the Generator's artifacts (setup/golden scripts, their outputs, hidden
    /// copies of the expected state) instead of the environment's state.
    GeneratorArtifact,
    /// The score is taken wholly, or above the configured weight, from an LLM judge.
    JudgeDelegation,
    /// The script does not parse; C5 fails because nothing can be verified.
    SyntaxError,
}

impl RuleId {
    /// Every rule id, in reporting order.
    pub const ALL: [RuleId; 11] = [
        RuleId::BoolFlagConstant,
        RuleId::PlaceholderFlag,
        RuleId::HardcodedSuccess,
        RuleId::BareExistenceScore,
        RuleId::Subprocess,
        RuleId::CommentOnlyCheck,
        RuleId::DynamicCode,
        RuleId::ErrorPathSuccess,
        RuleId::GeneratorArtifact,
        RuleId::JudgeDelegation,
        RuleId::SyntaxError,
    ];

    /// The stable kebab-case id (as in JSON output and corpus labels).
    pub fn as_str(self) -> &'static str {
        match self {
            RuleId::BoolFlagConstant => "bool-flag-constant",
            RuleId::PlaceholderFlag => "placeholder-flag",
            RuleId::HardcodedSuccess => "hardcoded-success",
            RuleId::BareExistenceScore => "bare-existence-score",
            RuleId::Subprocess => "subprocess",
            RuleId::CommentOnlyCheck => "comment-only-check",
            RuleId::DynamicCode => "dynamic-code",
            RuleId::ErrorPathSuccess => "error-path-success",
            RuleId::GeneratorArtifact => "generator-artifact",
            RuleId::JudgeDelegation => "judge-delegation",
            RuleId::SyntaxError => "syntax-error",
        }
    }

    /// Parse a kebab-case id.
    pub fn parse(id: &str) -> Option<RuleId> {
        RuleId::ALL.into_iter().find(|r| r.as_str() == id)
    }
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One forbidden pattern found in one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Which rule fired.
    pub rule: RuleId,
    /// The path label given to the scanner.
    pub file: String,
    /// 1-based line of the offending construct.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// The offending source line, verbatim (without newline).
    pub source_line: String,
    /// One sentence a curator can act on.
    pub reason: String,
}

/// Everything the scanner says about one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanReport {
    /// The path label given to the scanner.
    pub file: String,
    /// False when the file does not parse (then the only finding is `syntax-error`).
    pub parsed: bool,
    /// Findings sorted by line, column, rule.
    pub findings: Vec<Finding>,
}

impl ScanReport {
    /// True when there is no finding at all (condition C5 holds).
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// The distinct rule ids that fired, sorted.
    pub fn rules(&self) -> Vec<RuleId> {
        let mut rules: Vec<RuleId> = self.findings.iter().map(|f| f.rule).collect();
        rules.sort();
        rules.dedup();
        rules
    }
}
