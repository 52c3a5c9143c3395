//! Cross-app tasks on a real combined screen (Xvfb, openbox, the files desktop and one Debian
//! Chromium window per web app, all installed by .ci/setup): the taskbar's buttons switch the
//! app in front with clicks only, the resolver finds page targets only on the window in front,
//! `ui-oracle` does shipped tasks of every cross template through the screen to reward 1.0 (the
//! tuple's reward.py checks the ground truth), `noop --screen` scores 0.0, and nothing the
//! screen started outlives it — dropped, or killed with SIGKILL and swept by the next screen.

use crate::screen_support;
use crate::shipped_support;

use std::path::Path;
use std::sync::Arc;

use screen_support::{eventually, marker_processes};
use serde_json::Value;
use shipped_support::{shipped_task, tw};
use tuplewright::engine::env::{AppRegistry, ServerConfig, SessionStore};
use tuplewright::engine::rollout::ui_plan::{Target, TargetResolver};
use tuplewright::engine::screen::{
    button_area, ComputerAction, DesktopWindows, Screen, ScreenConfig, TASKBAR_HEIGHT,
};
use tuplewright::engine::ui::{CombinedScreen, Today, UiOptions, WebApp};

/// The three tests each run a combined screen (openbox, the desktop and up to two Chromium
/// windows); on two cores, three at once starved the window manager's focus change past the
/// taskbar test's 60 s wait (2 of 6 parallel runs), so they take turns.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The class of the window that has the focus on `display`.
fn focused_class(display: &str) -> Option<String> {
    let windows = DesktopWindows::connect(display).ok()?;
    let list = windows.list().ok()?;
    list.into_iter().find(|w| w.focused).map(|w| w.class)
}

fn web_app(dir: &Path, app: &str) -> WebApp {
    let cfg = ServerConfig {
        port: Some(0),
        state_dir: dir.join(app),
        fsync: false,
        ..ServerConfig::default()
    };
    let reg = AppRegistry::builtin().unwrap();
    let store = Arc::new(SessionStore::open(reg.get(app).unwrap(), &cfg).unwrap());
    WebApp {
        app: app.into(),
        store,
        sid: "s1".into(),
        opts: UiOptions {
            today: Today::parse("2026-03-05T10:00:00Z").unwrap(),
        },
    }
}

#[test]
fn the_taskbar_switches_apps_with_clicks_and_a_dropped_combined_screen_leaves_no_process() {
    let _turn = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let apps: Vec<String> = ["issue-tracker", "team-chat", "files"]
        .map(String::from)
        .to_vec();
    let webs = vec![
        web_app(dir.path(), "issue-tracker"),
        web_app(dir.path(), "team-chat"),
    ];
    let mut combined = CombinedScreen::start(&ScreenConfig::default(), &apps, &home, webs)
        .expect("the combined screen starts and passes the gate");
    let display = combined.screen.display_name();
    let marker = combined.screen.work_dir().to_path_buf();
    assert!(combined
        .url("team-chat")
        .unwrap()
        .starts_with("http://127.0.0.1:"));
    assert!(combined.url("files").is_none());
    // The task's first app is in front once the gate has passed.
    assert_eq!(focused_class(&display).as_deref(), Some("tw-issue-tracker"));

    let click = |screen: &mut Screen, i: usize| {
        let (x, y, w, h) = button_area(i);
        assert!(y + h <= TASKBAR_HEIGHT);
        let at = ComputerAction::LeftClick {
            x: x + w / 2,
            y: y + h / 2,
        };
        screen.act(&at).unwrap();
    };
    // Button 3 (Files) brings the desktop forward, its terminal focused.
    click(&mut combined.screen, 2);
    let ok = eventually(60, || focused_class(&display).as_deref() == Some("XTerm"));
    let windows = DesktopWindows::connect(&display).map(|w| w.list());
    assert!(ok, "the terminal has the focus: {windows:?}");
    let general = Target::Role {
        role: "link".into(),
        name: "random".into(),
    };
    // A page target is not on screen while the desktop is in front…
    assert_eq!(combined.resolver.resolve(&general).unwrap(), None);
    // …and is, below the strip, once the team-chat button has brought its window forward.
    click(&mut combined.screen, 1);
    assert!(eventually(60, || {
        focused_class(&display).as_deref() == Some("tw-team-chat")
    }));
    let at = combined.resolver.resolve(&general).unwrap().unwrap();
    assert!(at.y > TASKBAR_HEIGHT && at.x >= 0, "{at:?}");
    let taskbar = Target::Role {
        role: "taskbar_button".into(),
        name: "Issue tracker".into(),
    };
    let b = combined.resolver.resolve(&taskbar).unwrap().unwrap();
    assert_eq!((b.x, b.y, b.w, b.h), button_area(0));

    assert!(
        marker_processes(&marker) >= 5,
        "Xvfb, openbox, desktop, browsers"
    );
    drop(combined);
    assert_eq!(
        marker_processes(&marker),
        0,
        "everything died with the screen"
    );
    assert!(!marker.exists());
}

