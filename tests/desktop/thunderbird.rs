//! The thunderbird pack (Thunderbird with a Local Folders profile): one shipped task through the
//! loop and solved through the screen by the ui-oracle (which launches the real Thunderbird on
//! the environment's screen), and the state reader on the mbox files a task leaves.

use serde_json::Value;

use super::support::{quiet_launchers, read_state, run, tasks};

/// Star + tag one message: the plan picks the folder and the message by name in the
/// accessibility tree and presses `s` and `1`.
const TASK: &str = "thunderbird_star_and_tag";

/// A second shipped task run with the first: a filter moving Maya's mail to Projects, made in
/// the filter editor. Fails on the old planner, which refused every filter task.
const EXTRA: &str = "thunderbird_filter_maya";

fn one(id: &str) -> (Value, String) {
    let task = tasks("thunderbird")
        .into_iter()
        .find(|t| t["task_id"] == id)
        .expect("shipped task");
    let doc = serde_json::json!({ "tasks": [task.clone()] }).to_string();
    (task, doc)
}

#[test]
fn a_thunderbird_task_passes_the_loop_and_is_solved_through_the_screen() {
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

/// The state after the golden of the triage task: the deleted newsletter is in Trash and not in
/// the Inbox (an expunged copy left in the Inbox's mbox is not listed), the star and the tag read
/// back as flags and tag names; prefs and filters come from their files.
#[test]
fn the_state_reader_lists_folders_flags_tags_prefs_and_filters() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let bin = quiet_launchers(tmp.path());
    let home = tmp.path().join("home");
    for (rel, data) in tuplewright::apps::get("thunderbird").unwrap().app.home() {
        let p = home.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    // The filter task first: its setup rewrites the folders, the triage's then rewrites them again.
    let (filter, _) = one("thunderbird_filter_maya");
    run(&filter, "initial_setup", &home, &bin).unwrap();
    run(&filter, "golden_patch", &home, &bin).unwrap();
    let (triage, _) = one("thunderbird_triage_three");
    run(&triage, "initial_setup", &home, &bin).unwrap();
    run(&triage, "golden_patch", &home, &bin).unwrap();
    // What Thunderbird leaves after a move: the old copy marked expunged (0x0008).
    let inbox = home.join(".thunderbird/tw/Mail/Local Folders/Inbox");
    let mut text = std::fs::read_to_string(&inbox).unwrap();
    text.push_str("From - Mon Mar 03 09:00:00 2025\nX-Mozilla-Status: 0009\nMessage-ID: <gone@x>\nSubject: Moved away\n\nbody\n\n");
    std::fs::write(&inbox, text).unwrap();
    let state = read_state("thunderbird", &home);
    let folder = |name: &str| {
        state["folders"][name]
            .as_array()
            .cloned()
            .unwrap_or_default()
    };
    let subject = |msgs: &[Value], s: &str| msgs.iter().find(|m| m["subject"] == s).cloned();
    let inbox = folder("Inbox");
    assert!(
        subject(&inbox, "Shipping Weekly: port delays").is_none(),
        "{state}"
    );
    assert!(
        subject(&inbox, "Moved away").is_none(),
        "expunged listed: {state}"
    );
    assert!(subject(&folder("Trash"), "Shipping Weekly: port delays").is_some());
    let budget = subject(&inbox, "Q1 budget review").unwrap();
    assert_eq!(budget["flagged"], true);
    let contract = subject(&inbox, "Contract renewal terms").unwrap();
    assert_eq!(contract["tags"], serde_json::json!(["To Do"]));
    assert_eq!(contract["read"], true);
    assert_eq!(
        state["prefs"]["mail.identity.id1.useremail"],
        "dana@harbor.test"
    );
    let names: Vec<&str> = state["filters"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["name"].as_str())
        .collect();
    assert_eq!(names, ["Newsletters", "Maya to Projects"]);
    assert_eq!(
        state["filters"][1]["actions"][0][1],
        "mailbox://nobody@Local%20Folders/Projects"
    );
}
