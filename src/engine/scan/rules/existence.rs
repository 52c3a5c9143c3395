//! Rule 4: `bare-existence-score` — score awarded on path existence alone.
//!
//! An award whose conditions and value depend only on positive existence checks is bare,
//! however far apart check and award are (the data-flow pass carries existence through
//! variables and early-exit guards). It is excused when the same path's content is read and
//! gates another award (existence checked, then content checked), and when an absence check is
//! part of the condition (a move: present at the target and gone from the source).

use super::super::facts::{AwardKind, Facts};
use super::super::report::RuleId;
use super::Hit;

pub(super) fn check(facts: &Facts, hits: &mut Vec<Hit>) {
    for award in &facts.awards {
        let positive = match award.kind {
            AwardKind::Return | AwardKind::Print => award.num.is_some_and(|n| n > 0.0),
            _ => award.positive(),
        };
        if !positive {
            continue;
        }
        let gate = award.gate();
        if !gate.exists || gate.env || gate.absent || award.flag_markers().has_marker() {
            continue;
        }
        let content_checked = facts.awards.iter().any(|other| {
            let g = other.gate();
            g.env && gate.content_read_in(&g)
        });
        if content_checked {
            continue;
        }
        hits.push(Hit {
            rule: RuleId::BareExistenceScore,
            offset: award.offset,
            reason: format!(
                "score is awarded only because {} exists; open it and check a property of its \
                 content (values, structure) before awarding",
                gate.exist_keys
                    .first()
                    .map_or_else(|| "a path".to_string(), |k| format!("`{k}`"))
            ),
        });
    }
}
