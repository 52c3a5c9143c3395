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

/// Feedback split by the script at fault: (for the Generator, for the Discriminator). A fault of
/// reward.py (a crash, a missing module, no `REWARD:` line, non-determinism, a scan finding, a
/// probe it scores above the threshold) never becomes Generator feedback.
fn feedback(obs: &RoundObservation, verdict: &RoundVerdict) -> (Vec<String>, Vec<String>) {
    let (mut setup, mut reward) = (Vec::new(), Vec::new());
    for c in &verdict.conditions {
        if c.status != ConditionStatus::Fail {
            continue;
        }
        match c.id {
            ConditionId::C1 => setup.push(format!(
                "initial_setup.py failed on V_init: {}. Make it run cleanly on a fresh environment.",
                c.details
            )),
            ConditionId::C2 => setup.push(format!(
                "golden_patch.py failed on V_gold: {}. It runs on an environment that already holds the initial state.",
                c.details
            )),
            ConditionId::C3 => match first_scored(&obs.gold_runs) {
                Some((s, comps)) if c.details.starts_with("r(") => {
                    let unmet = component_list(comps, |x| x.score < COMPONENT_PASS);
                    if unmet.is_empty() {
                        reward.push(format!(
                            "reward.py scores V_gold {s:.2} without naming an unmet component (no FAIL line to act on). Print one PASS/FAIL line per component so a shortfall can be attributed."
                        ));
                    } else {
                        setup.push(format!(
                            "The golden state scores {s:.2}, not 1.0. Unmet on V_gold: {unmet}. Change golden_patch.py so the final state meets them exactly as the instruction and context state."
                        ));
                    }
                }
                _ => reward.push(format!(
                    "reward.py is unusable on V_gold: {}. Fix reward.py (this is not a fault of the setup scripts).",
                    c.details
                )),
            },
            ConditionId::C4 => match first_scored(&obs.init_runs) {
                Some((s, comps)) if c.details.starts_with("r(") => setup.push(format!(
                    "The initial state already scores {s:.2}. Credited on V_init: {}. initial_setup.py must not pre-complete any part of the task.",
                    component_list(comps, |x| x.score > 0.0)
                )),
                _ => reward.push(format!(
                    "reward.py is unusable on V_init: {}. Fix reward.py (this is not a fault of the setup scripts).",
                    c.details
                )),
            },
            ConditionId::C5 => {
                let list: Vec<String> = obs
                    .scan
                    .iter()
                    .map(|f| format!("line {}: `{}` — {}", f.line, f.rule, f.reason))
                    .collect();
                reward.push(format!(
                    "reward.py was rejected by the forbidden-pattern scan: {}",
                    list.join("; ")
                ));
            }
        }
    }
    for p in verdict.probes.iter().filter(|p| !p.pass) {
        reward.push(format!(
            "Probe `{}` failed ({}). A state where the task was not done must earn no credit: score what the task adds or changes, never the mere absence of items.",
            p.condition(),
            p.details
        ));
    }
    (setup, reward)
}

fn numbered(out: &mut String, title: &str, items: &[String], none: &str) {
    let _ = writeln!(out, "## {title}\n");
    if items.is_empty() {
        let _ = writeln!(out, "{none}\n");
        return;
    }
    for (i, item) in items.iter().enumerate() {
        let _ = writeln!(out, "{}. {item}", i + 1);
    }
    out.push('\n');
}

fn probes(out: &mut String, obs: &RoundObservation, verdict: &RoundVerdict) {
    let _ = writeln!(out, "## Probes\n");
    if verdict.probes.is_empty() {
        let _ = writeln!(
            out,
            "Not run: the probes run once C1–C5 hold (threshold {:.2}).\n",
            obs.probe_threshold
        );
        return;
    }
    let _ = writeln!(out, "| Probe | Status | Score | Details |");
    let _ = writeln!(out, "|---|---|---|---|");
    for p in &verdict.probes {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            p.condition(),
            if p.pass { "PASS" } else { "FAIL" },
            p.score.map_or("error".to_string(), |s| format!("{s:.2}")),
            cell(&p.details)
        );
    }
    out.push('\n');
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
    probes(&mut out, obs, verdict);
    let (setup, reward) = feedback(obs, verdict);
    let none = if verdict.pass {
        "None: all five conditions and the probes hold."
    } else {
        "None: no fault of initial_setup.py or golden_patch.py was found."
    };
    numbered(&mut out, "Feedback for Setup-Gen", &setup, none);
    let none = if verdict.pass {
        "None."
    } else {
        "None: no fault of reward.py was found."
    };
    numbered(&mut out, "Feedback for Reward-Gen", &reward, none);
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
