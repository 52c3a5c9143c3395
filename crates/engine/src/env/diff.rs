//! The state diff of `GET /go` (paper §B.3.3) and our element-level `changes` extension.
//!
//! `state_diff` is a flat map from dotted key paths to `{"old", "new"}`:
//! - objects are compared recursively (one entry per changed leaf or array);
//! - an array that differs anywhere is reported whole at its own path, never per element;
//! - a removed key gives `{"old": X, "new": null, "removed": true}`, an added one
//!   `{"old": null, "new": Y, "added": true}`;
//! - fields matched by the app's [`Mask`] are ignored everywhere, including inside arrays, so
//!   an array whose elements differ only in masked fields is unchanged.
//!
//! `changes` lists, for every changed array, its element-level changes: elements are matched
//! by `id` when every element on both sides is an object with a unique scalar `id`, else by
//! index. Each entry is `{"path", "op": added|removed|changed|reordered, "by": id|index, "key",
//! "old_index", "new_index", "old", "new", "fields"}` where `fields` is the flat diff inside a
//! changed element. Arrays nested in a changed element are reported too, their path naming the
//! element by its id (or index).

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::mask::Mask;

/// The result of comparing two snapshots.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Diff {
    /// The B.3.3 flat diff.
    pub state_diff: Map<String, Value>,
    /// Element-level array changes (our extension).
    pub changes: Vec<Value>,
}

/// Compares `initial` with `current` under `mask`.
pub fn diff(initial: &Value, current: &Value, mask: &Mask) -> Diff {
    let mut out = Diff::default();
    let mut walker = Walker {
        mask,
        path: Vec::new(),
        changes: &mut out.changes,
    };
    walker.walk(Some(initial), Some(current), 0, &mut out.state_diff);
    out
}

struct Walker<'a> {
    mask: &'a Mask,
    path: Vec<String>,
    changes: &'a mut Vec<Value>,
}

