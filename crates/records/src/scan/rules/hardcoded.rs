//! Rules 3 and 6: `hardcoded-success` and `comment-only-check`.
//!
//! A constant positive award on a path whose conditions inspect nothing is hard-coded success:
//! `score += 0.2` with no check around it, `return 1.0` from a check function that reads
//! nothing, `print("REWARD: 1.0")`, or a printed score that is constant. When such an award
//! (or one whose only local condition is constant) is justified by a comment asserting a check
//! (`# assume the title is correct`), it is a comment-only check instead — as is a constant
//! award under some unrelated condition whose comment says the check is assumed
//! (`if data:` / `# assume the chart formatting is correct` / `score += 0.3`).

use super::super::facts::{AwardKind, Facts};
use super::super::py::Lines;
use super::super::report::RuleId;
use super::comments::{asserted_check, strong_asserted_check};
use super::Hit;

pub(super) fn check(facts: &Facts, lines: &Lines, hits: &mut Vec<Hit>) {
    for award in &facts.awards {
        let gate = award.gate();
        if award.flag_markers().has_marker() {
            continue;
        }
        if super::errpath::direct(award) {
            continue;
        }
        let constant = !award.value.inspects();
        let threshold = match award.kind {
            AwardKind::Set => continue,
            AwardKind::Increment | AwardKind::Print => 0.0,
            AwardKind::Return => 0.5 - f64::EPSILON,
        };
        // A constant of unknown value (`WEIGHTS["a"]`) counts for increments and prints;
        // returns must be a known success value.
        let num = match award.num {
            Some(n) if n > threshold => n,
            None if constant && award.kind != AwardKind::Return => f64::NAN,
            _ => continue,
        };
        if award.kind == AwardKind::Increment && constant {
            let (line, _) = lines.position(award.offset);
            // The more the award is already conditioned on, the stronger the comment must be
            // to count as the award's only justification.
            let comment = if award.local_cond.inspects() {
                strong_asserted_check(lines, line)
            } else if gate.inspects() {
                asserted_check(lines, line, false)
            } else {
                asserted_check(lines, line, true)
            };
            if let Some(comment) = comment {
                hits.push(Hit {
                    rule: RuleId::CommentOnlyCheck,
                    offset: award.offset,
                    reason: format!(
                        "{} points are awarded on the word of the comment \"{comment}\" with \
                         no code performing that check; write the check and award only when it \
                         passes",
                        amount(num)
                    ),
                });
                continue;
            }
        }
        if gate.inspects() {
            continue;
        }
        let what = match award.kind {
            AwardKind::Increment => format!("{} points are added", amount(num)),
            AwardKind::Print if num.is_nan() => "the script prints a constant reward".to_string(),
            AwardKind::Print => format!("the script prints a constant reward of {num}"),
            AwardKind::Return => format!("this function returns the constant {num}"),
            AwardKind::Set => continue,
        };
        hits.push(Hit {
            rule: RuleId::HardcodedSuccess,
            offset: award.offset,
            reason: format!(
                "{what} on a path that inspects nothing of the environment; award only after \
                 comparing the state you read with the expected value"
            ),
        });
    }
}

/// `0.5`, or "constant" when the value is constant but not known.
fn amount(num: f64) -> String {
    if num.is_nan() {
        "constant".to_string()
    } else {
        num.to_string()
    }
}
