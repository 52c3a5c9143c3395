//! A real terminal: the workbench in tmux opens on the fixture store, switches screens, opens help
//! and quits cleanly with the terminal restored. Skipped (with a message) when tmux is missing.

use std::process::Command;
use std::time::{Duration, Instant};

use super::fixture::store_path;

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

#[test]
fn tmux_smoke_start_switch_help_quit() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED tmux_smoke_start_switch_help_quit: tmux is not installed (apt-get install -y tmux)");
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("tuplewright");
    let dir = tempfile::tempdir().expect("tempdir");
    let exit_file = dir.path().join("exit");
    let session = format!("tw-smoke-{}", std::process::id());
    let cmd = format!(
        "{} --store {} --keymap /nonexistent.toml; echo $? > {}; sleep 30",
        bin.display(),
        store_path().display(),
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
    let guard = KillOnDrop(session.clone());
    wait_for(&session, "Tuples 4/4");
    tmux(&["send-keys", "-t", &session, "8"]);
    wait_for(&session, "Coverage targets");
    tmux(&["send-keys", "-t", &session, "1"]);
    wait_for(&session, "rounds by task");
    tmux(&["send-keys", "-t", &session, "3"]);
    wait_for(&session, "REVIEW.md");
    tmux(&["send-keys", "-t", &session, "?"]);
    wait_for(&session, "Help — j/k scroll");
    tmux(&["send-keys", "-t", &session, "?"]);
    tmux(&["send-keys", "-t", &session, "q"]);
    let start = Instant::now();
    while !exit_file.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the workbench did not quit"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        std::fs::read_to_string(&exit_file)
            .expect("exit code")
            .trim(),
        "0"
    );
    let screen = tmux(&["capture-pane", "-p", "-t", &session]);
    assert!(
        !screen.contains("Help — j/k"),
        "alternate screen left after quit:\n{screen}"
    );
    drop(guard);
}

struct KillOnDrop(String);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.0])
            .output();
    }
}
