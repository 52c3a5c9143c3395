//! A headless run of another process watched in a real terminal: the workbench in tmux on the same
//! store shows the job running, then finished, with every task's C1–C5 and rewards; esc alone
//! closes an overlay, and esc then a key sent together still closes the search first. Skipped
//! (with a message) when tmux is missing.

use std::process::Command;
use std::time::{Duration, Instant};

use super::live_jobs::pending_store;

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

struct KillOnDrop(String, Option<std::process::Child>);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(c) = &mut self.1 {
            let _ = c.kill();
            let _ = c.wait();
        }
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.0])
            .output();
    }
}

fn wait_screen(session: &str, what: &str, pred: impl Fn(&str) -> bool) -> String {
    let t0 = Instant::now();
    loop {
        let screen = tmux(&["capture-pane", "-p", "-t", session]);
        if pred(&screen) {
            return screen;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "never: {what}; screen:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn tmux_live_screen_follows_a_headless_run_of_another_process() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED tmux_live_screen_follows_a_headless_run_of_another_process: tmux is not installed");
        return;
    }
    let (dir, path, ids, file) = pending_store(3);
    let bin = assert_cmd::cargo::cargo_bin("tuplewright");
    let exit_file = dir.path().join("exit");
    let session = format!("tw-live-{}", std::process::id());
    let cmd = format!(
        "{} --store {} --keymap /nonexistent.toml; echo $? > {}; sleep 30",
        bin.display(),
        path.display(),
        exit_file.display()
    );
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "160",
        "-y",
        "40",
        &cmd,
    ]);
    let mut guard = KillOnDrop(session.clone(), None);
    wait_screen(&session, "the workbench", |s| s.contains("Tuples 3/3"));
    tmux(&["send-keys", "-t", &session, "1"]);
    wait_screen(&session, "the Live screen", |s| {
        s.contains("no job in the event log")
    });
    // The run: another process, headless, on the same store.
    let child = Command::new(&bin)
        .args(["--no-tui", "--store"])
        .arg(&path)
        .args(["run", "--jobs", "1", "--no-export"])
        .arg(&file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("headless run");
    guard.1 = Some(child);
    let running = wait_screen(&session, "the job running", |s| s.contains("▶ running"));
    assert!(running.contains("/3 done"), "{running}");
    let done = wait_screen(&session, "the job finished", |s| {
        s.contains("✓ finished · 3/3 done")
    });
    for id in &ids {
        let line = done
            .lines()
            .find(|l| l.contains(id.as_str()))
            .unwrap_or_else(|| panic!("{id} row:\n{done}"));
        assert!(
            line.contains("✔✔✔✔✔") && line.contains("0.00 1.00"),
            "{line}"
        );
    }
    let status = guard
        .1
        .as_mut()
        .expect("child")
        .wait()
        .expect("headless exit");
    assert!(status.success());
    // esc alone closes an overlay; esc then a key sent together (read as alt-key) still closes the
    // search first and then acts.
    tmux(&["send-keys", "-t", &session, "?"]);
    wait_screen(&session, "help", |s| s.contains("Help — j/k"));
    tmux(&["send-keys", "-t", &session, "Escape"]);
    wait_screen(&session, "help closed by esc", |s| {
        !s.contains("Help — j/k")
    });
    tmux(&["send-keys", "-t", &session, "/", "q", "q", "z", "z"]);
    wait_screen(&session, "the search", |s| s.contains("Tuples 0/3"));
    tmux(&["send-keys", "-t", &session, "Escape", "1"]);
    wait_screen(&session, "search closed, back on Live", |s| {
        s.contains("rounds by task")
    });
    tmux(&["send-keys", "-t", &session, "q"]);
    let t0 = Instant::now();
    while !exit_file.exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "the workbench did not quit"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(guard);
}
