//! `judge-delegation`: the score is the LLM judge's, not the script's.
//!
//! The data-flow pass marks every value computed from a judge call (`judge.rs` in the pass)
//! with the share of it the judge's output can make up. At each printed reward and each score
//! increment, the judge's share — from the value (`0.7 * llm`, the sum of several judged
//! components) and from a judge-decided condition (`if llm_ok: score += 0.7`) — is compared
//! with the configured limit (`[scan] judge_max_weight`, default 0.5); a reward computed from
//! judge outputs and constants alone is delegated wholly, whatever the coefficients. A judge
//! weighted at most the limit next to programmatic checks (`0.6 * checks + 0.4 * llm`) is
//! clean, as the paper's reward template intends for subjective criteria.

use super::super::facts::{AwardKind, Facts};
use super::super::judge::contribution;
use super::super::py::Lines;
use super::super::report::RuleId;
use super::Hit;

pub(super) fn check(facts: &Facts, lines: &Lines, max_weight: f64, hits: &mut Vec<Hit>) {
    for award in &facts.awards {
        if !matches!(award.kind, AwardKind::Print | AwardKind::Increment) {
            continue;
        }
        let Some(at) = award.value.judge.or(award.cond.judge) else {
            continue;
        };
        let v = &award.value;
        // A printed reward computed from judge outputs and constants alone is the judge's.
        // (A limit of 1 allows that too.)
        let wholly = award.kind == AwardKind::Print
            && max_weight < 1.0
            && v.judge.is_some()
            && !(v.env || v.exists || v.absent);
        let weight = contribution(v, award.num, &award.cond);
        if !(wholly || weight > max_weight) {
            continue;
        }
        let (line, _) = lines.position(award.offset);
        let share = if wholly {
            "all".to_string()
        } else {
            format!("{weight:.2}")
        };
        let what = match award.kind {
            AwardKind::Print => "the reward printed",
            _ => "the score added",
        };
        hits.push(Hit {
            rule: RuleId::JudgeDelegation,
            offset: at,
            reason: format!(
                "{what} at line {line} takes {share} of its value from this LLM judge call \
                 (limit {max_weight}); check what code can check from the state and give the \
                 judge at most {max_weight} of the reward"
            ),
        });
    }
}
