//! The `?` overlay: the current screen's keys first, then the keys that work everywhere, then
//! the other screens' — each action with its keys (as currently bound) and description; `/`
//! searches. The column header and the search line stay; only the rows scroll.

use ratatui::layout::{Constraint, Layout};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Row, Table};
use ratatui::Frame;

use super::centered;
use crate::model::help::{rows, HelpRow, HelpState};
use crate::model::Model;
use crate::theme::{Role, Theme};

/// Draws the help overlay.
pub fn draw(f: &mut Frame<'_>, model: &Model, theme: &Theme, h: &HelpState) {
    let area = centered(f.area(), 96, 40);
    f.render_widget(Clear, area);
    let all = rows(model.screen, &model.keymap, &h.query);
    let block = Block::default().borders(Borders::ALL).title(Span::styled(
        " Help — j/k scroll · / search · esc closes ",
        theme.style(Role::Title),
    ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let [search, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(inner);
    let search_line = if h.searching || !h.query.is_empty() {
        let cursor = if h.searching { "▏" } else { "" };
        Line::from(vec![
            Span::styled(
                format!("/{}{cursor}", h.query),
                theme.style(Role::Undecided),
            ),
            Span::styled(
                format!(
                    "  {} matching",
                    all.iter()
                        .filter(|r| matches!(r, HelpRow::Entry(_)))
                        .count()
                ),
                theme.style(Role::Muted),
            ),
        ])
    } else {
        Line::styled(
            format!(
                "{} first · / to search keys, names and descriptions",
                model.screen.title()
            ),
            theme.style(Role::Muted),
        )
    };
    f.render_widget(Paragraph::new(search_line), search);
    // One row is the column header.
    let visible = body.height.saturating_sub(1) as usize;
    let max = all.len().saturating_sub(visible);
    h.max.set(max);
    let scroll = h.scroll.min(max);
    let shown = all.iter().skip(scroll).take(visible).map(|r| match r {
        HelpRow::Section(s) => {
            let title = s.map_or("Everywhere", |s| s.title());
            Row::new(vec![Span::styled(
                format!("── {title}"),
                theme.style(Role::Title),
            )])
        }
        HelpRow::Entry(s) => Row::new(vec![
            Span::styled(
                model.keymap.keys_of(s.action).join(", "),
                theme.style(Role::Keep),
            ),
            Span::raw(s.name),
            Span::styled(s.description, theme.style(Role::Muted)),
        ]),
    });
    let empty = all.is_empty();
    let table = Table::new(
        shown,
        [
            Constraint::Length(16),
            Constraint::Length(18),
            Constraint::Fill(1),
        ],
    )
    .header(Row::new(["keys", "action", "what it does"]).style(theme.style(Role::Title)));
    f.render_widget(table, body);
    if empty {
        let [_, msg] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        f.render_widget(
            Paragraph::new(format!("no key matches `{}` (esc clears)", h.query))
                .style(theme.style(Role::Muted)),
            msg,
        );
    }
}