impl Walker<'_> {
    /// Walks one position; flat entries go to `out` keyed by the path below `base`.
    fn walk(
        &mut self,
        a: Option<&Value>,
        b: Option<&Value>,
        base: usize,
        out: &mut Map<String, Value>,
    ) {
        if self.path.len() > base && self.mask.matches(&self.path) {
            return;
        }
        match (a, b) {
            (Some(Value::Object(ma)), Some(Value::Object(mb))) => {
                for (k, va) in ma {
                    self.path.push(k.clone());
                    self.walk(Some(va), mb.get(k), base, out);
                    self.path.pop();
                }
                for (k, vb) in mb {
                    if !ma.contains_key(k) {
                        self.path.push(k.clone());
                        self.walk(None, Some(vb), base, out);
                        self.path.pop();
                    }
                }
            }
            (Some(va), None) => {
                out.insert(
                    self.key(base),
                    json!({"old": va, "new": null, "removed": true}),
                );
            }
            (None, Some(vb)) => {
                out.insert(
                    self.key(base),
                    json!({"old": null, "new": vb, "added": true}),
                );
            }
            (Some(va), Some(vb)) => {
                if !masked_eq(self.mask, &mut self.path, va, vb) {
                    out.insert(self.key(base), json!({"old": va, "new": vb}));
                    if let (Value::Array(xa), Value::Array(xb)) = (va, vb) {
                        self.array_changes(xa, xb);
                    }
                }
            }
            (None, None) => {}
        }
    }

    fn key(&self, base: usize) -> String {
        self.path[base..].join(".")
    }

    fn array_changes(&mut self, old: &[Value], new: &[Value]) {
        let path = self.path.join(".");
        match (id_index(old), id_index(new)) {
            (Some(old_ids), Some(new_ids)) => {
                let mut common_old = Vec::new();
                for (i, elem) in old.iter().enumerate() {
                    let id = id_key(elem);
                    match new_ids.get(&id) {
                        Some(&j) => {
                            common_old.push(id.clone());
                            self.element(&path, "id", &id, Some(i), Some(j), elem, &new[j]);
                        }
                        None => self.changes.push(json!({"path": path, "op": "removed", "by": "id",
                            "key": elem["id"], "old_index": i, "new_index": null, "old": elem, "new": null})),
                    }
                }
                let mut common_new = Vec::new();
                for (j, elem) in new.iter().enumerate() {
                    let id = id_key(elem);
                    if old_ids.contains_key(&id) {
                        common_new.push(id);
                    } else {
                        self.changes.push(json!({"path": path, "op": "added", "by": "id",
                            "key": elem["id"], "old_index": null, "new_index": j, "old": null, "new": elem}));
                    }
                }
                if common_old != common_new {
                    let order = |ids: &[String]| -> Vec<Value> {
                        ids.iter().map(|k| old[old_ids[k]]["id"].clone()).collect()
                    };
                    self.changes
                        .push(json!({"path": path, "op": "reordered", "by": "id",
                        "old_order": order(&common_old), "new_order": order(&common_new)}));
                }
            }
            _ => {
                for i in 0..old.len().max(new.len()) {
                    match (old.get(i), new.get(i)) {
                        (Some(o), Some(n)) => {
                            self.element(&path, "index", &i.to_string(), Some(i), Some(i), o, n)
                        }
                        (Some(o), None) => self
                            .changes
                            .push(json!({"path": path, "op": "removed", "by": "index",
                            "key": i, "old_index": i, "new_index": null, "old": o, "new": null})),
                        (None, Some(n)) => self
                            .changes
                            .push(json!({"path": path, "op": "added", "by": "index",
                            "key": i, "old_index": null, "new_index": i, "old": null, "new": n})),
                        (None, None) => {}
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn element(
        &mut self,
        path: &str,
        by: &str,
        key: &str,
        oi: Option<usize>,
        ni: Option<usize>,
        o: &Value,
        n: &Value,
    ) {
        self.path.push(key.to_string());
        if !masked_eq(self.mask, &mut self.path, o, n) {
            let base = self.path.len();
            let mut fields = Map::new();
            self.walk(Some(o), Some(n), base, &mut fields);
            let key_value = if by == "id" {
                o["id"].clone()
            } else {
                json!(oi)
            };
            self.changes.push(
                json!({"path": path, "op": "changed", "by": by, "key": key_value,
                "old_index": oi, "new_index": ni, "old": o, "new": n, "fields": fields}),
            );
        }
        self.path.pop();
    }
}

/// Equality ignoring masked fields (paths are extended with keys and array indices).
fn masked_eq(mask: &Mask, path: &mut Vec<String>, a: &Value, b: &Value) -> bool {
    // Plain equality is much cheaper and implies masked equality.
    if a == b {
        return true;
    }
    if mask.is_empty() {
        return false;
    }
    match (a, b) {
        (Value::Object(ma), Value::Object(mb)) => {
            let check = |path: &mut Vec<String>, k: &String| -> bool {
                path.push(k.clone());
                let masked = mask.matches(path);
                let eq = masked
                    || match (ma.get(k), mb.get(k)) {
                        (Some(x), Some(y)) => masked_eq(mask, path, x, y),
                        _ => false,
                    };
                path.pop();
                eq
            };
            ma.keys().all(|k| check(path, k))
                && mb
                    .keys()
                    .filter(|k| !ma.contains_key(*k))
                    .all(|k| check(path, k))
        }
        (Value::Array(xa), Value::Array(xb)) => {
            xa.len() == xb.len()
                && xa.iter().zip(xb).enumerate().all(|(i, (x, y))| {
                    let seg = match x.get("id") {
                        Some(id) if !id.is_object() && !id.is_array() => id_key(x),
                        _ => i.to_string(),
                    };
                    path.push(seg);
                    let eq = masked_eq(mask, path, x, y);
                    path.pop();
                    eq
                })
        }
        _ => a == b,
    }
}

/// The `id` of an element as a path segment (strings bare, other scalars as JSON).
fn id_key(elem: &Value) -> String {
    match elem.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// Maps ids to positions when every element is an object with a unique scalar `id`.
fn id_index(items: &[Value]) -> Option<HashMap<String, usize>> {
    let mut ids = HashMap::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item.get("id") {
            Some(id) if !id.is_null() && !id.is_object() && !id.is_array() => {
                if ids.insert(id_key(item), i).is_some() {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(ids)
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;
