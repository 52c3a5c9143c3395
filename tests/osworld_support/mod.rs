//! Helpers of tests/osworld.rs: `tuplewright env serve --osworld` guests started as subprocesses.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `env serve --osworld --app files` (stopped with SIGTERM when dropped).
pub struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The X display it serves.
    pub display: String,
    _dir: tempfile::TempDir,
}

/// Starts a files-desktop guest and waits (generously: the CI machine is loaded) for its line.
pub fn serve_files() -> Served {
    serve(tempfile::tempdir().unwrap(), &["--app", "files"])
}

/// Starts `env serve --osworld ARGS --port 0` in `dir` (its tuplewright.toml and store apply).
pub fn serve(dir: tempfile::TempDir, args: &[&str]) -> Served {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("tuplewright"))
        .args(["--no-tui", "env", "serve", "--osworld", "--port", "0"])
        .args(args)
        .current_dir(dir.path())
        .env_remove("TUPLEWRIGHT_STORE")
        .env_remove("TUPLEWRIGHT_CONFIG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = match rx.recv_timeout(Duration::from_secs(180)) {
        Ok(l) if !l.trim().is_empty() => l,
        other => {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "env serve --osworld did not announce itself ({other:?}): {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    };
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    Served {
        child,
        url: v["osworld"].as_str().unwrap().to_string(),
        display: v["display"].as_str().unwrap().to_string(),
        _dir: dir,
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        // SAFETY: kill with a pid of our own child.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls `cond` every 200 ms for up to `secs` seconds.
pub fn eventually(secs: u64, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    cond()
}

/// A loopback port nothing listens on (bound, then released).
pub fn dead_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
