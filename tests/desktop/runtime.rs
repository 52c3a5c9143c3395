//! The desktop-application runtime on a real Xvfb: a recorded launch opens the real program with
//! a fresh profile and a readable accessibility tree; a program that dies before its window is an
//! infrastructure failure quoting its own output; one that never shows a window is one naming
//! the hang; nothing is left running when the screen goes.

use crate::screen_support;

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::Duration;

use tuplewright::engine::rollout::desktop_apps::screen_apps;
use tuplewright::engine::screen::{
    AppDesktopSpec, Screen, ScreenApp, ScreenConfig, ScreenError, ScreenSize,
};

/// A fresh home for Calc in a world-readable temporary folder (shared with `pool`).
pub(super) fn home() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let home = dir.path().join("home");
    tuplewright::engine::env::files::provision_home_for(&home, &["libreoffice_calc".to_string()])
        .unwrap();
    (dir, home)
}

fn fake(name: &str, script: &str, ready_ms: u64) -> ScreenApp {
    ScreenApp {
        name: name.into(),
        program: "/bin/sh".into(),
        args: vec!["-c".into(), script.into()],
        env: vec![],
        classes: vec!["NoSuchClass".into()],
        profile: vec![],
        ready: Duration::from_millis(ready_ms),
        document_title: None,
    }
}

fn open(apps: Vec<ScreenApp>, home: &std::path::Path) -> (Screen, Result<(), ScreenError>) {
    let cfg = ScreenConfig {
        ready_timeout_ms: 3_000,
        ..Default::default()
    };
    let mut s = Screen::start(&cfg, ScreenSize::default()).unwrap();
    let spec = AppDesktopSpec {
        home: home.to_path_buf(),
        files: false,
        apps,
    };
    let r = s.open_apps(&cfg, &spec).map(|_| ());
    (s, r)
}

#[test]
fn a_program_that_dies_before_its_window_is_infrastructure_quoting_its_output() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let (_d, home) = home();
    let (_s, r) = open(
        vec![fake("crashy", "echo boom-from-the-app >&2; exit 3", 20_000)],
        &home,
    );
    let err = r.unwrap_err();
    assert!(matches!(err, ScreenError::AppDied { .. }), "{err}");
    assert!(err.to_string().contains("boom-from-the-app"), "{err}");
}

#[test]
fn a_program_whose_window_never_appears_is_a_hang_named_with_its_output() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let (_d, home) = home();
    let t = std::time::Instant::now();
    let (_s, r) = open(
        vec![fake(
            "sleepy",
            "echo waiting-forever; exec sleep 600",
            2_000,
        )],
        &home,
    );
    let err = r.unwrap_err().to_string();
    assert!(
        err.contains("hung") && err.contains("waiting-forever"),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(60));
}

#[test]
fn a_recorded_calc_launch_opens_calc_on_the_file_with_an_accessibility_tree() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let (_d, home) = home();
    let apps = vec!["libreoffice_calc".to_string()];
    let lines = vec!["libreoffice --calc /home/user/Documents/sales-2025.xlsx".to_string()];
    let cfg = ScreenConfig::default();
    let mut s = Screen::start(&cfg, ScreenSize::default()).unwrap();
    let spec = AppDesktopSpec {
        home: home.clone(),
        files: false,
        apps: screen_apps(&apps, &lines).unwrap(),
    };
    let ready = s.open_apps(&cfg, &spec).unwrap();
    let windows = tuplewright::engine::screen::DesktopWindows::connect(&s.display_name()).unwrap();
    let titles: Vec<String> = windows
        .list()
        .unwrap()
        .into_iter()
        .map(|w| w.title)
        .collect();
    assert!(
        titles
            .iter()
            .any(|t| t == "sales-2025.xlsx - LibreOffice Calc"),
        "{titles:?}"
    );
    // The profile is the pack's, fresh: the alien-format warning is off in it.
    let xcu = s
        .session_dir()
        .unwrap()
        .join("tw-profile/libreoffice_calc/user/registrymodifications.xcu");
    assert!(std::fs::read_to_string(xcu)
        .unwrap()
        .contains("WarnAlienFormat"));
    let tree = s.a11y_reader(&cfg).unwrap().read().unwrap();
    let nodes = tree["nodes"].as_array().unwrap();
    assert!(nodes.len() < 4001);
    assert!(
        nodes
            .iter()
            .any(|n| n["role"] == "table" && n["name"] == "Sheet Sales"),
        "{tree}"
    );
    assert!(
        nodes
            .iter()
            .any(|n| n["role"] == "text" && n["text"] == "A1"),
        "the Name Box shows A1"
    );
    // The ready gate passed on the drawn document, not on its mapped but empty window (a
    // background and a separator line: a handful of colours).
    let img = image::load_from_memory(&ready.png).unwrap().to_rgb8();
    let colours: std::collections::HashSet<[u8; 3]> = img
        .enumerate_pixels()
        .filter(|(_, y, _)| *y > 30)
        .map(|(_, _, p)| p.0)
        .collect();
    assert!(
        colours.len() >= 24,
        "the ready screenshot shows an empty window ({} colours)",
        colours.len()
    );
    // A "Save changes?" box left open ends the trial as infrastructure, named and quoted.
    s.ensure_no_modal_dialog(&cfg).unwrap();
    left_open_save_dialog_is_named_and_quoted(&mut s, &cfg);
    let marker = s.work_dir().to_path_buf();
    drop(s);
    assert!(screen_support::eventually(
        20,
        || screen_support::marker_processes(&marker) == 0
    ));
}

/// Edits a cell of the open Calc document and closes it without saving: LibreOffice asks
/// "Save changes?" in a modal box, which the end-of-trial check names and quotes.
fn left_open_save_dialog_is_named_and_quoted(s: &mut Screen, cfg: &ScreenConfig) {
    use tuplewright::engine::screen::ComputerAction as A;
    for a in [
        A::Type {
            text: "changed".into(),
        },
        A::Key {
            key: "Return".into(),
        },
        A::Key {
            key: "ctrl+w".into(),
        },
    ] {
        s.act(&a).unwrap();
    }
    let mut open = Vec::new();
    assert!(
        screen_support::eventually(60, || {
            open = s.modal_dialogs(cfg).unwrap();
            open.iter().any(|d| !d.text.is_empty())
        }),
        "no modal dialog with text showed: {open:?}"
    );
    let err = s.ensure_no_modal_dialog(cfg).unwrap_err();
    assert!(matches!(err, ScreenError::DialogLeftOpen(_)), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("Save Document?") && text.contains("Save changes to document"),
        "{text}"
    );
}
