//! Reward probes: states on which a sound reward must not give credit.
//!
//! A reward that gives credit for *absence* ("0.5 per spam message no longer present") scores an
//! empty or wiped state as a success. Three probes expose that, each a state the harness builds
//! from the round's own environments:
//!
//! - **noop**: a fresh environment where nothing was set up and nothing done;
//! - **empty state**: every data collection of every app emptied — lists, id-keyed maps, nested
//!   lists, as the app's state schema says — its configuration as V_init has it (and the home
//!   directory empty);
//! - **destructive**: V_init with every collection the golden diff touches wiped (all messages,
//!   all documents, all files), nothing the task does not touch.
//!
//! This module is pure: it names the probes and transforms app states; running them is the
//! harness's job (`harness::probes`), judging them the agreement core's.

use serde_json::{Map, Value};

use crate::openenv::schema::{FieldKind, StateSchema};

/// One probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeKind {
    /// A fresh environment, no setup, no action.
    Noop,
    /// Every app collection emptied, the home directory empty.
    EmptyState,
    /// V_init with every collection the golden diff touches wiped.
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

/// Items a collection holds, by its kind (0 for configuration).
fn items(kind: FieldKind, v: &Value) -> usize {
    match (kind, v) {
        (FieldKind::List, Value::Array(a)) => a.len(),
        (FieldKind::Map, Value::Object(m)) => m.len(),
        (FieldKind::Lists, Value::Object(m)) => {
            m.values().map(|x| x.as_array().map_or(0, Vec::len)).sum()
        }
        _ => 0,
    }
}

/// The collection emptied: a list becomes `[]`, a map `{}`, a map of lists keeps its keys with
/// `[]` (so a deep merge over the app defaults still replaces every list).
fn empty_collection(kind: FieldKind, v: &Value) -> Value {
    match (kind, v) {
        (FieldKind::Lists, Value::Object(m)) => Value::Object(
            m.keys()
                .map(|k| (k.clone(), Value::Array(Vec::new())))
                .collect(),
        ),
        (FieldKind::Map | FieldKind::Lists, _) => Value::Object(Map::new()),
        (FieldKind::List, _) => Value::Array(Vec::new()),
        (FieldKind::Config, other) => other.clone(),
    }
}

/// The empty state of an app: V_gold (`gold`) with every collection the schema names emptied, and
/// every configuration key (settings, the signed-in user, scalars such as `currentDate`) as V_init
/// (`init`) has it, i.e. as the task left it undone; a configuration key only V_gold has (the
/// golden patch added it) is left out.
pub fn emptied(schema: &StateSchema, init: &Value, gold: &Value) -> Value {
    let Value::Object(g) = gold else {
        return gold.clone();
    };
    let mut out = Map::new();
    for (k, v) in g {
        match schema.kind(k).unwrap_or(FieldKind::Config) {
            FieldKind::Config => {
                if let Some(before) = init.get(k) {
                    out.insert(k.clone(), before.clone());
                }
            }
            kind => {
                out.insert(k.clone(), empty_collection(kind, v));
            }
        }
    }
    Value::Object(out)
}

/// The collections the golden diff touches: every collection of the schema whose value differs
/// between V_init and V_gold, in key order. A map of lists counts as one collection.
pub fn touched(schema: &StateSchema, init: &Value, gold: &Value) -> Vec<String> {
    schema
        .fields
        .iter()
        .filter(|(k, kind)| kind.is_collection() && init.get(k.as_str()) != gold.get(k.as_str()))
        .map(|(k, _)| k.clone())
        .collect()
}

/// `state` with the collections `keys` emptied (everything else unchanged), and how many items
/// they held.
pub fn wiped(schema: &StateSchema, state: &Value, keys: &[String]) -> (Value, usize) {
    let mut out = state.clone();
    let mut n = 0;
    for k in keys {
        let kind = schema.kind(k).unwrap_or(FieldKind::List);
        if let Some(v) = out.get_mut(k) {
            n += items(kind, v);
            *v = empty_collection(kind, v);
        }
    }
    (out, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openenv::schema::infer;
    use serde_json::json;

    fn schema(pairs: &[(&str, FieldKind)]) -> StateSchema {
        StateSchema {
            fields: pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        }
    }

    #[test]
    fn emptied_clears_every_collection_kind_and_takes_config_from_v_init() {
        let s = schema(&[
            ("account", FieldKind::Config),
            ("messages", FieldKind::List),
            ("chat", FieldKind::Lists),
            ("documents", FieldKind::Map),
            ("currentDate", FieldKind::Config),
        ]);
        let init = json!({"account": {"email": "a@b"}, "currentDate": "2026-03-13", "messages": [1],
                          "documents": {"doc-1": {"id": "doc-1"}}, "chat": {"c1": []}});
        let gold = json!({"account": {"email": "a@b"}, "messages": [1, 2], "chat": {"c1": [1], "c2": []},
                          "documents": {"doc-1": {"id": "doc-1", "title": "New"}},
                          "currentDate": "2026-03-20", "added": 1});
        assert_eq!(
            emptied(&s, &init, &gold),
            json!({"account": {"email": "a@b"}, "messages": [], "chat": {"c1": [], "c2": []},
                   "documents": {}, "currentDate": "2026-03-13"})
        );
    }

    #[test]
    fn the_destructive_probe_wipes_only_what_the_golden_diff_touches() {
        let init = json!({"documents": {"doc-1": {"id": "doc-1", "title": "A"}, "doc-2": {"id": "doc-2"}},
                          "comments": [{"id": "c1"}, {"id": "c2"}, {"id": "c3"}],
                          "users": [{"id": "u1"}, {"id": "u2"}, {"id": "u3"}, {"id": "u4"}],
                          "chat": {"C1": [1], "C2": [2]}, "view": "week"});
        let mut gold = init.clone();
        gold["documents"]["doc-1"]["title"] = json!("B");
        gold["chat"]["C2"] = json!([2, 3]);
        gold["view"] = json!("month");
        let s = infer(&[&init]);
        let t = touched(&s, &init, &gold);
        assert_eq!(t, vec!["chat", "documents"]);
        let (w, n) = wiped(&s, &init, &t);
        assert_eq!(n, 4);
        assert_eq!(w["documents"], json!({}));
        assert_eq!(w["chat"], json!({"C1": [], "C2": []}));
        assert_eq!(w["users"], init["users"]);
        assert_eq!(w["comments"], init["comments"]);
        // A task that changes only scalars touches no collection.
        let mut scalar = init.clone();
        scalar["view"] = json!("day");
        assert!(touched(&s, &init, &scalar).is_empty());
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
