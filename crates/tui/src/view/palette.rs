//! The command palette overlay: the typed text and the matching actions.

use ratatui::layout::{Constraint, Layout};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, List, ListItem, ListState, Paragraph};
use ratatui::Frame;

use super::centered;
use crate::model::palette::PaletteState;
use crate::model::Model;
use crate::theme::{Role, Theme};

/// Draws the palette.
pub fn draw(f: &mut Frame<'_>, model: &Model, theme: &Theme, p: &PaletteState) {
    let area = centered(f.area(), 72, 16);
    f.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(" Command ", theme.style(Role::Title)));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let [input, list] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(inner);
    f.render_widget(Paragraph::new(format!(": {}▏", p.input)), input);
    let items: Vec<ListItem> = p
        .matches()
        .into_iter()
        .map(|s| {
            let keys = model.keymap.keys_of(s.action).join(", ");
            ListItem::new(Line::from(vec![
                Span::raw(format!("{:<18} ", s.name)),
                Span::styled(format!("{:<10} ", keys), theme.style(Role::Keep)),
                Span::styled(s.description, theme.style(Role::Muted)),
            ]))
        })
        .collect();
    let mut state = ListState::default().with_selected(Some(p.selected));
    let list_w = List::new(items)
        .highlight_style(theme.style(Role::Selection))
        .highlight_symbol("▌");
    f.render_stateful_widget(list_w, list, &mut state);
}
