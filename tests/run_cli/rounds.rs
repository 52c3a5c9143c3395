//! One round numbering across re-runs: a task run, then re-run (`--rerun ID`), has rounds 1 and 2
//! in the store, and the second run's events, REVIEW.md heading and decision all say round 2; the rounds list can tell
//! the two runs apart.

use std::process::Stdio;

use super::{open, run, task_file};

#[test]
fn a_rerun_continues_the_stored_round_numbers_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = task_file(dir.path(), 1);
    let db = dir.path().join("t.db");
    let text = std::fs::read_to_string(&tasks).unwrap();
    let id = serde_json::from_str::<serde_json::Value>(&text).unwrap()[0]["task_id"]
        .as_str()
        .unwrap()
        .to_string();
    // The second run asks for the finished task by id (a plain run leaves it alone).
    for extra in [&["--no-export"][..], &["--no-export", "--rerun", &id]] {
        let o = run(&db, &tasks, extra)
            .stdout(Stdio::null())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let store = open(&db);
    let rounds = store.rounds(&id).unwrap();
    let numbers: Vec<i64> = rounds.iter().filter_map(|r| r.round.round_no).collect();
    assert_eq!(numbers, [1, 2]);
    assert!(
        rounds[1].round.review_md.starts_with("# Round 2 Review"),
        "{}",
        rounds[1].round.review_md
    );
    let events = store.events_after(0, 100_000).unwrap();
    let last_run: Vec<_> = {
        let start = events
            .iter()
            .rposition(|e| e.kind == "job.started")
            .unwrap();
        events[start..].to_vec()
    };
    let phase_rounds: Vec<i64> = last_run
        .iter()
        .filter(|e| e.kind == "round.phase")
        .filter_map(|e| e.payload["detail"]["round"].as_i64())
        .collect();
    assert!(
        !phase_rounds.is_empty() && phase_rounds.iter().all(|&r| r == 2),
        "{phase_rounds:?}"
    );
    assert!(last_run
        .iter()
        .filter(|e| e.kind == "round.check")
        .all(|e| e.payload["round"] == 2));
    let recorded: Vec<_> = last_run
        .iter()
        .filter(|e| e.kind == "round.recorded")
        .collect();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].payload["round"], 2);
    let accept = store.decisions(&id).unwrap().pop().unwrap();
    assert_eq!(accept.after, "loop_accepted");
    assert!(accept.reason.ends_with("in round 2"), "{}", accept.reason);
    // The rounds list's run boundaries: one run each.
    assert_eq!(store.round_runs(&id).unwrap(), [1, 2]);
}
