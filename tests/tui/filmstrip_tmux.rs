//! The filmstrip in a real terminal (tmux): the Rollouts screen on the filmstrip copy, the last
//! screen trial selected, stepped with `0`, `)` and `$` as a person would type them; each step's
//! caption, error and reply appear. Skipped (with a message) without tmux.

use super::film_fixture::film_path;
use super::tmux::{available, Workbench};

#[test]
fn tmux_filmstrip_steps_through_a_stored_trial() {
    if !available("tmux_filmstrip_steps_through_a_stored_trial") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let wb = Workbench::start(film_path(), "", "filmstrip", dir.path(), (160, 48));
    wb.wait_for("Tuples 4/4");
    wb.keys(&["7"]);
    // The trials are loaded once the last one's row is drawn; a key sent before that would
    // move a selection over an empty list.
    wb.wait_for("vlm:openai:stand-");
    wb.keys(&["G"]);
    wb.wait_for("step 5/5");
    wb.keys(&["0"]);
    wb.wait_for("step 1/5");
    wb.keys(&[")"]);
    let screen = wb.wait_for("step 2/5");
    assert!(screen.contains("left_click (160, 96)"), "{screen}");
    wb.wait_for("Thought: open #general and type.");
    wb.keys(&[")", ")"]);
    wb.wait_for("✗ error: coordinate outside the screen");
    wb.keys(&["$"]);
    let screen = wb.wait_for("step 5/5");
    assert!(screen.contains("terminate (success)"), "{screen}");
    wb.quit_cleanly();
}
