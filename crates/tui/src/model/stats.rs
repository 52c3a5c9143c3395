//! The Stats screen's layout and scrolling: the screen is one tall page of sections (tables,
//! histograms, bars) whose heights depend only on the statistics, so the model can bound the
//! scroll offset exactly and the view can draw the page and show the visible window.

use crate::action::Action;
use tuplewright_engine::stats::Stats;

/// Rows of a histogram (bars, values and labels).
pub const HISTOGRAM_ROWS: u16 = 8;

/// One section of the page, top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// A.2.5 targets table, met or not met.
    Targets,
    /// Population, synthetic and cross-app counts.
    Overview,
    /// Table 9.
    Scenarios,
    /// Table 10 as stacked bars.
    DomainDifficulty,
    /// Yield per stage as bars.
    Yield,
    /// Table 13 as a histogram.
    Lengths,
    /// Rounds to convergence as a histogram.
    Rounds,
    /// Table 11.
    Verbs,
    /// Table 12.
    Pairs,
    /// F.2.1 token and cost table.
    Costs,
}

/// Section order on the page (one column).
pub const ORDER: [Section; 10] = [
    Section::Targets,
    Section::Overview,
    Section::DomainDifficulty,
    Section::Yield,
    Section::Lengths,
    Section::Rounds,
    Section::Scenarios,
    Section::Verbs,
    Section::Pairs,
    Section::Costs,
];

/// Columns of the page from this inner width on.
pub const TWO_COLUMNS_FROM: u16 = 140;

/// The two columns of a wide page.
const LEFT: [Section; 5] = [
    Section::Targets,
    Section::Overview,
    Section::DomainDifficulty,
    Section::Yield,
    Section::Scenarios,
];
const RIGHT: [Section; 5] = [
    Section::Lengths,
    Section::Rounds,
    Section::Verbs,
    Section::Pairs,
    Section::Costs,
];

/// Rows of yield bars.
pub const YIELD_ROWS: u16 = 10;

/// Height of a section, its title and trailing blank line included.
pub fn height(s: &Stats, section: Section) -> u16 {
    // title + header + rows + blank, at least one row ("(none)").
    let table = |rows: usize| 3 + rows.max(1) as u16;
    match section {
        Section::Targets => table(s.coverage_targets.len()),
        Section::Overview => 2,
        Section::Scenarios => table(s.scenarios.len()),
        Section::DomainDifficulty => 4 + s.domain_difficulty.len().max(1) as u16,
        Section::Yield => 3 + YIELD_ROWS,
        Section::Lengths => 3 + HISTOGRAM_ROWS,
        Section::Rounds => 2 + HISTOGRAM_ROWS,
        Section::Verbs => table(s.top_verbs.len()),
        Section::Pairs => table(s.app_pairs.len()),
        Section::Costs => table(s.costs.models.len() + 1),
    }
}

/// Where one section sits on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    /// The section.
    pub section: Section,
    /// Left column.
    pub x: u16,
    /// Top row.
    pub y: u16,
    /// Width.
    pub width: u16,
    /// Height.
    pub height: u16,
}

/// Sections placed on a page of inner `width`: one column, or two from [`TWO_COLUMNS_FROM`].
pub fn layout(s: &Stats, width: u16) -> Vec<Placed> {
    let column = |list: &[Section], x: u16, w: u16| {
        let mut y = 0u16;
        list.iter()
            .map(|&section| {
                let h = height(s, section);
                let p = Placed {
                    section,
                    x,
                    y,
                    width: w,
                    height: h,
                };
                y = y.saturating_add(h);
                p
            })
            .collect::<Vec<_>>()
    };
    if width >= TWO_COLUMNS_FROM {
        let left = width / 2;
        let mut v = column(&LEFT, 0, left - 1);
        v.extend(column(&RIGHT, left + 1, width - left - 1));
        v
    } else {
        column(&ORDER, 0, width)
    }
}

/// Total page height at inner `width`.
pub fn page_height(s: &Stats, width: u16) -> u16 {
    layout(s, width)
        .iter()
        .map(|p| p.y + p.height)
        .max()
        .unwrap_or(0)
}

/// Rows visible in the Stats pane of a terminal `size` (tab bar, status line, borders).
pub fn visible_rows(size: (u16, u16)) -> u16 {
    size.1.saturating_sub(4).max(1)
}

/// Inner width of the Stats pane of a terminal `size`.
pub fn inner_width(size: (u16, u16)) -> u16 {
    size.0.saturating_sub(2)
}

/// The largest useful scroll offset.
pub fn max_scroll(s: Option<&Stats>, size: (u16, u16)) -> usize {
    s.map_or(0, |s| {
        page_height(s, inner_width(size)).saturating_sub(visible_rows(size)) as usize
    })
}

/// Applies a scrolling action, keeping the offset within the page.
pub fn act(scroll: &mut usize, s: Option<&Stats>, size: (u16, u16), a: Action, page: isize) {
    let max = max_scroll(s, size);
    let page = page.max(1) as usize;
    *scroll = match a {
        Action::Down => *scroll + 1,
        Action::Up => scroll.saturating_sub(1),
        Action::PageDown => *scroll + page,
        Action::PageUp => scroll.saturating_sub(page),
        Action::Top => 0,
        Action::Bottom => max,
        _ => *scroll,
    }
    .min(max);
}
