//! The issue-tracker UI on a real screen (Xvfb + Debian Chromium, installed by .ci/setup): the
//! planner's plans for shipped tasks, performed one after another on one screen as computer_use
//! actions only, leave the state each task asks for; and through the CLI, `rollout --policy
//! ui-oracle` does a shipped task to 1.0 while `noop --screen` on the same screen scores 0.0.

use crate::shipped_support;

use std::sync::Arc;

use serde_json::Value;
use shipped_support::{brief_of, holds, shipped_task, store_of, tw};
use tuplewright::apps::issue_tracker::ui::planner::IssueTrackerPlanner;
use tuplewright::engine::agents::TaskBrief;
use tuplewright::engine::env::{AppRegistry, ServerConfig, SessionStore};
use tuplewright::engine::rollout::ui_exec::Executor;
use tuplewright::engine::rollout::ui_plan::UiPlanner;
use tuplewright::engine::screen::ScreenConfig;
use tuplewright::engine::ui::{Today, UiOptions, WebScreen};

fn current(store: &SessionStore, sid: &str) -> Value {
    store.snapshot(sid).unwrap().current.value().unwrap()
}

fn brief(t: &Value) -> TaskBrief {
    brief_of("issue-tracker", t)
}

/// Whether `state` (after the task, from `seed`) holds the task's ground truth, read from its
/// slots, or what is missing.
fn meets(task: &Value, seed: &Value, state: &Value) -> Result<(), String> {
    let slots = &task["slots"];
    let me = state["currentUser"].clone();
    match task["template"].as_str().unwrap() {
        "update_records" => {
            let coll = slots["collection"].as_str().unwrap();
            let kf = slots["key_field"].as_str().unwrap();
            for key in slots["keys"].as_array().unwrap() {
                let r = state[coll]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|r| r[kf] == *key)
                    .ok_or(format!("no {key}"))?;
                for (field, want) in slots["changes"].as_object().unwrap() {
                    if !holds(r, field, want) {
                        return Err(format!(
                            "{key}.{field} is {} not {want}",
                            r[field.trim_end_matches('+')]
                        ));
                    }
                }
            }
            Ok(())
        }
        "create_record" => {
            let coll = slots["collection"].as_str().unwrap();
            let old = seed[coll].as_array().unwrap().len();
            let made = state[coll]
                .as_array()
                .unwrap()
                .get(old)
                .ok_or("nothing created")?;
            for (field, want) in slots["expect"].as_object().unwrap() {
                if !holds(made, field, want) {
                    return Err(format!(
                        "new {field} is {}",
                        made[field.trim_end_matches('+')]
                    ));
                }
            }
            Ok(())
        }
        "add_comment" => {
            let key = slots["issue"].as_str().unwrap();
            let i = state["issues"]
                .as_array()
                .unwrap()
                .iter()
                .find(|i| i["key"] == key)
                .unwrap();
            let found = i["comments"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["author"] == me && c["body"] == slots["text"]);
            found
                .then_some(())
                .ok_or(format!("no such comment on {key}"))
        }
        other => Err(format!("no check for template {other}")),
    }
}

/// Shipped issue-tracker tasks of every kind (a status move with an assignee, two issues into a
/// sprint, points and a new label, a comment, a sprint's goal and dates, a project's lead, a new
/// story with a sprint and labels) done one after another on one screen through the UI only:
/// each leaves its ground truth, and a plan run again finds its label already there and changes
/// nothing.
#[test]
fn issue_tracker_planner_plans_for_shipped_tasks_reach_their_ground_truth_through_the_screen() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = ServerConfig {
        port: Some(0),
        state_dir: dir.path().to_path_buf(),
        fsync: false,
        ..ServerConfig::default()
    };
    let reg = AppRegistry::builtin().unwrap();
    let store = Arc::new(SessionStore::open(reg.get("issue-tracker").unwrap(), &cfg).unwrap());
    let opts = UiOptions {
        today: Today::parse("2026-03-05T10:00:00Z").unwrap(),
    };
    let mut web = WebScreen::start(&ScreenConfig::default(), store.clone(), "s1", opts).unwrap();
    for id in [
        "tracker_start_001",
        "tracker_sprint_001",
        "tracker_estimate_001",
        "tracker_comment_001",
        "tracker_sprint-goal_001",
        "tracker_lead_001",
        "tracker_create-story_001",
    ] {
        let t = shipped_task("issue-tracker.json", id);
        let seed = current(&store, "s1");
        let plan = IssueTrackerPlanner.plan(&brief(&t)).unwrap();
        let (screen, resolver) = web.parts();
        let outcome = Executor::new(screen, resolver, false).run(&plan).unwrap();
        assert_eq!(outcome.miss, None, "{id}: {:?}", outcome.steps);
        if let Err(e) = meets(&t, &seed, &current(&store, "s1")) {
            panic!("{id}: {e}");
        }
        if id == "tracker_estimate_001" {
            let before = store.snapshot("s1").unwrap().state_id;
            let (screen, resolver) = web.parts();
            let again = Executor::new(screen, resolver, false).run(&plan).unwrap();
            assert_eq!(again.miss, None, "{id} again");
            assert_eq!(
                store.snapshot("s1").unwrap().state_id,
                before,
                "{id} again changed nothing"
            );
        }
    }
}

#[test]
fn ui_oracle_does_a_shipped_issue_tracker_task_through_its_web_ui_and_noop_on_that_screen_scores_0()
{
    let dir = tempfile::tempdir().unwrap();
    let store = store_of(dir.path(), "issue-tracker.json", "tracker_triage_001");
    let (code, out, err) = tw(&store, &["rollout", "--policy", "ui-oracle", "--json"]);
    assert_eq!(code, 0, "ui-oracle scores 1.0: {out}\n{err}");
    let rows: Value = serde_json::from_str(&out).unwrap();
    let trial = &rows[0]["trials"][0];
    assert_eq!(trial["reward"], 1.0, "{rows}");
    let steps = trial["steps"].as_array().unwrap();
    assert!(steps.len() >= 10, "{rows}");
    assert_eq!(
        steps[0]["action"]["action"], "screenshot",
        "the first observation (#36)"
    );
    assert!(steps[1..].iter().all(|s| {
        let kind = s["action"]["action"].as_str().unwrap_or_default();
        ["left_click", "double_click", "type", "key", "scroll"].contains(&kind)
    }));
    let (code, out, err) = tw(
        &store,
        &["rollout", "--policy", "noop", "--screen", "--json"],
    );
    assert_eq!(
        code, 0,
        "noop through the UI's screen scores 0.0: {out}\n{err}"
    );
    let rows: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows[0]["trials"][0]["reward"], 0.0, "{rows}");
}
