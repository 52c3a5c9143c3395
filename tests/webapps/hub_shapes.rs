//! The calendar and docs specs follow the public CUA-Gym-Hub mocks' SCHEMA.md state shapes
//! (google_calendar, google_docs), and the two language additions they need refuse bad input.

use std::path::Path;

use serde_json::json;
use tuplewright::engine::envgen::{self, Problem};

use super::specs::load;

fn pack(dir: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/engine/src/apps")
        .join(dir)
}

#[test]
fn calendar_state_has_the_hub_google_calendar_keys_and_alias() {
    let (spec, seed) = load(&pack("calendar"));
    assert!(spec.app.aliases.iter().any(|a| a == "google_calendar"));
    let keys: Vec<&str> = seed
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    for k in [
        "user",
        "calendars",
        "events",
        "view",
        "currentDate",
        "sidebarOpen",
        "settings",
    ] {
        assert!(keys.contains(&k), "calendar seed lacks {k}");
    }
    let ev = &seed["events"][0];
    for f in [
        "id",
        "calendarId",
        "title",
        "start",
        "end",
        "allDay",
        "guests",
        "recurring",
        "reminders",
        "meetLink",
        "status",
    ] {
        assert!(ev.get(f).is_some(), "event lacks {f}");
    }
    assert_eq!(
        seed["settings"]["defaultReminder"],
        json!({"type": "popup", "minutes": 10})
    );
}

#[test]
fn docs_state_has_the_hub_google_docs_map_of_documents_and_alias() {
    let (spec, seed) = load(&pack("docs"));
    assert!(spec.app.aliases.iter().any(|a| a == "google_docs"));
    let docs = seed["documents"]
        .as_object()
        .expect("documents is a map keyed by id");
    for (key, doc) in docs {
        assert_eq!(doc["id"], json!(key));
        assert!(doc["linkSharing"].is_object());
    }
    assert!(
        seed["currentUser"].is_object() && seed["ui"].is_object() && seed["comments"].is_array()
    );
}

/// The public google_docs_020 initial state (its setup's `state`, abridged to one user) fits the
/// docs spec as it stands: the bundle needs no change to run on the built-in app.
#[test]
fn the_public_docs_bundle_state_fits_the_docs_spec() {
    let (spec, _) = load(&pack("docs"));
    let state = json!({
        "currentUser": {"id": "user-1", "name": "Demo User", "email": "demo@example.com", "avatar": "https://picsum.photos/100/100?random=user1"},
        "users": [{"id": "user-1", "name": "Demo User", "email": "demo@example.com", "avatar": "https://picsum.photos/100/100?random=user1"}],
        "documents": {"doc-1": {"id": "doc-1", "title": "HR Policies", "content": "<h1>HR Policies</h1><p>Company human resources policies and guidelines.</p>",
            "ownerId": "user-1", "starred": false, "created": "2025-01-10T09:00:00Z", "updated": "2025-02-05T11:30:00Z",
            "sharedWith": [], "linkSharing": {"enabled": false, "permission": "viewer"}}},
        "comments": [],
        "ui": {"currentDocId": null, "sidebarOpen": false, "sidebarTab": "comments", "shareDialogOpen": false, "findReplaceOpen": false,
               "viewMode": "editing", "zoom": 100, "documentListView": "grid", "searchQuery": ""}
    });
    let text = serde_json::to_string_pretty(&state).expect("json");
    envgen::seed::check(&spec, Path::new("google_docs_020.json"), &text)
        .unwrap_or_else(|e| panic!("{e}"));
}

const MAP_SPEC: &str = r#"
[app]
name = "m"
title = "M"
category = "documents"
description = "d"

[[entities]]
name = "documents"
kind = "map"
fields = [
  { name = "id", type = "id" },
  { name = "title", type = "string" },
  { name = "sharing", type = "object", fields = [{ name = "enabled", type = "bool" }] },
]

