//! Unit tests of the State diff lines on small hand-made states.

use std::collections::HashSet;

use serde_json::json;

use super::*;
use tuplewright_base::store::{StateEndpoint, StoredState};

fn st(endpoint: StateEndpoint, state: Value) -> StoredState {
    StoredState {
        endpoint,
        env: "team-chat".into(),
        sha: String::new(),
        state,
        volatile: vec!["**.lastViewedAt".into()],
    }
}

fn pair() -> (Vec<StoredState>, Vec<StoredState>) {
    let a = json!({"channels": [{"id": "C1", "topic": "Planning", "lastViewedAt": 1}], "users": {"U1": {"name": "ann"}}});
    let b = json!({"channels": [{"id": "C1", "topic": "Freeze", "lastViewedAt": 2}], "users": {"U1": {"name": "ann"}}, "pins": []});
    (
        vec![st(StateEndpoint::Initial, a)],
        vec![st(StateEndpoint::Golden, b)],
    )
}

fn opts<'a>(tree: bool, split: bool, masked: bool, toggled: &'a HashSet<String>) -> BuildOpts<'a> {
    BuildOpts {
        tree,
        split,
        show_masked: masked,
        toggled,
        query: "",
    }
}

#[test]
fn table_breaks_a_changed_array_into_element_fields_and_hides_masked_keys() {
    let (a, b) = pair();
    let none = HashSet::new();
    let lines = build(&a, &b, &opts(false, true, false, &none));
    let rows: Vec<(&str, Kind, Option<&str>, Option<&str>)> = lines
        .iter()
        .map(|l| {
            (
                l.label.as_str(),
                l.kind,
                l.left.as_deref(),
                l.right.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("team-chat", Kind::Changed, None, None),
            (
                "channels[C1].topic",
                Kind::Changed,
                Some("\"Planning\""),
                Some("\"Freeze\"")
            ),
            ("pins", Kind::Added, None, Some("[]")),
        ]
    );
    // Shown on request, flagged masked; unified mode splits a change into - and + lines.
    let lines = build(&a, &b, &opts(false, false, true, &none));
    let masked: Vec<&str> = lines
        .iter()
        .filter(|l| l.masked)
        .map(|l| l.label.as_str())
        .collect();
    assert_eq!(
        masked,
        ["channels[C1].lastViewedAt", "channels[C1].lastViewedAt"]
    );
    let topic: Vec<Kind> = lines
        .iter()
        .filter(|l| l.label == "channels[C1].topic")
        .map(|l| l.kind)
        .collect();
    assert_eq!(topic, [Kind::Removed, Kind::Added]);
}

#[test]
fn tree_opens_changed_containers_folds_unchanged_ones_and_toggles() {
    let (a, b) = pair();
    let mut toggled = HashSet::new();
    let lines = build(&a, &b, &opts(true, true, false, &toggled));
    let shown: Vec<(u16, &str, Kind)> = lines
        .iter()
        .map(|l| (l.depth, l.label.as_str(), l.kind))
        .collect();
    assert_eq!(
        shown,
        [
            (0, "team-chat", Kind::Changed),
            (1, "channels", Kind::Changed),
            (2, "0", Kind::Changed),
            (3, "id", Kind::Same),
            (3, "topic", Kind::Changed),
            (1, "users", Kind::Same),
            (1, "pins", Kind::Added),
        ]
    );
    let users = lines.iter().find(|l| l.label == "users").unwrap();
    assert_eq!(users.fold.as_ref().map(|f| f.open), Some(false));
    assert_eq!(users.left.as_deref(), Some("{…} 1 key"));
    toggled.insert(users.fold.as_ref().unwrap().id.clone());
    let lines = build(&a, &b, &opts(true, true, false, &toggled));
    assert!(lines.iter().any(|l| l.label == "U1" && l.depth == 2));
    // A search opens the nodes that hold a match.
    let none = HashSet::new();
    let q = BuildOpts {
        query: "ann",
        ..opts(true, true, false, &none)
    };
    let lines = build(&a, &b, &q);
    assert!(lines.iter().any(|l| l.label == "name" && l.matches("ann")));
}
