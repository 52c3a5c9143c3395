//! Helpers of tests/osworld.rs: `tuplewright env serve --osworld` guests started as subprocesses.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
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

/// Whether the guest's accessibility tree shows its terminal focused (where typed keys go).
pub fn terminal_focused(client: &tuplewright::engine::osworld::GuestClient) -> bool {
    client.accessibility().is_ok_and(|xml| {
        tuplewright::engine::osworld::a11y::windows_of(&xml)
            .iter()
            .any(|w| (w.class == "XTerm" || w.title == "Terminal") && w.focused)
    })
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

/// A loopback port nothing listens on, which nothing else takes meanwhile ([`crate::common::quiet_port`]).
pub fn dead_port() -> u16 {
    crate::common::quiet_port()
}

/// A guest started and restarted by its revert hook, as a VM pool would: the hook (`sh
/// guest.sh`) stops the running `env serve --osworld --app files` on a fixed port, if any, and
/// starts a fresh one — a clean snapshot. The test never starts it itself; the pool's first
/// revert does. Stopped when dropped.
pub struct HookedGuest {
    dir: tempfile::TempDir,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

impl HookedGuest {
    /// A guest on a free port, not started yet.
    pub fn new() -> HookedGuest {
        let dir = tempfile::tempdir().unwrap();
        let port = dead_port();
        std::fs::create_dir_all(dir.path().join("cwd")).unwrap();
        let bin = assert_cmd::cargo::cargo_bin("tuplewright");
        let script = format!(
            r#"d={d}
# alive: exists and is not a zombie (PID 1 here may not reap orphans)
alive() {{ s=$(awk '{{print $3}}' "/proc/$1/stat" 2>/dev/null); [ -n "$s" ] && [ "$s" != Z ]; }}
if [ -f "$d/pid" ]; then
  p=$(cat "$d/pid"); kill -TERM "$p" 2>/dev/null; i=0
  while alive "$p"; do
    sleep 0.1; i=$((i+1))
    if [ "$i" -gt 600 ]; then kill -KILL "$p" 2>/dev/null; break; fi
  done
fi
cd "$d/cwd" || exit 1
env -u TUPLEWRIGHT_STORE -u TUPLEWRIGHT_CONFIG {bin} --no-tui env serve --osworld --app files \
  --port {port} >>"$d/log" 2>&1 </dev/null &
echo $! > "$d/pid"
echo started >> "$d/starts"
"#,
            d = dir.path().display(),
            bin = bin.display(),
        );
        std::fs::write(dir.path().join("guest.sh"), script).unwrap();
        HookedGuest {
            url: format!("http://127.0.0.1:{port}"),
            dir,
        }
    }

    /// The revert hook's command line.
    pub fn hook(&self) -> String {
        format!("sh {}/guest.sh", self.dir.path().display())
    }

    /// How many times the hook started a guest.
    pub fn starts(&self) -> usize {
        std::fs::read_to_string(self.starts_file())
            .map(|s| s.lines().count())
            .unwrap_or(0)
    }

    /// The file the hook appends a line to on each start (see [`HookedGuest::starts`]).
    pub fn starts_file(&self) -> PathBuf {
        self.dir.path().join("starts")
    }

    /// The guest's log (for failure messages).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default()
    }

    fn pid(&self) -> Option<i32> {
        std::fs::read_to_string(self.dir.path().join("pid"))
            .ok()
            .and_then(|s| s.trim().parse().ok())
    }

    /// Takes the running guest down (SIGTERM, so its display goes with it) and waits until it
    /// is gone, as a VM going away under a round.
    pub fn kill(&self) {
        if let Some(p) = self.pid() {
            // SAFETY: kill with the pid the hook recorded.
            unsafe { libc::kill(p, libc::SIGTERM) };
            assert!(eventually(120, || !alive(p)), "the guest {p} did not stop");
        }
    }
}

/// Whether `pid` runs (exists and is not a zombie).
fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit(')').next().map(|r| r.trim_start().to_string()))
        .is_some_and(|r| !r.starts_with('Z'))
}

impl Drop for HookedGuest {
    fn drop(&mut self) {
        let Some(p) = self.pid() else { return };
        // SAFETY: kill with the pid the hook recorded.
        unsafe { libc::kill(p, libc::SIGTERM) };
        if !eventually(60, || !alive(p)) {
            // SAFETY: as above.
            unsafe { libc::kill(p, libc::SIGKILL) };
        }
    }
}

/// `[osworld]` TOML over `guests`, each reverted by its hook, with generous deadlines.
pub fn pool_toml(guests: &[&HookedGuest]) -> String {
    let mut s = String::from(
        "[osworld]\nhealth_timeout_secs = 300\nhook_timeout_secs = 120\nlease_wait_secs = 60\n",
    );
    for g in guests {
        s.push_str(&format!(
            "[[osworld.endpoints]]\nurl = {:?}\nrevert = {:?}\n",
            g.url,
            g.hook()
        ));
    }
    s
}
