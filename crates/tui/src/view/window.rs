//! A text window over styled lines: soft wrap (continuation rows marked `↪`) or a horizontal
//! scroll that keeps each line's gutter (line numbers, `+`/`-`) in place and marks cut lines with
//! `›`. Widths are display columns (wide characters count two).

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// How lines are fitted to the window's width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Every character shown, long lines continued on the next rows.
    Wrap,
    /// One row per line, shifted left by this many columns (after the gutter).
    Shift(usize),
}

/// A line split into its first `gutter` columns and the rest, as styled characters.
fn cells(line: &Line<'_>) -> Vec<(char, Style)> {
    line.spans
        .iter()
        .flat_map(|s| {
            let style = line.style.patch(s.style);
            s.content.chars().map(move |c| (c, style))
        })
        .collect()
}

fn width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// Joins styled characters back into spans (neighbours of one style merge).
fn spans(cells: &[(char, Style)]) -> Vec<Span<'static>> {
    let mut out: Vec<Span<'static>> = Vec::new();
    let mut text = String::new();
    let mut style = None;
    for (c, s) in cells {
        if style != Some(*s) {
            if let Some(st) = style {
                out.push(Span::styled(std::mem::take(&mut text), st));
            }
            style = Some(*s);
        }
        text.push(*c);
    }
    if let Some(st) = style {
        out.push(Span::styled(text, st));
    }
    out
}

/// Splits off the cells making up the first `cols` columns.
fn split_cols(cells: &[(char, Style)], cols: usize) -> usize {
    let mut used = 0;
    for (i, (c, _)) in cells.iter().enumerate() {
        if used + width(*c) > cols {
            return i;
        }
        used += width(*c);
    }
    cells.len()
}

/// Fits `lines` into `cols` columns. `gutter` leading columns of every line stay put.
pub fn fit(
    lines: Vec<Line<'_>>,
    gutter: usize,
    cols: usize,
    how: Fit,
    more: Style,
) -> Vec<Line<'static>> {
    let cols = cols.max(gutter + 2);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let all = cells(&line);
        let g = split_cols(&all, gutter);
        let (head, body) = all.split_at(g);
        match how {
            Fit::Shift(skip) => {
                let start = split_cols(body, skip);
                let rest = &body[start..];
                let room = cols - gutter;
                let end = split_cols(rest, room);
                let mut row: Vec<(char, Style)> = head.to_vec();
                if end < rest.len() {
                    // Cut: the last visible column says there is more to the right.
                    let keep = split_cols(rest, room.saturating_sub(1));
                    row.extend_from_slice(&rest[..keep]);
                    row.push(('›', more));
                } else {
                    row.extend_from_slice(rest);
                }
                out.push(Line::from(spans(&row)));
            }
            Fit::Wrap => {
                let room = cols - gutter;
                let mut rest = body;
                let mut first = true;
                loop {
                    let end = split_cols(rest, room).max(usize::from(!rest.is_empty()));
                    let mut row: Vec<(char, Style)> = if first {
                        head.to_vec()
                    } else {
                        let pad = gutter.saturating_sub(2);
                        let mut r = vec![(' ', Style::default()); pad];
                        r.extend(
                            [('↪', more), (' ', Style::default())]
                                .iter()
                                .take(gutter - pad),
                        );
                        r
                    };
                    row.extend_from_slice(&rest[..end]);
                    out.push(Line::from(spans(&row)));
                    rest = &rest[end..];
                    first = false;
                    if rest.is_empty() {
                        break;
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(l: &Line<'_>) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn shift_keeps_the_gutter_and_marks_cut_lines() {
        let lines = vec![Line::raw("  1 abcdefghij"), Line::raw("  2 xy")];
        let out = fit(lines, 4, 10, Fit::Shift(3), Style::default());
        assert_eq!(text(&out[0]), "  1 defgh›");
        assert_eq!(
            text(&out[1]),
            "  2 ",
            "a short line scrolled past is just its gutter"
        );
        let out = fit(
            vec![Line::raw("  1 abcdef")],
            4,
            10,
            Fit::Shift(0),
            Style::default(),
        );
        assert_eq!(
            text(&out[0]),
            "  1 abcdef",
            "a line that fits is not marked"
        );
    }

    #[test]
    fn wrap_shows_every_character_with_continuations_under_the_gutter() {
        let out = fit(
            vec![Line::raw("+ abcdefghijk")],
            2,
            6,
            Fit::Wrap,
            Style::default(),
        );
        let rows: Vec<String> = out.iter().map(text).collect();
        assert_eq!(rows, vec!["+ abcd", "↪ efgh", "↪ ijk"]);
        let out = fit(vec![Line::raw("")], 0, 6, Fit::Wrap, Style::default());
        assert_eq!(out.len(), 1, "an empty line stays one row");
    }

    #[test]
    fn wide_characters_count_two_columns() {
        let out = fit(
            vec![Line::raw("日本語です")],
            0,
            5,
            Fit::Wrap,
            Style::default(),
        );
        let rows: Vec<String> = out.iter().map(text).collect();
        assert_eq!(rows, vec!["日本", "語で", "す"]);
    }
}
