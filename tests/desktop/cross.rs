//! Cross-application desktop tasks (issue #31): two applications on one desktop screen. One
//! calc + writer task end to end with the real programs: the loop accepts it (both packs'
//! homes and profiles provisioned, the setup's two `libreoffice` launches recorded), and the
//! ui-oracle solves it through the screen alone — reading the figures in Calc's window through
//! the Name Box, Alt+Tab to Writer waited on by its title, Find & Replace, Ctrl+S — scoring 1.0.
//! The other 15 shipped cross tasks and `noop --screen` are measured runs quoted in
//! `docs/desktop-apps.md` (CI time).
//!
//! One function opens a task's screen (#29): `env try` on the calc + writer task and the OSWorld
//! face over files + the code editor open the same cross desktop `ui-oracle` gets — every
//! application's window on one desktop (the old code gave both the combined screen: the files
//! desktop alone), at the size `[screen.apps.<first app>]` configures.

use std::io::{BufRead, Read};

use serde_json::Value;

use crate::osworld_support::{eventually, serve};

const TASKS: &str = include_str!("../../assets/tasks/cross.json");
const ID: &str = "cross_sheet-to-report_002";

#[test]
fn a_calc_and_writer_task_is_accepted_and_solved_through_one_screen() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let all: Value = serde_json::from_str(TASKS).unwrap();
    let task = all["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["task_id"] == ID)
        .cloned()
        .unwrap();
    assert_eq!(
        task["domains"],
        serde_json::json!(["libreoffice_calc", "libreoffice_writer"])
    );
    let dir = tempfile::tempdir().unwrap();
    let log = super::run_loop(
        dir.path(),
        &serde_json::json!({ "tasks": [task] }).to_string(),
    );
    assert!(log.contains("accepted         1"), "{log}");
    let (rewards, err) = super::rollout(dir.path(), &["ui-oracle"], &[ID]);
    assert_eq!(rewards[0].1, Some(1.0), "ui-oracle on {ID}: {err}");
    // The plan switched windows: an Alt+Tab step is among the trial's actions.
    assert!(err.contains("alt+Tab"), "{err}");
    // `env try` on it: the person's screen is the same cross desktop, sized for Calc.
    std::fs::write(
        dir.path().join("tuplewright.toml"),
        "[screen.apps.libreoffice_calc]\nwidth = 1152\nheight = 720\n",
    )
    .unwrap();
    let (shown, size) = env_try_screen(dir.path(), &["LibreOffice Calc", "LibreOffice Writer"]);
    shown.unwrap();
    assert_eq!(size, "1152 720", "[screen.apps.libreoffice_calc] sizes it");
}

/// Whether `display` shows a window whose "title [class]" contains each of `needles` (waited
/// for: an application's window may map a little after the gate).
fn shows(display: &str, needles: &[&str]) -> Result<(), String> {
    let mut seen = Vec::new();
    let ok = eventually(60, || {
        let Ok(windows) = tuplewright::engine::screen::DesktopWindows::connect(display) else {
            return false;
        };
        seen = windows
            .list()
            .unwrap_or_default()
            .into_iter()
            .map(|w| format!("{} [{}]", w.title, w.class))
            .collect();
        needles.iter().all(|n| seen.iter().any(|w| w.contains(n)))
    });
    ok.then_some(())
        .ok_or_else(|| format!("not all of {needles:?} on {display}: {seen:?}"))
}

/// The display's size (`xdotool getdisplaygeometry`), e.g. `1280 800`.
fn display_size(display: &str) -> String {
    let out = std::process::Command::new("xdotool")
        .env("DISPLAY", display)
        .arg("getdisplaygeometry")
        .output()
        .expect("xdotool (.ci/setup)");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `env try ID --until` in `dir` (store `s.db`): whether its screen showed `needles` and its
/// size; the person is done at once and the trial must end without an infrastructure failure.
fn env_try_screen(dir: &std::path::Path, needles: &[&str]) -> (Result<(), String>, String) {
    let until = dir.join("done");
    let mut child = super::bin()
        .current_dir(dir)
        .args([
            "--no-tui", "--store", "s.db", "env", "try", ID, "--json", "--until",
        ])
        .arg(&until)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let access = lines.next().and_then(Result::ok).unwrap_or_default();
    let shown = serde_json::from_str::<Value>(&access)
        .ok()
        .and_then(|v| v["display"].as_str().map(str::to_string))
        .map(|d| (shows(&d, needles), display_size(&d)));
    std::fs::write(&until, "").unwrap();
    let result = lines.next().and_then(Result::ok).unwrap_or_default();
    let status = child.wait().unwrap();
    let err = err.join().unwrap_or_default();
    assert!(status.success(), "env try: {result}\n{err}");
    shown.unwrap_or_else(|| panic!("env try printed no access line: {access}\n{err}"))
}

#[test]
fn the_osworld_face_over_files_and_the_code_editor_serves_one_desktop_with_both() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("tuplewright.toml"),
        "[screen.apps.files]\nwidth = 1024\nheight = 704\n",
    )
    .unwrap();
    let guest = serve(dir, &["--app", "files", "--app", "code_editor"]);
    shows(&guest.display, &["Terminal", "[Geany]"]).unwrap();
    assert_eq!(display_size(&guest.display), "1024 704");
}
