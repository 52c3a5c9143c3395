//! Text files in a state diff (the files domain stores each file's `text`): shown as a line
//! diff under the file's key path rather than one escaped JSON string per side.

use serde_json::Value;

use super::diff::{unified, Change};
use super::state_rows::{DLine, Kind};

/// A text file's contents (a string with line breaks on either side) as a line diff under its
/// key, instead of one escaped JSON string per side. Always unified: lines do not pair up.
pub fn text_lines(
    kind: Kind,
    depth: u16,
    label: &str,
    old: Option<&Value>,
    new: Option<&Value>,
    masked: bool,
) -> Option<Vec<DLine>> {
    let (o, n) = (text(old)?, text(new)?);
    if !(o.unwrap_or("").contains('\n') || n.unwrap_or("").contains('\n')) {
        return None;
    }
    let (o, n) = (o.unwrap_or(""), n.unwrap_or(""));
    let count = |s: &str| s.lines().count();
    let mut head = DLine::new(kind, depth, label.to_string());
    head.masked = masked;
    head.left = Some(format!("text: {} → {} lines", count(o), count(n)));
    let mut out = vec![head];
    let body = if kind == Kind::Same {
        Vec::new()
    } else {
        unified(o, n, 2)
    };
    for (change, line) in body {
        let k = match change {
            Change::Added => Kind::Added,
            Change::Removed => Kind::Removed,
            Change::Same => Kind::Same,
            Change::Hunk => Kind::Info,
        };
        let mut l = DLine::new(k, depth + 1, String::new());
        l.masked = masked;
        l.left = Some(line);
        out.push(l);
    }
    Some(out)
}

/// A value as text: `Some(None)` when absent, `None` when it is not a string.
fn text(v: Option<&Value>) -> Option<Option<&str>> {
    match v {
        None | Some(Value::Null) => Some(None),
        Some(Value::String(s)) => Some(Some(s.as_str())),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_changed_text_file_is_a_line_diff_not_an_escaped_string() {
        let (old, new) = (json!("a\nb\nc\n"), json!("a\nB\nc\n"));
        let out = text_lines(
            Kind::Changed,
            1,
            "todo.md.text",
            Some(&old),
            Some(&new),
            false,
        )
        .expect("text diff");
        assert_eq!(out[0].label, "todo.md.text");
        assert_eq!(out[0].left.as_deref(), Some("text: 3 → 3 lines"));
        let has = |k: Kind, t: &str| {
            out.iter()
                .any(|l| l.kind == k && l.left.as_deref() == Some(t))
        };
        assert!(has(Kind::Removed, "b") && has(Kind::Added, "B") && has(Kind::Same, "a"));
        assert!(out
            .iter()
            .all(|l| !l.left.as_deref().unwrap_or("").contains("\\n")));
        let added =
            text_lines(Kind::Added, 1, "new.md.text", None, Some(&new), false).expect("a new file");
        let body = added
            .iter()
            .filter(|l| l.kind == Kind::Added && l.label.is_empty());
        assert_eq!(body.count(), 3, "every line of a new file is added");
    }

    #[test]
    fn one_line_strings_and_non_strings_keep_the_value_rows() {
        let one = text_lines(
            Kind::Changed,
            1,
            "k",
            Some(&json!("a")),
            Some(&json!("b")),
            false,
        );
        assert!(one.is_none());
        let num = text_lines(
            Kind::Changed,
            1,
            "k",
            Some(&json!(1)),
            Some(&json!("a\nb")),
            false,
        );
        assert!(num.is_none());
    }
}
