//! The export panel under the Tuples list: the preview's summary, the tuples left out with the
//! reason, then the bundles to write (new, replaced, unchanged).

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::model::export::ExportPanel;
use crate::theme::{Role, Theme};

/// Draws the panel into `area`.
pub fn draw(f: &mut Frame<'_>, area: Rect, p: &ExportPanel, theme: &Theme) {
    let title = match (&p.result, p.busy) {
        (_, true) => " Export preview (computing…) ".to_string(),
        (Some(r), false) => format!(" Export · {r} "),
        (None, false) => " Export preview (nothing written yet) ".to_string(),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Line::styled(title, theme.style(Role::Title)))
        .title_bottom(Line::styled(
            " enter export · ↑↓ scroll · esc close ",
            theme.style(Role::Muted),
        ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let lines: Vec<Line> = p
        .lines()
        .into_iter()
        .enumerate()
        .skip(p.scroll)
        .take(inner.height as usize)
        .map(|(i, l)| {
            let role = match l.chars().next() {
                _ if i == 0 => Role::Title,
                Some('✘') => Role::Reject,
                Some('+') => Role::Keep,
                Some('~') => Role::Modified,
                _ => Role::Muted,
            };
            Line::styled(l, theme.style(role))
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
