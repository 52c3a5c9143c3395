//! An app's state schema: which top-level keys of its state are data collections (of which kind)
//! and which are configuration or scalars. The probes empty and wipe what the schema says is data
//! (`engine::probes`), and a setup whose state does not fit the schema of the app it runs on is an
//! invalid task ([`StateSchema::misfit`]).
//!
//! Built-in apps declare theirs in their pack's `manifest.toml` (`crates/engine/src/apps/<pack>/`) (`[state]`), external apps in
//! `[[apps.external]] state = {…}`; otherwise it is inferred from sample states ([`infer`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What one top-level key of an app's state holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldKind {
    /// An array of records, e.g. mail's `messages`.
    List,
    /// An object of records keyed by id, e.g. google_docs' `documents: {"doc-1": {…}}`.
    Map,
    /// An object of arrays (nested lists), e.g. team-chat's `messages` keyed by conversation.
    Lists,
    /// Not data: the signed-in user, settings, UI state, scalars such as `currentDate`.
    Config,
}

impl FieldKind {
    /// Whether the key holds data the probes empty.
    pub fn is_collection(self) -> bool {
        self != FieldKind::Config
    }

    /// How the kind reads in messages.
    pub fn describe(self) -> &'static str {
        match self {
            FieldKind::List => "a list of records",
            FieldKind::Map => "a map of records keyed by id",
            FieldKind::Lists => "a map of lists",
            FieldKind::Config => "configuration",
        }
    }

    /// Whether `v` has this kind's JSON shape (`null` fits every kind).
    fn fits(self, v: &Value) -> bool {
        match (self, v) {
            (_, Value::Null) | (FieldKind::Config, _) => true,
            (FieldKind::List, Value::Array(_)) => true,
            (FieldKind::Map, Value::Object(m)) => m.values().all(|x| x.is_object() || x.is_null()),
            (FieldKind::Lists, Value::Object(m)) => m.values().all(|x| x.is_array() || x.is_null()),
            _ => false,
        }
    }
}

/// Top-level key → kind. In TOML: `[state]` with `messages = "list"`, `ui = "config"`, ….
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StateSchema {
    /// The declared keys.
    pub fields: BTreeMap<String, FieldKind>,
}

/// Why a state does not fit a schema: the first key that does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misfit {
    /// The top-level key.
    pub key: String,
    /// What is wrong with it.
    pub why: String,
}

const ID_FIELDS: &[&str] = &["id", "_id", "uuid", "key"];

/// A record carries an id: `id`, `_id`, `uuid`, `key`, or a field ending in `Id`/`_id`.
fn has_id(record: &serde_json::Map<String, Value>) -> bool {
    record
        .keys()
        .any(|k| ID_FIELDS.contains(&k.as_str()) || k.ends_with("Id") || k.ends_with("_id"))
}

/// The kind one value shows, `None` when it says nothing (an empty object or array is still a
/// list; an empty object could be anything).
fn kind_of(v: &Value) -> Option<FieldKind> {
    match v {
        Value::Array(_) => Some(FieldKind::List),
        Value::Object(m) if m.is_empty() => None,
        Value::Object(m) if m.values().all(Value::is_array) => Some(FieldKind::Lists),
        Value::Object(m) => {
            let records: Vec<_> = m.values().filter_map(Value::as_object).collect();
            let all_records = records.len() == m.len();
            let keyed = m.keys().all(|k| k.chars().any(|c| c.is_ascii_digit()));
            if all_records && (records.iter().all(|r| has_id(r)) || keyed) {
                Some(FieldKind::Map)
            } else {
                Some(FieldKind::Config)
            }
        }
        _ => Some(FieldKind::Config),
    }
}

/// The schema sample states show: arrays are lists, objects of arrays nested lists, objects whose
/// values are all records with an id (or keyed by ids such as `doc-1`) maps, the rest config. For a
/// key several samples hold, the first that shows a collection wins.
pub fn infer(samples: &[&Value]) -> StateSchema {
    let mut fields: BTreeMap<String, FieldKind> = BTreeMap::new();
    for sample in samples {
        let Some(m) = sample.as_object() else {
            continue;
        };
        for (k, v) in m {
            let seen = fields.get(k).copied();
            match (seen, kind_of(v)) {
                (None | Some(FieldKind::Config), Some(kind)) => {
                    fields.insert(k.clone(), kind);
                }
                (None, None) => {
                    fields.insert(k.clone(), FieldKind::Config);
                }
                _ => {}
            }
        }
    }
    StateSchema { fields }
}

