//! One function opens a task's screen (#29): `screen shot --task --width/--height` is the size
//! asked for even when `[screen.apps.<app>]` configures one for the task's app, and a VLM teacher
//! gets the combined screen on a task spanning apps (the screen `ui-oracle` and `noop --screen`
//! use) — real Xvfb, Chromium and openbox from .ci/setup, a local stand-in model.

use crate::providers::standin;
use crate::shipped_support;

use std::path::Path;

use serde_json::Value;
use shipped_support::{shipped_task, tw};
use standin::{openai_text, Reply, StandIn};
use tuplewright::engine::rollout::screen::ComputerAction;
use tuplewright::engine::rollout::vlm::{ActionFormat, Coords};

/// A store under `dir` holding the shipped task `id` of `file`, accepted by the loop.
fn accepted(dir: &Path, file: &str, id: &str) -> std::path::PathBuf {
    let tasks = dir.join("tasks.json");
    let doc = serde_json::json!({ "tasks": [shipped_task(file, id)] });
    std::fs::write(&tasks, doc.to_string()).expect("write");
    let store = dir.join("s.db");
    let (code, _, err) = tw(
        &store,
        &["run", "--no-export", tasks.to_str().expect("utf-8")],
    );
    assert_eq!(code, 0, "the loop accepts {id}: {err}");
    store
}

#[test]
fn screen_shot_of_a_task_has_the_asked_size_even_with_a_per_app_size_configured() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = accepted(dir.path(), "team-chat.json", "teamchat_announce_001");
    let cfg = dir.path().join("tw.toml");
    std::fs::write(
        &cfg,
        "[screen.apps.team-chat]\nwidth = 1440\nheight = 900\n",
    )
    .expect("cfg");
    let png = dir.path().join("shot.png");
    let out = assert_cmd::Command::cargo_bin("tuplewright")
        .expect("binary")
        .arg("--config")
        .arg(&cfg)
        .args(["--no-tui", "--store"])
        .arg(&store)
        .args(["screen", "shot", "--task", "teamchat_announce_001"])
        .args(["--width", "960", "--height", "640", "--out"])
        .arg(&png)
        .timeout(std::time::Duration::from_secs(600))
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = image::load_from_memory(&std::fs::read(&png).expect("png")).expect("decode");
    assert_eq!(
        (img.width(), img.height()),
        (960, 640),
        "--width/--height win over [screen.apps.team-chat]"
    );
}

#[test]
fn a_vlm_teacher_standin_gets_the_combined_screen_on_a_cross_app_task() {
    let dir = tempfile::tempdir().expect("tempdir");
    let id = "cross_chat-to-issue_001";
    let store = accepted(dir.path(), "cross.json", id);
    let model_name = "cua-gym-standin";
    let (format, space) = ActionFormat::for_model(model_name);
    let coords = Coords::new(space, 1280, 800).expect("coords");
    let done = format.render(
        "Nothing to do.",
        &[ComputerAction::Terminate { success: true }],
        &coords,
    );
    let model = StandIn::start(vec![], Some(Reply::json(openai_text(&done, 100, 10))));
    let policy = format!("vlm:openai:{model_name}@{}/v1", model.base);
    let (code, out, err) = tw(
        &store,
        &[
            "rollout", "--policy", &policy, "--tasks", id, "--trials", "1", "--json",
        ],
    );
    let rows: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    let trial = &rows[0]["trials"][0];
    assert!(
        trial["failure"].is_null(),
        "the teacher's trial ran on a screen (exit {code}): {trial}\n{err}"
    );
    let reqs = model.requests();
    assert!(!reqs.is_empty(), "the model saw the screen");
    // The combined screen: the taskbar strip at the top of the first screenshot the model got.
    let steps = trial["steps"].as_array().expect("steps");
    assert!(
        steps.iter().any(|s| s["screenshot"]["sha256"].is_string()),
        "{trial}"
    );
}
