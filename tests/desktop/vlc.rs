//! The vlc pack (VLC 3, Qt): one shipped task through the loop and solved through the screen by
//! the ui-oracle (the real VLC on the environment's screen saving its playlist with Ctrl+Y), and
//! the state reader on the playlists and vlcrc a task leaves.

use serde_json::Value;

use super::support::{quiet_launchers, read_state, run, tasks};

const TASK: &str = "vlc_convert_m3u_to_xspf";

/// A second shipped task run with the first: loop and shuffle, set in the All view of
/// Preferences and waited on in vlcrc. Fails on the old planner, which refused preferences.
const EXTRA: &str = "vlc_loop_random";

fn one(id: &str) -> (Value, String) {
    let task = tasks("vlc")
        .into_iter()
        .find(|t| t["task_id"] == id)
        .expect("shipped task");
    let doc = serde_json::json!({ "tasks": [task.clone()] }).to_string();
    (task, doc)
}

#[test]
fn a_vlc_task_passes_the_loop_and_is_solved_through_the_screen() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let doc = serde_json::json!({ "tasks": [one(TASK).0, one(EXTRA).0] }).to_string();
    let log = super::run_loop(dir.path(), &doc);
    assert!(log.contains("accepted         2"), "{log}");
    let (rewards, err) = super::rollout(dir.path(), &["ui-oracle"], &[TASK, EXTRA]);
    for (id, r) in &rewards {
        assert_eq!(*r, Some(1.0), "ui-oracle on {id}: {err}");
    }
    assert_eq!(rewards.len(), 2, "{err}");
}

/// Playlists read back as entries relative to the home in order (XSPF file:// URIs and M3U paths
/// alike), generated media are listed, and vlcrc's active keys (not the commented defaults) are prefs.
#[test]
fn the_state_reader_lists_playlists_media_and_active_vlcrc_keys() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let bin = quiet_launchers(tmp.path());
    let home = tmp.path().join("home");
    for (rel, data) in tuplewright::apps::get("vlc").unwrap().app.home() {
        let p = home.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    let (convert, _) = one(TASK);
    run(&convert, "initial_setup", &home, &bin).unwrap();
    run(&convert, "golden_patch", &home, &bin).unwrap();
    let (pref, _) = one("vlc_snapshot_jpg");
    run(&pref, "initial_setup", &home, &bin).unwrap();
    run(&pref, "golden_patch", &home, &bin).unwrap();
    let rc = home.join(".config/vlc/vlcrc");
    let mut text = std::fs::read_to_string(&rc).unwrap();
    text.push_str("#snapshot-prefix=vlcsnap-\n");
    std::fs::write(&rc, text).unwrap();
    let state = read_state("vlc", &home);
    let want = serde_json::json!([
        "Music/morning-a440.wav",
        "Music/noon-c523.wav",
        "Music/chime-b494.wav"
    ]);
    assert_eq!(
        state["playlists"]["Music/mix.xspf"]["entries"], want,
        "{state}"
    );
    assert_eq!(state["playlists"]["Music/mix.xspf"]["format"], "xspf");
    assert_eq!(state["playlists"]["Music/mix.m3u"]["entries"], want);
    assert_eq!(state["media"]["Music/noon-c523.wav"], 48044);
    assert_eq!(state["prefs"]["snapshot-format"], "jpg");
    assert_eq!(state["prefs"]["qt-privacy-ask"], "0");
    assert!(state["prefs"].get("snapshot-prefix").is_none(), "{state}");
}
