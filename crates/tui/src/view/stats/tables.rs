//! The Stats screen's tables (ratatui `Table`): coverage targets with met / not-met glyphs,
//! labelled shares with an inline bar, and token costs.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Row, Table, Widget};

use crate::theme::{check_glyph, Role, Theme};
use tuplewright_engine::stats::{Costs, Share, Target};

/// A header row; names starting with `>` are right-aligned (numeric columns).
fn header<'a>(cells: &[&'a str], theme: &Theme) -> Row<'a> {
    Row::new(cells.iter().map(|c| match c.strip_prefix('>') {
        Some(name) => Cell::from(Line::from(name).right_aligned()),
        None => Cell::from(*c),
    }))
    .style(theme.style(Role::Muted))
}

/// The A.2.5 targets: glyph, target, measured value, threshold, met / NOT met.
pub fn targets(buf: &mut Buffer, area: Rect, list: &[Target], theme: &Theme) {
    let fmt = |v: f64, unit: &str| {
        if unit == "%" {
            format!("{v:.1}%")
        } else {
            format!("{v:.0}")
        }
    };
    let rows: Vec<Row<'_>> = list
        .iter()
        .map(|t| {
            let (g, role) = check_glyph(Some(t.met));
            Row::new(vec![
                Cell::from(Span::styled(g, theme.style(role))),
                Cell::from(t.name.clone()),
                Cell::from(Line::from(fmt(t.value_percent, &t.unit)).right_aligned()),
                Cell::from(format!("{} {}", t.op, fmt(t.threshold_percent, &t.unit))),
                Cell::from(Span::styled(
                    if t.met { "met" } else { "NOT met" },
                    theme.style(role),
                )),
            ])
        })
        .collect();
    Table::new(
        rows,
        [
            Constraint::Length(1),
            Constraint::Fill(1),
            Constraint::Length(7),
            Constraint::Length(9),
            Constraint::Length(7),
        ],
    )
    .header(header(
        &["", "Target", ">Value", "Threshold", "Status"],
        theme,
    ))
    .render(area, buf);
}

/// Labelled shares: label, count, percent (of `of`, summing to 100.0 when the rows cover it) and
/// a bar of the percent.
pub fn shares(
    buf: &mut Buffer,
    area: Rect,
    (first, of): (&str, usize),
    list: &[Share],
    theme: &Theme,
) {
    let bar_w = area.width.saturating_sub(40).clamp(4, 30) as f64;
    let counts: Vec<usize> = list.iter().map(|s| s.count).collect();
    let shown = tuplewright_engine::stats::shown_percents(&counts, of);
    let mut rows: Vec<Row<'_>> = list
        .iter()
        .zip(shown)
        .map(|(s, pct)| {
            let n = ((s.percent / 100.0 * bar_w).round() as usize).max(usize::from(s.count > 0));
            Row::new(vec![
                Cell::from(s.name.clone()),
                Cell::from(Line::from(s.count.to_string()).right_aligned()),
                Cell::from(Line::from(format!("{pct:.1}")).right_aligned()),
                Cell::from(Span::styled("█".repeat(n), theme.style(Role::Title))),
            ])
        })
        .collect();
    if rows.is_empty() {
        rows.push(Row::new(vec![Cell::from(Span::styled(
            "(none)",
            theme.style(Role::Muted),
        ))]));
    }
    Table::new(
        rows,
        [
            Constraint::Fill(1),
            Constraint::Length(7),
            Constraint::Length(6),
            Constraint::Length(bar_w as u16),
        ],
    )
    .header(header(&[first, ">Tasks", ">%", ""], theme))
    .render(area, buf);
}

fn thousands(n: i64) -> String {
    tuplewright_engine::stats::thousands(n.max(0) as usize)
}

/// Tokens and cost per model, then the total.
pub fn costs(buf: &mut Buffer, area: Rect, c: &Costs, theme: &Theme) {
    let row = |name: String, i: i64, o: i64, usd: f64, style: Style| {
        Row::new(vec![
            Cell::from(name),
            Cell::from(Line::from(thousands(i)).right_aligned()),
            Cell::from(Line::from(thousands(o)).right_aligned()),
            Cell::from(Line::from(format!("{usd:.2}")).right_aligned()),
        ])
        .style(style)
    };
    let mut rows: Vec<Row<'_>> = c
        .models
        .iter()
        .map(|m| {
            row(
                m.model.clone(),
                m.input_tokens,
                m.output_tokens,
                m.cost_usd,
                Style::default(),
            )
        })
        .collect();
    rows.push(row(
        "Total".into(),
        c.input_tokens,
        c.output_tokens,
        c.cost_usd,
        theme.style(Role::Title),
    ));
    Table::new(
        rows,
        [
            Constraint::Fill(1),
            Constraint::Length(13),
            Constraint::Length(13),
            Constraint::Length(10),
        ],
    )
    .header(header(
        &["Model", ">Input tok", ">Output tok", ">USD"],
        theme,
    ))
    .render(area, buf);
}
