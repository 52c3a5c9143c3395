//! Driving the workbench in a real terminal: a detached tmux session running the binary, screen
//! captures, and a guard that kills the session (and any helper process) when the test ends.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// Runs tmux on the server behind `socket` (`tmux -L`); returns its stdout. A failing command
/// panics with tmux's own message: an empty capture must never pass for an empty screen.
pub fn tmux(socket: &str, args: &[&str]) -> String {
    let out = Command::new("tmux")
        .args(["-L", socket])
        .args(args)
        .output()
        .expect("tmux runs");
    assert!(
        out.status.success(),
        "tmux {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Whether tmux is installed; prints why `test` is skipped when not.
pub fn available(test: &str) -> bool {
    let ok = Command::new("tmux").arg("-V").output().is_ok();
    if !ok {
        eprintln!("SKIPPED {test}: tmux is not installed (apt-get install -y tmux)");
    }
    ok
}

/// The workbench running in a detached tmux session, on a tmux server of its own: tests run in
/// parallel, and on one shared server the last session's end stops the server while another
/// test's `new-session` is connecting to it (an empty screen, then a timeout).
pub struct Workbench {
    /// The session name (also its server's socket name).
    pub session: String,
    /// Gets the workbench's exit code once it quits.
    pub exit_file: PathBuf,
    /// A helper process killed with the session (a headless run, say).
    pub child: Option<Child>,
}

impl Workbench {
    /// Starts `tuplewright --store STORE EXTRA` in a `w`×`h` session named after `tag`.
    pub fn start(store: &Path, extra: &str, tag: &str, dir: &Path, (w, h): (u16, u16)) -> Self {
        let bin = assert_cmd::cargo::cargo_bin("tuplewright");
        let exit_file = dir.join(format!("exit-{tag}"));
        let session = format!("tw-{tag}-{}", std::process::id());
        let cmd = format!(
            "{} --store {} --keymap /nonexistent.toml {extra}; echo $? > {}; sleep 30",
            bin.display(),
            store.display(),
            exit_file.display()
        );
        let (w, h) = (w.to_string(), h.to_string());
        tmux(
            &session,
            &[
                "new-session",
                "-d",
                "-s",
                &session,
                "-x",
                &w,
                "-y",
                &h,
                &cmd,
            ],
        );
        Workbench {
            session,
            exit_file,
            child: None,
        }
    }

    /// Sends keys (tmux key names).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", &self.session];
        args.extend_from_slice(keys);
        tmux(&self.session, &args);
    }

    /// The screen now.
    pub fn screen(&self) -> String {
        tmux(&self.session, &["capture-pane", "-p", "-t", &self.session])
    }

    /// Waits (up to `secs`) until `pred` holds for the screen; returns that screen.
    pub fn wait_until(&self, what: &str, secs: u64, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if pred(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(secs),
                "never: {what}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits (up to 40 s: CI machines are loaded) until `needle` is on the screen.
    pub fn wait_for(&self, needle: &str) -> String {
        self.wait_until(&format!("`{needle}` appears"), 40, |s| s.contains(needle))
    }

    /// Presses `q` and checks the workbench exits with code 0 within 20 s.
    pub fn quit_cleanly(&self) {
        self.keys(&["q"]);
        let t = Instant::now();
        // The shell creates the file before it writes the code: wait for the code itself.
        let code = loop {
            let code = std::fs::read_to_string(&self.exit_file).unwrap_or_default();
            if !code.trim().is_empty() {
                break code;
            }
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "the workbench did not quit"
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        assert_eq!(code.trim(), "0");
    }
}

impl Drop for Workbench {
    fn drop(&mut self) {
        if let Some(c) = &mut self.child {
            let _ = c.kill();
            let _ = c.wait();
        }
        let _ = Command::new("tmux")
            .args(["-L", &self.session, "kill-server"])
            .output();
    }
}
