//! Search matches drawn in a cell: the characters the query matched are highlighted, after the
//! cell is cut to its width (at the end, or in the middle for ids).

use std::collections::HashSet;

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::fields;
use crate::fuzzy::positions;

/// Which characters of a row's id and instruction the free-text terms of `query` matched (char
/// indices into each).
pub fn row_marks(query: &str, id: &str, instruction: &str) -> (HashSet<usize>, HashSet<usize>) {
    let (_, terms) = fields::parse(query);
    if terms.is_empty() {
        return Default::default();
    }
    let hay = format!("{id} {instruction}").to_lowercase();
    let at: HashSet<usize> = positions(&hay, &terms).into_iter().collect();
    let id_len = id.chars().count();
    let (mut a, mut b) = (HashSet::new(), HashSet::new());
    for (ci, (bi, _)) in hay.char_indices().enumerate() {
        if !at.contains(&bi) {
            continue;
        }
        if ci < id_len {
            a.insert(ci);
        } else if ci > id_len {
            b.insert(ci - id_len - 1);
        }
    }
    (a, b)
}

/// Characters kept before and after the `…` of a middle cut to `width`: a little more of the end,
/// where ids differ (`…issue_0017`).
pub fn middle_split(width: usize) -> (usize, usize) {
    let keep = width.saturating_sub(1);
    let tail = (keep.div_ceil(2) + keep / 6).min(keep);
    (keep - tail, tail)
}

/// `text` cut to `width` characters (in the middle when `middle`), matched characters bold and
/// underlined (visible under NO_COLOR too).
pub fn marked(
    text: &str,
    marks: &HashSet<usize>,
    width: usize,
    middle: bool,
    base: Style,
) -> Line<'static> {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    // (char index or None for the ellipsis) in display order.
    let shown: Vec<Option<usize>> = if n <= width {
        (0..n).map(Some).collect()
    } else if middle && width >= 3 {
        let (head, tail) = middle_split(width);
        (0..head)
            .map(Some)
            .chain([None])
            .chain((n - tail..n).map(Some))
            .collect()
    } else {
        (0..width.saturating_sub(1))
            .map(Some)
            .chain([None])
            .collect()
    };
    let hit = base.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut cur = String::new();
    let mut cur_hit = false;
    for c in shown {
        let (ch, is_hit) = match c {
            Some(i) => (chars[i], marks.contains(&i)),
            None => ('…', false),
        };
        if is_hit != cur_hit && !cur.is_empty() {
            let style = if cur_hit { hit } else { base };
            spans.push(Span::styled(std::mem::take(&mut cur), style));
        }
        cur_hit = is_hit;
        cur.push(ch);
    }
    if !cur.is_empty() {
        spans.push(Span::styled(cur, if cur_hit { hit } else { base }));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(l: &Line<'_>) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn matched_characters_of_id_and_instruction_are_found_and_drawn() {
        let (id, instr) = row_marks("invoice", "shop_003", "Pay invoice 10442");
        assert!(id.is_empty());
        assert_eq!(instr, (4..11).collect());
        let line = marked("Pay invoice 10442", &instr, 40, false, Style::default());
        let hits: Vec<String> = line
            .spans
            .iter()
            .filter(|s| s.style.add_modifier.contains(Modifier::UNDERLINED))
            .map(|s| s.content.to_string())
            .collect();
        assert_eq!(hits, ["invoice"]);
        let (id, _) = row_marks("status:final 003", "shop_003", "x");
        assert_eq!(
            id,
            (5..8).collect(),
            "field terms are not highlighted, free text is"
        );
    }

    #[test]
    fn a_middle_cut_keeps_the_distinguishing_end_and_its_marks() {
        let id = "cross_chat-to-issue_0017";
        let marks: HashSet<usize> = (20..24).collect();
        let line = marked(id, &marks, 16, true, Style::default());
        assert_eq!(text(&line), "cross…issue_0017");
        assert_eq!(super::super::clip_middle(id, 16), "cross…issue_0017");
        assert_eq!(
            line.spans.last().map(|s| s.content.to_string()),
            Some("0017".into())
        );
    }
}
