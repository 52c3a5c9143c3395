//! The display lines of the State diff screen, built from two sets of stored states (one per
//! environment) whenever the comparison, the view or a fold changes — never per frame.
//!
//! - The flat table is the engine's B.3.3 diff ([`tuplewright_engine::env::diff::diff`]) under the
//!   app's volatile mask; a changed array is broken down by its element-level `changes` (elements
//!   matched by id, else by index), so a changed field reads `channels[C99].topic`. With masked
//!   keys shown, the rows that only the unmasked diff has are flagged `masked`.
//! - The tree is the union of both JSON documents; containers with a change are open by default,
//!   unchanged ones folded; a node's fold can be toggled; masked nodes are hidden unless shown.
//! - Unified mode gives a changed value two lines (`-` old, `+` new); side-by-side one line with
//!   both values.

use std::collections::HashSet;

use serde_json::{Map, Value};

use tuplewright_base::store::StoredState;
use tuplewright_engine::env::diff::diff;
use tuplewright_engine::env::mask::Mask;

/// What a line shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Unchanged.
    Same,
    /// Only on the right (target) side.
    Added,
    /// Only on the left (initial) side.
    Removed,
    /// On both sides, different.
    Changed,
    /// A note (no state, nothing changed).
    Info,
}

impl Kind {
    /// The glyph drawn before the line (state is never carried by colour alone).
    pub fn glyph(self) -> &'static str {
        match self {
            Kind::Same | Kind::Info => " ",
            Kind::Added => "+",
            Kind::Removed => "-",
            Kind::Changed => "~",
        }
    }
}

/// A foldable tree node on a line.
#[derive(Debug, Clone, PartialEq)]
pub struct Fold {
    /// Stable node id (environment and key path).
    pub id: String,
    /// Whether its children are shown.
    pub open: bool,
}

/// One display line.
#[derive(Debug, Clone, PartialEq)]
pub struct DLine {
    /// Change kind.
    pub kind: Kind,
    /// Indentation level (tree) — 0 in the table.
    pub depth: u16,
    /// Key path (table) or key (tree).
    pub label: String,
    /// Value on the left side (or the only value, in unified mode).
    pub left: Option<String>,
    /// Value on the right side (side-by-side only).
    pub right: Option<String>,
    /// A volatile (masked) key: drawn dimmed.
    pub masked: bool,
    /// Tree containers only.
    pub fold: Option<Fold>,
    /// An environment heading.
    pub heading: bool,
}

impl DLine {
    pub(crate) fn new(kind: Kind, depth: u16, label: String) -> Self {
        DLine {
            kind,
            depth,
            label,
            left: None,
            right: None,
            masked: false,
            fold: None,
            heading: false,
        }
    }

    /// Whether the line contains `needle` (already lower-case) in its key or values.
    pub fn matches(&self, needle: &str) -> bool {
        let has = |s: &str| s.to_lowercase().contains(needle);
        has(&self.label)
            || self.left.as_deref().is_some_and(has)
            || self.right.as_deref().is_some_and(has)
    }
}

/// How to build the lines.
#[derive(Debug, Clone, Copy)]
pub struct BuildOpts<'a> {
    /// Tree (true) or flat table.
    pub tree: bool,
    /// Side-by-side (true) or unified.
    pub split: bool,
    /// Show volatile (masked) keys, dimmed.
    pub show_masked: bool,
    /// Tree nodes whose fold was toggled from its default.
    pub toggled: &'a HashSet<String>,
    /// Lower-case search text: tree nodes holding a match are opened.
    pub query: &'a str,
}

/// Longest value text kept on a line (the view clips further to the column width).
const MAX_VALUE: usize = 400;

pub(crate) fn compact(v: &Value) -> String {
    let mut s = v.to_string();
    if s.len() > MAX_VALUE {
        let mut cut = MAX_VALUE;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push('…');
    }
    s
}

/// Builds the lines comparing `left` with `right`, environment by environment.
pub fn build(left: &[StoredState], right: &[StoredState], opts: &BuildOpts<'_>) -> Vec<DLine> {
    let mut envs: Vec<&str> = left.iter().chain(right).map(|s| s.env.as_str()).collect();
    envs.sort_unstable();
    envs.dedup();
    let mut out = Vec::new();
    for env in envs {
        let a = left.iter().find(|s| s.env == env);
        let b = right.iter().find(|s| s.env == env);
        let globs = b.or(a).map(|s| s.volatile.as_slice()).unwrap_or(&[]);
        let mask = Mask::new(globs).unwrap_or_default();
        let (va, vb) = (a.map(|s| &s.state), b.map(|s| &s.state));
        if opts.tree {
            let node = super::state_tree::node(
                env.to_string(),
                env.to_string(),
                &mut Vec::new(),
                va,
                vb,
                &mask,
                false,
                opts.query,
            );
            super::state_tree::flatten(&node, 0, opts, &mut out);
        } else {
            table(env, va, vb, &mask, opts, &mut out);
        }
    }
    out
}

