//! Helpers of the PostgreSQL worker tests (tests/pg_workers.rs, tests/pg_control.rs) and the
//! worker benchmark (benches/workers.rs): task files of any size, a private config, the binary
//! on a store, waiting on a condition with a deadline.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tuplewright::engine::store::Store;

use crate::run_support;
use run_support::bin;

pub const BUSY: Duration = Duration::from_secs(10);

/// `n` tasks made from the shipped ones (ids suffixed `_cK` once the originals are used up).
pub fn many_tasks(dir: &Path, n: usize) -> PathBuf {
    let mut base = Vec::new();
    let files: Vec<PathBuf> =
        tuplewright::apps::shipped_task_files(Path::new(env!("CARGO_MANIFEST_DIR")))
            .into_iter()
            .map(|(_, p)| p)
            .collect();
    for f in files {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        let list = v
            .as_array()
            .cloned()
            .or_else(|| v["tasks"].as_array().cloned())
            .unwrap();
        base.extend(list);
    }
    let out: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let mut t = base[i % base.len()].clone();
            if i >= base.len() {
                let id = format!("{}_c{}", t["task_id"].as_str().unwrap(), i / base.len());
                t["task_id"] = id.into();
            }
            t
        })
        .collect();
    let path = dir.join("tasks.json");
    std::fs::write(&path, serde_json::to_string(&out).unwrap()).unwrap();
    path
}

/// A config with a private sandbox scratch directory and quick lease renewal.
pub fn config(dir: &Path) -> PathBuf {
    config_with(dir, "")
}

/// [`config`] plus `extra` TOML.
pub fn config_with(dir: &Path, extra: &str) -> PathBuf {
    let extra = format!("[store]\nlease_ttl_ms = 5000\nlease_heartbeat_ms = 500\n{extra}");
    run_support::private_config(dir, &extra).0
}

pub fn tw(cfg: &Path, store: &Path) -> Command {
    let mut c = bin();
    c.arg("--config")
        .arg(cfg)
        .args(["--no-tui", "--store"])
        .arg(store);
    c
}

pub fn ok(mut c: Command) {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{c:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn wait_for(what: &str, secs: u64, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !cond() {
        assert!(
            Instant::now() < deadline,
            "timed out after {secs} s waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub fn count(store: &Store, sql: &str) -> i64 {
    store.conn().query_row(sql, [], |r| r.get(0)).unwrap()
}

pub fn spawn_worker(cfg: &Path, store: &Path, log: &Path) -> Child {
    spawn_worker_args(cfg, store, log, &["--slots", "1"])
}

/// `worker ARGS…` in the background, stdout to `log` with extension `out`, stderr to `log`.
pub fn spawn_worker_args(cfg: &Path, store: &Path, log: &Path, args: &[&str]) -> Child {
    let mut c = tw(cfg, store);
    c.arg("worker")
        .args(args)
        .stdout(Stdio::from(
            std::fs::File::create(log.with_extension("out")).unwrap(),
        ))
        .stderr(Stdio::from(std::fs::File::create(log).unwrap()));
    c.spawn().unwrap()
}

/// Waits (up to `secs`) for `child` to exit; its status.
pub fn wait_exit(child: &mut Child, what: &str, secs: u64) -> std::process::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            panic!("{what} did not exit within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The store after a drain: all `n` tasks accepted, each by exactly one accept decision; each
/// task's rounds numbered 1..=k without gaps or duplicates, every round with its event; no lease
/// left behind.
pub fn assert_drained_exactly_once(store: &Store, n: usize) {
    // Every task accepted exactly once, by one accept decision.
    assert_eq!(
        count(
            store,
            "SELECT COUNT(*) FROM tuples WHERE status = 'loop_accepted'"
        ),
        n as i64,
        "statuses: {:?}",
        store.status_counts().unwrap()
    );
    assert_eq!(
        count(
            store,
            "SELECT COUNT(*) FROM (SELECT task_id FROM decisions WHERE after = 'loop_accepted' \
             GROUP BY task_id HAVING COUNT(*) <> 1) x"
        ),
        0,
        "a task accepted more than once"
    );
    // No duplicated rounds: each task's rounds are numbered 1..=k without gaps.
    let bad_rounds = count(
        store,
        "SELECT COUNT(*) FROM (SELECT task_id FROM rounds GROUP BY task_id \
         HAVING COUNT(*) <> MAX(round_no) OR MIN(round_no) <> 1) x",
    );
    assert_eq!(bad_rounds, 0);
    assert_eq!(
        count(store, "SELECT COUNT(*) FROM task_leases"),
        0,
        "leases left behind"
    );
    // Events are dense in commit order: seq strictly increasing, every round has its event.
    assert_eq!(
        count(store, "SELECT COUNT(*) FROM rounds"),
        count(
            store,
            "SELECT COUNT(*) FROM events WHERE kind = 'round.recorded'"
        )
    );
}
