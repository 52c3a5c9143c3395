//! Labelled-corpus evaluation: per-rule precision and recall of the scanner.
//!
//! Every `*.py` file in a corpus directory starts with a label comment naming the rule ids it
//! must trigger, or `clean`:
//!
//! ```text
//! # expect: bool-flag-constant, subprocess
//! # expect: clean
//! ```
//!
//! Scoring is per file and per rule: a file expecting a rule that reports it is a true positive;
//! a file reporting a rule it does not expect is a false positive.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::{scan_file, RuleId, ScanError, ScanReport};

/// Errors reading a labelled corpus.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// A file could not be scanned.
    #[error(transparent)]
    Scan(#[from] ScanError),
    /// The directory could not be listed.
    #[error("cannot list corpus directory {path}: {message}")]
    List {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A file has no `# expect:` label or names an unknown rule.
    #[error("{path}: {message}")]
    Label {
        /// The file.
        path: PathBuf,
        /// What is wrong with its label.
        message: String,
    },
}

/// One scanned corpus file with its expected rules.
#[derive(Debug, Clone)]
pub struct LabelledResult {
    /// The file.
    pub path: PathBuf,
    /// Rules the label says must fire.
    pub expected: BTreeSet<RuleId>,
    /// Rules that fired.
    pub found: BTreeSet<RuleId>,
    /// The full report.
    pub report: ScanReport,
}

/// Counts and ratios for one rule.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RuleScore {
    /// Files expecting and reporting the rule.
    pub true_pos: usize,
    /// Files reporting the rule without expecting it.
    pub false_pos: usize,
    /// Files expecting the rule that did not report it.
    pub false_neg: usize,
    /// Files neither expecting nor reporting it.
    pub true_neg: usize,
}

impl RuleScore {
    /// TP / (TP + FP); 1.0 when nothing was reported.
    pub fn precision(&self) -> f64 {
        ratio(self.true_pos, self.true_pos + self.false_pos)
    }
    /// TP / (TP + FN); 1.0 when nothing was expected.
    pub fn recall(&self) -> f64 {
        ratio(self.true_pos, self.true_pos + self.false_neg)
    }
    /// FP / (FP + TN): share of files not expecting the rule that got it anyway.
    pub fn false_positive_rate(&self) -> f64 {
        1.0 - ratio(self.true_neg, self.true_neg + self.false_pos)
    }
}

fn ratio(num: usize, den: usize) -> f64 {
    if den == 0 {
        1.0
    } else {
        num as f64 / den as f64
    }
}

/// Parse the `# expect:` label from the first lines of a file.
pub fn parse_label(path: &Path, source: &str) -> Result<BTreeSet<RuleId>, CorpusError> {
    let label_err = |message: String| CorpusError::Label {
        path: path.to_path_buf(),
        message,
    };
    let line = source
        .lines()
        .take(5)
        .find_map(|l| l.trim().strip_prefix("# expect:"))
        .ok_or_else(|| {
            label_err("no `# expect: <rule ids>|clean` line in the first 5 lines".into())
        })?;
    let mut out = BTreeSet::new();
    for id in line.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if id == "clean" {
            continue;
        }
        let rule = RuleId::parse(id).ok_or_else(|| label_err(format!("unknown rule id `{id}`")))?;
        out.insert(rule);
    }
    Ok(out)
}

/// Scan every labelled `*.py` file under `dir` (sorted by path).
pub fn evaluate(dir: &Path) -> Result<Vec<LabelledResult>, CorpusError> {
    let mut paths = Vec::new();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.map_err(|e| CorpusError::List {
            path: dir.to_path_buf(),
            message: e.to_string(),
        })?;
        if entry.file_type().is_file() && entry.path().extension().is_some_and(|e| e == "py") {
            paths.push(entry.into_path());
        }
    }
    paths.sort();
    let mut out = Vec::with_capacity(paths.len());
    for path in paths {
        let report = scan_file(&path)?;
        let source = std::fs::read_to_string(&path).map_err(|source| ScanError::Read {
            path: path.clone(),
            source,
        })?;
        let expected = parse_label(&path, &source)?;
        let found = report.rules().into_iter().collect();
        out.push(LabelledResult {
            path,
            expected,
            found,
            report,
        });
    }
    Ok(out)
}

/// Per-rule scores over evaluated files.
pub fn score(results: &[LabelledResult]) -> Vec<(RuleId, RuleScore)> {
    RuleId::ALL
        .into_iter()
        .map(|rule| {
            let mut s = RuleScore::default();
            for r in results {
                match (r.expected.contains(&rule), r.found.contains(&rule)) {
                    (true, true) => s.true_pos += 1,
                    (false, true) => s.false_pos += 1,
                    (true, false) => s.false_neg += 1,
                    (false, false) => s.true_neg += 1,
                }
            }
            (rule, s)
        })
        .collect()
}

/// A plain-text table of per-rule precision, recall and false-positive rate.
pub fn table(results: &[LabelledResult]) -> String {
    let mut out = format!(
        "{} files\n{:<22} {:>4} {:>4} {:>4} {:>9} {:>7} {:>7}\n",
        results.len(),
        "rule",
        "TP",
        "FP",
        "FN",
        "precision",
        "recall",
        "FP-rate"
    );
    for (rule, s) in score(results) {
        out.push_str(&format!(
            "{:<22} {:>4} {:>4} {:>4} {:>9.3} {:>7.3} {:>7.3}\n",
            rule.as_str(),
            s.true_pos,
            s.false_pos,
            s.false_neg,
            s.precision(),
            s.recall(),
            s.false_positive_rate()
        ));
    }
    out
}
