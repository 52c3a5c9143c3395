//! The C5 rules. Rules 1–4, 6, `error-path-success` and `judge-delegation` judge the awards
//! recorded by the data-flow pass; rules 5 and 7 walk the AST with an import-alias resolver;
//! rule 6 also reads comments (the one place the AST cannot see, hence regexes);
//! `generator-artifact` reports the artifact reads the data-flow pass recorded.

mod artifacts;
mod comments;
mod errpath;
mod existence;
mod flags;
mod hardcoded;
mod judge;
mod process;

use super::facts::Facts;
use super::py::{ast, Lines};
use super::report::RuleId;
use super::ScanConfig;

/// A rule hit before it is turned into a [`super::Finding`].
#[derive(Debug, Clone)]
pub struct Hit {
    /// Which rule.
    pub rule: RuleId,
    /// Byte offset to report.
    pub offset: usize,
    /// One actionable sentence.
    pub reason: String,
}

/// Run every rule over one parsed script.
pub fn run(suite: &[ast::Stmt], facts: &Facts, lines: &Lines, config: &ScanConfig) -> Vec<Hit> {
    let mut hits = Vec::new();
    flags::check(facts, lines, &mut hits);
    existence::check(facts, &mut hits);
    hardcoded::check(facts, lines, &mut hits);
    process::check(suite, &mut hits);
    errpath::check(facts, lines, &mut hits);
    artifacts::check(facts, &mut hits);
    judge::check(facts, lines, config.judge_max_weight, &mut hits);
    hits
}
