//! The state diff the Web agent judges: which records and fields an element changed, in the
//! vocabulary of the spec's declared `changes` (`entity.field`, `entity+`, `entity-`).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::model::{scalar_text, Model};
use super::spec::EntityKind;

/// One observed change.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Change {
    /// The declared form: `entity.field`, `entity+`, `entity-` or `entity` (a value entity).
    pub decl: String,
    /// The record it happened to (a list entity's record id).
    pub record: Option<String>,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.record, self.decl.split_once('.')) {
            (Some(r), Some((e, field))) => write!(f, "{e}[{r}].{field}"),
            (Some(r), None) => write!(f, "{}[{r}]", self.decl),
            (None, _) => f.write_str(&self.decl),
        }
    }
}

/// Every change from `pre` to `post`, entity by entity (undeclared top-level keys as `?key`).
pub fn diff(model: &Model, pre: &Value, post: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    for e in model.spec.entities.iter().map(toml::Spanned::get_ref) {
        let (a, b) = (&pre[&e.name], &post[&e.name]);
        match e.kind {
            EntityKind::Value => {
                if a != b {
                    out.push(Change {
                        decl: e.name.clone(),
                        record: None,
                    });
                }
            }
            EntityKind::Record => fields(&e.name, a, b, None, &mut out),
            EntityKind::List | EntityKind::Map => {
                // A map's records are its values (keyed by their ids like a list's).
                let index = |v: &Value| -> BTreeMap<String, Value> {
                    let records: Vec<&Value> = match v {
                        Value::Object(m) => m.values().collect(),
                        _ => v.as_array().into_iter().flatten().collect(),
                    };
                    records
                        .into_iter()
                        .map(|r| (scalar_text(&r["id"]), r.clone()))
                        .collect()
                };
                let (xa, xb) = (index(a), index(b));
                for (id, ra) in &xa {
                    match xb.get(id) {
                        None => out.push(Change {
                            decl: format!("{}-", e.name),
                            record: Some(id.clone()),
                        }),
                        Some(rb) => fields(&e.name, ra, rb, Some(id), &mut out),
                    }
                }
                for id in xb.keys().filter(|id| !xa.contains_key(*id)) {
                    out.push(Change {
                        decl: format!("{}+", e.name),
                        record: Some(id.clone()),
                    });
                }
            }
        }
    }
    let declared: Vec<&str> = model
        .spec
        .entities
        .iter()
        .map(|e| e.get_ref().name.as_str())
        .collect();
    for (k, v) in post.as_object().into_iter().flatten() {
        if !declared.contains(&k.as_str()) && pre.get(k) != Some(v) {
            out.push(Change {
                decl: format!("?{k}"),
                record: None,
            });
        }
    }
    out
}

fn fields(entity: &str, a: &Value, b: &Value, id: Option<&String>, out: &mut Vec<Change>) {
    let empty = serde_json::Map::new();
    let (oa, ob) = (
        a.as_object().unwrap_or(&empty),
        b.as_object().unwrap_or(&empty),
    );
    let mut keys: Vec<&String> = oa.keys().chain(ob.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        if oa.get(k) != ob.get(k) {
            out.push(Change {
                decl: format!("{entity}.{k}"),
                record: id.cloned(),
            });
        }
    }
}
