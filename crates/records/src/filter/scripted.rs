//! The embedded `scripted` critic: explicit heuristic checks, no model. Its votes say
//! `"heuristic": true` and list which checks fired.
//!
//! Checks: the instruction leaks the method (names a function, an endpoint, "use the API"); the
//! instruction is too vague; the reward has fewer than two components; a reward component checks
//! something the instruction never mentions; the setup leaves the goal already satisfied (the
//! stored initial reward is above 0, or every literal the golden patch writes is already in the
//! setup).

use std::collections::BTreeSet;

use regex::Regex;

use super::aggregate::Ballot;
use super::critic::{Critic, CriticInput, Review};
use super::vote::{CriticVote, Issue, IssueSeverity, PoolFit, Severity, Verdict};

/// The heuristic critic (uses the measured components and initial reward of the input too).
pub struct ScriptedCritic;

const STOP: &[&str] = &[
    "the", "and", "with", "that", "this", "from", "into", "then", "should", "must", "have",
    "there", "their", "your", "will", "each", "only", "make", "sure", "also", "when", "which",
];

fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '.')
        .map(|w| w.trim_matches('.').to_lowercase())
        .filter(|w| {
            (w.len() >= 4 || w.chars().any(|c| c.is_ascii_digit())) && !STOP.contains(&w.as_str())
        })
        .collect()
}

fn issue(kind: &str, severity: IssueSeverity, evidence: String) -> Issue {
    Issue {
        kind: kind.into(),
        severity,
        evidence,
    }
}

/// Sentences of the instruction that leak the method.
fn leaking_sentences(instruction: &str) -> Vec<String> {
    let leak = Regex::new(
        r"(?i)\b[a-z_][a-z0-9_]*\(\)|\buse the (state )?api\b|\b(post|get) /|/post\?|/go\?|\bcurl\b|\bpython\b|\bjson\b|\bendpoint\b|\bsid\b|\bscript\b",
    );
    let Ok(leak) = leak else { return Vec::new() };
    split_sentences(instruction)
        .into_iter()
        .filter(|s| leak.is_match(s))
        .collect()
}

fn split_sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        cur.push(*c);
        let end =
            matches!(c, '.' | '!' | '?') && chars.get(i + 1).is_none_or(|n| n.is_whitespace());
        if end {
            out.push(cur.trim().to_string());
            cur.clear();
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn string_literals(source: &str) -> Vec<String> {
    let Ok(re) = Regex::new(r#"'([^'\n]{3,})'|"([^"\n]{3,})""#) else {
        return Vec::new();
    };
    re.captures_iter(source)
        .filter_map(|c| {
            c.get(1)
                .or_else(|| c.get(2))
                .map(|m| m.as_str().to_string())
        })
        .collect()
}

impl ScriptedCritic {
    /// Runs every check and builds the vote.
    pub fn judge(&self, input: &CriticInput) -> CriticVote {
        let mut query = Vec::new();
        let mut risks = Vec::new();
        let mut fired: Vec<&str> = Vec::new();

        let leaks = leaking_sentences(&input.instruction);
        for s in &leaks {
            query.push(issue("method_leak", IssueSeverity::High, format!("{s:?}")));
        }
        if !leaks.is_empty() {
            fired.push("method leak");
        }
        let n_words = input.instruction.split_whitespace().count();
        let concrete = input
            .instruction
            .chars()
            .any(|c| c.is_ascii_digit() || matches!(c, '\'' | '"' | '#'))
            || input
                .instruction
                .split_whitespace()
                .skip(1)
                .any(|w| w.starts_with(char::is_uppercase));
        let vague = n_words < 6 || !concrete;
        if vague {
            fired.push("vague instruction");
            query.push(issue(
                "too_vague",
                IssueSeverity::Medium,
                format!("{n_words} words, no concrete value or named item"),
            ));
        }
        let mut p0 = false;
        let mut few_components = false;
        if let Some(comps) = &input.golden_components {
            if comps.len() < 2 {
                few_components = true;
                fired.push("fewer than two reward components");
                risks.push(issue(
                    "single_component_reward",
                    IssueSeverity::High,
                    format!(
                        "the golden reward run reported {} component(s)",
                        comps.len()
                    ),
                ));
            }
            let asked = words(&input.instruction);
            for c in comps {
                let w = words(c);
                if !w.is_empty() && w.is_disjoint(&asked) {
                    fired.push("reward checks something not asked");
                    risks.push(issue(
                        "unasked_check",
                        IssueSeverity::Medium,
                        format!("component {c:?} shares no word with the instruction"),
                    ));
                }
            }
        }
        if input.initial_reward.is_some_and(|r| r > 0.0) {
            p0 = true;
            fired.push("goal already satisfied");
            risks.push(issue(
                "goal_already_satisfied",
                IssueSeverity::High,
                format!("reward on V_init is {:?}", input.initial_reward),
            ));
        } else {
            let golden = string_literals(&input.golden);
            let written: Vec<&String> = golden.iter().filter(|l| l.contains(' ')).collect();
            if !written.is_empty() && written.iter().all(|l| input.setup.contains(l.as_str())) {
                p0 = true;
                fired.push("goal already satisfied");
                risks.push(issue(
                    "goal_already_satisfied",
                    IssueSeverity::High,
                    "every value the golden patch writes is already in initial_setup.py".into(),
                ));
            }
        }
        let only_leak = !leaks.is_empty() && !vague && !p0 && !few_components;
        let revised: Vec<String> = split_sentences(&input.instruction)
            .into_iter()
            .filter(|s| !leaks.contains(s))
            .collect();
        let (verdict, severity, fit) = if p0 {
            (Verdict::Reject, Severity::P0, PoolFit::Poor)
        } else if vague || few_components {
            (Verdict::Reject, Severity::P1, PoolFit::Poor)
        } else if only_leak && !revised.is_empty() {
            (Verdict::ModifyQuery, Severity::P1, PoolFit::Borderline)
        } else if !leaks.is_empty() {
            (Verdict::Reject, Severity::P1, PoolFit::Poor)
        } else if !risks.is_empty() {
            (Verdict::Keep, Severity::P2, PoolFit::Borderline)
        } else {
            (Verdict::Keep, Severity::P3, PoolFit::Good)
        };
        fired.dedup();
        CriticVote {
            verdict,
            severity,
            can_fix_with_query_only: verdict == Verdict::ModifyQuery,
            query_issues: query,
            setup_reward_risks: risks,
            training_pool_fit: fit,
            confidence: 0.6,
            reasoning_summary: if fired.is_empty() {
                "heuristic checks: none fired".into()
            } else {
                format!("heuristic checks fired: {}", fired.join("; "))
            },
            revised_query: if verdict == Verdict::ModifyQuery {
                revised.join(" ")
            } else {
                String::new()
            },
        }
    }
}

impl Critic for ScriptedCritic {
    fn name(&self) -> String {
        "scripted".into()
    }
    fn is_heuristic(&self) -> bool {
        true
    }
    fn review(&self, input: &CriticInput) -> Review {
        Review {
            ballot: Ballot::Valid(self.judge(input)),
            raw: String::new(),
            attempts: 0,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0.0,
        }
    }
}
