//! The Inspector's wrap and sideways scroll and the mouse in a real terminal (tmux): SGR mouse
//! reports are written to the workbench's input as a terminal would send them, and tmux's own
//! record of the pane's mouse mode shows the capture released and taken back. Skipped (with a
//! message) without tmux.

use super::fixture::store_path;
use super::tmux::{available, tmux, Workbench};

/// Sends an SGR mouse report (`ESC [ < button ; col ; row M`, 1-based) as raw bytes.
fn mouse(wb: &Workbench, button: u8, col: usize, row: usize) {
    let report = format!("\x1b[<{button};{};{}M", col + 1, row + 1);
    let hex: Vec<String> = report.bytes().map(|b| format!("{b:02x}")).collect();
    let mut args = vec!["send-keys", "-t", &wb.session, "-H"];
    args.extend(hex.iter().map(String::as_str));
    tmux(&wb.session, &args);
}

/// Whether the application in the pane has asked for mouse reports.
fn mouse_mode(wb: &Workbench) -> String {
    tmux(
        &wb.session,
        &["display", "-p", "-t", &wb.session, "#{mouse_any_flag}"],
    )
    .trim()
    .to_string()
}

fn wait_mouse_mode(wb: &Workbench, want: &str) {
    let start = std::time::Instant::now();
    while mouse_mode(wb) != want {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(40),
            "mouse mode never became {want}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn tmux_inspector_wrap_sideways_scroll_and_mouse() {
    if !available("tmux_inspector_wrap_sideways_scroll_and_mouse") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let wb = Workbench::start(store_path(), "", "curation", dir.path(), (80, 30));
    let screen = wb.wait_for("Tuples 4/4");
    wait_mouse_mode(&wb, "1");
    // Click the Stats tab where it is drawn, then the Tuples tab.
    let tab = |screen: &str, title: &str| -> usize {
        let first = screen.lines().next().unwrap_or_default();
        let byte = first
            .find(title)
            .unwrap_or_else(|| panic!("{title} tab: {first}"));
        first[..byte].chars().count()
    };
    mouse(&wb, 0, tab(&screen, "8 Stats") + 2, 0);
    wb.wait_for("Coverage targets");
    let screen = wb.screen();
    mouse(&wb, 0, tab(&screen, "2 Tuples") + 2, 0);
    wb.wait_for("Tuples 4/4");
    // The wheel moves the selection (three rows a notch); enter opens that tuple.
    mouse(&wb, 65, 30, 10);
    wb.keys(&["Enter"]);
    let ids: Vec<String> = {
        let s = super::fixture::open();
        let mut v: Vec<String> = tuplewright::tui::data::load_rows(&s)
            .expect("rows")
            .into_iter()
            .map(|r| r.id)
            .collect();
        v.sort();
        v
    };
    wb.wait_for(&format!(" {} ", ids[3]));
    // Find a pane with a line longer than the window, then wrap it and scroll it sideways.
    let mut cut = false;
    for _ in 0..5 {
        wb.keys(&["t"]);
        std::thread::sleep(std::time::Duration::from_millis(150));
        if wb.screen().contains("› cut (w wrap)") {
            cut = true;
            break;
        }
    }
    assert!(
        cut,
        "some pane of the fixture has a long line:\n{}",
        wb.screen()
    );
    wb.keys(&["w"]);
    wb.wait_until("continuation rows (↪)", 40, |s| s.contains('↪'));
    wb.keys(&["w"]);
    wb.wait_for("› cut (w wrap)");
    wb.keys(&["z", "l"]);
    wb.wait_for("← col 9");
    wb.keys(&["z", "h"]);
    wb.wait_for("› cut (w wrap)");
    // Release the mouse for the terminal's own selection, then take it back.
    wb.keys(&["m"]);
    wb.wait_for("mouse released");
    wait_mouse_mode(&wb, "0");
    wb.keys(&["m"]);
    wait_mouse_mode(&wb, "1");
    wb.quit_cleanly();
}
