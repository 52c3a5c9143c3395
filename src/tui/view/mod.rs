//! Drawing: the tab bar, the current screen, the status line and any overlay. Every function here
//! reads the model and draws; none of them does I/O.

mod filter;
mod filter_prompt;
mod help;
mod inspector;
mod launch_form;
mod live;
mod palette;
mod reward;
mod reward_card;
mod rollouts;
mod screenshot;
mod similar;
mod state_diff;
mod stats;
mod tuples;

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Tabs};
use ratatui::Frame;

use super::action::{spec_of, Action, Screen};
use super::model::{Model, Overlay};
use super::theme::{Role, Theme};

/// Draws the whole workbench. `store` labels the status line.
pub fn draw(f: &mut Frame<'_>, model: &Model, theme: &Theme, store: &str) {
    let [tabs, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(f.area());
    draw_tabs(f, tabs, model, theme);
    match model.screen {
        Screen::Live => live::draw(f, body, model, theme),
        Screen::Tuples => tuples::draw(f, body, model, theme),
        Screen::Inspector => inspector::draw(f, body, model, theme),
        Screen::StateDiff => state_diff::draw(f, body, model, theme),
        Screen::Reward => reward::draw(f, body, model, theme),
        Screen::Filter => filter::draw(f, body, model, theme),
        Screen::Rollouts => rollouts::draw(f, body, model, theme),
        Screen::Stats => stats::draw(f, body, model, theme),
    }
    draw_status(f, status, model, theme, store);
    match &model.overlay {
        Overlay::None => {}
        Overlay::Help(scroll) => help::draw(f, model, theme, *scroll),
        Overlay::Palette(p) => palette::draw(f, model, theme, p),
    }
}

fn draw_tabs(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let narrow = area.width < 110;
    let titles = Screen::ALL.iter().map(|s| {
        let key = spec_of(Action::Tab(*s))
            .and_then(|sp| model.keymap.keys_of(sp.action).first().cloned());
        let title = if narrow { s.short_title() } else { s.title() };
        format!("{} {}", key.unwrap_or_default(), title)
    });
    let tabs = Tabs::new(titles)
        .padding(" ", "")
        .select(model.screen.index())
        .style(theme.style(Role::Muted))
        .highlight_style(theme.style(Role::Selection))
        .divider("│");
    f.render_widget(tabs, area);
}

fn draw_status(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme, store: &str) {
    let mut spans = vec![Span::styled(format!(" {store} "), theme.style(Role::Title))];
    if model.readonly {
        spans.push(Span::styled(" READ-ONLY ", theme.style(Role::Alert)));
    }
    if let Some(n) = &model.notice {
        spans.push(Span::styled(format!(" ⚠ {n} "), theme.style(Role::Alert)));
    }
    let help = model
        .keymap
        .keys_of(Action::Help)
        .first()
        .cloned()
        .unwrap_or_else(|| "?".into());
    let palette = model
        .keymap
        .keys_of(Action::Palette)
        .first()
        .cloned()
        .unwrap_or_else(|| ":".into());
    spans.push(Span::styled(
        format!(" {help} help · {palette} commands"),
        theme.style(Role::Muted),
    ));
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// A centred rectangle of at most `w`×`h` inside `area`.
fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let [v] = Layout::vertical([Constraint::Length(h.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [r] = Layout::horizontal([Constraint::Length(w.min(area.width))])
        .flex(Flex::Center)
        .areas(v);
    r
}

/// `text` cut to `width` characters (with an ellipsis when cut).
fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// A reward as `0.00`, or `  – ` when unknown.
fn score(v: Option<f64>) -> String {
    v.map_or_else(|| "  – ".to_string(), |v| format!("{v:.2}"))
}

/// A bordered block titled ` title ` in the title role.
fn titled<'a>(title: &'a str, theme: &Theme) -> ratatui::widgets::Block<'a> {
    ratatui::widgets::Block::default()
        .borders(ratatui::widgets::Borders::ALL)
        .title(Span::styled(format!(" {title} "), theme.style(Role::Title)))
}

/// Draws a one-line muted hint inside a titled block (screens with nothing to show yet).
fn hint(f: &mut Frame<'_>, area: Rect, title: &str, text: &str, theme: &Theme) {
    f.render_widget(
        Paragraph::new(text.to_string())
            .style(theme.style(Role::Muted))
            .block(titled(title, theme)),
        area,
    );
}
