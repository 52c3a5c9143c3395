//! Horizontal bars: one row per label, a bar of one or more segments (each with its own glyph, so
//! the segments stay distinguishable under NO_COLOR) scaled to a common maximum, then a figure.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

/// One segment of a bar.
#[derive(Debug, Clone)]
pub struct Segment {
    /// Its value.
    pub value: usize,
    /// Glyph repeated over its length.
    pub glyph: &'static str,
    /// Its style.
    pub style: Style,
}

/// One row.
#[derive(Debug, Clone)]
pub struct BarRow {
    /// Label at the left.
    pub label: String,
    /// Segments, left to right.
    pub segments: Vec<Segment>,
    /// Text after the bar (counts).
    pub figure: String,
}

/// Rows of horizontal bars sharing one scale.
#[derive(Debug, Clone)]
pub struct HBars {
    /// The rows.
    pub rows: Vec<BarRow>,
    /// Width of the label column.
    pub label_width: u16,
    /// Width of the figure column.
    pub figure_width: u16,
    /// Style of labels and figures.
    pub text_style: Style,
}

/// Cells of each segment for a bar of `width` cells scaled to `max` (a non-zero segment gets at
/// least one cell when there is room; the total never exceeds `width`).
pub fn cells(values: &[usize], max: usize, width: u16) -> Vec<u16> {
    let max = max.max(1) as f64;
    let mut used = 0u16;
    values
        .iter()
        .map(|&v| {
            let mut n = (v as f64 / max * f64::from(width)).round() as u16;
            if v > 0 && n == 0 {
                n = 1;
            }
            let n = n.min(width.saturating_sub(used));
            used += n;
            n
        })
        .collect()
}

impl Widget for HBars {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let max = self
            .rows
            .iter()
            .map(|r| r.segments.iter().map(|s| s.value).sum::<usize>())
            .max()
            .unwrap_or(0);
        let bar_width = area
            .width
            .saturating_sub(self.label_width + self.figure_width + 2);
        for (i, row) in self.rows.iter().enumerate() {
            let y = area.y + i as u16;
            if y >= area.bottom() {
                break;
            }
            let values: Vec<usize> = row.segments.iter().map(|s| s.value).collect();
            let widths = cells(&values, max, bar_width);
            let mut spans = vec![Span::styled(
                format!(
                    "{:<w$} ",
                    truncate(&row.label, self.label_width as usize),
                    w = self.label_width as usize
                ),
                self.text_style,
            )];
            let mut drawn = 0u16;
            for (s, n) in row.segments.iter().zip(widths) {
                spans.push(Span::styled(s.glyph.repeat(n as usize), s.style));
                drawn += n;
            }
            spans.push(Span::raw(" ".repeat((bar_width - drawn) as usize + 1)));
            spans.push(Span::styled(row.figure.clone(), self.text_style));
            Line::from(spans).render(Rect::new(area.x, y, area.width, 1), buf);
        }
    }
}

/// `s` cut to `n` characters (with an ellipsis when cut).
pub fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_scale_and_never_overflow() {
        assert_eq!(cells(&[5, 5], 10, 20), vec![10, 10]);
        assert_eq!(cells(&[1, 0, 999], 1000, 10), vec![1, 0, 9]);
        assert_eq!(cells(&[3, 3, 3], 3, 4), vec![4, 0, 0]);
        assert_eq!(truncate("ecommerce-admin", 8), "ecommer…");
    }
}
