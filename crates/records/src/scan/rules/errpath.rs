//! `error-path-success`: success awarded because something failed.
//!
//! An award on an error path (see `errpath.rs`: a failure handler, a `finally`, an error
//! branch) of a positive constant — `except: reward = 1.0`, `except: print("REWARD: 1.0")`,
//! `except Exception: return 1.0`, `if data is None: return 1.0` — turns a crash, a missing
//! file or a dead state API into a high score. So does a constant success stored there that
//! reaches an award later (`except: ok = True` … `if ok: score += 1.0`); that is reported at the
//! store. `except …: reward = 0.0`, a partial score computed before the failure and printed in
//! the handler, and `except FileNotFoundError:` used as an absence test stay clean.

use super::super::facts::{Award, AwardKind, Facts};
use super::super::py::Lines;
use super::super::report::RuleId;
use super::Hit;

/// True when the award itself is a positive constant success on an error path (then
/// `hardcoded-success` leaves it to this rule).
pub(super) fn direct(award: &Award) -> bool {
    if award.error_path.is_none() || award.value.inspects() {
        return false;
    }
    let positive = award.num.is_some_and(|n| n > 0.0);
    match award.kind {
        AwardKind::Increment => award.num.is_none_or(|n| n > 0.0),
        AwardKind::Set | AwardKind::Print => positive,
        AwardKind::Return => positive && !award.bool_return && award.success_return,
    }
}

pub(super) fn check(facts: &Facts, lines: &Lines, hits: &mut Vec<Hit>) {
    for award in &facts.awards {
        // The root cause first: a success stored on an error path (`except: ok = True`) that
        // this award depends on — also when the award sits in the branch testing it.
        if let (true, Some(at)) = (
            award.positive(),
            award.value.err_success.or(award.cond.err_success),
        ) {
            let (line, _) = lines.position(award.offset);
            hits.push(Hit {
                rule: RuleId::ErrorPathSuccess,
                offset: at,
                reason: format!(
                    "this success value is set on an error path and reaches the score at line \
                     {line}, so a failure scores as success; set a failure value (0.0, False) \
                     here and compute success only from the state you read"
                ),
            });
            continue;
        }
        let (true, Some(path)) = (direct(award), award.error_path) else {
            continue;
        };
        let (line, _) = lines.position(path.at);
        let what = match award.kind {
            AwardKind::Increment => "adds",
            AwardKind::Set => "sets the score to",
            AwardKind::Print => "prints the reward",
            AwardKind::Return => "returns",
        };
        let amount = award
            .num
            .map_or("a constant".to_string(), |n| format!("{n:?}"));
        hits.push(Hit {
            rule: RuleId::ErrorPathSuccess,
            offset: award.offset,
            reason: format!(
                "the {} at line {line} {what} {amount}, so a failure (crash, missing file, \
                 unreachable state API) scores as success; award 0.0 there, or exit non-zero \
                 when the failure is the infrastructure's",
                path.describe()
            ),
        });
    }
}
