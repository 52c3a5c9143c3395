//! The Tuples screen: a virtualised table (only the visible rows are formatted), with the active
//! sort, filters and fuzzy query in its title, and the similar-tuples panel (`=`) below it.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Row, Table, TableState};
use ratatui::Frame;

use super::marks::{marked, row_marks};
use super::{clip, score};
use crate::tui::model::Model;
use crate::tui::mouse::Target;
use crate::tui::theme::{status_glyph, Role, Theme};
use ratatui::style::Style;

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
    let unknown = crate::tui::fields::unknown(&t.query);
    if !unknown.is_empty() {
        title.push(Span::styled(
            format!(
                "⚠ unknown field {} searched as text (fields: {}) ",
                unknown.join(" "),
                crate::tui::fields::FIELDS.join(" ")
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
    let cols = Columns::of(t, inner.width);
    let mut widths = vec![Constraint::Length(16), Constraint::Length(cols.id)];
    let mut header = vec!["status", "id"];
    for (w, name) in [
        (cols.app, "app"),
        (cols.domain, "domain"),
        (cols.sev, "sev"),
    ] {
        if let Some(w) = w {
            widths.push(Constraint::Length(w));
            header.push(name);
        }
    }
    widths.extend([
        Constraint::Length(6),
        Constraint::Length(3),
        Constraint::Length(5),
        Constraint::Length(5),
        Constraint::Fill(1),
    ]);
    header.extend(["diff", "rnd", "r(g)", "r(i)", "instruction"]);
    let instr_w = inner.width.saturating_sub(
        widths
            .iter()
            .map(|c| match c {
                Constraint::Length(n) => n + 1,
                _ => 0,
            })
            .sum(),
    ) as usize;
    let end = (offset + visible).min(t.view.len());
    let rows = t.view[offset..end].iter().map(|&i| {
        let r = &t.rows[i as usize];
        let (id_marks, instr_marks) = row_marks(&t.query, &r.id, &r.instruction);
        let (glyph, role) = status_glyph(&r.status);
        // A marked tuple shows ● in place of its status glyph (in reverse, so NO_COLOR sees it).
        let (glyph, role) = if t.marked.contains(&r.id) {
            ("●", Role::Selection)
        } else {
            (glyph, role)
        };
        let mut cells = vec![
            Cell::from(Span::styled(
                format!("{glyph} {}", clip(&r.status, 13)),
                theme.style(role),
            )),
            Cell::from(marked(
                &r.id,
                &id_marks,
                cols.id as usize,
                true,
                Style::default(),
            )),
        ];
        if let Some(w) = cols.app {
            cells.push(Cell::from(clip(&r.app, w as usize)));
        }
        if let Some(w) = cols.domain {
            cells.push(Cell::from(clip(&r.domain, w as usize)));
        }
        if cols.sev.is_some() {
            let sev_role = if r.severity.as_str() <= "P1" && !r.severity.is_empty() {
                Role::Alert
            } else {
                Role::Muted
            };
            cells.push(Cell::from(Span::styled(
                if r.severity.is_empty() {
                    "·".to_string()
                } else {
                    r.severity.clone()
                },
                theme.style(sev_role),
            )));
        }
        cells.extend([
            Cell::from(clip(&r.difficulty, 6)),
            Cell::from(format!("{:>3}", r.rounds)),
            Cell::from(score(r.r_gold)),
            Cell::from(score(r.r_init)),
            Cell::from(marked(
                &r.instruction,
                &instr_marks,
                instr_w.max(1),
                false,
                Style::default(),
            )),
        ]);
        Row::new(cells)
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

/// Column widths sized to what the view holds (#33): the id column as wide as the longest id
/// (so ids are not cut while there is room), and on wide terminals the app, domain and severity
/// columns only when some tuple in the view has one.
struct Columns {
    id: u16,
    app: Option<u16>,
    domain: Option<u16>,
    sev: Option<u16>,
}

impl Columns {
    /// Room left for the instruction at the least.
    const MIN_INSTRUCTION: u16 = 12;
    /// The id column is never narrower than this (when an id needs it).
    const MIN_ID: u16 = 22;

    fn of(t: &crate::tui::model::tuples::TuplesState, width: u16) -> Self {
        let rows = t.view.iter().map(|&i| &t.rows[i as usize]);
        let (mut id, mut app, mut domain, mut sev) = (2usize, 0usize, 0usize, false);
        // Byte lengths: O(1) per row on every frame (a multi-byte id only over-estimates).
        for r in rows {
            id = id.max(r.id.len());
            app = app.max(r.app.len());
            domain = domain.max(r.domain.len());
            sev |= !r.severity.is_empty();
        }
        // status, diff, rnd, r(g), r(i) and the separators.
        let fixed: u16 = 16 + 6 + 3 + 5 + 5 + 6;
        let wide = width >= 120;
        let opt = |n: usize, cap: u16| (wide && n > 0).then(|| (n as u16).clamp(3, cap));
        let (app, domain, sev) = (opt(app, 12), opt(domain, 18), (wide && sev).then_some(3));
        let extra: u16 = [app, domain, sev].iter().flatten().map(|w| w + 1).sum();
        let room = width.saturating_sub(fixed + extra + Self::MIN_INSTRUCTION);
        Columns {
            id: (id as u16).min(48).min(room.max(Self::MIN_ID)),
            app,
            domain,
            sev,
        }
    }
}
