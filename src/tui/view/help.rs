//! The `?` overlay: every registry action with its keys (as currently bound) and description.

use ratatui::layout::Constraint;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Clear, Row, Table};
use ratatui::Frame;

use super::centered;
use crate::tui::action::REGISTRY;
use crate::tui::model::Model;
use crate::tui::theme::{Role, Theme};

/// Draws the help overlay, scrolled by `scroll` rows.
pub fn draw(f: &mut Frame<'_>, model: &Model, theme: &Theme, scroll: usize) {
    let area = centered(f.area(), 96, 40);
    f.render_widget(Clear, area);
    let rows = REGISTRY.iter().skip(scroll).map(|s| {
        let keys = model.keymap.keys_of(s.action).join(", ");
        Row::new(vec![
            Span::styled(keys, theme.style(Role::Keep)),
            Span::raw(s.name),
            Span::styled(s.description, theme.style(Role::Muted)),
        ])
    });
    let table = Table::new(
        rows,
        [
            Constraint::Length(16),
            Constraint::Length(18),
            Constraint::Fill(1),
        ],
    )
    .header(Row::new(["keys", "action", "what it does"]).style(theme.style(Role::Title)))
    .block(Block::default().borders(Borders::ALL).title(Span::styled(
        " Help — j/k scroll, esc closes ",
        theme.style(Role::Title),
    )));
    f.render_widget(table, area);
}
