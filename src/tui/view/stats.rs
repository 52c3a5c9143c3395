//! The Stats screen: the engine's statistics tables (the same text as `tuplewright stats`), with
//! headings styled and coverage targets marked met or missed by glyph.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::tui::model::Model;
use crate::tui::theme::{check_glyph, Role, Theme};

/// Draws the statistics.
pub fn draw(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(" Stats ", theme.style(Role::Title)));
    let Some(stats) = &model.stats else {
        f.render_widget(
            Paragraph::new("computing statistics…")
                .style(theme.style(Role::Muted))
                .block(block),
            area,
        );
        return;
    };
    let mut lines = vec![Line::styled(
        "Coverage targets (A.2.5)",
        theme.style(Role::Title),
    )];
    for t in &stats.coverage_targets {
        let (g, role) = check_glyph(Some(t.met));
        lines.push(Line::from(vec![
            Span::styled(format!("  {g} "), theme.style(role)),
            Span::raw(format!(
                "{}: {:.1}% {} {:.1}%",
                t.name, t.value_percent, t.op, t.threshold_percent
            )),
        ]));
    }
    lines.push(Line::raw(""));
    for l in model.stats_text.lines() {
        let style = if l.starts_with(' ') || l.is_empty() {
            ratatui::style::Style::default()
        } else {
            theme.style(Role::Title)
        };
        lines.push(Line::styled(l.to_string(), style));
    }
    let scroll = model.stats_scroll.min(lines.len().saturating_sub(1)) as u16;
    f.render_widget(Paragraph::new(lines).block(block).scroll((scroll, 0)), area);
}
