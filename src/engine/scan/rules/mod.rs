//! The C5 rules. Rules 1–4 and 6 judge the awards recorded by the data-flow pass; rules 5 and 7
//! walk the AST with an import-alias resolver; rule 6 also reads comments (the one place the
//! AST cannot see, hence regexes).

mod comments;
mod existence;
mod flags;
mod hardcoded;
mod process;

use super::facts::Facts;
use super::py::{ast, Lines};
use super::report::RuleId;

/// A rule hit before it is turned into a [`super::Finding`].
#[derive(Debug, Clone)]
pub(crate) struct Hit {
    /// Which rule.
    pub rule: RuleId,
    /// Byte offset to report.
    pub offset: usize,
    /// One actionable sentence.
    pub reason: String,
}

/// Run every rule over one parsed script.
pub(crate) fn run(suite: &[ast::Stmt], facts: &Facts, lines: &Lines) -> Vec<Hit> {
    let mut hits = Vec::new();
    flags::check(facts, lines, &mut hits);
    existence::check(facts, &mut hits);
    hardcoded::check(facts, lines, &mut hits);
    process::check(suite, &mut hits);
    hits
}
