//! Deep merge, the one merge rule of the state API.
//!
//! Objects merge key by key, recursively; anything else in the overlay (arrays, scalars and
//! `null`) replaces what was there. `set` fills a task's partial state from the app defaults
//! with `defaults ⊕ state`; `merge` applies `current ⊕ state`.

use serde_json::Value;

/// Merges `overlay` into `base` in place: objects recurse, everything else replaces.
pub fn deep_merge(base: &mut Value, overlay: Value) {
    match (base, overlay) {
        (Value::Object(base_map), Value::Object(overlay_map)) => {
            for (key, value) in overlay_map {
                match base_map.get_mut(&key) {
                    Some(existing) if existing.is_object() && value.is_object() => {
                        deep_merge(existing, value)
                    }
                    _ => {
                        base_map.insert(key, value);
                    }
                }
            }
        }
        (base, overlay) => *base = overlay,
    }
}

/// Returns `base ⊕ overlay` without modifying either input's owner.
pub fn merged(base: &Value, overlay: Value) -> Value {
    let mut out = base.clone();
    deep_merge(&mut out, overlay);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_recurse_arrays_and_scalars_replace() {
        let base = json!({"a": {"x": 1, "y": [1, 2]}, "b": 2, "keep": true});
        let out = merged(&base, json!({"a": {"y": [9], "z": null}, "b": {"n": 1}}));
        assert_eq!(
            out,
            json!({"a": {"x": 1, "y": [9], "z": null}, "b": {"n": 1}, "keep": true})
        );
    }

    #[test]
    fn given_values_win_and_missing_keys_come_from_defaults() {
        let defaults =
            json!({"users": [{"id": "u1"}], "settings": {"theme": "light", "tz": "UTC"}});
        let out = merged(&defaults, json!({"settings": {"theme": "dark"}}));
        assert_eq!(out["settings"], json!({"theme": "dark", "tz": "UTC"}));
        assert_eq!(out["users"], json!([{"id": "u1"}]));
    }
}
