//! The team-chat UI on a real screen (Xvfb + Debian Chromium, installed by .ci/setup): the web
//! environment starts with its UI origin and passes the gate, the DevTools resolver finds targets
//! by accessible role and name and by CSS selector in screen pixels, and a plan performed only as
//! computer_use actions (clicks, typing) changes the session's state through the UI's operations.

use crate::screen_support;

use std::sync::Arc;

use screen_support::eventually;
use serde_json::Value;
use tuplewright::engine::env::{AppRegistry, ServerConfig, SessionStore};
use tuplewright::engine::rollout::ui_exec::Executor;
use tuplewright::engine::rollout::ui_plan::{PlanStep, Target, TargetResolver};
use tuplewright::engine::screen::ScreenConfig;
use tuplewright::engine::ui::{Today, UiOptions, WebScreen};

fn role(role: &str, name: &str) -> Target {
    Target::Role {
        role: role.into(),
        name: name.into(),
    }
}

fn current(store: &SessionStore, sid: &str) -> Value {
    store.snapshot(sid).unwrap().current.value().unwrap()
}

/// A team-chat session store under `dir` and session `sid` on its UI, with a screen showing it.
fn team_chat_screen(dir: &std::path::Path, sid: &str) -> (Arc<SessionStore>, WebScreen) {
    let cfg = ServerConfig {
        port: Some(0),
        state_dir: dir.to_path_buf(),
        fsync: false,
        ..ServerConfig::default()
    };
    let reg = AppRegistry::builtin().unwrap();
    let store = Arc::new(SessionStore::open(reg.get("team-chat").unwrap(), &cfg).unwrap());
    let opts = UiOptions {
        today: Today::parse("2026-03-05T10:00:00Z").unwrap(),
    };
    let web = WebScreen::start(&ScreenConfig::default(), store.clone(), sid, opts).unwrap();
    (store, web)
}

