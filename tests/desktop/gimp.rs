//! GIMP (the gimp pack): a shipped task passes the loop and is solved through the screen by the
//! ui-oracle (GIMP started from the setup's recorded launch, Image > Transform by its mnemonics,
//! File > Overwrite, the window title and the saved file waited on); the state reader turns the
//! pictures and gimprc into sizes, modes, pixel samples and settings.

use serde_json::Value;

use super::support::{read_state, run, tasks};

const TASK: &str = "gimp_rotate_cw";
/// A task through dialogs found in GIMP's accessibility tree (Canvas Size's fields by caption).
const DIALOG_TASK: &str = "gimp_crop_center";

/// A PATH directory whose `gimp` does nothing (the setup's Popen succeeds without a screen).
fn shims(dir: &std::path::Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let p = bin.join("gimp");
    std::fs::write(&p, "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

fn task(id: &str) -> Value {
    tasks("gimp")
        .into_iter()
        .find(|t| t["task_id"] == id)
        .unwrap_or_else(|| panic!("no task {id}"))
}

#[test]
fn a_gimp_task_passes_the_loop_and_the_ui_oracle_rotates_it_through_the_screen() {
    let _heavy = crate::common::one_heavy_at_a_time();
    assert!(tasks("gimp").len() >= 30);
    let dir = tempfile::tempdir().unwrap();
    let two = serde_json::json!({ "tasks": [task(TASK), task(DIALOG_TASK)] }).to_string();
    let log = super::run_loop(dir.path(), &two);
    assert!(log.contains("accepted         2"), "{log}");
    let (rewards, err) = super::rollout(dir.path(), &["ui-oracle"], &[TASK, DIALOG_TASK]);
    for (id, r) in &rewards {
        assert_eq!(*r, Some(1.0), "ui-oracle on {id}: {err}");
    }
    assert_eq!(rewards.len(), 2, "{err}");
}

#[test]
fn the_gimp_state_reader_reports_pictures_and_gimprc() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let bin = shims(tmp.path());
    let home = tmp.path().join("home");
    for (rel, data) in tuplewright::apps::get("gimp").unwrap().app.home() {
        let p = home.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    let t = task(TASK);
    run(&t, "initial_setup", &home, &bin).unwrap();
    let before = read_state("gimp", &home);
    let pic = &before["images"]["Pictures/poster.png"];
    assert_eq!(pic["size"], serde_json::json!([240, 320]), "{before}");
    assert_eq!(pic["mode"], "RGB");
    assert_eq!(pic["gray"], false);
    run(&t, "golden_patch", &home, &bin).unwrap();
    std::fs::write(home.join("Pictures/broken.png"), "not a picture").unwrap();
    let after = read_state("gimp", &home);
    assert_eq!(
        after["images"]["Pictures/poster.png"]["size"],
        serde_json::json!([320, 240])
    );
    // The top-left sample moved: a rotation is visible in the state, not only in the size.
    assert_ne!(
        after["images"]["Pictures/poster.png"]["pixels"]["top_left"],
        pic["pixels"]["top_left"]
    );
    assert!(after["images"]["Pictures/broken.png"]["error"].is_string());
    assert_eq!(after["gimprc"]["show-tips"], "no");
    assert_eq!(after["gimprc"]["image-title-format"], "\"%D*%f %wx%h\"");
}
