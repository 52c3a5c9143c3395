//! The Filter screen in a real terminal (tmux): on a voted copy of the fixture store, `--readonly`
//! (store opened read-only by SQLite) browses the votes and refuses a decision; without it, a keep
//! typed with its reason is recorded by the engine. Skipped (with a message) without tmux.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use tuplewright::engine::store::Store;

use super::filter_fixture::voted_copy;

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn wait_for(session: &str, needle: &str) -> String {
    let start = Instant::now();
    loop {
        let screen = tmux(&["capture-pane", "-p", "-t", session]);
        if screen.contains(needle) {
            return screen;
        }
        assert!(
            start.elapsed() < Duration::from_secs(40),
            "`{needle}` never appeared; screen:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

struct KillOnDrop(String);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.0])
            .output();
    }
}

/// Starts the workbench in a detached session; returns the guard and the exit-code file.
fn start(store: &Path, extra: &str, tag: &str, dir: &Path) -> (KillOnDrop, std::path::PathBuf) {
    let bin = assert_cmd::cargo::cargo_bin("tuplewright");
    let exit_file = dir.join(format!("exit-{tag}"));
    let session = format!("tw-filter-{tag}-{}", std::process::id());
    let cmd = format!(
        "{} --store {} --keymap /nonexistent.toml {extra}; echo $? > {}; sleep 30",
        bin.display(),
        store.display(),
        exit_file.display()
    );
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "100",
        "-y",
        "30",
        &cmd,
    ]);
    (KillOnDrop(session), exit_file)
}

fn quit_cleanly(session: &str, exit_file: &Path) {
    tmux(&["send-keys", "-t", session, "q"]);
    let t = Instant::now();
    while !exit_file.exists() {
        assert!(t.elapsed() < Duration::from_secs(20), "did not quit");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(100));
    let code = std::fs::read_to_string(exit_file).expect("exit code");
    assert_eq!(code.trim(), "0");
}

#[test]
fn tmux_filter_readonly_refuses_and_writable_records_a_keep() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED tmux_filter_readonly_refuses_and_writable_records_a_keep: no tmux");
        return;
    }
    let (dir, path) = voted_copy();
    let id = {
        let store = Store::open(&path, Duration::from_secs(5)).expect("open");
        let mut ids: Vec<String> = store
            .list_tasks(&Default::default())
            .expect("tasks")
            .into_iter()
            .map(|t| t.task.task_id)
            .collect();
        ids.sort();
        ids[1].clone()
    };
    let count = || {
        let s = Store::open(&path, Duration::from_secs(5)).expect("open");
        s.decisions(&id).expect("decisions").len()
    };
    let before = count();

    let (guard, exit) = start(&path, "--readonly", "ro", dir.path());
    let s = guard.0.clone();
    wait_for(&s, "Tuples 4/4");
    tmux(&["send-keys", "-t", &s, "j", "6"]);
    wait_for(&s, &format!("Filter · {id}"));
    wait_for(&s, "Votes (3)");
    tmux(&["send-keys", "-t", &s, "K"]);
    wait_for(&s, "read-only mode: decisions refused");
    quit_cleanly(&s, &exit);
    drop(guard);
    assert_eq!(count(), before, "nothing written in read-only mode");

    let (guard, exit) = start(&path, "", "rw", dir.path());
    let s = guard.0.clone();
    wait_for(&s, "Tuples 4/4");
    tmux(&["send-keys", "-t", &s, "j", "6"]);
    wait_for(&s, "Votes (3)");
    tmux(&["send-keys", "-t", &s, "K"]);
    wait_for(&s, "reason");
    tmux(&["send-keys", "-t", &s, "-l", "smoke keep"]);
    tmux(&["send-keys", "-t", &s, "Enter"]);
    wait_for(&s, "keep recorded");
    quit_cleanly(&s, &exit);
    drop(guard);
    let store = Store::open(&path, Duration::from_secs(5)).expect("open");
    let last = store.decisions(&id).expect("decisions").pop().expect("one");
    assert_eq!(count(), before + 1);
    assert_eq!(last.reason, "keep: smoke keep");
    assert_eq!(last.source, "human");
    assert_eq!(
        last.actor,
        tuplewright::engine::filter::decide::human_actor(None)
    );
}