impl StateSchema {
    /// The kind of `key`, if declared.
    pub fn kind(&self, key: &str) -> Option<FieldKind> {
        self.fields.get(key).copied()
    }

    /// This schema, with the keys it does not declare inferred from `samples`.
    pub fn completed(&self, samples: &[&Value]) -> StateSchema {
        let mut out = infer(samples);
        out.fields
            .extend(self.fields.iter().map(|(k, v)| (k.clone(), *v)));
        out
    }

    /// The first top-level key of `state` this schema does not declare, or declares with another
    /// shape; `None` when the state fits.
    pub fn misfit(&self, state: &Value) -> Option<Misfit> {
        let Value::Object(m) = state else {
            return Some(Misfit {
                key: String::new(),
                why: "the state is not a JSON object".into(),
            });
        };
        for (k, v) in m {
            match self.kind(k) {
                None => {
                    return Some(Misfit {
                        key: k.clone(),
                        why: format!("`{k}` is not a key of this app's state"),
                    })
                }
                Some(kind) if !kind.fits(v) => {
                    return Some(Misfit {
                        key: k.clone(),
                        why: format!(
                            "`{k}` is {} here, but the app holds {} there",
                            json_type(v),
                            kind.describe()
                        ),
                    })
                }
                Some(_) => {}
            }
        }
        None
    }

    /// The declared keys, comma-separated (for messages).
    pub fn key_list(&self) -> String {
        self.fields.keys().cloned().collect::<Vec<_>>().join(", ")
    }
}

pub(crate) use tuplewright_base::text::json_type;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hub_shapes_are_inferred_lists_id_maps_nested_lists_and_scalars() {
        let docs = json!({"documents": {"doc-1": {"id": "doc-1", "title": "A"}},
                          "comments": [], "currentUser": {"id": "u1", "name": "Demo"},
                          "ui": {"zoom": 100}});
        let cal = json!({"events": [{"id": "e1"}], "currentDate": "2026-03-13", "view": "week",
                         "settings": {"weekStart": 0, "defaultReminder": {"minutes": 10}}});
        let chat = json!({"messages": {"C01": [{"id": 1}], "C02": []}, "users": {}});
        let s = infer(&[&docs, &cal, &chat]);
        let k = |key: &str| s.kind(key).unwrap();
        assert_eq!(k("documents"), FieldKind::Map);
        assert_eq!(k("comments"), FieldKind::List);
        assert_eq!(k("currentUser"), FieldKind::Config);
        assert_eq!(k("ui"), FieldKind::Config);
        assert_eq!(k("events"), FieldKind::List);
        assert_eq!(k("currentDate"), FieldKind::Config);
        assert_eq!(k("settings"), FieldKind::Config);
        assert_eq!(k("messages"), FieldKind::Lists);
        // An empty object says nothing; a later sample decides.
        assert_eq!(k("users"), FieldKind::Config);
        let later = infer(&[
            &json!({"users": {}}),
            &json!({"users": {"u-1": {"name": "A"}}}),
        ]);
        assert_eq!(later.kind("users"), Some(FieldKind::Map));
    }

    #[test]
    fn a_state_with_foreign_keys_or_shapes_does_not_fit() {
        let mut s = StateSchema::default();
        s.fields.insert("issues".into(), FieldKind::List);
        s.fields.insert("currentUser".into(), FieldKind::Config);
        assert_eq!(s.misfit(&json!({"issues": [], "currentUser": "u1"})), None);
        let m = s.misfit(&json!({"issues": [], "events": []})).unwrap();
        assert_eq!(m.key, "events");
        let m = s.misfit(&json!({"issues": {"a": 1}})).unwrap();
        assert!(m.why.contains("a list of records"), "{}", m.why);
        let declared: StateSchema = toml::from_str("issues = \"list\"\nui = \"config\"").unwrap();
        let full = declared.completed(&[&json!({"extra": [1]})]);
        assert_eq!(full.kind("extra"), Some(FieldKind::List));
        assert_eq!(full.kind("issues"), Some(FieldKind::List));
    }
}
