//! The panels of issue #33 drawn as a box over the screen: the save-view line, the saved views,
//! the column chooser and the note editor (with the tuple's earlier notes).

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::model::panels::{NoteEditor, Panel};
use crate::model::Model;
use crate::theme::{Role, Theme};

/// Draws the open panel, if any.
pub fn draw(f: &mut Frame<'_>, model: &Model, theme: &Theme) {
    let Some(p) = &model.tuples.panel else {
        return;
    };
    let (title, keys, lines) = match p {
        Panel::SaveView(s) => save(model, s, theme),
        Panel::Views(i) => views(model, *i, theme),
        Panel::Columns(i) => columns(model, *i, theme),
        Panel::Note(n) => note(n, theme),
    };
    let area = f.area();
    let w = area.width.saturating_sub(4).min(76);
    let h = (lines.len() as u16 + 2)
        .min(area.height.saturating_sub(2))
        .max(3);
    let rect = Rect::new(area.x + (area.width - w) / 2, area.y + 2, w, h);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(format!(" {title} "), theme.style(Role::Title)))
        .title_bottom(Line::styled(format!(" {keys} "), theme.style(Role::Muted)));
    f.render_widget(Clear, rect);
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        rect,
    );
}

type Drawn = (String, &'static str, Vec<Line<'static>>);

fn pick(selected: bool, theme: &Theme) -> ratatui::style::Style {
    if selected {
        theme.style(Role::Selection)
    } else {
        ratatui::style::Style::default()
    }
}

fn save(model: &Model, name: &str, theme: &Theme) -> Drawn {
    let t = &model.tuples;
    let now = tuplewright_records::curate::views::SavedView {
        query: t.query.clone(),
        status: t.status.clone(),
        difficulty: t.difficulty.clone(),
        app: t.app.clone(),
        severity: t.severity.clone(),
        sort: t.sort.label().into(),
        reverse: t.reverse,
        ..Default::default()
    };
    let lines = vec![
        Line::styled(
            format!("saves: {}", now.summary()),
            theme.style(Role::Muted),
        ),
        Line::from(format!("name: {name}▏")),
    ];
    (
        "Save view".into(),
        "enter saves (a name in use is replaced) · esc cancels",
        lines,
    )
}

fn views(model: &Model, i: usize, theme: &Theme) -> Drawn {
    let v = &model.tuples.views.views;
    let mut lines: Vec<Line> = v
        .iter()
        .enumerate()
        .map(|(k, view)| {
            let current = model.tuples.view_name.as_deref() == Some(view.name.as_str());
            let mark = if current { "▸" } else { " " };
            Line::from(vec![
                Span::styled(format!("{mark} {:<18} ", view.name), pick(k == i, theme)),
                Span::styled(view.summary(), theme.style(Role::Muted)),
            ])
        })
        .collect();
    if lines.is_empty() {
        lines.push(Line::styled(
            "no saved view yet: B saves the current search, filters and sort",
            theme.style(Role::Muted),
        ));
    }
    let title = format!("Saved views ({})", v.len());
    (
        title,
        "enter applies · x deletes · j/k move · esc closes",
        lines,
    )
}

fn columns(model: &Model, i: usize, theme: &Theme) -> Drawn {
    let lines = model
        .tuples
        .columns
        .order
        .iter()
        .enumerate()
        .map(|(k, (c, shown))| {
            let box_ = if *shown { "[x]" } else { "[ ]" };
            let note = match c {
                crate::columns::Column::Id => "  (always shown)",
                c if c.optional() => "  (takes room only when a tuple shown has one)",
                _ => "",
            };
            Line::from(vec![
                Span::styled(format!("{box_} {:<12}", c.name()), pick(k == i, theme)),
                Span::styled(note, theme.style(Role::Muted)),
            ])
        })
        .collect();
    (
        "Columns".into(),
        "space shows/hides · J/K move down/up · esc saves and closes",
        lines,
    )
}

fn note(n: &NoteEditor, theme: &Theme) -> Drawn {
    let mut lines = Vec::new();
    let focus = |on: bool| {
        if on {
            theme.style(Role::Title)
        } else {
            theme.style(Role::Muted)
        }
    };
    lines.push(Line::styled(
        "note (+tag / -tag words change tags):",
        focus(!n.on_tags),
    ));
    let cursor = if n.on_tags { "" } else { "▏" };
    lines.push(Line::from(format!("{}{cursor}", n.text)));
    if !n.tags.is_empty() {
        lines.push(Line::styled(
            "tags (tab switches here, space toggles):",
            focus(n.on_tags),
        ));
        let spans: Vec<Span> = n
            .tags
            .iter()
            .enumerate()
            .map(|(k, (t, on))| {
                let text = format!("[{}] {t}  ", if *on { "x" } else { " " });
                Span::styled(text, pick(n.on_tags && k == n.selected, theme))
            })
            .collect();
        lines.push(Line::from(spans));
    }
    if !n.history.is_empty() {
        lines.push(Line::styled("earlier notes:", theme.style(Role::Muted)));
    }
    for h in n.history.iter().rev().take(5) {
        let day = h.created_at.get(..10).unwrap_or(&h.created_at);
        lines.push(Line::styled(
            format!("  {day} {}: {} [{}]", h.author, h.text, h.tags.join(" ")),
            theme.style(Role::Muted),
        ));
    }
    let busy = if n.busy { " (recording…)" } else { "" };
    let title = format!("Note on {}{busy}", n.task_id);
    (title, "enter records · tab text/tags · esc cancels", lines)
}
