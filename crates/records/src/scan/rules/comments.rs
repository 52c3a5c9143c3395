//! Comment reading for rule 6 — the only regex in the scanner: the AST drops comments.

use std::sync::OnceLock;

use regex::Regex;

use super::super::py::Lines;

/// The pattern of a comment asserting a check (`None` only if the literal pattern were invalid,
/// which the unit tests rule out).
fn asserting() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)\b(
                assum\w* | presum\w* | trust\w* | guarantee\w* | obviously | surely
              | should\s+(already\s+)?(be|have|work|pass) | must\s+(already\s+)?be
              | (is|are|was|were)\s+(correct|right|fine|valid|ok|okay|done|present|there|good)
              | already\s+(been\s+)?(verified|checked|validated|confirmed|done|correct|applied)
              | (verified|checked|validated|confirmed)\s+(above|earlier|elsewhere|before|manually|visually|by|in)
              | no\s+need\s+to\s+(check|verify|validate) | skip\w*\s+(the\s+)?(check|verification|validation)
              | known\s+to\s+be | by\s+construction | golden(\s+|_)patch | we\s+know | take\s+it\s+as
              | (counts?|treat(ed)?)\s+as\s+(passed|verified|correct)
              | todo | fixme | xxx | tbd | placeholder
            )\b",
        )
        .ok()
    })
    .as_ref()
}

/// Comments that replace a check outright, whatever conditions surround the award
/// (`# assume the formatting is correct`, `# no need to verify`).
fn strong_assertion() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)\b( assum\w* | presum\w* | trust\w* | no\s+need\s+to\s+(check|verify|validate)
              | skip\w*\s+(the\s+)?(check|verification|validation) | without\s+(checking|verifying)
              | should\s+already | already\s+(been\s+)?(verified|checked|validated|confirmed)
              | take\s+it\s+as | by\s+construction )\b",
        )
        .ok()
    })
    .as_ref()
}

/// A comment attached to `line` that asserts a check strongly enough to stand in for one.
pub(super) fn strong_asserted_check(lines: &Lines, line: usize) -> Option<String> {
    let re = strong_assertion()?;
    comments_at(lines, line)
        .into_iter()
        .find(|c| re.is_match(c))
}

fn placeholder_words() -> Option<&'static Regex> {
    static RE: OnceLock<Option<Regex>> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)\b( assum\w* | placeholder | todo | fixme | tbd | stub\w* | for\s+now | later
              | temporar\w* | pretend\w* | dummy | hard-?coded | fill(ed)?\s+in )\b",
        )
        .ok()
    })
    .as_ref()
}

/// The comment marking the constant on `line` as a placeholder (`# assume the chart exists`,
/// `# TODO: check later`), if any.
pub fn placeholder_comment(lines: &Lines, line: usize) -> Option<String> {
    let re = placeholder_words()?;
    comments_at(lines, line)
        .into_iter()
        .find(|c| re.is_match(c))
}

/// The comment part of a source line (ignores `#` inside simple string literals).
fn comment(line: &str) -> Option<&str> {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, ch) in line.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, ch) {
            (Some(_), '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(ch),
            (None, '#') => return line.get(i + 1..),
            _ => {}
        }
    }
    None
}

/// The comment asserting a check that justifies the statement on `line`, if any: a trailing
/// comment, or the block of comment lines directly above it. With `any_description`, a
/// descriptive comment that asserts nothing explicitly ("# Component 3: legend position") also
/// counts: attached to an award that inspects nothing at all, it claims a check no code performs.
pub(super) fn asserted_check(lines: &Lines, line: usize, any_description: bool) -> Option<String> {
    let re = asserting()?;
    let comments = comments_at(lines, line);
    let asserting = comments.iter().find(|c| re.is_match(c)).cloned();
    if !any_description {
        return asserting;
    }
    asserting.or_else(|| {
        comments.into_iter().find(|c| {
            c.split_whitespace()
                .filter(|w| w.chars().any(char::is_alphabetic))
                .count()
                >= 2
        })
    })
}

/// The trailing comment of `line` and the comment lines directly above it.
fn comments_at(lines: &Lines, line: usize) -> Vec<String> {
    let mut candidates = Vec::new();
    if let Some(c) = comment(lines.line(line)) {
        candidates.push(c.trim().to_string());
    }
    let mut l = line;
    while l > 1 {
        l -= 1;
        let text = lines.line(l).trim();
        if let Some(c) = text.strip_prefix('#') {
            candidates.push(c.trim().to_string());
        } else if !text.is_empty() {
            break;
        }
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::super::super::py::Lines;
    use super::*;

    #[test]
    fn comment_patterns_compile_and_match() {
        assert!(asserting().is_some() && placeholder_words().is_some());
        assert!(strong_assertion().is_some());
        let lines =
            Lines::new("x = 1\n# assume the footer is correct\nscore += 0.5\ny = 2  # fine\n");
        assert!(asserted_check(&lines, 3, false).is_some_and(|c| c.contains("assume")));
        assert_eq!(
            asserted_check(&lines, 4, true),
            None,
            "one word is not a claimed check"
        );
        let lines = Lines::new("# (1) A reply exists in the sent folder [0.2]\nscore += 0.2\n");
        assert_eq!(asserted_check(&lines, 2, false), None);
        assert!(asserted_check(&lines, 2, true).is_some());
        let lines = Lines::new("ok = True  # Assume chart exists\ns = '# not a comment'\n");
        assert!(placeholder_comment(&lines, 1).is_some());
        assert_eq!(placeholder_comment(&lines, 2), None);
    }
}
