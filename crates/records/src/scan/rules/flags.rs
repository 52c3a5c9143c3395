//! Rules 1 and 2: `bool-flag-constant` and `placeholder-flag`.
//!
//! A flag's markers survive the data-flow pass only while it was never made control- or
//! data-dependent on a real inspection. When such a marker reaches a condition that gates an
//! award, or the awarded value itself, the flag asserted a check instead of performing it.
//! A constant `True` is `bool-flag-constant`, unless a comment marks it as a placeholder
//! (`# assume the chart exists`, `# TODO`), which is `placeholder-flag` — as are flags left at
//! `False`/`None` or at a constant expression (`1 == 1`, `not False`).

use super::super::facts::Facts;
use super::super::py::Lines;
use super::super::report::RuleId;
use super::comments::placeholder_comment;
use super::Hit;

pub(super) fn check(facts: &Facts, lines: &Lines, hits: &mut Vec<Hit>) {
    for award in &facts.awards {
        if !award.positive() {
            continue;
        }
        let markers = award.flag_markers();
        if let Some(at) = markers.bool_true.or(markers.truthy) {
            let (line, _) = lines.position(at);
            if let Some(comment) = placeholder_comment(lines, line) {
                hits.push(Hit {
                    rule: RuleId::PlaceholderFlag,
                    offset: at,
                    reason: format!(
                        "this flag is a placeholder (\"{comment}\") set to a constant and never \
                         evaluated before it conditions score; replace it with the actual check"
                    ),
                });
                continue;
            }
            let reason = if markers.bool_true.is_some() {
                "this constant True is used as a verification result that gates or adds score \
                 without any check of the environment; compute the flag from the state you read \
                 (file content, /go state_diff)"
            } else {
                "a truthy constant is used as the condition for awarding score; replace it with \
                 a comparison against the state you read"
            };
            hits.push(Hit {
                rule: RuleId::BoolFlagConstant,
                offset: at,
                reason: reason.to_string(),
            });
        } else if let Some(at) = markers.placeholder {
            hits.push(Hit {
                rule: RuleId::PlaceholderFlag,
                offset: at,
                reason: "this flag is set to a constant and never evaluated before it conditions \
                         score; replace the placeholder with the actual check"
                    .to_string(),
            });
        }
    }
}