/// The number of changed key paths between `left` and `right` (every environment, volatile keys
/// masked) — the rows of the flat table, counted once whatever the view.
pub fn change_count(left: &[StoredState], right: &[StoredState]) -> usize {
    let mut envs: Vec<&str> = left.iter().chain(right).map(|s| s.env.as_str()).collect();
    envs.sort_unstable();
    envs.dedup();
    let empty = Value::Object(Map::new());
    envs.iter()
        .map(|env| {
            let a = left.iter().find(|s| s.env == *env);
            let b = right.iter().find(|s| s.env == *env);
            let globs = b.or(a).map(|s| s.volatile.as_slice()).unwrap_or(&[]);
            let mask = Mask::new(globs).unwrap_or_default();
            let (ka, kb) = (
                a.map_or(&empty, |s| &s.state),
                b.map_or(&empty, |s| &s.state),
            );
            rows_of(&diff(ka, kb, &mask)).len()
        })
        .sum()
}

struct Row {
    path: String,
    kind: Kind,
    old: Option<Value>,
    new: Option<Value>,
    masked: bool,
}

fn rows_of(d: &tuplewright_engine::env::diff::Diff) -> Vec<Row> {
    let row = |path: String, e: &Value| {
        let kind = if e.get("added").is_some() {
            Kind::Added
        } else if e.get("removed").is_some() {
            Kind::Removed
        } else {
            Kind::Changed
        };
        let pick = |k: &str| (!e[k].is_null() || kind == Kind::Changed).then(|| e[k].clone());
        Row {
            path,
            kind,
            old: pick("old"),
            new: pick("new"),
            masked: false,
        }
    };
    let mut out = Vec::new();
    for (path, e) in &d.state_diff {
        let changes: Vec<&Value> = d
            .changes
            .iter()
            .filter(|c| c["path"] == path.as_str())
            .collect();
        if changes.is_empty() {
            out.push(row(path.clone(), e));
            continue;
        }
        for c in changes {
            let key = match &c["key"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let at = format!("{path}[{key}]");
            match c["op"].as_str() {
                Some("changed") => {
                    for (f, fe) in c["fields"].as_object().unwrap_or(&Map::new()) {
                        out.push(row(format!("{at}.{f}"), fe));
                    }
                }
                Some("added") => out.push(row(
                    at,
                    &serde_json::json!({"old": null, "new": c["new"], "added": true}),
                )),
                Some("removed") => out.push(row(
                    at,
                    &serde_json::json!({"old": c["old"], "new": null, "removed": true}),
                )),
                _ => out.push(row(
                    format!("{path} (order)"),
                    &serde_json::json!({"old": c["old_order"], "new": c["new_order"]}),
                )),
            }
        }
    }
    out
}

fn heading(env: &str, depth: u16, kind: Kind, out: &mut Vec<DLine>) {
    let mut h = DLine::new(kind, depth, env.to_string());
    h.heading = true;
    out.push(h);
}

fn table(
    env: &str,
    a: Option<&Value>,
    b: Option<&Value>,
    mask: &Mask,
    opts: &BuildOpts<'_>,
    out: &mut Vec<DLine>,
) {
    let empty = Value::Object(Map::new());
    let (ka, kb) = (a.unwrap_or(&empty), b.unwrap_or(&empty));
    let mut rows = rows_of(&diff(ka, kb, mask));
    if opts.show_masked {
        let kept: HashSet<String> = rows.iter().map(|r| r.path.clone()).collect();
        let mut all = rows_of(&diff(ka, kb, &Mask::default()));
        for r in &mut all {
            r.masked = !kept.contains(&r.path);
        }
        let seen: HashSet<String> = all.iter().map(|r| r.path.clone()).collect();
        all.extend(rows.into_iter().filter(|r| !seen.contains(&r.path)));
        rows = all;
    }
    let kind = match (a, b) {
        (None, Some(_)) => Kind::Added,
        (Some(_), None) => Kind::Removed,
        _ if rows.iter().any(|r| !r.masked) => Kind::Changed,
        _ => Kind::Same,
    };
    heading(env, 0, kind, out);
    if rows.is_empty() {
        let mut l = DLine::new(Kind::Info, 1, "(no change)".into());
        l.masked = true;
        out.push(l);
    }
    for r in rows {
        leaf_lines(
            r.kind,
            1,
            r.path,
            r.old.as_ref(),
            r.new.as_ref(),
            r.masked,
            opts.split,
            out,
        );
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn leaf_lines(
    kind: Kind,
    depth: u16,
    label: String,
    old: Option<&Value>,
    new: Option<&Value>,
    masked: bool,
    split: bool,
    out: &mut Vec<DLine>,
) {
    if let Some(text) = super::state_text::text_lines(kind, depth, &label, old, new, masked) {
        out.extend(text);
        return;
    }
    let mut l = DLine::new(kind, depth, label);
    l.masked = masked;
    if split {
        l.left = old.map(compact);
        l.right = new.map(compact);
        out.push(l);
        return;
    }
    match kind {
        Kind::Changed => {
            let mut second = l.clone();
            l.kind = Kind::Removed;
            l.left = old.map(compact);
            second.kind = Kind::Added;
            second.left = new.map(compact);
            out.push(l);
            out.push(second);
        }
        Kind::Added => {
            l.left = new.map(compact);
            out.push(l);
        }
        _ => {
            l.left = old.or(new).map(compact);
            out.push(l);
        }
    }
}

#[cfg(test)]
#[path = "state_rows_tests.rs"]
mod tests;
