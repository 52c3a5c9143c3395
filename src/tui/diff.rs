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
}
