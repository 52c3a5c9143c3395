//! Unit tests of the B.3.3 diff and the `changes` extension, plus a randomized check that
//! replaying `state_diff` over the initial snapshot rebuilds the current one.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Map, Value};

use super::diff;
use crate::env::mask::Mask;

fn none() -> Mask {
    Mask::new::<&str>(&[]).unwrap()
}

#[test]
fn nested_objects_give_flat_dotted_paths() {
    let a = json!({"a": {"b": {"c": 1, "d": 2}}, "e": "x"});
    let b = json!({"a": {"b": {"c": 5, "d": 2}}, "e": "y"});
    let d = diff(&a, &b, &none());
    assert_eq!(
        Value::Object(d.state_diff),
        json!({"a.b.c": {"old": 1, "new": 5}, "e": {"old": "x", "new": "y"}})
    );
    assert!(d.changes.is_empty());
}

#[test]
fn removed_and_added_keys_are_flagged() {
    let d = diff(
        &json!({"gone": {"x": 1}, "k": 1}),
        &json!({"k": 1, "new": [1]}),
        &none(),
    );
    assert_eq!(
        d.state_diff["gone"],
        json!({"old": {"x": 1}, "new": null, "removed": true})
    );
    assert_eq!(
        d.state_diff["new"],
        json!({"old": null, "new": [1], "added": true})
    );
    // A key present with null is not "removed".
    let d = diff(&json!({"k": 1}), &json!({"k": null}), &none());
    assert_eq!(d.state_diff["k"], json!({"old": 1, "new": null}));
}

#[test]
fn arrays_are_reported_whole_even_when_reordered() {
    let a = json!({"xs": [{"id": 1, "v": "a"}, {"id": 2, "v": "b"}]});
    let b = json!({"xs": [{"id": 2, "v": "b"}, {"id": 1, "v": "a"}]});
    let d = diff(&a, &b, &none());
    assert_eq!(d.state_diff.len(), 1);
    assert_eq!(d.state_diff["xs"]["old"], a["xs"]);
    assert_eq!(d.state_diff["xs"]["new"], b["xs"]);
    assert_eq!(d.changes.len(), 1);
    assert_eq!(d.changes[0]["op"], "reordered");
    assert_eq!(d.changes[0]["new_order"], json!([2, 1]));
}

#[test]
fn changes_match_by_id_then_by_index() {
    let a = json!({"xs": [{"id": "a", "n": 1}, {"id": "b", "n": 2}, {"id": "c", "n": 3}]});
    let b = json!({"xs": [{"id": "a", "n": 1}, {"id": "c", "n": 30, "tags": ["t"]}, {"id": "d", "n": 4}]});
    let d = diff(&a, &b, &none());
    let ops: Vec<(String, Value)> = d
        .changes
        .iter()
        .map(|c| (c["op"].as_str().unwrap().to_string(), c["key"].clone()))
        .collect();
    assert_eq!(
        ops,
        vec![
            ("removed".to_string(), json!("b")),
            ("changed".to_string(), json!("c")),
            ("added".to_string(), json!("d")),
        ]
    );
    let changed = &d.changes[1];
    assert_eq!(changed["old_index"], 2);
    assert_eq!(changed["new_index"], 1);
    assert_eq!(
        changed["fields"],
        json!({"n": {"old": 3, "new": 30}, "tags": {"old": null, "new": ["t"], "added": true}})
    );
    // Scalars (no ids) are matched by index.
    let d = diff(&json!({"v": [1, 2]}), &json!({"v": [1, 5, 6]}), &none());
    let ops: Vec<&str> = d
        .changes
        .iter()
        .map(|c| c["op"].as_str().unwrap())
        .collect();
    assert_eq!(ops, ["changed", "added"]);
    assert_eq!(d.changes[0]["by"], "index");
    assert_eq!(d.changes[0]["key"], 1);
}

#[test]
fn nested_arrays_inside_changed_elements_are_reported_with_the_element_id() {
    let a = json!({"chans": [{"id": "C1", "members": ["u1"]}]});
    let b = json!({"chans": [{"id": "C1", "members": ["u1", "u2"]}]});
    let d = diff(&a, &b, &none());
    let nested: Vec<&Value> = d
        .changes
        .iter()
        .filter(|c| c["path"] == "chans.C1.members")
        .collect();
    assert_eq!(nested.len(), 1);
    assert_eq!(nested[0]["op"], "added");
    assert_eq!(nested[0]["new"], "u2");
}

