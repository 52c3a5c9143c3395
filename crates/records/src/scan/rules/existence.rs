//! Rule 4: `bare-existence-score` — score awarded on path existence alone.
//!
//! An award whose conditions and value depend only on positive existence checks is bare,
//! however far apart check and award are (the data-flow pass carries existence through
//! variables and early-exit guards). Existence used as a precondition (an early `return 0.0`
//! when the file is missing, then awards gated on its content) is clean, because those awards
//! depend on content reads. An absence check in the same condition also makes it clean: that
//! is a move (present at the target and gone from the source, paper §E.5).

use super::super::facts::{AwardKind, Facts};
use super::super::report::RuleId;
use super::Hit;

pub(super) fn check(facts: &Facts, hits: &mut Vec<Hit>) {
    for award in &facts.awards {
        let positive = match award.kind {
            // `return True` from a loader is not a score; numeric returns are.
            AwardKind::Return => {
                award.num.is_some_and(|n| n > 0.0) && award.value.bool_true.is_none()
            }
            AwardKind::Print => award.num.is_some_and(|n| n > 0.0),
            _ => award.positive(),
        };
        if !positive {
            continue;
        }
        let gate = award.gate();
        if !gate.exists
            || gate.env
            || gate.judge.is_some()
            || gate.absent
            || award.flag_markers().has_marker()
        {
            continue;
        }
        hits.push(Hit {
            rule: RuleId::BareExistenceScore,
            offset: award.offset,
            reason: format!(
                "score is awarded only because {} exists; open it and check a property of its \
                 content (values, structure) before awarding",
                gate.exist_key
                    .as_deref()
                    .map_or_else(|| "a path".to_string(), |k| format!("`{k}`"))
            ),
        });
    }
}
