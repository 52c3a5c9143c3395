//! Drawing: the tab bar, the current screen, the status line and any overlay. Every function here
//! reads the model and draws; none of them does I/O.

mod export;
mod filmstrip;
mod filter;
mod filter_prompt;
mod help;
mod inspector;
mod inspector_runs;
mod launch_form;
mod live;
mod live_trial;
mod marks;
mod palette;
mod reward;
mod reward_card;
mod rollouts;
mod screenshot;
mod similar;
mod state_diff;
mod stats;
mod trial_summary;
mod tuples;
pub mod tuples_cols;
mod tuples_panel;
mod window;

use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Tabs};
use ratatui::Frame;

use super::action::{spec_of, Action, Screen};
use super::model::notice::Level;
use super::model::{Model, Overlay};
use super::mouse::Target;
use super::theme::{Role, Theme};

/// Draws the whole workbench. `store` labels the status line.
pub fn draw(f: &mut Frame<'_>, model: &Model, theme: &Theme, store: &str) {
    let [tabs, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(f.area());
    model.hits.clear();
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
    tuples_panel::draw(f, model, theme);
    match &model.overlay {
        Overlay::None => {}
        Overlay::Help(h) => help::draw(f, model, theme, h),
        Overlay::Palette(p) => palette::draw(f, model, theme, p),
    }
}

fn draw_tabs(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let narrow = area.width < 110;
    let titles: Vec<String> = Screen::ALL
        .iter()
        .map(|s| {
            let key = spec_of(Action::Tab(*s))
                .and_then(|sp| model.keymap.keys_of(sp.action).first().cloned());
            let title = if narrow { s.short_title() } else { s.title() };
            format!("{} {}", key.unwrap_or_default(), title)
        })
        .collect();
    // Clickable: each tab with its left padding (the layout of `Tabs`: " title│ title…").
    let mut x = area.x;
    for (s, t) in Screen::ALL.iter().zip(&titles) {
        let w = 1 + Span::raw(t.as_str()).width() as u16;
        model.hits.add(x, area.y, w, 1, Target::Tab(*s));
        x += w + 1;
    }
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
        let level = model.notice_meta.level;
        let role = match level {
            Level::Info => Role::Title,
            Level::Success => Role::Keep,
            Level::Warning => Role::Undecided,
            Level::Error => Role::Alert,
        };
        spans.push(Span::styled(
            format!(" {} {n} ", level.glyph()),
            theme.style(role),
        ));
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
    if !model.mouse_captured {
        spans.push(Span::styled(
            " mouse released ",
            theme.style(Role::Undecided),
        ));
    }
    // The two hints are buttons too.
    let mut x = area.x + Line::from(spans.clone()).width() as u16;
    for (text, action) in [
        (format!(" {help} help"), Action::Help),
        (" · ".to_string(), Action::Help),
        (format!("{palette} commands"), Action::Palette),
    ] {
        let w = Span::raw(text.as_str()).width() as u16;
        if text != " · " {
            model.hits.add(x, area.y, w, 1, Target::Button(action));
        }
        x += w;
        spans.push(Span::styled(text, theme.style(Role::Muted)));
    }
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
pub fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// `text` cut in the middle to `width` characters, keeping its start and its distinguishing end
/// (`cross_chat-to-issue_0017` → `cross_chat…issue_0017`).
pub fn clip_middle(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n <= width {
        return text.to_string();
    }
    if width < 3 {
        return clip(text, width);
    }
    let (head, tail) = marks::middle_split(width);
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(n - tail).collect();
    format!("{start}…{end}")
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
