//! The text of a finished trial in the Rollouts detail pane: kind, reward and judge, the A.4.2
//! outcome of its batch with the means it was decided on, the judge's verdict and reasoning, the
//! trial's tokens and cost, its actions (model turns summarised), final state and transcript.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::rollouts_data::{Outcome, TrialRow};
use crate::theme::{Role, Theme};
use tuplewright_engine::rollout::{classify, Inclusion, RolloutConfig};

/// The colour role of a batch outcome.
pub fn outcome_role(o: &Outcome) -> Role {
    match o {
        Outcome::ProbeOk | Outcome::Inclusion(Inclusion::Accepted) => Role::Keep,
        Outcome::Failed => Role::Alert,
        Outcome::ProbeDefect(_) | Outcome::Inclusion(Inclusion::Unsolvable) => Role::Reject,
        _ => Role::Undecided,
    }
}

/// The batch line: how many trials, and for a teacher the means and δ the A.4.2 rule used.
fn batch_line(r: &TrialRow, batch: &[&TrialRow]) -> String {
    let n = batch.len();
    if r.probe_expected.is_some() || r.outcome == Outcome::Failed {
        return format!("batch of {n} trial(s)");
    }
    let scored: Vec<(f64, Option<f64>)> = batch
        .iter()
        .filter_map(|t| {
            t.reward
                .map(|v| (v, t.judge.as_deref().and_then(|j| j.parse().ok())))
        })
        .collect();
    let delta = RolloutConfig::default().delta;
    let c = classify(&scored, delta);
    let judge = if c.judged {
        format!(
            "judge mean {:.2} · gap {:.2} vs δ {delta}",
            c.judge_mean,
            (c.reward_mean - c.judge_mean).abs()
        )
    } else {
        "no judge: reward alone".to_string()
    };
    format!(
        "batch of {n} trial(s): reward mean {:.2} · {judge}",
        c.reward_mean
    )
}

/// Tokens and cost of the trial: its model turns (the rows recorded under the `rollout` stage),
/// else the policy's usage, plus the judge's cost.
fn usage_line(d: &Value) -> Option<String> {
    let turns = d.get("actions").and_then(Value::as_array);
    let sum = |k: &str| -> Option<f64> {
        let v: Vec<f64> = turns
            .into_iter()
            .flatten()
            .filter_map(|t| t.get(k).and_then(Value::as_f64))
            .collect();
        (!v.is_empty()).then(|| v.iter().sum())
    };
    let usage = d.get("policy_usage");
    let pick = |k: &str| sum(k).or_else(|| usage.and_then(|u| u.get(k)).and_then(Value::as_f64));
    let (input, output) = (pick("input_tokens")?, pick("output_tokens")?);
    if input == 0.0 && output == 0.0 {
        return None;
    }
    let cost = pick("cost_usd").unwrap_or(0.0);
    let mut line = format!("tokens in {input:.0} · out {output:.0} · policy ${cost:.4}");
    if let Some(j) = d.pointer("/judge/cost_usd").and_then(Value::as_f64) {
        line.push_str(&format!(" · judge ${j:.4} · total ${:.4}", cost + j));
    }
    Some(line)
}

/// One action of the detail: a model turn in a few words, anything else as its JSON.
fn action_line(a: &Value) -> String {
    let Some(turn) = a.get("turn").and_then(Value::as_u64) else {
        return format!("  {a}");
    };
    let n = a
        .get("actions")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let mut s = format!("  turn {turn}: {n} action(s)");
    if let (Some(i), Some(o)) = (
        a.get("input_tokens").and_then(Value::as_i64),
        a.get("output_tokens").and_then(Value::as_i64),
    ) {
        s.push_str(&format!(" · {i}/{o} tokens"));
    }
    for k in ["parse_error", "error"] {
        if let Some(e) = a.get(k).and_then(Value::as_str) {
            s.push_str(&format!(" · ✗ {e}"));
        }
    }
    s
}

/// The lines of trial `r` (of `batch`), with its stored `detail` once loaded.
pub fn summary(
    r: &TrialRow,
    batch: &[&TrialRow],
    detail: Option<&Value>,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let muted = theme.style(Role::Muted);
    let head = theme.style(Role::Title);
    let mut out = Vec::new();
    let kind = match r.probe_expected {
        Some(e) => format!("probe (every trial must score {e})"),
        None => "teacher (A.4.2 inclusion rule)".to_string(),
    };
    out.push(Line::from(vec![
        Span::styled("kind ", muted),
        Span::raw(kind),
    ]));
    let reward = match (&r.failure, r.reward) {
        (None, Some(v)) => format!("{v:.2}"),
        _ => "none — the trial failed (not a 0)".to_string(),
    };
    out.push(Line::from(vec![
        Span::styled("reward ", muted),
        Span::raw(reward),
        Span::styled(" · judge ", muted),
        Span::raw(r.judge.clone().unwrap_or_else(|| "not configured".into())),
    ]));
    out.push(Line::from(vec![
        Span::styled("outcome ", muted),
        Span::styled(r.outcome.label(), theme.style(outcome_role(&r.outcome))),
        Span::styled(format!(" · {}", batch_line(r, batch)), muted),
    ]));
    if let Some(fl) = &r.failure {
        out.push(Line::styled(format!("✗ {fl}"), theme.style(Role::Alert)));
    }
    let Some(d) = detail else { return out };
    if let Some(u) = usage_line(d) {
        out.push(Line::from(vec![
            Span::styled("usage ", muted),
            Span::raw(u),
        ]));
    }
    if let Some(j) = d.get("judge").filter(|j| j.is_object()) {
        let score = j.get("score").and_then(Value::as_f64);
        let model = j.get("model").and_then(Value::as_str).unwrap_or("?");
        out.push(Line::styled(
            format!(
                "judge verdict {} by {model}",
                score.map_or_else(|| "–".to_string(), |s| format!("{s:.2}"))
            ),
            head,
        ));
    }
    if let Some(reason) = d.pointer("/judge/reasoning").and_then(Value::as_str) {
        out.push(Line::styled("judge reasoning", head));
        out.extend(reason.lines().map(|l| Line::raw(format!("  {l}"))));
    }
    let actions = d.get("actions").and_then(Value::as_array);
    out.push(Line::styled(
        format!("actions ({})", actions.map_or(0, Vec::len)),
        head,
    ));
    out.extend(
        actions
            .into_iter()
            .flatten()
            .map(|a| Line::raw(action_line(a))),
    );
    if let Some(diff) = d.get("final_state_diff").and_then(Value::as_object) {
        let parts: Vec<String> = diff
            .iter()
            .map(|(app, v)| {
                format!(
                    "{app}: {} key(s) changed",
                    v.as_object().map_or(0, |o| o.len())
                )
            })
            .collect();
        if !parts.is_empty() {
            out.push(Line::from(vec![
                Span::styled("final state ", muted),
                Span::raw(parts.join(", ")),
            ]));
        }
    }
    let transcript = d.get("transcript").and_then(Value::as_str).unwrap_or("");
    out.push(Line::styled("transcript", head));
    if transcript.is_empty() {
        out.push(Line::styled("  (empty)", muted));
    }
    out.extend(transcript.lines().map(|l| Line::raw(format!("  {l}"))));
    out
}
