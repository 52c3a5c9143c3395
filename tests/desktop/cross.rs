//! Cross-application desktop tasks (issue #31): two applications on one desktop screen. One
//! calc + writer task end to end with the real programs: the loop accepts it (both packs'
//! homes and profiles provisioned, the setup's two `libreoffice` launches recorded), and the
//! ui-oracle solves it through the screen alone — reading the figures in Calc's window through
//! the Name Box, Alt+Tab to Writer waited on by its title, Find & Replace, Ctrl+S — scoring 1.0.
//! The other 15 shipped cross tasks and `noop --screen` are measured runs quoted in
//! `docs/desktop-apps.md` (CI time).

use serde_json::Value;

const TASKS: &str = include_str!("../../assets/tasks/cross.json");
const ID: &str = "cross_sheet-to-report_002";

#[test]
fn a_calc_and_writer_task_is_accepted_and_solved_through_one_screen() {
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
}
