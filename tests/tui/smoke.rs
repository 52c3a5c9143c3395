//! A real terminal: the workbench in tmux opens on the fixture store, switches screens, opens help
//! and quits cleanly with the terminal restored. Skipped (with a message) when tmux is missing.

use super::fixture::store_path;
use super::tmux::{available, Workbench};

#[test]
fn tmux_smoke_start_switch_help_quit() {
    if !available("tmux_smoke_start_switch_help_quit") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let wb = Workbench::start(store_path(), "", "smoke", dir.path(), (100, 30));
    wb.wait_for("Tuples 4/4");
    wb.keys(&["8"]);
    wb.wait_for("Coverage targets");
    wb.keys(&["1"]);
    wb.wait_for("rounds by task");
    wb.keys(&["3"]);
    wb.wait_for("REVIEW.md");
    wb.keys(&["?"]);
    wb.wait_for("Help — j/k scroll");
    wb.keys(&["?"]);
    wb.quit_cleanly();
    let screen = wb.screen();
    assert!(
        !screen.contains("Help — j/k"),
        "alternate screen left after quit:\n{screen}"
    );
}
