//! The Tuples screen: a virtualised table (only the visible rows are formatted), with the active
//! sort, filters and fuzzy query in its title, and the similar-tuples panel (`=`) below it.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Row, Table, TableState};
use ratatui::Frame;

use super::marks::row_marks;
use super::tuples_cols::RowCtx;
use crate::model::Model;
use crate::mouse::Target;
use crate::theme::{status_glyph, Role, Theme};

/// Draws the tuple list.
pub fn draw(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let prompt = match (&model.tuples.bulk, &model.tuples.rerun) {
        (Some(p), _) => Some((p.label(), p.input.as_str())),
        (None, Some(r)) => Some((r.label(), r.input.as_str())),
        (None, None) => None,
    };
    let area = match prompt {
        Some((label, input)) => {
            let [list, line] =
                Layout::vertical([Constraint::Min(3), Constraint::Length(3)]).areas(area);
            draw_prompt(f, line, &label, input, theme);
            list
        }
        None => area,
    };
    let area = match &model.tuples.export {
        Some(p) => {
            let h = (area.height / 2).clamp(5, 16);
            let [list, panel] =
                Layout::vertical([Constraint::Min(3), Constraint::Length(h)]).areas(area);
            super::export::draw(f, panel, p, theme);
            list
        }
        None => area,
    };
    let area = if model.similar.open {
        let h = (area.height / 2).clamp(5, 14);
        let [list, panel] =
            Layout::vertical([Constraint::Min(3), Constraint::Length(h)]).areas(area);
        super::similar::draw(f, panel, model, theme);
        list
    } else {
        area
    };
    let t = &model.tuples;
    let mut title = vec![Span::styled(
        format!(" Tuples {}/{} ", t.view.len(), t.rows.len()),
        theme.style(Role::Title),
    )];
    let sort = format!(
        "sort:{}{} ",
        t.sort.label(),
        if t.reverse { "↓" } else { "↑" }
    );
    title.push(Span::styled(sort, theme.style(Role::Muted)));
    if let Some(v) = &t.view_name {
        title.push(Span::styled(format!("view:{v} "), theme.style(Role::Title)));
    }
    for (name, v) in [
        ("status", &t.status),
        ("diff", &t.difficulty),
        ("app", &t.app),
        ("sev", &t.severity),
    ] {
        if let Some(v) = v {
            title.push(Span::styled(
                format!("{name}={v} "),
                theme.style(Role::Modified),
            ));
        }
    }
    if t.searching || !t.query.is_empty() {
        let cursor = if t.searching { "▏" } else { "" };
        title.push(Span::styled(
            format!("/{}{cursor} ", t.query),
            theme.style(Role::Undecided),
        ));
    }
    let unknown = crate::fields::unknown(&t.query);
    if !unknown.is_empty() {
        title.push(Span::styled(
            format!(
                "⚠ unknown field {} searched as text (fields: {}) ",
                unknown.join(" "),
                crate::fields::FIELDS.join(" ")
            ),
            theme.style(Role::Alert),
        ));
    }
    if !t.marked.is_empty() {
        let busy = if t.bulk_busy { " (recording…)" } else { "" };
        title.push(Span::styled(
            format!("● {} marked{busy} ", t.marked.len()),
            theme.style(Role::Modified),
        ));
    }
    if t.loaded && !t.complete {
        title.push(Span::styled(
            "(first page; loading all…) ",
            theme.style(Role::Muted),
        ));
    }
    if t.computing {
        title.push(Span::styled("… ", theme.style(Role::Muted)));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Line::from(title));
    let inner = block.inner(area);
    f.render_widget(block, area);
    if !t.loaded {
        f.render_widget(
            Line::styled("loading the store…", theme.style(Role::Muted)),
            inner,
        );
        return;
    }
    if t.view.is_empty() {
        let msg = if t.rows.is_empty() {
            "the store has no tasks yet"
        } else {
            "no tuple matches (c clears the filters)"
        };
        f.render_widget(Line::styled(msg, theme.style(Role::Muted)), inner);
        return;
    }
    let visible = inner.height.saturating_sub(1).max(1) as usize;
    let mut offset = t.offset.get().min(t.selected);
    if t.selected >= offset + visible {
        offset = t.selected + 1 - visible;
    }
    t.offset.set(offset);
    let layout = super::tuples_cols::layout(t, inner.width);
    let widths = layout.constraints();
    let header = layout.header();
    let end = (offset + visible).min(t.view.len());
    let rows = t.view[offset..end].iter().map(|&i| {
        let r = &t.rows[i as usize];
        let marks = row_marks(&t.query, &r.id, &r.instruction);
        // A marked tuple shows ● in place of its status glyph (in reverse, so NO_COLOR sees it).
        let glyph = if t.marked.contains(&r.id) {
            ("●", Role::Selection)
        } else {
            status_glyph(&r.status)
        };
        let ctx = RowCtx {
            marks: &marks,
            glyph,
            theme,
        };
        Row::new(
            layout
                .cols
                .iter()
                .map(|&(c, w)| super::tuples_cols::cell(r, c, w, &layout, &ctx)),
        )
    });
    let table = Table::new(rows, widths)
        .header(Row::new(header).style(theme.style(Role::Title)))
        .row_highlight_style(theme.style(Role::Selection))
        .highlight_symbol("▌");
    for (k, pos) in (offset..end).enumerate() {
        let y = inner.y + 1 + k as u16;
        model.hits.add(inner.x, y, inner.width, 1, Target::Row(pos));
    }
    let mut state = TableState::default().with_selected(Some(t.selected - offset));
    f.render_stateful_widget(table, inner, &mut state);
}

/// The bulk decision's (or the re-run's) input line.
fn draw_prompt(f: &mut Frame<'_>, area: Rect, label: &str, input: &str, theme: &Theme) {
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(format!(" {label} "), theme.style(Role::Title)));
    let inner = block.inner(area);
    f.render_widget(block, area);
    f.render_widget(Line::from(format!("{input}▏")), inner);
}
