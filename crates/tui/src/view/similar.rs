//! The similar-tuples panel under the Tuples list: the selected tuple's nearest neighbours in the
//! store with their cosine, near-duplicates (cosine >= the paper's 0.85) marked.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table, TableState};
use ratatui::Frame;

use super::clip;
use crate::model::Model;
use crate::theme::{Role, Theme};

/// Cosine at or above which a neighbour is marked a near-duplicate (paper A.2.4).
pub const NEAR_DUPLICATE: f32 = 0.85;

/// Draws the panel into `area`.
pub fn draw(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let p = &model.similar;
    let id = p.task_id.as_deref().unwrap_or("");
    let mut title = vec![Span::styled(
        format!(" Similar to {} ", clip(id, 40)),
        theme.style(Role::Title),
    )];
    if let Some(s) = &p.result {
        title.push(Span::styled(
            format!(
                "{} of {} · {} ",
                s.neighbours.len(),
                s.corpus.saturating_sub(1),
                s.embedder
            ),
            theme.style(Role::Muted),
        ));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Line::from(title))
        .title_bottom(Line::styled(
            " ↑↓ move · enter select · esc close ",
            theme.style(Role::Muted),
        ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let msg = |text: String, role: Role| Paragraph::new(text).style(theme.style(role));
    if let Some(e) = &p.error {
        f.render_widget(
            msg(format!("cannot list neighbours: {e}"), Role::Alert),
            inner,
        );
        return;
    }
    let Some(s) = &p.result else {
        f.render_widget(
            msg(
                "embedding the store's instructions (cached after the first time)…".into(),
                Role::Muted,
            ),
            inner,
        );
        return;
    };
    let mut body = inner;
    if let Some(why) = &s.degraded {
        f.render_widget(
            msg(format!("⚠ {why}: ranked by character 3-grams"), Role::Alert),
            Rect { height: 1, ..inner },
        );
        body = Rect {
            y: inner.y + 1,
            height: inner.height.saturating_sub(1),
            ..inner
        };
    }
    if s.neighbours.is_empty() {
        f.render_widget(msg("no other tuple in the store".into(), Role::Muted), body);
        return;
    }
    let id_w: u16 = if body.width >= 110 { 32 } else { 22 };
    let instr_w = body.width.saturating_sub(7 + id_w + 4) as usize;
    let rows = s.neighbours.iter().map(|n| {
        let role = if n.cosine >= NEAR_DUPLICATE {
            Role::Reject
        } else {
            Role::Muted
        };
        Row::new(vec![
            Cell::from(Span::styled(format!("{:.3}", n.cosine), theme.style(role))),
            Cell::from(clip(&n.task_id, id_w as usize)),
            Cell::from(clip(&n.instruction, instr_w.max(1))),
        ])
    });
    let table = Table::new(
        rows,
        [
            Constraint::Length(6),
            Constraint::Length(id_w),
            Constraint::Fill(1),
        ],
    )
    .header(Row::new(["cosine", "id", "instruction"]).style(theme.style(Role::Title)))
    .row_highlight_style(theme.style(Role::Selection))
    .highlight_symbol("▌");
    let mut state = TableState::default().with_selected(Some(p.selected));
    f.render_stateful_widget(table, body, &mut state);
}
