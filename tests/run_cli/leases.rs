//! Task leases across real processes: two headless runs racing for the same tasks, a killed
//! owner's task taken over at once by the next run, and `verify` / `rollout` skipping a task that
//! another live process holds.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use tuplewright::engine::lease::{Claim, LeaseKeeper, LeaseSettings};
use tuplewright::engine::store::Store;

use super::{bin, open, run, task_file};

fn ids_of(tasks: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(tasks).unwrap();
    serde_json::from_str::<Vec<serde_json::Value>>(&text)
        .unwrap()
        .iter()
        .map(|t| t["task_id"].as_str().unwrap().to_string())
        .collect()
}

/// Decisions per (task, status after).
fn decision_counts(store: &Store, id: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for d in store.decisions(id).unwrap() {
        *out.entry(d.after).or_default() += 1;
    }
    out
}

/// A config whose leases only lapse after ten minutes: a takeover within a test is never expiry.
fn long_lease_config(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("tw.toml");
    std::fs::write(
        &p,
        "[store]\nlease_ttl_ms = 600000\nlease_heartbeat_ms = 1000\n",
    )
    .unwrap();
    p
}

fn wait_output(child: Child) -> (bool, String) {
    let o = child.wait_with_output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn two_runs_racing_for_the_same_tasks_run_each_task_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = task_file(dir.path(), 10);
    let db = dir.path().join("t.db");
    // Import first so both processes start their batches on the same store at once.
    let o = bin()
        .arg("--store")
        .arg(&db)
        .arg("import")
        .arg(&tasks)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let spawn = || {
        run(&db, &tasks, &["--resume", "--jobs", "2", "--no-export"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let ((ok_a, err_a), (ok_b, err_b)) = (wait_output(a), wait_output(b));
    assert!(ok_a && ok_b, "A:\n{err_a}\nB:\n{err_b}");
    let store = open(&db);
    assert!(store.check_integrity().unwrap().is_empty());
    for id in ids_of(&tasks) {
        let d = decision_counts(&store, &id);
        // One loop on the task: one start, one accept, one round 1.
        assert_eq!(
            d.get("in_loop"),
            Some(&1),
            "{id}: {d:?}\nA:\n{err_a}\nB:\n{err_b}"
        );
        assert_eq!(d.get("loop_accepted"), Some(&1), "{id}: {d:?}");
        let rounds = store.rounds(&id).unwrap();
        let numbers: Vec<i64> = rounds.iter().filter_map(|r| r.round.round_no).collect();
        assert_eq!(numbers, [1], "{id}: no overlapping rounds");
    }
    let accepted = |err: &str| -> usize {
        err.lines()
            .find_map(|l| l.strip_prefix("accepted"))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0)
    };
    let (by_a, by_b) = (accepted(&err_a), accepted(&err_b));
    eprintln!("accepted by A {by_a}, by B {by_b}");
    assert_eq!(by_a + by_b, 10, "A:\n{err_a}\nB:\n{err_b}");
    let leases = tuplewright::engine::lease::sqlite::list(store.conn()).unwrap();
    assert!(leases.is_empty(), "every lease released: {leases:?}");
}

#[test]
fn a_killed_owners_task_is_taken_over_at_once_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = task_file(dir.path(), 4);
    let db = dir.path().join("t.db");
    let config = long_lease_config(dir.path());
    let mut child = run(&db, &tasks, &["--jobs", "1", "--no-export"])
        .arg("--config")
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it while it holds a lease on a task in the loop.
    let deadline = Instant::now() + Duration::from_secs(120);
    let victim = loop {
        assert!(Instant::now() < deadline, "no task was ever leased");
        std::thread::sleep(Duration::from_millis(20));
        let Ok(store) = Store::open(&db, Duration::from_secs(10)) else {
            continue;
        };
        let held = tuplewright::engine::lease::sqlite::list(store.conn()).unwrap_or_default();
        if let Some(l) = held.first() {
            assert_eq!(l.pid, child.id());
            break l.task_id.clone();
        }
    };
    child.kill().unwrap();
    let _ = child.wait();
    let o = run(&db, &tasks, &["--resume", "--no-export", "--jobs", "2"])
        .arg("--config")
        .arg(&config)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("leased elsewhere"), "{err}");
    let store = open(&db);
    let taken: Vec<_> = store
        .events_after(0, 100_000)
        .unwrap()
        .into_iter()
        .filter(|e| e.kind == "lease.taken_over")
        .collect();
    assert_eq!(taken.len(), 1, "{taken:?}");
    assert_eq!(taken[0].task_id.as_deref(), Some(victim.as_str()));
    assert_eq!(taken[0].payload["reason"], "dead_process");
    for id in ids_of(&tasks) {
        let d = decision_counts(&store, &id);
        assert_eq!(d.get("loop_accepted"), Some(&1), "{id}: {d:?}");
    }
}

#[test]
fn verify_and_rollout_skip_a_task_another_live_process_holds() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = task_file(dir.path(), 1);
    let db = dir.path().join("t.db");
    let o = run(&db, &tasks, &["--no-export"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let id = ids_of(&tasks).remove(0);
    // This test process is the other live owner.
    let keeper = LeaseKeeper::open(&db, Duration::from_secs(10), LeaseSettings::default()).unwrap();
    assert!(matches!(
        keeper.claim(&id, "loop", None, None).unwrap(),
        Claim::Taken { .. }
    ));
    let tw = |args: &[&str]| {
        let o = bin().arg("--store").arg(&db).args(args).output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, err) = tw(&["verify", "--tasks", &id]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("{id}: skipped, leased by another live process")),
        "{err}"
    );
    assert!(
        err.contains(&keeper.owner().id),
        "the holder is named: {err}"
    );
    let (_, err) = tw(&["rollout", "--policy", "oracle", "--tasks", &id]);
    assert!(err.contains("1 tuple(s) skipped"), "{err}");
    let store = open(&db);
    assert!(store.rollouts(&id).unwrap().is_empty(), "no trial ran");
    assert_eq!(store.rounds(&id).unwrap().len(), 1, "no verify round");
    drop(keeper); // releases
    let (code, err) = tw(&["verify", "--tasks", &id]);
    assert_eq!(code, Some(0), "{err}");
    let rounds = open(&db).rounds(&id).unwrap();
    let numbers: Vec<i64> = rounds.iter().filter_map(|r| r.round.round_no).collect();
    assert_eq!(numbers, [1, 2], "the replay is the next round");
    assert!(
        rounds[1].round.review_md.starts_with("# Round 2 Review"),
        "{}",
        rounds[1].round.review_md
    );
}