#[test]
fn a_plan_of_clicks_and_typing_renames_a_channel_and_posts_through_the_team_chat_ui() {
    let dir = tempfile::tempdir().unwrap();
    let (store, mut web) = team_chat_screen(dir.path(), "s1");
    assert!(web.url().starts_with("http://127.0.0.1:"));

    // The resolver: a sidebar link by role and name lies inside the 240-pixel sidebar; the
    // composer by CSS lies in the main pane, at the bottom of the 1280x800 screen.
    let link = web
        .resolver
        .resolve(&role("link", "random"))
        .unwrap()
        .unwrap();
    assert!(
        link.x >= 0 && link.x < 240 && link.y > 0 && link.y < 800,
        "{link:?}"
    );
    let composer = web
        .resolver
        .resolve(&Target::Css {
            selector: "form.composer textarea".into(),
        })
        .unwrap()
        .unwrap();
    assert!(
        composer.x >= 240 && composer.y > 600 && composer.y < 800,
        "{composer:?}"
    );
    assert_eq!(
        web.resolver
            .resolve(&role("button", "No such button"))
            .unwrap(),
        None
    );

    let plan = vec![
        PlanStep::Click {
            target: role("link", "random"),
        },
        PlanStep::Click {
            target: role("link", "Channel details"),
        },
        PlanStep::Fill {
            target: role("textbox", "Channel name"),
            text: "watercooler".into(),
        },
        PlanStep::Click {
            target: role("button", "Rename channel"),
        },
        PlanStep::WaitFor {
            target: role("link", "watercooler"),
            timeout_ms: 10_000,
        },
        PlanStep::Click {
            target: role("link", "general"),
        },
        PlanStep::Fill {
            target: role("textbox", "Message #general"),
            text: "Heads up: Friday at 3pm ✓".into(),
        },
        PlanStep::Click {
            target: role("button", "Send"),
        },
    ];
    let (screen, resolver) = web.parts();
    let outcome = Executor::new(screen, resolver, false).run(&plan).unwrap();
    assert_eq!(outcome.miss, None, "steps: {:?}", outcome.steps);
    assert!(outcome.steps.len() >= 8);
    let renamed = eventually(20, || {
        let s = current(&store, "s1");
        let c02 = s["channels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "C02")
            .unwrap()
            .clone();
        let posted = s["messages"]["C01"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["text"] == "Heads up: Friday at 3pm ✓" && m["userId"] == "U01");
        c02["name"] == "watercooler" && posted
    });
    assert!(
        renamed,
        "state after the plan: {}",
        current(&store, "s1")["channels"][1]
    );
    drop(web);
}

/// Whether `state` holds what the shipped team-chat task asks for (its ground truth, read from
/// the task's slots), or what is missing.
fn meets(task: &Value, state: &Value) -> Result<(), String> {
    let slots = &task["slots"];
    let me = state["currentUser"].as_str().unwrap();
    let channel_id = |name: &str| {
        state["channels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .map(|c| c["id"].as_str().unwrap().to_string())
            .ok_or(format!("no channel #{name}"))
    };
    let message = |cid: &str, mid: &str| {
        state["messages"][cid]
            .as_array()
            .and_then(|ms| ms.iter().find(|m| m["id"] == mid).cloned())
            .ok_or(format!("no message {mid} in {cid}"))
    };
    match task["template"].as_str().unwrap() {
        "thread_reply" => {
            let cid = channel_id(slots["channel"].as_str().unwrap())?;
            let parent = message(&cid, slots["parent_id"].as_str().unwrap())?;
            let replied = state["messages"][&cid].as_array().unwrap().iter().any(|m| {
                m["threadTs"] == parent["ts"] && m["text"] == slots["text"] && m["userId"] == me
            });
            replied
                .then_some(())
                .ok_or("no such reply in the thread".into())
        }
        "add_reaction" => {
            let cid = channel_id(slots["channel"].as_str().unwrap())?;
            for mid in slots["message_ids"].as_array().unwrap() {
                let m = message(&cid, mid.as_str().unwrap())?;
                let mine = m["reactions"].as_array().unwrap().iter().any(|r| {
                    r["emoji"] == slots["emoji"]
                        && r["users"].as_array().unwrap().iter().any(|u| u == me)
                });
                if !mine {
                    return Err(format!("{mid} lacks my :{}:", slots["emoji"]));
                }
            }
            Ok(())
        }
        "update_records" => {
            let records = state[slots["collection"].as_str().unwrap()]
                .as_array()
                .unwrap();
            for key in slots["keys"].as_array().unwrap() {
                let r = records.iter().find(|r| r["id"] == *key).unwrap();
                for (field, want) in slots["changes"].as_object().unwrap() {
                    let ok = match field.strip_suffix('+') {
                        Some(list) => want
                            .as_array()
                            .unwrap()
                            .iter()
                            .all(|v| r[list].as_array().unwrap().contains(v)),
                        None => r[field] == *want,
                    };
                    if !ok {
                        return Err(format!("{key}.{field} is {} not {want}", r[field]));
                    }
                }
            }
            Ok(())
        }
        other => Err(format!("no check for template {other}")),
    }
}

/// The team-chat planner's plans for shipped tasks, performed one after another on one screen
/// through the UI only, leave the state each task asks for — including the targets that must be
/// scrolled into view first (a thread's reply link far down a channel, the archive control at the
/// bottom of the details page, people to add) and plans that must read the page before toggling.
#[test]
fn team_chat_planner_plans_for_shipped_tasks_reach_their_ground_truth_through_the_screen() {
    use tuplewright::apps::team_chat::ui::planner::TeamChatPlanner;
    use tuplewright::engine::agents::TaskBrief;
    use tuplewright::engine::rollout::screen::ComputerAction;
    use tuplewright::engine::rollout::ui_plan::UiPlanner;

    let tasks: Value = serde_json::from_str(include_str!(
        "../crates/engine/src/apps/team_chat/tasks.json"
    ))
    .unwrap();
    let task = |id: &str| {
        tasks["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["task_id"] == id)
            .unwrap()
            .clone()
    };
    let brief = |t: &Value| TaskBrief {
        task_id: t["task_id"].as_str().unwrap().into(),
        instruction: String::new(),
        context: String::new(),
        difficulty: String::new(),
        apps: vec!["team-chat".into()],
        skills: Vec::new(),
        structured: t.clone(),
    };
    let dir = tempfile::tempdir().unwrap();
    let (store, mut web) = team_chat_screen(dir.path(), "s2");
    let mut scrolled = 0;
    for id in [
        "teamchat_topic_001",
        "teamchat_thread-answer_001",
        "teamchat_thread-pricing_001",
        "teamchat_react_001",
        "teamchat_react-deploys_001",
        "teamchat_invite_001",
        "teamchat_invite_002",
        "teamchat_archive_001",
        "teamchat_unarchive_001",
    ] {
        let t = task(id);
        let plan = TeamChatPlanner.plan(&brief(&t)).unwrap();
        let (screen, resolver) = web.parts();
        let outcome = Executor::new(screen, resolver, false).run(&plan).unwrap();
        assert_eq!(outcome.miss, None, "{id}: {:?}", outcome.steps);
        scrolled += outcome
            .steps
            .iter()
            .filter(|s| matches!(s.action, ComputerAction::Scroll { .. }))
            .count();
        let state = current(&store, "s2");
        if let Err(e) = meets(&t, &state) {
            panic!("{id}: {e}");
        }
        // Idempotent: the same plan again finds the work done and changes nothing.
        if id == "teamchat_react-deploys_001" || id == "teamchat_invite_001" {
            let (screen, resolver) = web.parts();
            let again = Executor::new(screen, resolver, false).run(&plan).unwrap();
            assert_eq!(again.miss, None, "{id} again");
            assert_eq!(meets(&t, &current(&store, "s2")), Ok(()), "{id} again");
        }
    }
    assert!(scrolled > 0, "some target had to be scrolled into view");
}
