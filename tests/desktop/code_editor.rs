//! The code_editor pack (Geany standing in for vs_code).

use std::process::Command;
use std::time::{Duration, Instant};

use super::support::{
    endpoints, free_display, noop_reward, quiet_launchers, read_state, reward, run, sample, tasks,
    wait_until, Kill,
};

#[test]
fn shipped_tasks_score_0_at_init_and_1_at_gold() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let all = tasks("code_editor");
    assert!(all.len() >= 30, "{} tasks", all.len());
    for t in &sample(&all, 8) {
        assert_eq!(endpoints(t), (0.0, 1.0), "{}", t["task_id"]);
    }
}

/// Fails on the first seed, whose geany.conf already had line numbers on, tabs indentation and
/// a final new line: those tasks scored 0.8 with nothing done (the loop's noop probe refused them).
#[test]
fn the_seed_home_with_nothing_done_scores_0_for_every_task() {
    let _heavy = crate::common::one_heavy_at_a_time();
    for t in &tasks("code_editor") {
        assert_eq!(noop_reward(t), 0.0, "{}", t["task_id"]);
    }
}

#[test]
fn the_state_reader_lists_settings_projects_and_source_files() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let all = tasks("code_editor");
    let task = all
        .iter()
        .find(|t| t["task_id"] == "code_editor_project_indent")
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let bin = quiet_launchers(tmp.path());
    let home = tmp.path().join("home");
    std::fs::create_dir_all(home.join(".config/geany")).unwrap();
    std::fs::write(
        home.join(".config/geany/geany.conf"),
        "[geany]\npref_editor_tab_width=4\n",
    )
    .unwrap();
    run(task, "initial_setup", &home, &bin).unwrap();
    let state = read_state("code_editor", &home);
    assert_eq!(
        state["settings"]["geany.conf"]["geany/pref_editor_tab_width"],
        "4"
    );
    let project = &state["projects"]["projects/inventory/inventory.geany"];
    assert_eq!(project["indentation/indent_width"], "4", "{state}");
    assert_eq!(project["project/name"], "inventory");
    let stats = state["files"]["projects/inventory/inventory/stats.py"]
        .as_str()
        .unwrap();
    assert!(stats.contains("def total_value(items):"));
}

/// The real Geany opens the key file the setup wrote and writes it back on SIGTERM with the
/// preset and the kept keys intact (so the reward still says 0 until someone changes them).
#[test]
fn real_geany_keeps_what_the_setup_wrote() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let all = tasks("code_editor");
    let task = all
        .iter()
        .find(|t| t["task_id"] == "code_editor_python_style")
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let bin = quiet_launchers(tmp.path());
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    run(task, "initial_setup", &home, &bin).unwrap();
    let n = free_display(200);
    let _x = Kill(
        Command::new("Xvfb")
            .args([
                format!(":{n}"),
                "-screen".into(),
                "0".into(),
                "1280x800x24".into(),
            ])
            .spawn()
            .expect("Xvfb"),
    );
    wait_until("Xvfb", Duration::from_secs(30), || {
        std::path::Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
    });
    let conf = home.join(".config/geany");
    let mut geany = Kill(
        Command::new("geany")
            .arg(format!("--config={}", conf.display()))
            .arg(home.join("projects/inventory/inventory/stats.py"))
            .env("DISPLAY", format!(":{n}"))
            .env("HOME", &home)
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("geany"),
    );
    wait_until("Geany's socket", Duration::from_secs(60), || {
        std::fs::read_dir(&conf)
            .map(|d| {
                d.flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with("geany_socket"))
            })
            .unwrap_or(false)
    });
    let before = std::fs::metadata(conf.join("geany.conf"))
        .unwrap()
        .modified()
        .unwrap();
    let pid = geany.0.id().to_string();
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let start = Instant::now();
    while geany.0.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "Geany did not exit"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let after = std::fs::metadata(conf.join("geany.conf"))
        .unwrap()
        .modified()
        .unwrap();
    assert!(after >= before);
    let text = std::fs::read_to_string(conf.join("geany.conf")).unwrap();
    assert!(
        text.contains("long_line_column=72") && text.contains("pref_template_developer=Dana Ruiz"),
        "{text}"
    );
    assert_eq!(reward(&run(task, "reward", &home, &bin).unwrap()), 0.0);
    run(task, "golden_patch", &home, &bin).unwrap();
    assert_eq!(reward(&run(task, "reward", &home, &bin).unwrap()), 1.0);
}

/// Fails on the old planner, which refused every settings task: three settings on three pages
/// of Geany's Preferences (a radio button, a captioned spin button, a check box), saved with OK.
#[test]
fn a_settings_task_is_solved_through_geany_preferences() {
    let _heavy = crate::common::one_heavy_at_a_time();
    const ID: &str = "code_editor_python_style";
    let picked: Vec<serde_json::Value> = tasks("code_editor")
        .into_iter()
        .filter(|t| t["task_id"] == ID)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let log = super::run_loop(
        dir.path(),
        &serde_json::json!({ "tasks": picked }).to_string(),
    );
    assert!(log.contains("accepted         1"), "{log}");
    let (rewards, err) = super::rollout(dir.path(), &["ui-oracle"], &[ID]);
    assert_eq!(rewards[0].1, Some(1.0), "ui-oracle on {ID}: {err}");
}
