//! The Tuples table's column widths and cells, after the column chooser's order and visibility
//! (issue #33). Widths follow what the view holds: the id column is as wide as the longest id,
//! an optional column (app, domain, sev, tags) takes room only when a tuple shown has a value,
//! and when the id would not fit, the mostly empty optional columns give up their room first.

use ratatui::layout::Constraint;
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::Cell;

use super::marks::marked;
use super::{clip, score};
use crate::columns::Column;
use crate::data::TaskRow;
use crate::model::tuples::TuplesState;
use crate::model::tuples_extent::value;
use crate::theme::{Role, Theme};

/// Room left for the instruction at the least.
const MIN_INSTRUCTION: u16 = 12;
/// The id column is never narrower than this (when an id needs it).
const MIN_ID: u16 = 22;
/// Widest id column.
const MAX_ID: u16 = 48;

/// The columns drawn and their widths (the instruction's is what is left).
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Shown columns with their widths, in order.
    pub cols: Vec<(Column, u16)>,
    /// The instruction column's width.
    pub instruction: u16,
}

fn fixed(c: Column) -> Option<u16> {
    match c {
        Column::Status => Some(16),
        Column::Diff => Some(6),
        Column::Rounds => Some(3),
        Column::Gold | Column::Init => Some(5),
        _ => None,
    }
}

fn cap(c: Column) -> u16 {
    match c {
        Column::App => 12,
        Column::Domain => 18,
        Column::Sev => 3,
        _ => 16,
    }
}

/// Widths for the view of `t` in `width` columns.
pub fn layout(t: &TuplesState, width: u16) -> Layout {
    let shown: Vec<Column> = t.columns.shown().collect();
    let opts: Vec<Column> = shown.iter().copied().filter(|c| c.optional()).collect();
    // Longest value and how many tuples have one, per optional column; the longest id: measured
    // once per rows/view/columns, not on every frame (#33).
    let extent = t.extent(&opts);
    let (id, longest, filled) = (extent.id, &extent.longest, &extent.filled);
    let total = t.view.len().max(1);
    // Without a chosen layout the optional columns need a wide terminal (as before #33's chooser).
    let wide = t.columns.chosen || width >= 120;
    let mut opt_w: Vec<Option<u16>> = opts
        .iter()
        .enumerate()
        .map(|(k, &c)| (wide && longest[k] > 0).then(|| (longest[k] as u16).clamp(3, cap(c))))
        .collect();
    let instr = if shown.contains(&Column::Instruction) {
        MIN_INSTRUCTION
    } else {
        0
    };
    let id_len = (id as u16).min(MAX_ID);
    let used = |o: &[Option<u16>]| -> u16 {
        let f: u16 = shown.iter().filter_map(|&c| fixed(c)).map(|w| w + 1).sum();
        f + o.iter().flatten().map(|w| w + 1).sum::<u16>() + 1
    };
    // Mostly empty columns (fewer than half the tuples shown have a value) go first, the emptiest
    // first; without a chosen layout the other optional columns follow before an id is cut.
    let mut by_fill: Vec<usize> = (0..opts.len()).collect();
    by_fill.sort_by_key(|&k| filled[k]);
    for k in by_fill {
        let room = width.saturating_sub(used(&opt_w) + instr);
        let mostly_empty = filled[k] * 2 < total;
        if room >= id_len || (t.columns.chosen && !mostly_empty) {
            continue;
        }
        opt_w[k] = None;
    }
    let room = width.saturating_sub(used(&opt_w) + instr);
    let id_w = id_len.min(room.max(MIN_ID));
    let mut cols = Vec::new();
    for &c in &shown {
        let w = match c {
            Column::Id => Some(id_w),
            Column::Instruction => None,
            c if c.optional() => opts.iter().position(|o| *o == c).and_then(|k| opt_w[k]),
            c => fixed(c),
        };
        if let Some(w) = w {
            cols.push((c, w));
        } else if c == Column::Instruction {
            cols.push((c, 0));
        }
    }
    let taken: u16 = cols
        .iter()
        .filter(|(c, _)| *c != Column::Instruction)
        .map(|(_, w)| w + 1)
        .sum();
    Layout {
        cols,
        instruction: width.saturating_sub(taken),
    }
}

impl Layout {
    /// The table's constraints (the instruction fills).
    pub fn constraints(&self) -> Vec<Constraint> {
        self.cols
            .iter()
            .map(|(c, w)| match c {
                Column::Instruction => Constraint::Fill(1),
                _ => Constraint::Length(*w),
            })
            .collect()
    }

    /// The header names.
    pub fn header(&self) -> Vec<&'static str> {
        self.cols.iter().map(|(c, _)| c.name()).collect()
    }
}

/// What one row's cells need besides the row.
pub struct RowCtx<'a> {
    /// Matched characters of the id and the instruction.
    pub marks: &'a (
        std::collections::HashSet<usize>,
        std::collections::HashSet<usize>,
    ),
    /// The status glyph and role (● when marked).
    pub glyph: (&'static str, Role),
    /// The theme.
    pub theme: &'a Theme,
}

/// The cell of column `c` (width `w`) for row `r`.
pub fn cell(r: &TaskRow, c: Column, w: u16, l: &Layout, ctx: &RowCtx<'_>) -> Cell<'static> {
    let theme = ctx.theme;
    match c {
        Column::Status => Cell::from(Span::styled(
            format!("{} {}", ctx.glyph.0, clip(&r.status, 13)),
            theme.style(ctx.glyph.1),
        )),
        Column::Id => Cell::from(marked(
            &r.id,
            &ctx.marks.0,
            w as usize,
            true,
            Style::default(),
        )),
        Column::App | Column::Domain | Column::Tags => Cell::from(clip(value(r, c), w as usize)),
        Column::Sev => {
            let alert = !r.severity.is_empty() && r.severity.as_str() <= "P1";
            let role = if alert { Role::Alert } else { Role::Muted };
            let text = if r.severity.is_empty() {
                "·"
            } else {
                &r.severity
            };
            Cell::from(Span::styled(text.to_string(), theme.style(role)))
        }
        Column::Diff => Cell::from(clip(&r.difficulty, 6)),
        Column::Rounds => Cell::from(format!("{:>3}", r.rounds)),
        Column::Gold => Cell::from(score(r.r_gold)),
        Column::Init => Cell::from(score(r.r_init)),
        Column::Instruction => Cell::from(marked(
            &r.instruction,
            &ctx.marks.1,
            (l.instruction as usize).max(1),
            false,
            Style::default(),
        )),
    }
}
