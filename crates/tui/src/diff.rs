//! Line diffs between two texts (a script or REVIEW.md of two rounds), via `similar`.

use similar::{ChangeTag, TextDiff};

/// How a diff line changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Only in the newer text.
    Added,
    /// Only in the older text.
    Removed,
    /// In both (context).
    Same,
    /// A hunk separator (`@@ ... @@`).
    Hunk,
}

/// A unified diff of `old` → `new` with `context` lines around each change.
pub fn unified(old: &str, new: &str, context: usize) -> Vec<(Change, String)> {
    let diff = TextDiff::from_lines(old, new);
    let mut out = Vec::new();
    for group in diff.grouped_ops(context) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let (o, n) = (first.old_range().start, first.new_range().start);
        let (oe, ne) = (last.old_range().end, last.new_range().end);
        out.push((
            Change::Hunk,
            format!("@@ -{},{} +{},{} @@", o + 1, oe - o, n + 1, ne - n),
        ));
        for op in &group {
            for c in diff.iter_changes(op) {
                let kind = match c.tag() {
                    ChangeTag::Insert => Change::Added,
                    ChangeTag::Delete => Change::Removed,
                    ChangeTag::Equal => Change::Same,
                };
                out.push((kind, c.value().trim_end_matches('\n').to_string()));
            }
        }
    }
    out
}

/// One piece of a changed line: its text and whether it differs from the paired line.
pub type Piece = (bool, String);

/// Word-level changes between a removed line and the added line that replaced it: the old line's
/// pieces (changed = removed words) and the new line's (changed = added words).
pub fn words(old: &str, new: &str) -> (Vec<Piece>, Vec<Piece>) {
    let diff = TextDiff::from_words(old, new);
    let (mut o, mut n) = (Vec::new(), Vec::new());
    let push = |v: &mut Vec<Piece>, changed: bool, text: &str| match v.last_mut() {
        Some((c, t)) if *c == changed => t.push_str(text),
        _ => v.push((changed, text.to_string())),
    };
    for c in diff.iter_all_changes() {
        match c.tag() {
            ChangeTag::Equal => {
                push(&mut o, false, c.value());
                push(&mut n, false, c.value());
            }
            ChangeTag::Delete => push(&mut o, true, c.value()),
            ChangeTag::Insert => push(&mut n, true, c.value()),
        }
    }
    (o, n)
}

/// For each line of a unified diff, the index of the line it pairs with for word highlighting:
/// the k-th removed line of a block of removals pairs with the k-th added line right after it.
pub fn pairs(lines: &[(Change, String)]) -> Vec<Option<usize>> {
    let mut out = vec![None; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        let del_start = i;
        while i < lines.len() && lines[i].0 == Change::Removed {
            i += 1;
        }
        let add_start = i;
        while i < lines.len() && lines[i].0 == Change::Added {
            i += 1;
        }
        let (dels, adds) = (add_start - del_start, i - add_start);
        for k in 0..dels.min(adds) {
            out[del_start + k] = Some(add_start + k);
            out[add_start + k] = Some(del_start + k);
        }
        if i == del_start {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified_marks_added_removed_and_context_lines() {
        let d = unified("a\nb\nc\n", "a\nB\nc\nd\n", 1);
        assert_eq!(d[0].0, Change::Hunk);
        assert!(d.contains(&(Change::Removed, "b".into())));
        assert!(d.contains(&(Change::Added, "B".into())));
        assert!(d.contains(&(Change::Added, "d".into())));
        assert!(d.contains(&(Change::Same, "a".into())));
        assert!(unified("same\n", "same\n", 3).is_empty());
    }

    #[test]
    fn words_mark_only_the_changed_word_of_a_long_line() {
        let pad = "x = 1; ".repeat(30);
        let (o, n) = words(&format!("{pad}total = 10"), &format!("{pad}total = 12"));
        let changed = |v: &[Piece]| -> Vec<String> {
            v.iter().filter(|p| p.0).map(|p| p.1.clone()).collect()
        };
        assert_eq!(changed(&o), vec!["10"]);
        assert_eq!(changed(&n), vec!["12"]);
        assert!(
            !o[0].0 && o[0].1.starts_with("x = 1;"),
            "the shared prefix is unchanged"
        );
    }

    #[test]
    fn pairs_match_removed_and_added_runs_in_order() {
        let d = unified("a\nb\nc\nz\n", "a\nB\nC\nD\nz\n", 0);
        let p = pairs(&d);
        let idx = |c: Change, t: &str| d.iter().position(|x| *x == (c, t.to_string()));
        let (b, big_b) = (idx(Change::Removed, "b"), idx(Change::Added, "B"));
        assert_eq!(p[b.unwrap_or(0)], big_b);
        assert_eq!(
            p[idx(Change::Removed, "c").unwrap_or(0)],
            idx(Change::Added, "C")
        );
        assert_eq!(
            p[idx(Change::Added, "D").unwrap_or(0)],
            None,
            "an extra added line has no pair"
        );
    }
}