/// A store under `dir` holding the shipped tasks `ids` (file, id), accepted by the loop.
fn store_of_tasks(dir: &Path, ids: &[(&str, &str)]) -> std::path::PathBuf {
    let tasks: Vec<Value> = ids.iter().map(|(f, id)| shipped_task(f, id)).collect();
    let file = dir.join("tasks.json");
    std::fs::write(&file, serde_json::json!({ "tasks": tasks }).to_string()).unwrap();
    let store = dir.join("s.db");
    let (code, _, err) = tw(
        &store,
        &["run", "--jobs", "2", "--no-export", file.to_str().unwrap()],
    );
    assert_eq!(code, 0, "the loop accepts them: {err}");
    store
}

#[test]
fn ui_oracle_does_every_cross_template_through_the_combined_screen_and_noop_there_scores_0() {
    let _turn = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let tasks = [
        ("cross.json", "cross_csv-to-issues_002"),
        ("cross.json", "cross_issues-to-file_001"),
        ("cross.json", "cross_chat-to-issue_002"),
        ("mail.json", "mail_csv-contacts_001"),
        ("team-chat.json", "teamchat_files-digest_001"),
    ];
    let store = store_of_tasks(dir.path(), &tasks);
    let (code, out, err) = tw(&store, &["rollout", "--policy", "ui-oracle", "--json"]);
    assert_eq!(code, 0, "ui-oracle scores 1.0 on all: {out}\n{err}");
    let rows: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(rows.as_array().unwrap().len(), tasks.len());
    for row in rows.as_array().unwrap() {
        let trial = &row["trials"][0];
        assert_eq!(trial["reward"], 1.0, "{row}");
        let steps = trial["steps"].as_array().unwrap();
        // issue #28: every frame of the combined screen was taken once it had settled.
        assert!(steps.iter().all(|s| s["settle_ms"].is_u64()), "{row}");
        // Two apps, so at least two switches: clicks on the taskbar strip.
        let switches = steps
            .iter()
            .filter(|s| {
                s["action"]["action"] == "left_click"
                    && s["action"]["y"].as_i64().unwrap() < i64::from(TASKBAR_HEIGHT)
            })
            .count();
        assert!(switches >= 2, "{row}");
        assert_eq!(
            steps[0]["action"]["action"], "screenshot",
            "the first observation (#36)"
        );
        assert!(steps[1..].iter().all(|s| {
            let kind = s["action"]["action"].as_str().unwrap_or_default();
            ["left_click", "type", "key", "scroll"].contains(&kind)
                && s["screenshot"]["sha256"].is_string()
        }));
    }

    let (code, out, err) = tw(
        &store,
        &["rollout", "--policy", "noop", "--screen", "--json"],
    );
    assert_eq!(
        code, 0,
        "noop on the combined screen scores 0.0: {out}\n{err}"
    );
    let rows: Value = serde_json::from_str(&out).unwrap();
    for row in rows.as_array().unwrap() {
        assert_eq!(row["trials"][0]["reward"], 0.0, "{row}");
    }
}

#[test]
fn a_killed_cross_rollout_leaves_no_screen_process_after_the_next_screen_starts() {
    let _turn = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let store = store_of_tasks(dir.path(), &[("cross.json", "cross_chat-to-issue_001")]);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .args(["--no-tui", "--store"])
        .arg(&store)
        .args(["rollout", "--policy", "ui-oracle"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let prefix = format!(
        "{}{}-",
        tuplewright::engine::screen::SCREEN_PREFIX,
        child.id()
    );
    let marker_of_child = || {
        std::fs::read_dir(std::env::temp_dir())
            .ok()?
            .flatten()
            .find(|e| e.file_name().to_string_lossy().starts_with(&prefix))
            .map(|e| e.path())
    };
    // Both browser windows are up (each Chromium runs several processes).
    let mut marker = None;
    assert!(
        eventually(120, || {
            marker = marker_of_child();
            marker.as_ref().is_some_and(|m| {
                let dir = |app: &str| m.join(format!("chromium-{app}/DevToolsActivePort"));
                dir("team-chat").exists() && dir("issue-tracker").exists()
            })
        }),
        "the rollout's combined screen came up"
    );
    let marker = marker.unwrap();
    child.kill().unwrap(); // SIGKILL: no destructor runs.
    child.wait().unwrap();
    assert!(
        marker_processes(&marker) >= 3,
        "the killed run's screen outlives it"
    );
    let next = Screen::start(
        &ScreenConfig::default(),
        ScreenConfig::default().size_for("x"),
    );
    assert!(next.is_ok());
    assert!(
        eventually(60, || marker_processes(&marker) == 0),
        "the sweep killed them"
    );
    assert!(!marker.exists());
}
