//! A headless run of another process watched in a real terminal: the workbench in tmux on the same
//! store shows the job running, then finished, with every task's C1–C5 and rewards; esc alone
//! closes an overlay, and esc then a key sent together still closes the search first. Skipped
//! (with a message) when tmux is missing.

use std::process::Command;

use super::live_jobs::pending_store;
use super::tmux::{available, Workbench};

#[test]
fn tmux_live_screen_follows_a_headless_run_of_another_process() {
    if !available("tmux_live_screen_follows_a_headless_run_of_another_process") {
        return;
    }
    let (dir, path, ids, file) = pending_store(3);
    let bin = assert_cmd::cargo::cargo_bin("tuplewright");
    let mut wb = Workbench::start(&path, "", "live", dir.path(), (160, 40));
    wb.wait_until("the workbench", 120, |s| s.contains("Tuples 3/3"));
    wb.keys(&["1"]);
    wb.wait_until("the Live screen", 120, |s| {
        s.contains("no job recorded in the store")
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
    wb.child = Some(child);
    let running = wb.wait_until("the job running", 120, |s| s.contains("▶ running"));
    assert!(running.contains("/3 done"), "{running}");
    let done = wb.wait_until("the job finished", 120, |s| {
        s.contains("✓ finished · 3/3 accepted")
    });
    for id in &ids {
        let line = done
            .lines()
            .find(|l| l.contains(id.as_str()))
            .unwrap_or_else(|| panic!("{id} row:\n{done}"));
        assert!(
            line.contains("✔✔✔✔✔") && line.contains("1.00 0.00"),
            "{line}"
        );
    }
    let status = wb
        .child
        .as_mut()
        .expect("child")
        .wait()
        .expect("headless exit");
    assert!(status.success());
    // esc alone closes an overlay; esc then a key sent together (read as alt-key) still closes the
    // search first and then acts.
    wb.keys(&["?"]);
    wb.wait_until("help", 120, |s| s.contains("Help — j/k"));
    wb.keys(&["Escape"]);
    wb.wait_until("help closed by esc", 120, |s| !s.contains("Help — j/k"));
    wb.keys(&["/", "q", "q", "z", "z"]);
    wb.wait_until("the search", 120, |s| s.contains("Tuples 0/3"));
    wb.keys(&["Escape", "1"]);
    wb.wait_until("search closed, back on Live", 120, |s| {
        s.contains("rounds by task")
    });
    wb.quit_cleanly();
}
