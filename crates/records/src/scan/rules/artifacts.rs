//! `generator-artifact`: the reward reads the Generator's artifacts instead of the state.
//!
//! The data-flow pass records every reading call (open, stat, list, parse, copy, import, run)
//! whose path argument names a setup or golden script, their outputs, or a hidden copy of the
//! expected state (`artifacts.rs` in the pass has the list). A reward that compares with those
//! passes whenever the Generator's own files agree with themselves, not when the agent did the
//! task.

use super::super::facts::Facts;
use super::super::report::RuleId;
use super::Hit;

pub(super) fn check(facts: &Facts, hits: &mut Vec<Hit>) {
    for read in &facts.artifacts {
        hits.push(Hit {
            rule: RuleId::GeneratorArtifact,
            offset: read.offset,
            reason: format!(
                "`{}` reads `{}`, {}; a reward must judge the environment's state (files in \
                 the user's home, the /go state API), not what the task's setup or golden \
                 scripts wrote",
                read.via, read.path, read.what
            ),
        });
    }
}