[[entities]]
name = "notes"
fields = [{ name = "id", type = "id" }, { name = "docId", type = "ref", entity = "documents" }]

[[views]]
name = "list"
kind = "table"
entity = "documents"
route = "/"
title = "Docs"
"#;

fn seed_err(seed: serde_json::Value) -> String {
    let spec = envgen::parse(Path::new("m.spec.toml"), MAP_SPEC).unwrap_or_else(|e| panic!("{e}"));
    let text = serde_json::to_string_pretty(&seed).expect("json");
    match envgen::seed::check(&spec, Path::new("seed.json"), &text) {
        Ok(_) => String::new(),
        Err(e) => {
            assert_eq!(e.problem, Problem::SeedViolation);
            e.to_string()
        }
    }
}

#[test]
fn a_map_entity_takes_records_keyed_by_id_and_refs_resolve_into_it() {
    let good = json!({"documents": {"d1": {"id": "d1", "title": "A", "sharing": {"enabled": true}}},
                      "notes": [{"id": "n1", "docId": "d1"}]});
    assert_eq!(seed_err(good), "");
}

#[test]
fn a_map_record_under_another_key_or_a_dangling_ref_into_a_map_is_refused() {
    let wrong_key = json!({"documents": {"d9": {"id": "d1", "title": "A", "sharing": {"enabled": true}}}, "notes": []});
    let e = seed_err(wrong_key);
    assert!(
        e.contains("seed.json:") && e.contains("is not its key"),
        "{e}"
    );
    let dangling = json!({"documents": {"d1": {"id": "d1", "title": "A", "sharing": {"enabled": true}}},
                          "notes": [{"id": "n1", "docId": "d2"}]});
    assert!(seed_err(dangling).contains("no id of \"documents\""));
    let as_list = json!({"documents": [{"id": "d1", "title": "A", "sharing": {"enabled": true}}], "notes": []});
    assert!(seed_err(as_list).contains("must be an object of records keyed by id"));
}

#[test]
fn an_object_field_checks_its_nested_fields() {
    let bad = json!({"documents": {"d1": {"id": "d1", "title": "A", "sharing": {"enabled": "yes"}}}, "notes": []});
    let e = seed_err(bad);
    assert!(
        e.contains("sharing.enabled") && e.contains("true or false"),
        "{e}"
    );
    let not_obj =
        json!({"documents": {"d1": {"id": "d1", "title": "A", "sharing": [1]}}, "notes": []});
    assert!(seed_err(not_obj).contains("not an object"));
}

/// A text field whose default is empty can be saved empty: editing an expense that has no
/// comment (or a card with no description) succeeds. Failed before: "Comment cannot be empty",
/// so the ui-oracle missed those shipped edit tasks.
#[test]
fn an_edit_form_saves_a_text_field_left_empty_when_its_default_is_empty() {
    use tuplewright::engine::ui::{Ctx, FormData, Today};
    let pack = tuplewright::apps::all()
        .iter()
        .find(|p| p.name() == "expenses")
        .expect("expenses pack");
    let ui = pack.app.ui().expect("a spec UI");
    let mut state: serde_json::Value =
        serde_json::from_str(pack.app.seed_text().expect("seed")).expect("json");
    assert_eq!(state["expenses"][0]["comment"], "");
    let form = FormData(
        [
            ("_record", "x1"),
            ("merchant", "Lufthansa Group"),
            ("amount", "412.3"),
            ("currency", "EUR"),
            ("date", "2026-03-03"),
            ("comment", ""),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .to_vec(),
    );
    let ctx = Ctx {
        today: Today::parse("2026-03-13T09:00:00Z").expect("today"),
    };
    ui.apply("edit_expense", &form, &ctx, &mut state)
        .unwrap_or_else(|e| panic!("{}", e.0));
    assert_eq!(state["expenses"][0]["merchant"], "Lufthansa Group");
    assert_eq!(state["expenses"][0]["comment"], "");
}
