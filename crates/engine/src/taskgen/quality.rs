//! The paper's task-gen rules for instructions: state the goal, never the method; reject vague,
//! mechanical, open-ended and infeasible ones.

use serde::Serialize;

/// Why an instruction was rejected by the rules (not a duplicate check).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleViolation {
    /// Too short or uses placeholder words.
    Vague,
    /// Dictates the UI method (click, press, scroll…).
    Mechanical,
    /// No checkable end state ("as you see fit", "whatever").
    OpenEnded,
    /// The slots do not describe a realisable task (empty targets, missing ground truth).
    Infeasible,
}

const VAGUE: [&str; 6] = [
    "something",
    "some stuff",
    "etc.",
    "and so on",
    "things",
    "tbd",
];
const MECHANICAL: [&str; 10] = [
    "click",
    "press ",
    "scroll",
    "navigate to",
    "type into",
    "button",
    "menu",
    "double-click",
    "keyboard shortcut",
    "ctrl+",
];
const OPEN_ENDED: [&str; 6] = [
    "as you see fit",
    "whatever",
    "feel free",
    "be creative",
    "any way you like",
    "if you want",
];

/// Checks an instruction and whether its slots are feasible (`feasible` is the recipe's own check).
pub fn check(instruction: &str, feasible: bool) -> Result<(), RuleViolation> {
    let lower = instruction.to_lowercase();
    let words = lower.split_whitespace().count();
    if words < 6 || VAGUE.iter().any(|w| contains_word(&lower, w)) {
        return Err(RuleViolation::Vague);
    }
    if MECHANICAL.iter().any(|w| lower.contains(w)) {
        return Err(RuleViolation::Mechanical);
    }
    if OPEN_ENDED.iter().any(|w| lower.contains(w)) {
        return Err(RuleViolation::OpenEnded);
    }
    if !feasible {
        return Err(RuleViolation::Infeasible);
    }
    Ok(())
}

fn contains_word(hay: &str, w: &str) -> bool {
    hay.match_indices(w).any(|(i, _)| {
        let before = hay[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let after = hay[i + w.len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric());
        before && after
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_reject_each_kind() {
        assert_eq!(check("Fix things.", true), Err(RuleViolation::Vague));
        assert_eq!(
            check(
                "Click the star button on the first message from Maya Costa.",
                true
            ),
            Err(RuleViolation::Mechanical)
        );
        assert_eq!(
            check(
                "Reorganise the channel topics in #design as you see fit today.",
                true
            ),
            Err(RuleViolation::OpenEnded)
        );
        assert_eq!(
            check(
                "Move WEB-105 to In Review and assign it to Daniel Silva.",
                false
            ),
            Err(RuleViolation::Infeasible)
        );
        assert_eq!(
            check(
                "Move WEB-105 to In Review and assign it to Daniel Silva.",
                true
            ),
            Ok(())
        );
    }
}
