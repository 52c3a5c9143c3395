//! Per-host caps with real worker processes (issue 20): two workers on one host, each with
//! `--slots 2`, under `[worker] sandboxes = 1` never run two sandboxed scripts at once. Each
//! sandbox run lives in its own scratch directory (`tw-sandbox-<pid>-…`, created after the run
//! took its host slot and removed before it gives it back), so the test samples the shared
//! scratch directory while the workers drain a SQLite store and counts the runs alive at once.
//! The real binary, the scripted agents, the real sandbox; no PostgreSQL needed.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use crate::pg_support;
use pg_support::{config_with, many_tasks, ok, spawn_worker_args, tw};

#[test]
fn two_worker_processes_under_a_sandbox_cap_of_one_never_run_two_scripts_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let slots_dir = dir.path().join("host-slots");
    let cfg = config_with(
        dir.path(),
        &format!(
            "[worker]\nsandboxes = 1\nhost_slots_dir = {:?}\n",
            slots_dir.to_str().unwrap()
        ),
    );
    let scratch = dir.path().join("scratch");
    let store = dir.path().join("tw.db");
    let mut import = tw(&cfg, &store);
    import.arg("import").arg(many_tasks(dir.path(), 6));
    ok(import);
    let mut ws: Vec<_> = ["a.log", "b.log"]
        .iter()
        .map(|l| spawn_worker_args(&cfg, &store, &dir.path().join(l), &["--slots", "2"]))
        .collect();
    let (mut most, mut seen) = (0usize, BTreeSet::new());
    let deadline = Instant::now() + Duration::from_secs(900);
    let mut running = ws.len();
    while running > 0 {
        let live: Vec<String> = std::fs::read_dir(&scratch)
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().to_string())
                    .filter(|n| n.starts_with("tw-sandbox-"))
                    .collect()
            })
            .unwrap_or_default();
        most = most.max(live.len());
        assert!(
            live.len() <= 1,
            "two sandbox runs at once despite the cap of 1: {live:?}"
        );
        seen.extend(live);
        running = 0;
        for w in &mut ws {
            match w.try_wait().unwrap() {
                Some(st) => assert!(st.success(), "a worker failed: {st}"),
                None => running += 1,
            }
        }
        if Instant::now() >= deadline {
            for w in &mut ws {
                let _ = w.kill();
            }
            panic!("the workers did not drain 6 tasks within 900 s");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    // Both processes ran scripts (the pid is in the name), and the sampling saw many runs.
    let pids: BTreeSet<&str> = seen
        .iter()
        .filter_map(|n| n.trim_start_matches("tw-sandbox-").split('-').next())
        .collect();
    assert!(seen.len() >= 6 && most == 1, "saw {} runs", seen.len());
    assert_eq!(
        pids.len(),
        2,
        "the runs of both workers were seen: {seen:?}"
    );
    assert!(slots_dir.join("sandboxes").join("slot-0.lock").exists());
    assert!(!slots_dir.join("sandboxes").join("slot-1.lock").exists());
}
