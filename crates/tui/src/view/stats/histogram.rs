//! A vertical histogram (ratatui `BarChart`) of labelled counts, with an empty-state message.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Bar, BarChart, BarGroup, Paragraph, Widget};

use tuplewright_engine::stats::Share;

/// Draws `shares` as vertical bars filling `area` (bars at most 9 cells wide), or `empty` when
/// every count is zero.
pub fn draw(
    buf: &mut Buffer,
    area: Rect,
    shares: &[Share],
    bar_style: Style,
    empty: (&str, Style),
) {
    if shares.iter().all(|s| s.count == 0) {
        Paragraph::new(empty.0).style(empty.1).render(area, buf);
        return;
    }
    let n = shares.len().max(1) as u16;
    let width = (area.width.saturating_sub(n) / n).clamp(1, 9);
    let bars: Vec<Bar<'_>> = shares
        .iter()
        .map(|s| {
            Bar::default()
                .value(s.count as u64)
                .label(s.name.clone())
                .text_value(format!("{}", s.count))
        })
        .collect();
    BarChart::default()
        .data(BarGroup::default().bars(&bars))
        .bar_width(width)
        .bar_gap(1)
        .bar_style(bar_style)
        .render(area, buf);
}