#[test]
fn volatile_fields_are_masked_at_any_depth_including_inside_arrays() {
    let mask = Mask::default_volatile();
    let a = json!({"lastViewedAt": 1, "chans": [{"id": "C1", "lastViewedAt": 1, "name": "x"}], "o": {"p": {"lastViewedAt": 1}}});
    let b = json!({"lastViewedAt": 2, "chans": [{"id": "C1", "lastViewedAt": 2, "name": "x"}], "o": {"p": {"lastViewedAt": 2}}});
    let d = diff(&a, &b, &mask);
    assert!(d.state_diff.is_empty(), "{:?}", d.state_diff);
    assert!(d.changes.is_empty());
    // A real change next to a masked one: the array is reported, the element's fields omit
    // the masked key.
    let mut c = b.clone();
    c["chans"][0]["name"] = json!("y");
    let d = diff(&a, &c, &mask);
    assert_eq!(d.state_diff.keys().collect::<Vec<_>>(), ["chans"]);
    assert_eq!(
        d.changes[0]["fields"],
        json!({"name": {"old": "x", "new": "y"}})
    );
    // Custom globs.
    let mask = Mask::new(&["**.lastViewedAt", "ui.**", "chans.*.name"]).unwrap();
    let d = diff(
        &json!({"ui": {"a": 1}, "k": 1}),
        &json!({"ui": {"a": 2}, "k": 1}),
        &mask,
    );
    assert!(d.state_diff.is_empty());
    let d = diff(&a, &c, &mask);
    assert!(d.state_diff.is_empty(), "{:?}", d.state_diff);
}

fn random_value(rng: &mut StdRng, depth: u32) -> Value {
    let keys = ["a", "b", "c", "d", "id", "lastViewedAt"];
    match rng.random_range(0..if depth == 0 { 3 } else { 6 }) {
        0 => json!(rng.random_range(0..4)),
        1 => json!(["x", "y", "z"][rng.random_range(0..3)]),
        2 => Value::Null,
        3 | 4 => {
            let mut m = Map::new();
            for _ in 0..rng.random_range(0..4) {
                let k = keys[rng.random_range(0..keys.len())];
                m.insert(k.to_string(), random_value(rng, depth - 1));
            }
            Value::Object(m)
        }
        _ => Value::Array(
            (0..rng.random_range(0..3))
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        ),
    }
}

fn mutate(rng: &mut StdRng, v: &Value, depth: u32) -> Value {
    match v {
        Value::Object(m) if rng.random_bool(0.7) => {
            let mut out = Map::new();
            for (k, x) in m {
                match rng.random_range(0..6) {
                    0 => {} // remove
                    1 => {
                        out.insert(k.clone(), random_value(rng, depth));
                    }
                    _ => {
                        out.insert(k.clone(), mutate(rng, x, depth.saturating_sub(1)));
                    }
                }
            }
            if rng.random_bool(0.3) {
                out.insert(
                    format!("n{}", rng.random_range(0..3)),
                    random_value(rng, depth),
                );
            }
            Value::Object(out)
        }
        _ if rng.random_bool(0.3) => random_value(rng, depth),
        other => other.clone(),
    }
}

/// Replays a flat diff: set `new` at each path (or delete the key when `removed`).
fn replay(initial: &Value, d: &Map<String, Value>) -> Value {
    let mut out = initial.clone();
    for (path, entry) in d {
        let segs: Vec<&str> = path.split('.').collect();
        let mut cur = &mut out;
        for s in &segs[..segs.len() - 1] {
            cur = cur
                .as_object_mut()
                .unwrap()
                .entry(s.to_string())
                .or_insert_with(|| json!({}));
        }
        let last = segs[segs.len() - 1].to_string();
        let obj = cur.as_object_mut().unwrap();
        if entry.get("removed") == Some(&json!(true)) {
            obj.remove(&last);
        } else {
            obj.insert(last, entry["new"].clone());
        }
    }
    out
}

#[test]
fn randomized_replaying_the_diff_rebuilds_the_current_state() {
    let mut rng = StdRng::seed_from_u64(7);
    for case in 0..3000 {
        let mut a = random_value(&mut rng, 4);
        if !a.is_object() {
            a = json!({"root": a});
        }
        let mut b = mutate(&mut rng, &a, 4);
        if !b.is_object() {
            b = json!({"root": b});
        }
        let d = diff(&a, &b, &none());
        assert_eq!(
            replay(&a, &d.state_diff),
            b,
            "case {case}: {a} -> {b}: {:?}",
            d.state_diff
        );
        assert_eq!(d.state_diff.is_empty(), a == b, "case {case}");
        // A plain (not added/removed) entry always holds two different values.
        for (path, e) in &d.state_diff {
            if e.get("added").is_none() && e.get("removed").is_none() {
                assert_ne!(e["old"], e["new"], "case {case} path {path}");
            }
        }
        assert!(diff(&b, &b, &none()).state_diff.is_empty());
    }
}
