//! What a bundle's texts (scripts, task JSON) say about the apps they reach: Hub hosts
//! (`https://cua-gym-<app>.xlang.ai`), placeholders (`__CUA_GYM_<APP>_URL__`), explicit ports
//! (`http://<host>:<port>`) and the task's `mock` field.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

/// The public Hub's domain: `cua-gym-<app>.<HUB_DOMAIN>`.
pub const HUB_DOMAIN: &str = "xlang.ai";

/// The host of a Hub app, e.g. `cua-gym-gmail.xlang.ai`.
pub fn hub_host(name: &str) -> String {
    format!("cua-gym-{name}.{HUB_DOMAIN}")
}

/// Evidence of the apps a bundle reaches, in first-seen order per kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    /// Hub app names from hosts (`cua-gym-<name>.xlang.ai`), lower case.
    pub hub_hosts: Vec<String>,
    /// App names from placeholders (`__CUA_GYM_<NAME>_URL__` → `name`, `_` read as `-`).
    pub placeholders: Vec<String>,
    /// Ports of `http(s)://<host>:<port>` URLs.
    pub ports: Vec<u16>,
    /// Names in the task's `mock` field (a string or a list), at any depth of its JSON.
    pub mocks: Vec<String>,
}

const HOST: &str = r"(?i)cua-gym-([a-z0-9][a-z0-9-]*)\.xlang\.ai";
const PLACEHOLDER: &str = r"__CUA_GYM_([A-Z0-9][A-Z0-9_]*?)_URL__";
const PORT: &str = r"https?://[A-Za-z0-9_.\-]+:([0-9]{2,5})\b";

fn compiled(cell: &'static OnceLock<Option<Regex>>, pattern: &str) -> Option<&'static Regex> {
    cell.get_or_init(|| Regex::new(pattern).ok()).as_ref()
}

fn captures<'t>(
    cell: &'static OnceLock<Option<Regex>>,
    pattern: &str,
    text: &'t str,
) -> Vec<&'t str> {
    compiled(cell, pattern)
        .map(|re| {
            re.captures_iter(text)
                .filter_map(|c| c.get(1).map(|m| m.as_str()))
                .collect()
        })
        .unwrap_or_default()
}

static HOST_RE: OnceLock<Option<Regex>> = OnceLock::new();
static PLACEHOLDER_RE: OnceLock<Option<Regex>> = OnceLock::new();
static PORT_RE: OnceLock<Option<Regex>> = OnceLock::new();

/// The placeholder name of an app (`issue-tracker` → `ISSUE_TRACKER`).
pub fn placeholder_name(app: &str) -> String {
    app.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// The regular expression of `__CUA_GYM_<APP>_URL__` placeholders (group 1: the name).
pub fn placeholders() -> Option<&'static Regex> {
    compiled(&PLACEHOLDER_RE, PLACEHOLDER)
}

fn push_unique<T: PartialEq>(v: &mut Vec<T>, x: T) {
    if !v.contains(&x) {
        v.push(x);
    }
}

impl Hints {
    /// Collects the hints of `texts` (scripts) and of the task's JSON.
    pub fn gather(texts: &[&str], task_json: &Value) -> Hints {
        let mut h = Hints::default();
        let json_text = task_json.to_string();
        for text in texts
            .iter()
            .copied()
            .chain(std::iter::once(json_text.as_str()))
        {
            for c in captures(&HOST_RE, HOST, text) {
                push_unique(&mut h.hub_hosts, c.to_ascii_lowercase());
            }
            for c in captures(&PLACEHOLDER_RE, PLACEHOLDER, text) {
                push_unique(
                    &mut h.placeholders,
                    c.to_ascii_lowercase().replace('_', "-"),
                );
            }
            for c in captures(&PORT_RE, PORT, text) {
                if let Ok(p) = c.parse::<u16>() {
                    push_unique(&mut h.ports, p);
                }
            }
        }
        let mut mocks = BTreeSet::new();
        collect_mocks(task_json, &mut mocks, &mut h.mocks);
        h
    }

    /// The app names the hints give by name (hosts, placeholders, `mock`), in that order.
    pub fn named(&self) -> Vec<(String, &'static str)> {
        let mut out: Vec<(String, &'static str)> = Vec::new();
        let kinds = [
            (&self.hub_hosts, "host"),
            (&self.placeholders, "placeholder"),
            (&self.mocks, "mock"),
        ];
        for (names, kind) in kinds {
            for n in names {
                if !out.iter().any(|(m, _)| m == n) {
                    out.push((n.clone(), kind));
                }
            }
        }
        out
    }
}

fn collect_mocks(v: &Value, seen: &mut BTreeSet<String>, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, val) in map {
                if k == "mock" {
                    let names: Vec<&str> = match val {
                        Value::String(s) => vec![s.as_str()],
                        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                        _ => Vec::new(),
                    };
                    for n in names {
                        let n = n.trim().to_ascii_lowercase();
                        if !n.is_empty() && seen.insert(n.clone()) {
                            out.push(n);
                        }
                    }
                } else {
                    collect_mocks(val, seen, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_mocks(x, seen, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hosts_placeholders_ports_and_mock_are_found() {
        let setup =
            "BASE_URL = 'https://cua-gym-gmail.xlang.ai'\nX='__CUA_GYM_ISSUE_TRACKER_URL__'\n\
                     requests.get('http://10.0.0.5:8012/go')";
        let h = Hints::gather(&[setup], &json!({"t": {"mock": ["Slack"]}}));
        assert_eq!(h.hub_hosts, vec!["gmail"]);
        assert_eq!(h.placeholders, vec!["issue-tracker"]);
        assert_eq!(h.ports, vec![8012]);
        assert_eq!(h.mocks, vec!["slack"]);
        let named: Vec<String> = h.named().into_iter().map(|(n, _)| n).collect();
        assert_eq!(named, vec!["gmail", "issue-tracker", "slack"]);
    }
}
