//! A hand-written app re-expressed as a spec (issue #32): `issue-tracker-spec` holds the
//! issue tracker's seed byte for byte and ships its tasks unchanged but for the app's name, the
//! generic planner has a plan for every one of them, and the operations those tasks need work on
//! the generic renderer. The loop and the ui-oracle over all of them are a measured command
//! (`apps check issue-tracker-spec --sample 21`, docs/envgen.md); the suite runs one of each.

use std::path::Path;

use serde_json::{json, Value};
use tuplewright::engine::agents::TaskBrief;
use tuplewright::engine::ui::{Ctx, FormData, Today};

const HAND: &str = "crates/engine/src/apps/issue_tracker";
const TWIN: &str = "crates/engine/src/apps/issue_tracker_spec";

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).expect(rel)
}

fn tasks(dir: &str) -> Vec<Value> {
    let all: Value = serde_json::from_str(&read(&format!("{dir}/tasks.json"))).expect("json");
    all["tasks"].as_array().expect("tasks").clone()
}

fn twin() -> &'static tuplewright::apps::Pack {
    tuplewright::apps::get("issue-tracker-spec").expect("the twin is registered")
}

/// What the twin's copy of a hand-written task is: the same task, named for the twin.
fn renamed(hand: &Value) -> Value {
    let mut t = hand.clone();
    let id = format!("spec_{}", hand["task_id"].as_str().expect("id"));
    t["task_id"] = json!(id);
    t["domain"] = json!("issue-tracker-spec");
    t["domains"] = json!(["issue-tracker-spec"]);
    t["slots"]["app"] = json!("issue-tracker-spec");
    if t["template"] == "add_comment" {
        t["template"] = json!("issue-tracker/add_comment");
    }
    t
}

#[test]
fn the_twin_has_the_hand_written_seed_and_tasks() {
    assert_eq!(
        read(&format!("{TWIN}/seed.json")),
        read(&format!("{HAND}/seed.json")),
        "the same seed, byte for byte"
    );
    let (hand, twin_tasks) = (tasks(HAND), tasks(TWIN));
    assert_eq!(hand.len(), twin_tasks.len());
    for (h, t) in hand.iter().zip(&twin_tasks) {
        assert_eq!(&renamed(h), t, "{}", h["task_id"]);
    }
    let pack = twin();
    assert!(pack.app.spec_text().is_some(), "built from its spec");
    assert_eq!(
        pack.manifest.category.as_deref(),
        Some("project management")
    );
}

#[test]
fn the_generic_planner_plans_every_shipped_tracker_task_on_the_twin() {
    let planner = twin().app.planner().expect("a planner");
    for t in tasks(TWIN) {
        let brief = TaskBrief {
            task_id: t["task_id"].as_str().unwrap_or_default().into(),
            instruction: String::new(),
            context: String::new(),
            difficulty: "easy".into(),
            apps: vec!["issue-tracker-spec".into()],
            skills: vec![],
            structured: t.clone(),
        };
        let plan = planner
            .plan(&brief)
            .unwrap_or_else(|e| panic!("{}: {e}", t["task_id"]));
        assert!(plan.len() >= 3, "{}: {plan:?}", t["task_id"]);
    }
}

fn apply(state: &mut Value, op: &str, pairs: &[(&str, &str)]) -> Result<(), String> {
    let ui = twin().app.ui().expect("a UI");
    let ctx = Ctx {
        today: Today::parse("2026-03-05T10:00:00Z").expect("today"),
    };
    ui.apply(op, &FormData::of(pairs), &ctx, state)
        .map(|_| ())
        .map_err(|e| e.0)
}

