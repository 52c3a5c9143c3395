//! Field terms of the tuple search: `status:final`, `app:mail`, `diff:hard`, `sev:P0`,
//! `domain:files`, `tag:leak`, `contested:yes`, `rounds:>2`, `gold:<1`, `init:>=0.5`. Text fields match by case-insensitive
//! prefix; number fields compare with `<`, `<=`, `>`, `>=` or `=` (the default). A term whose field is
//! unknown, or whose number does not parse, stays a free-text term for the fuzzy matcher.

use crate::curate::rows::TaskRow;

/// A number comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `=` (or no operator)
    Eq,
}

/// One parsed field term.
#[derive(Debug, Clone)]
pub enum FieldTerm {
    /// A text field starting with the (lower-cased) value.
    Text(fn(&TaskRow) -> &str, String),
    /// A number field compared with a value; rows without the number never match.
    Num(fn(&TaskRow) -> Option<f64>, Op, f64),
    /// One of the tuple's tags starts with the (lower-cased) value.
    Tag(String),
}

fn text_field(name: &str) -> Option<fn(&TaskRow) -> &str> {
    Some(match name {
        "status" => |r| r.status.as_str(),
        "app" => |r| r.app.as_str(),
        "diff" | "difficulty" => |r| r.difficulty.as_str(),
        "sev" | "severity" => |r| r.severity.as_str(),
        "domain" => |r| r.domain.as_str(),
        "contested" => |r| if r.contested { "yes" } else { "no" },
        _ => return None,
    })
}

fn num_field(name: &str) -> Option<fn(&TaskRow) -> Option<f64>> {
    Some(match name {
        "rounds" | "rnd" => |r| Some(r.rounds as f64),
        "gold" => |r| r.r_gold,
        "init" => |r| r.r_init,
        _ => return None,
    })
}

/// Splits a query into field terms and the remaining free-text terms (lower-cased).
pub fn parse(query: &str) -> (Vec<FieldTerm>, Vec<String>) {
    let mut fields = Vec::new();
    let mut free = Vec::new();
    for term in query.split_whitespace() {
        let lower = term.to_lowercase();
        match lower.split_once(':').and_then(|(k, v)| field_term(k, v)) {
            Some(f) => fields.push(f),
            None => free.push(lower),
        }
    }
    (fields, free)
}

/// Field names the search knows.
pub const FIELDS: &[&str] = &[
    "status",
    "app",
    "diff",
    "sev",
    "domain",
    "tag",
    "contested",
    "rounds",
    "gold",
    "init",
];

/// The `name:` terms of a query that look like field terms but name no field, or whose number
/// does not parse (they are searched as text) — shown to the user as such.
pub fn unknown(query: &str) -> Vec<String> {
    query
        .split_whitespace()
        .filter_map(|term| {
            let lower = term.to_lowercase();
            let (k, v) = lower.split_once(':')?;
            let looks = !k.is_empty()
                && k.len() <= 12
                && k.chars().all(|c| c.is_ascii_alphabetic())
                && !v.starts_with('/');
            (looks && !v.is_empty() && field_term(k, v).is_none()).then(|| term.to_string())
        })
        .collect()
}

fn field_term(key: &str, value: &str) -> Option<FieldTerm> {
    if key == "tag" {
        return (!value.is_empty()).then(|| FieldTerm::Tag(value.to_string()));
    }
    if let Some(f) = text_field(key) {
        return (!value.is_empty()).then(|| FieldTerm::Text(f, value.to_string()));
    }
    let f = num_field(key)?;
    let (op, rest) = [
        ("<=", Op::Le),
        (">=", Op::Ge),
        ("<", Op::Lt),
        (">", Op::Gt),
        ("=", Op::Eq),
    ]
    .iter()
    .find_map(|(p, op)| value.strip_prefix(p).map(|r| (*op, r)))
    .unwrap_or((Op::Eq, value));
    let n: f64 = rest.parse().ok()?;
    Some(FieldTerm::Num(f, op, n))
}

impl FieldTerm {
    /// Whether `row` satisfies the term.
    pub fn matches(&self, row: &TaskRow) -> bool {
        match self {
            FieldTerm::Text(f, v) => f(row).to_lowercase().starts_with(v.as_str()),
            FieldTerm::Tag(v) => row
                .tags
                .split_whitespace()
                .any(|t| t.to_lowercase().starts_with(v.as_str())),
            FieldTerm::Num(f, op, n) => f(row).is_some_and(|x| match op {
                Op::Lt => x < *n,
                Op::Le => x <= *n,
                Op::Gt => x > *n,
                Op::Ge => x >= *n,
                Op::Eq => (x - n).abs() < 1e-9,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(status: &str, rounds: i64, gold: Option<f64>) -> TaskRow {
        TaskRow {
            id: "t".into(),
            instruction: "Post the notes".into(),
            app: "team-chat".into(),
            domain: "team-chat".into(),
            difficulty: "hard".into(),
            status: status.into(),
            rounds,
            r_gold: gold,
            r_init: Some(0.0),
            severity: "P1".into(),
            tags: "leak Hard-query".into(),
            contested: true,
        }
    }

    #[test]
    fn field_terms_filter_and_the_rest_stays_free_text() {
        let (f, free) =
            parse("rounds:>2 gold:<1 status:loop app:TEAM sev:p1 notes bogus:x rounds:abc");
        assert_eq!(f.len(), 5);
        assert_eq!(free, ["notes", "bogus:x", "rounds:abc"]);
        let ok = row("loop_accepted", 3, Some(0.5));
        assert!(f.iter().all(|t| t.matches(&ok)));
        assert!(
            !f[0].matches(&row("loop_accepted", 2, Some(0.5))),
            "rounds:>2"
        );
        assert!(
            !f[1].matches(&row("loop_accepted", 3, Some(1.0))),
            "gold:<1"
        );
        assert!(
            !f[1].matches(&row("loop_accepted", 3, None)),
            "no r(gold) never matches"
        );
        assert!(!f[2].matches(&row("final", 3, Some(0.5))), "status prefix");
        assert_eq!(
            unknown("bogus:x rounds:abc status:final http://x a:"),
            ["bogus:x", "rounds:abc"]
        );
        let (tag, _) = parse("tag:hard tag:lea");
        assert!(tag.iter().all(|t| t.matches(&ok)), "tag prefix, any tag");
        let (c, _) = parse("contested:yes");
        assert!(c[0].matches(&ok));
        let (tag, _) = parse("tag:flaky");
        assert!(!tag[0].matches(&ok));
        let (eq, _) = parse("rounds:1 init:>=0");
        assert!(eq[0].matches(&row("x", 1, None)) && !eq[0].matches(&row("x", 2, None)));
        assert!(eq[1].matches(&row("x", 1, None)));
    }
}
