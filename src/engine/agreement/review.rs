//! REVIEW.md in the public section layout (see shared REFERENCE.md): verdict, the C1–C5 table, the two
//! scoring breakdowns, feedback for the Generator, and a summary of the reward script.

use std::fmt::Write as _;

use super::conditions::{
    first_scored, scores, ComponentScore, ConditionId, ConditionStatus, RewardRun,
    RoundObservation, RoundVerdict,
};

/// Component scores at or above this count as PASS in the breakdown tables.
const COMPONENT_PASS: f64 = 1.0 - 1e-6;

fn status_word(s: ConditionStatus) -> &'static str {
    match s {
        ConditionStatus::Pass => "PASS",
        ConditionStatus::Fail => "FAIL",
        ConditionStatus::NotRun => "NOT RUN",
    }
}

/// Escapes a table cell: pipes and newlines would break the Markdown table.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn breakdown(out: &mut String, title: &str, runs: &[RewardRun]) {
    let _ = writeln!(out, "## Scoring Breakdown — {title}\n");
    let Some((score, components)) = first_scored(runs) else {
        let err = runs.iter().find_map(|r| match r {
            RewardRun::Error(e) => Some(e.as_str()),
            RewardRun::Scored { .. } => None,
        });
        let _ = writeln!(
            out,
            "No score: {}\n",
            cell(err.unwrap_or("the reward was not run"))
        );
        return;
    };
    let _ = writeln!(out, "| Component | Points | PASS/FAIL | Details |");
    let _ = writeln!(out, "|---|---|---|---|");
    for c in components {
        let verdict = if c.score >= COMPONENT_PASS {
            "PASS"
        } else {
            "FAIL"
        };
        let _ = writeln!(
            out,
            "| {} | {:.2}/{:.2} | {} | {} |",
            cell(&c.name),
            c.weight * c.score,
            c.weight,
            verdict,
            cell(&c.detail)
        );
    }
    let _ = writeln!(out, "| **Total** | **{score:.2}/1.00** | | |\n");
}

fn component_list(components: &[ComponentScore], keep: impl Fn(&ComponentScore) -> bool) -> String {
    components
        .iter()
        .filter(|c| keep(c))
        .map(|c| format!("`{}` (score {:.2}: {})", c.name, c.score, c.detail))
        .collect::<Vec<_>>()
        .join("; ")
}

fn feedback(obs: &RoundObservation, verdict: &RoundVerdict) -> Vec<String> {
    let mut items = Vec::new();
    for c in &verdict.conditions {
        if c.status == ConditionStatus::Pass {
            continue;
        }
        let item = match (c.id, c.status) {
            (_, ConditionStatus::NotRun) => continue,
            (ConditionId::C1, _) => format!(
                "initial_setup.py did not run to completion: {}. Make it run cleanly on a fresh environment.",
                c.details
            ),
            (ConditionId::C2, _) => format!(
                "golden_patch.py did not run to completion: {}. It runs on an environment that already holds the initial state.",
                c.details
            ),
            (ConditionId::C3, _) => match first_scored(&obs.gold_runs) {
                Some((s, comps)) if c.details.starts_with("r(") => format!(
                    "The golden state scores {s:.2}, not 1.0. Unmet on V_gold: {}. Change golden_patch.py so the final state meets them exactly as the instruction and context state.",
                    component_list(comps, |x| x.score < COMPONENT_PASS)
                ),
                _ => format!("Reward on V_gold is unusable ({}); the Discriminator must fix reward.py.", c.details),
            },
            (ConditionId::C4, _) => match first_scored(&obs.init_runs) {
                Some((s, comps)) if c.details.starts_with("r(") => format!(
                    "The initial state already scores {s:.2}. Credited on V_init: {}. initial_setup.py must not pre-complete any part of the task.",
                    component_list(comps, |x| x.score > 0.0)
                ),
                _ => format!("Reward on V_init is unusable ({}); the Discriminator must fix reward.py.", c.details),
            },
            (ConditionId::C5, _) => {
                let list: Vec<String> = obs
                    .scan
                    .iter()
                    .map(|f| format!("line {}: `{}` — {}", f.line, f.rule, f.reason))
                    .collect();
                format!("reward.py was rejected by the forbidden-pattern scan (Discriminator to fix): {}", list.join("; "))
            }
        };
        items.push(item);
    }
    items
}

/// Renders the round's REVIEW.md. `reward_sha256` identifies the reward script that was judged.
pub fn render_review(
    obs: &RoundObservation,
    verdict: &RoundVerdict,
    reward_sha256: &str,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Round {} Review\n", obs.round);
    let word = if verdict.pass { "PASS" } else { "FAIL" };
    let _ = writeln!(out, "## Verdict: {word}\n");
    let _ = writeln!(out, "## Agreement Conditions\n");
    let _ = writeln!(out, "| # | Condition | Status | Details |");
    let _ = writeln!(out, "|---|---|---|---|");
    for c in &verdict.conditions {
        let _ = writeln!(
            out,
            "| {:?} | {} | {} | {} |",
            c.id,
            c.id.title(),
            status_word(c.status),
            cell(&c.details)
        );
    }
    out.push('\n');
    breakdown(&mut out, "Golden File", &obs.gold_runs);
    breakdown(&mut out, "Initial File", &obs.init_runs);
    let _ = writeln!(out, "## Feedback for Setup-Gen\n");
    let items = feedback(obs, verdict);
    if items.is_empty() {
        let _ = writeln!(out, "None: all five conditions hold.\n");
    }
    for (i, item) in items.iter().enumerate() {
        let _ = writeln!(out, "{}. {item}", i + 1);
    }
    if !items.is_empty() {
        out.push('\n');
    }
    let _ = writeln!(out, "## Reward Script Summary\n");
    let _ = writeln!(out, "- reward.py sha256: `{reward_sha256}`");
    if let Some((_, comps)) = first_scored(&obs.gold_runs).or_else(|| first_scored(&obs.init_runs))
    {
        for c in comps {
            let _ = writeln!(out, "- component `{}`, weight {:.2}", c.name, c.weight);
        }
    }
    let fmt = |v: Vec<Option<f64>>| {
        v.iter()
            .map(|s| s.map_or("error".to_string(), |x| format!("{x:.4}")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(out, "- runs on V_gold: {}", fmt(scores(&obs.gold_runs)));
    let _ = writeln!(out, "- runs on V_init: {}", fmt(scores(&obs.init_runs)));
    out
}
