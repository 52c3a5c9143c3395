//! `map` entities (records keyed by id, the Hub google_docs `documents` shape) seen as lists:
//! the renderer, the effects and task derivation work on lists, so a state is converted to
//! lists on the way in ([`as_lists`]) and back to maps on the way out ([`as_maps`]). Record
//! order is kept both ways; a map's keys are its records' ids.

use serde_json::{Map, Value};

use super::spec::{EntityKind, Spec};

/// The names of the spec's `map` entities.
fn map_entities(spec: &Spec) -> impl Iterator<Item = &str> {
    spec.entities
        .iter()
        .map(toml::Spanned::get_ref)
        .filter(|e| e.kind == EntityKind::Map)
        .map(|e| e.name.as_str())
}

/// Whether the spec has any `map` entity (when not, both conversions are the identity).
pub fn has_maps(spec: &Spec) -> bool {
    map_entities(spec).next().is_some()
}

/// `state` with every `map` entity's object turned into the array of its records.
pub fn as_lists(spec: &Spec, state: &Value) -> Value {
    let mut out = state.clone();
    for name in map_entities(spec) {
        if let Some(Value::Object(m)) = out.get(name) {
            let items: Vec<Value> = m.values().cloned().collect();
            out[name] = Value::Array(items);
        }
    }
    out
}

/// `state` with every `map` entity's array turned back into an object keyed by record id.
pub fn as_maps(spec: &Spec, mut state: Value) -> Value {
    for name in map_entities(spec) {
        if let Some(Value::Array(items)) = state.get_mut(name) {
            let mut m = Map::new();
            for r in items.drain(..) {
                let key = match r.get("id") {
                    Some(Value::String(s)) => s.clone(),
                    Some(other) => other.to_string(),
                    None => continue,
                };
                m.insert(key, r);
            }
            state[name] = Value::Object(m);
        }
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SPEC: &str = r#"
[app]
name = "m"
title = "M"
category = "documents"
description = "d"
[[entities]]
name = "docs"
kind = "map"
fields = [{ name = "id", type = "id" }, { name = "title", type = "string" }]
[[views]]
name = "list"
kind = "table"
entity = "docs"
route = "/"
title = "Docs"
"#;

    #[test]
    fn a_map_round_trips_through_lists_in_order() {
        let spec = super::super::parse(std::path::Path::new("m.toml"), SPEC).expect("spec");
        assert!(has_maps(&spec));
        let state =
            json!({"docs": {"b": {"id": "b", "title": "B"}, "a": {"id": "a", "title": "A"}}});
        let lists = as_lists(&spec, &state);
        assert_eq!(
            lists["docs"],
            json!([{"id": "b", "title": "B"}, {"id": "a", "title": "A"}])
        );
        let mut edited = lists.clone();
        edited["docs"]
            .as_array_mut()
            .expect("list")
            .push(json!({"id": "c", "title": "C"}));
        let back = as_maps(&spec, edited);
        let keys: Vec<&String> = back["docs"].as_object().expect("map").keys().collect();
        assert_eq!(keys, ["b", "a", "c"]);
        assert_eq!(as_maps(&spec, lists), state);
    }
}
