//! Reward probes: states on which a sound reward must not give credit.
//!
//! A reward that gives credit for *absence* ("0.5 per spam message no longer present") scores an
//! empty or wiped state as a success. Three probes expose that, each a state the harness builds
//! from the round's own environments:
//!
//! - **noop**: a fresh environment where nothing was set up and nothing done;
//! - **empty state**: every collection of every app emptied (and the home directory empty);
//! - **destructive**: V_init with the primary collection the task touches wiped (all messages,
//!   all issues, all files).
//!
//! This module is pure: it names the probes and transforms app states; running them is the
//! harness's job (`harness::probes`), judging them the agreement core's.

use serde_json::{Map, Value};

/// One probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeKind {
    /// A fresh environment, no setup, no action.
    Noop,
    /// Every app collection emptied, the home directory empty.
    EmptyState,
    /// V_init with the primary collection the task touches wiped.
    Destructive,
}

impl ProbeKind {
    /// Every probe, in the order they are run and reported.
    pub const ALL: [ProbeKind; 3] = [Self::Noop, Self::EmptyState, Self::Destructive];

    /// Stable name (`noop`, `empty_state`, `destructive`), used in failing-condition lists as
    /// `probe:<name>`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Noop => "noop",
            Self::EmptyState => "empty_state",
            Self::Destructive => "destructive",
        }
    }

    /// The `endpoint` of its stored reward run (`probe:<name>`).
    pub fn endpoint(self) -> String {
        format!("probe:{}", self.name())
    }

    /// Parses a name or an endpoint (`noop` or `probe:noop`).
    pub fn parse(s: &str) -> Option<ProbeKind> {
        let name = s.strip_prefix("probe:").unwrap_or(s);
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A collection of an app state: a top-level array, or a top-level object whose values are all
/// arrays (e.g. team-chat's messages keyed by channel).
fn is_collection(v: &Value) -> bool {
    match v {
        Value::Array(_) => true,
        Value::Object(m) => !m.is_empty() && m.values().all(Value::is_array),
        _ => false,
    }
}

/// Number of items in a collection (0 for anything else).
fn items(v: &Value) -> usize {
    match v {
        Value::Array(a) => a.len(),
        Value::Object(m) if is_collection(v) => {
            m.values().map(|x| x.as_array().map_or(0, Vec::len)).sum()
        }
        _ => 0,
    }
}

/// The collection emptied: an array becomes `[]`, an object of arrays keeps its keys with `[]`
/// (so a deep merge over the app defaults still replaces every list).
fn empty_collection(v: &Value) -> Value {
    match v {
        Value::Array(_) => Value::Array(Vec::new()),
        Value::Object(m) => Value::Object(
            m.keys()
                .map(|k| (k.clone(), Value::Array(Vec::new())))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `state` with every collection emptied; scalars and plain objects (account, settings) kept.
pub fn emptied(state: &Value) -> Value {
    match state {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| {
                    let v = if is_collection(v) {
                        empty_collection(v)
                    } else {
                        v.clone()
                    };
                    (k.clone(), v)
                })
                .collect::<Map<String, Value>>(),
        ),
        other => other.clone(),
    }
}

/// `state` with the collection `key` emptied (everything else unchanged).
pub fn wiped(state: &Value, key: &str) -> Value {
    let mut out = state.clone();
    if let Some(v) = out.get_mut(key) {
        *v = empty_collection(v);
    }
    out
}

/// The collection the task touches most: the one whose serialized items differ most between
/// V_init and V_gold (by item count changed plus items whose JSON differs); without any change,
/// the largest collection of `init`. `None` when the state has no collection.
pub fn primary_collection(init: &Value, gold: &Value) -> Option<String> {
    let Value::Object(m) = init else {
        return None;
    };
    let changed = |k: &str, v: &Value| -> usize {
        let g = gold.get(k).unwrap_or(&Value::Null);
        if v == g {
            return 0;
        }
        match (v, g) {
            (Value::Array(a), Value::Array(b)) => {
                let differing = a.iter().zip(b).filter(|(x, y)| x != y).count();
                differing + a.len().abs_diff(b.len())
            }
            _ => items(v).abs_diff(items(g)).max(1),
        }
    };
    let collections = m.iter().filter(|(_, v)| is_collection(v));
    let best_changed = collections
        .clone()
        .map(|(k, v)| (changed(k, v), k))
        .filter(|(n, _)| *n > 0)
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(a.1)));
    if let Some((_, k)) = best_changed {
        return Some(k.clone());
    }
    collections
        .map(|(k, v)| (items(v), k))
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, k)| k.clone())
}

/// Items a collection holds (for probe descriptions: "messages wiped (60 items)").
pub fn collection_size(state: &Value, key: &str) -> usize {
    state.get(key).map_or(0, items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn emptied_clears_lists_and_maps_of_lists_and_keeps_the_rest() {
        let s = json!({"account": {"email": "a@b"}, "messages": [1, 2], "chat": {"c1": [1], "c2": []},
                       "ui": {"theme": "dark"}, "n": 3});
        assert_eq!(
            emptied(&s),
            json!({"account": {"email": "a@b"}, "messages": [], "chat": {"c1": [], "c2": []},
                   "ui": {"theme": "dark"}, "n": 3})
        );
    }

    #[test]
    fn the_primary_collection_is_the_one_the_golden_state_changes_most() {
        let init = json!({"messages": [{"id": 1, "f": "spam"}, {"id": 2, "f": "spam"}, {"id": 3}],
                          "contacts": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}],
                          "labels": [{"id": 1}]});
        let gold = json!({"messages": [{"id": 3}], "contacts": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}],
                          "labels": [{"id": 1}, {"id": 2}]});
        assert_eq!(
            primary_collection(&init, &gold).as_deref(),
            Some("messages")
        );
        // No change at all: the largest collection.
        assert_eq!(
            primary_collection(&init, &init).as_deref(),
            Some("contacts")
        );
        assert_eq!(primary_collection(&json!({"n": 1}), &json!({})), None);
        let w = wiped(&init, "messages");
        assert_eq!(w["messages"], json!([]));
        assert_eq!(w["contacts"], init["contacts"]);
        assert_eq!(collection_size(&init, "messages"), 3);
    }

    #[test]
    fn probe_names_round_trip() {
        for k in ProbeKind::ALL {
            assert_eq!(ProbeKind::parse(k.name()), Some(k));
            assert_eq!(ProbeKind::parse(&k.endpoint()), Some(k));
        }
        assert_eq!(ProbeKind::parse("golden"), None);
    }
}
