//! One reward card as lines: the score, then per component a glyph and name, the weight, a
//! horizontal bar and the score, and the detail. A failed run is drawn as a failure (glyph, reason,
//! exit code), never as a zero bar. Bars are glyphs (`█`/`░`), so NO_COLOR keeps them readable.

use ratatui::text::{Line, Span};

use super::clip;
use crate::reward_data::RewardCard;
use crate::theme::{Role, Theme};

/// Glyph and role of a score: full, none, or partial credit.
pub fn score_mark(score: f64) -> (&'static str, Role) {
    if score >= 1.0 - 1e-9 {
        ("✓", Role::Keep)
    } else if score <= 1e-9 {
        ("✗", Role::Reject)
    } else {
        ("~", Role::Modified)
    }
}

/// A bar of `width` cells filled in proportion to `score` (clamped to [0, 1]).
pub fn bar(score: f64, width: usize) -> String {
    let filled = ((score.clamp(0.0, 1.0) * width as f64).round() as usize).min(width);
    format!("{}{}", "█".repeat(filled), "░".repeat(width - filled))
}

/// The card's title: label, score or FAILED, determinism marker.
pub fn title(card: &RewardCard, focused: bool) -> String {
    let score = match (card.reward, &card.failure) {
        (Some(r), None) => format!("{r:.2}"),
        _ => "FAILED".to_string(),
    };
    let det = if card.nondeterministic {
        " · ≠ runs differ"
    } else if card.runs > 1 {
        " · runs agree"
    } else {
        ""
    };
    let mark = if focused { "▶ " } else { "" };
    format!("{mark}{} · {score}{det}", card.label)
}

/// The card's body for an inner width of `width` cells.
pub fn lines(card: &RewardCard, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let width = width.max(20);
    let muted = theme.style(Role::Muted);
    let mut out = Vec::new();
    if let Some(f) = &card.failure {
        out.push(Line::from(Span::styled(
            "✗ FAILED — no score (a failure, not a 0)",
            theme.style(Role::Alert),
        )));
        for chunk in f
            .chars()
            .collect::<Vec<_>>()
            .chunks(width.saturating_sub(2))
        {
            out.push(Line::from(Span::styled(
                format!("  {}", chunk.iter().collect::<String>()),
                theme.style(Role::Alert),
            )));
        }
        if let Some(c) = card.exit_code {
            out.push(Line::from(Span::styled(format!("  exit code {c}"), muted)));
        }
    } else if let Some(r) = card.reward {
        let (g, role) = score_mark(r);
        let bw = width.saturating_sub(12).min(30);
        out.push(Line::from(vec![
            Span::styled(format!("{g} total  "), theme.style(role)),
            Span::styled(bar(r, bw), theme.style(role)),
            Span::styled(format!(" {r:.2}"), theme.style(Role::Title)),
        ]));
    }
    if card.components.is_empty() && card.failure.is_none() {
        out.push(Line::from(Span::styled(
            "  (no components reported)",
            muted,
        )));
    }
    for c in &card.components {
        let (g, role) = score_mark(c.score);
        out.push(Line::from(vec![
            Span::styled(format!("{g} "), theme.style(role)),
            Span::raw(clip(&c.name, width.saturating_sub(2))),
        ]));
        let weight = c
            .weight
            .map_or_else(|| "w  –  ".to_string(), |w| format!("w {w:.2} "));
        let bw = width.saturating_sub(2 + weight.len() + 5).min(30);
        out.push(Line::from(vec![
            Span::styled(format!("  {weight}"), muted),
            Span::styled(bar(c.score, bw), theme.style(role)),
            Span::raw(format!(" {:.2}", c.score)),
        ]));
        if !c.detail.is_empty() {
            out.push(Line::from(Span::styled(
                format!("  {}", clip(&c.detail, width.saturating_sub(2))),
                muted,
            )));
        }
    }
    if let Some(ms) = card.duration_ms {
        let runs = if card.runs > 1 {
            format!(" · {} identical runs", card.runs)
        } else {
            String::new()
        };
        out.push(Line::from(Span::styled(
            format!(
                "{} {ms:>6} ms{runs}",
                if card.is_trial { "trial" } else { "reward.py" }
            ),
            muted,
        )));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_are_proportional_and_clamped() {
        assert_eq!(bar(0.5, 10), "█████░░░░░");
        assert_eq!(bar(1.7, 4), "████");
        assert_eq!(bar(-1.0, 3), "░░░");
        assert_eq!(score_mark(1.0).0, "✓");
        assert_eq!(score_mark(0.0).0, "✗");
        assert_eq!(score_mark(0.3).0, "~");
    }
}
