//! The State diff screen: initial vs golden (or a rollout trial's final) state of the selected
//! tuple, as a flat key-path table or a folding JSON tree, unified or side-by-side. Only the visible
//! window of the model's prebuilt lines is drawn; JSON values are syntax-highlighted (cached).

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::highlight::{highlight_line, Lang};
use crate::model::state_diff::StateDiffState;
use crate::model::Model;
use crate::state_rows::{DLine, Kind};
use crate::theme::{Role, Theme};

/// Draws the State diff screen.
pub fn draw(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let st = &model.state_diff;
    let title = Span::styled(
        format!(" State diff: {} ", st.task_id.as_deref().unwrap_or("—")),
        theme.style(Role::Title),
    );
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let [head, body, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    f.render_widget(Paragraph::new(header(st, theme)), head);
    f.render_widget(Paragraph::new(footer(st, theme)), foot);
    let msg = match (&st.task_id, &st.empty) {
        (None, _) => Some("no tuple selected — pick one on the Tuples screen (2)".to_string()),
        (_, Some(m)) => Some(m.clone()),
        _ if st.lines.is_empty() => Some("loading…".to_string()),
        _ => None,
    };
    if let Some(m) = msg {
        f.render_widget(Paragraph::new(m).style(theme.style(Role::Muted)), body);
        return;
    }
    let (cols, rows) = if st.split {
        let [c, r] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        (Some(c), r)
    } else {
        (None, body)
    };
    let w = rows.width as usize;
    let label_w = label_width(st, w);
    if let Some(c) = cols {
        let v = value_width(w, label_w);
        let text = format!(
            "  {:<lw$} {:<v$}│ {}",
            if st.tree { "key" } else { "path" },
            "initial",
            st.target_label(),
            lw = label_w,
        );
        f.render_widget(
            Paragraph::new(clip(&text, w)).style(theme.style(Role::Title)),
            c,
        );
    }
    let h = rows.height as usize;
    let offset = st.cursor.saturating_sub(h.saturating_sub(1));
    let lines: Vec<Line> = st
        .lines
        .iter()
        .enumerate()
        .skip(offset)
        .take(h)
        .map(|(i, l)| line(st, i, l, label_w, w, theme))
        .collect();
    f.render_widget(Paragraph::new(lines), rows);
}

fn header<'a>(st: &StateDiffState, theme: &Theme) -> Line<'a> {
    let rounds = st.data.as_ref().map_or(0, |d| d.rounds.len());
    let round_no = st
        .data
        .as_ref()
        .and_then(|d| d.rounds.get(st.round))
        .map_or(0, |r| r.round_no);
    let changed = st.changes;
    Line::from(vec![
        Span::styled(
            format!("round {round_no}/{rounds} "),
            theme.style(Role::Title),
        ),
        Span::raw(format!("initial→{} ", st.target_label())),
        Span::styled(
            format!(
                "· {} · {} · masked {} · {changed} changed",
                if st.tree { "tree" } else { "table" },
                if st.split { "side-by-side" } else { "unified" },
                if st.show_masked { "shown" } else { "hidden" },
            ),
            theme.style(Role::Muted),
        ),
    ])
}

fn footer<'a>(st: &StateDiffState, theme: &Theme) -> Line<'a> {
    if st.searching || !st.query.is_empty() {
        let pos = st
            .matches
            .iter()
            .position(|i| *i == st.cursor)
            .map_or(0, |p| p + 1);
        return Line::from(vec![
            Span::styled(format!("/{}", st.query), theme.style(Role::Title)),
            Span::raw(if st.searching { "▏" } else { "" }),
            Span::styled(
                format!(
                    "  {pos}/{} matches · n/N next/prev · esc clears",
                    st.matches.len()
                ),
                theme.style(Role::Muted),
            ),
        ]);
    }
    Line::styled(
        "v tree · | split · . masked · C vs · ]/[ round · space fold · / search",
        theme.style(Role::Muted),
    )
}

fn label_width(st: &StateDiffState, w: usize) -> usize {
    let longest = st
        .lines
        .iter()
        .map(|l| l.label.chars().count() + 2 * l.depth as usize + 2)
        .max()
        .unwrap_or(8);
    let cap = if st.split { w / 3 } else { w / 2 };
    longest.clamp(8, cap.max(8))
}

fn value_width(w: usize, label_w: usize) -> usize {
    (w.saturating_sub(label_w + 5)) / 2
}

fn role_of(kind: Kind) -> Role {
    match kind {
        Kind::Added => Role::DiffAdd,
        Kind::Removed => Role::DiffDel,
        Kind::Changed => Role::Modified,
        Kind::Same | Kind::Info => Role::Muted,
    }
}

fn line<'a>(
    st: &StateDiffState,
    i: usize,
    l: &DLine,
    label_w: usize,
    w: usize,
    theme: &Theme,
) -> Line<'a> {
    let dim = l.masked || l.kind == Kind::Info;
    let base = if dim {
        theme.style(Role::Muted)
    } else {
        Style::default()
    };
    let mut spans = Vec::with_capacity(8);
    spans.push(if i == st.cursor {
        Span::styled("▌", theme.style(Role::Selection))
    } else {
        Span::raw(" ")
    });
    let glyph_role = if dim { Role::Muted } else { role_of(l.kind) };
    spans.push(Span::styled(l.kind.glyph(), theme.style(glyph_role)));
    let fold = match &l.fold {
        Some(f) if f.open => "▾ ",
        Some(_) => "▸ ",
        None if st.tree => "  ",
        None => "",
    };
    let mut label = format!(
        "{}{fold}{}",
        "  ".repeat(l.depth.saturating_sub(u16::from(!st.tree)) as usize),
        l.label
    );
    if !st.split && (l.left.is_some() || l.fold.is_none()) && !l.heading && l.kind != Kind::Info {
        label.push(':');
    }
    let mut label_style = if l.heading {
        theme.style(Role::Title)
    } else if l.kind == Kind::Same {
        base
    } else {
        base.patch(theme.style(glyph_role))
    };
    if st.matches.binary_search(&i).is_ok() {
        label_style = label_style.patch(theme.style(Role::Undecided));
    }
    if i == st.cursor {
        label_style = label_style.patch(theme.style(Role::Selection));
    }
    let label_text = clip(&label, label_w);
    let pad = label_w.saturating_sub(label_text.chars().count());
    spans.push(Span::styled(label_text, label_style));
    spans.push(Span::raw(" ".repeat(pad + 1)));
    if st.split {
        let v = value_width(w, label_w);
        value(&mut spans, l.left.as_deref(), v, dim, theme);
        spans.push(Span::styled("│ ", theme.style(Role::Muted)));
        value(&mut spans, l.right.as_deref(), v, dim, theme);
    } else {
        let v = w.saturating_sub(label_w + 3);
        value(&mut spans, l.left.as_deref(), v, dim, theme);
    }
    Line::from(spans)
}

/// A JSON value clipped to `width` columns (padded), highlighted unless dimmed.
fn value(
    spans: &mut Vec<Span<'static>>,
    text: Option<&str>,
    width: usize,
    dim: bool,
    theme: &Theme,
) {
    let Some(text) = text else {
        spans.push(Span::raw(" ".repeat(width)));
        return;
    };
    let mut left = width;
    if dim || text.starts_with("{…}") || text.starts_with("[…]") {
        let t = clip(text, width);
        left -= t.chars().count();
        spans.push(Span::styled(t, theme.style(Role::Muted)));
    } else {
        let hl = highlight_line(Lang::Json, text, theme);
        for s in hl.spans {
            if left == 0 {
                break;
            }
            let n = s.content.chars().count();
            if n <= left {
                left -= n;
                spans.push(s);
            } else {
                let t = clip(&s.content, left);
                left = 0;
                spans.push(Span::styled(t, s.style));
            }
        }
    }
    spans.push(Span::raw(" ".repeat(left)));
}

fn clip(text: &str, width: usize) -> String {
    super::clip(text, width)
}
