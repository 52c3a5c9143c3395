//! The running trial, watched live in the Rollouts detail pane (`W`): its latest screenshot with
//! the latest action drawn on it, the model's last reply, and its recent actions with errors —
//! followed from the `rollout.step` events, whichever process runs the trial.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::filmstrip::{draw_frame, secs, split};
use super::titled;
use crate::filmstrip_data::action_text;
use crate::model::live_trial::LiveTrial;
use crate::model::rollouts::RolloutsState;
use crate::theme::{Role, Theme};

/// Recent actions listed under the picture.
const RECENT: usize = 8;

/// Draws the live trial (the caller checked that there is one).
pub fn draw(f: &mut Frame<'_>, area: Rect, st: &RolloutsState, live: &LiveTrial, theme: &Theme) {
    let of = live.of.map(|n| format!("/{n}")).unwrap_or_default();
    let state = match live.recorded {
        None => "● live".to_string(),
        Some((_, Some(r))) => format!("✔ recorded, reward {r:.2}"),
        Some((_, None)) => "✗ recorded: failed, no score".to_string(),
    };
    let title = format!(
        "{state} · {} #{}{of} · {}",
        live.policy, live.trial, live.task_id
    );
    let block = titled(&title, theme);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let muted = theme.style(Role::Muted);
    let (cap, pic, rest) = split(inner);
    let caption = match live.last() {
        Some((_, s)) => Line::from(vec![
            Span::styled(
                format!("▶ step {} ", s.seq + 1),
                theme.style(Role::Modified),
            ),
            Span::styled(
                format!("at {} · {} ms · ", secs(s.at_ms), s.duration_ms),
                muted,
            ),
            Span::raw(action_text(&s.action)),
        ]),
        // A trial recorded before any screen step (the oracle acts through the state API).
        None if live.recorded.is_some() => {
            Line::styled("■ finished with no step on the screen", muted)
        }
        None => Line::styled("▶ started: waiting for the first step…", muted),
    };
    f.render_widget(caption, cap);
    draw_frame(f, pic, st, st.current_frame(), theme);
    let mut lines = Vec::new();
    if let Some(e) = live.last().and_then(|(_, s)| s.error.as_deref()) {
        lines.push(Line::styled(
            format!("✗ error: {e}"),
            theme.style(Role::Alert),
        ));
    }
    lines.push(Line::styled(
        format!("last event {}", live.last_time),
        muted,
    ));
    if let Some(reply) = live.last_reply() {
        lines.push(Line::styled("model's last reply", theme.style(Role::Title)));
        lines.extend(reply.lines().map(|l| Line::raw(format!("  {l}"))));
    }
    let total = live.steps.len() + live.dropped;
    lines.push(Line::styled(
        format!("actions ({total}, newest last)"),
        theme.style(Role::Title),
    ));
    let from = live.steps.len().saturating_sub(RECENT);
    for (_, s) in &live.steps[from..] {
        let mut spans = vec![Span::raw(format!(
            "  {:>3} {}",
            s.seq + 1,
            action_text(&s.action)
        ))];
        if let Some(e) = &s.error {
            spans.push(Span::styled(format!("  ✗ {e}"), theme.style(Role::Alert)));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::styled("W back to the selected trial", muted));
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((st.detail_scroll.min(u16::MAX as usize) as u16, 0)),
        rest,
    );
}
