//! The Filter screen's reason line and its modify_query editor popup (ratatui-textarea), each with
//! its confirm and cancel keys shown.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::model::filter_prompt::{Prefill, Prompt};
use crate::theme::{Role, Theme};

use super::filter::verdict_glyph;

/// Draws the one-line reason prompt (a bordered 3-line box).
pub fn draw_reason(f: &mut Frame<'_>, area: Rect, prompt: &Prompt, theme: &Theme) {
    let Prompt::Reason {
        task_id,
        action,
        input,
    } = prompt
    else {
        return;
    };
    let (g, role) = verdict_glyph(action.name());
    let title = format!("{g} {} {task_id} — reason", action.name());
    let block = super::titled(&title, theme).border_style(theme.style(role));
    // A long reason scrolls: the end being typed stays visible.
    const KEYS: &str = "   enter confirm · esc cancel";
    let room = (area.width as usize).saturating_sub(KEYS.chars().count() + 4);
    let chars = input.chars().count();
    let shown: String = if chars > room {
        let tail: String = input.chars().skip(chars + 1 - room).collect();
        format!("…{tail}")
    } else {
        input.clone()
    };
    let line = Line::from(vec![
        Span::raw(format!("{shown}▏")),
        Span::styled(KEYS, theme.style(Role::Muted)),
    ]);
    f.render_widget(Clear, area);
    f.render_widget(Paragraph::new(line).block(block), area);
}

/// Draws the instruction editor as a popup over `area`.
pub fn draw_editor(f: &mut Frame<'_>, area: Rect, prompt: &Prompt, theme: &Theme) {
    let Prompt::Editor {
        task_id,
        editor,
        prefill,
    } = prompt
    else {
        return;
    };
    let popup = super::centered(area, area.width.saturating_sub(2).min(100), 14);
    f.render_widget(Clear, popup);
    let title = format!("✎ modify_query {task_id} — the new instruction");
    let block = super::titled(&title, theme).border_style(theme.style(Role::Modified));
    let inner = block.inner(popup);
    f.render_widget(block, popup);
    let [note, text, keys] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    let source = match prefill {
        Prefill::BestRevision { critic, confidence } => format!(
            "Prefilled with the best revised query: the highest-confidence modify_query vote \
             ({critic}, confidence {confidence:.2})."
        ),
        Prefill::Original => {
            "No critic proposed a revision: prefilled with the original instruction.".into()
        }
    };
    f.render_widget(
        Paragraph::new(source)
            .style(theme.style(Role::Muted))
            .wrap(Wrap { trim: true }),
        note,
    );
    let mut ed = (**editor).clone();
    ed.set_cursor_line_style(ratatui::style::Style::default());
    ed.set_cursor_style(
        theme
            .style(Role::Selection)
            .add_modifier(Modifier::REVERSED),
    );
    f.render_widget(&ed, text);
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(" ctrl-s ", theme.style(Role::Keep)),
            Span::raw("confirm, then a reason · "),
            Span::styled(" esc ", theme.style(Role::Reject)),
            Span::raw("cancel · enter new line"),
        ])),
        keys,
    );
}