/// A `tags` input is free text: creating an issue labelled `frontend, payments` works. Failed
/// before: the renderer checked each tag as the id of a record ("Labels: there is no frontend"),
/// so the ui-oracle could not create a labelled issue.
#[test]
fn a_tags_input_is_free_text_and_a_comment_gets_a_fresh_id() {
    let mut state: Value =
        serde_json::from_str(twin().app.seed_text().expect("seed")).expect("json");
    apply(
        &mut state,
        "create_issue",
        &[
            ("projectId", "p3"),
            ("key", "MOB-135"),
            ("type", "story"),
            ("summary", "Pay with a wallet"),
            ("description", ""),
            ("priority", "Medium"),
            ("assignee", ""),
            ("sprintId", "s33"),
            ("storyPoints", "5"),
            ("labels", "frontend, payments"),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let made = state["issues"]
        .as_array()
        .expect("issues")
        .last()
        .cloned()
        .expect("one");
    assert_eq!(made["labels"], json!(["frontend", "payments"]));
    assert_eq!(
        (made["storyPoints"].clone(), made["reporter"].clone()),
        (json!(5), json!("u1"))
    );
    let id = made["id"].as_str().expect("id").to_string();
    for body in ["First.", "Second."] {
        apply(
            &mut state,
            "add_comment",
            &[("_record", &id), ("body", body)],
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
    let made = state["issues"]
        .as_array()
        .expect("issues")
        .last()
        .cloned()
        .expect("one");
    let ids: Vec<&str> = made["comments"]
        .as_array()
        .expect("comments")
        .iter()
        .map(|c| c["id"].as_str().expect("a comment id"))
        .collect();
    let seeded: Vec<String> = state["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .flat_map(|i| i["comments"].as_array().cloned().unwrap_or_default())
        .map(|c| c["id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(ids.len(), 2);
    assert_ne!(ids[0], ids[1], "{ids:?}");
    assert_eq!(
        seeded.iter().filter(|s| ids.contains(&s.as_str())).count(),
        2,
        "each new comment id is used once across every issue: {seeded:?}"
    );
    assert_eq!(made["comments"][0]["author"], "u1");
}

/// A `refs` input (checkboxes) is planned as ticks of the wanted records' boxes. Failed before:
/// the plan typed the ids into the checkbox group, so sharing a file changed nothing (`envgen
/// check drive`: "did not change files.sharedWith").
#[test]
fn a_refs_input_is_planned_as_ticked_checkboxes() {
    let pack = tuplewright::apps::get("drive").expect("drive");
    let task = json!({"template": "update_records", "slots": {
        "app": "drive", "collection": "files", "key_field": "id", "keys": ["d3"],
        "changes": {"sharedWith": ["u2", "u3"]}}});
    let brief = TaskBrief {
        task_id: "drive_share".into(),
        instruction: String::new(),
        context: String::new(),
        difficulty: "easy".into(),
        apps: vec!["drive".into()],
        skills: vec![],
        structured: task,
    };
    let plan = pack
        .app
        .planner()
        .expect("planner")
        .plan(&brief)
        .unwrap_or_else(|e| panic!("{e}"));
    let text = format!("{plan:?}");
    for u in ["u2", "u3"] {
        assert!(
            text.contains(&format!(
                "#file-share_file-sharedWith input[value=\\\"{u}\\\"]"
            )),
            "{text}"
        );
    }
    assert!(
        !text.contains("Fill"),
        "no typing into a checkbox group: {text}"
    );
}

/// Action forms turn the browser's form history off. Failed before: after the crawl had typed
/// into a `name` input once, Chromium's history popup covered the input below it, so `envgen
/// check` saw create forms refused ("Rule cannot be empty") in seven apps.
#[test]
fn action_forms_turn_the_browser_form_history_off() {
    let pack = tuplewright::apps::get("analytics").expect("analytics");
    let ui = pack.app.ui().expect("a UI");
    let state: Value = serde_json::from_str(pack.app.seed_text().expect("seed")).expect("json");
    let ctx = Ctx {
        today: Today::parse("2026-03-05T10:00:00Z").expect("today"),
    };
    let (_, page) = ui
        .page("/segments", &state, &ctx)
        .expect("the segments page");
    let html = page.into_string();
    let forms = html.matches("<form").count();
    assert!(forms >= 1, "{html}");
    assert_eq!(
        html.matches("autocomplete=\"off\"").count(),
        forms,
        "{html}"
    );
}
