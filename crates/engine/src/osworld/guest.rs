//! The guest: one environment with its screen, acting as an OSWorld VM. Every command, Python
//! program and file operation runs through the script sandbox (unprivileged uid, limits, no
//! network beyond the environment's own state API) with the screen's X socket bound in and
//! `DISPLAY` set, so `python -c "import pyautogui; …"` drives this screen and nothing else.
//! Programs started by `/setup/launch` and `/setup/open_file` run like the desktop's own programs
//! (bubblewrap, app uid, the home at `/home/user`) and die with the screen.

use std::path::PathBuf;
use std::process::Child;
use std::sync::Mutex;
use std::time::Duration;

use crate::sandbox::{
    run_script, Isolation, Limits, Role, RunResult, SandboxConfig, SandboxSpec, Script,
};
use crate::screen::{desktop_command, ScreenConfig, Shot, MARKER_VAR};

use super::command::{GuestCommand, GUEST_HOME};
use super::guest_display::GuestDisplay;
use super::program::{find_program, DEFAULT_PATH};
use super::OsworldError;

/// How long guest calls may take (OSWorld's server: 120 s for `/execute`, 30 s for
/// `/run_python`, the caller's `timeout` for `/run_bash_script`).
#[derive(Debug, Clone, PartialEq)]
pub struct GuestTimeouts {
    /// `/execute` and `/setup/execute`, seconds.
    pub execute_secs: f64,
    /// `/run_python`, seconds.
    pub python_secs: f64,
    /// Upper bound on a `/run_bash_script` timeout, seconds.
    pub max_script_secs: f64,
    /// File operations (`/file`, `/setup/upload`, `/list_directory`), seconds.
    pub file_secs: f64,
}

impl Default for GuestTimeouts {
    fn default() -> Self {
        Self {
            execute_secs: 120.0,
            python_secs: 30.0,
            max_script_secs: 3600.0,
            file_secs: 60.0,
        }
    }
}

/// The smallest `RLIMIT_NPROC` of a guest's runs: its uid also runs the desktop's programs
/// (and, on a machine with several screens, theirs).
pub const GUEST_PROCESSES: u64 = 1024;

/// Everything a guest needs besides its screen.
#[derive(Debug, Clone)]
pub struct GuestOptions {
    /// The script sandbox.
    pub sandbox: SandboxConfig,
    /// Sandbox required, or `--unsafe-no-sandbox`.
    pub isolation: Isolation,
    /// `[screen]` (desktop programs for launches, the app uid).
    pub screen: ScreenConfig,
    /// Per-call time limits.
    pub timeouts: GuestTimeouts,
    /// Largest upload or file read, in bytes.
    pub max_file_bytes: usize,
}

/// One environment served as an OSWorld guest.
pub struct Guest {
    screen: Mutex<GuestDisplay>,
    spec: SandboxSpec,
    opts: GuestOptions,
    display: u32,
    launched: Mutex<Vec<(String, Child)>>,
}

impl Guest {
    /// A guest over `screen` (a [`crate::screen::Screen`], or any [`GuestDisplay`])
    /// for the environment `spec` (its home, sid and state APIs).
    pub fn new(
        screen: impl Into<GuestDisplay>,
        mut spec: SandboxSpec,
        opts: GuestOptions,
    ) -> Result<Guest, OsworldError> {
        let screen = screen.into();
        let name = screen.screen_ref().display_name();
        let display: u32 = name
            .trim_start_matches(':')
            .parse()
            .map_err(|_| OsworldError::Infra(format!("odd display name {name:?}")))?;
        spec.display = Some(display);
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        // Commands and the desktop's programs share one uid: both write the home as it is.
        spec.run_as = (root && opts.screen.app_uid != 0).then_some(opts.screen.app_uid);
        Ok(Guest {
            screen: Mutex::new(screen),
            spec,
            opts,
            display,
            launched: Mutex::new(Vec::new()),
        })
    }

    /// The X display, e.g. `:3`.
    pub fn display_name(&self) -> String {
        format!(":{}", self.display)
    }

    /// The per-call time limits.
    pub fn timeouts(&self) -> &GuestTimeouts {
        &self.opts.timeouts
    }

    /// The largest file `/file` and `/setup/upload` move.
    pub fn max_file_bytes(&self) -> usize {
        self.opts.max_file_bytes
    }

    /// The environment's home on the host.
    pub fn home(&self) -> &std::path::Path {
        &self.spec.home
    }

    /// The display and what keeps it showing, locked.
    pub fn display(&self) -> Result<std::sync::MutexGuard<'_, GuestDisplay>, OsworldError> {
        self.screen
            .lock()
            .map_err(|_| OsworldError::Infra("the screen's lock is poisoned".into()))
    }

    /// A PNG of the screen. A dead display is an infrastructure failure.
    pub fn screenshot(&self) -> Result<Shot, OsworldError> {
        Ok(self.display()?.screen().screenshot()?)
    }

    /// Width and height in pixels.
    pub fn size(&self) -> Result<(u32, u32), OsworldError> {
        Ok(self.display()?.screen_ref().size())
    }

    /// The desktop program uid (the app uid when the engine is root).
    fn app_uid(&self) -> Option<u32> {
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        (root && self.opts.screen.app_uid != 0).then_some(self.opts.screen.app_uid)
    }

    /// Runs `source` (Python) in the sandbox against this environment, with the display.
    pub async fn python(
        &self,
        name: &str,
        source: String,
        wall_seconds: f64,
    ) -> Result<RunResult, OsworldError> {
        let limits = Limits {
            wall_seconds,
            capture_bytes: self
                .opts
                .sandbox
                .limits
                .capture_bytes
                .max(self.opts.max_file_bytes * 4 / 3 + 4096),
            // The uid's process budget covers the desktop's programs too (GTK threads count).
            processes: self.opts.sandbox.limits.processes.max(GUEST_PROCESSES),
            ..self.opts.sandbox.limits.clone()
        };
        let script = Script {
            name: name.to_string(),
            source,
        };
        let mut r = run_script(
            &self.opts.sandbox,
            &self.spec,
            Role::Setup,
            &script,
            &limits,
            self.opts.isolation,
        )
        .await
        .map_err(|e| OsworldError::Infra(e.to_string()))?;
        // The script's GUI launch lines open on this screen (the stubs only recorded them).
        let opened = super::gui_launch::open_launches(self, &r.notes);
        if !opened.is_empty() {
            let recorded = crate::sandbox::localise::GUI_NOTE;
            r.notes.retain(|n| !n.starts_with(recorded));
            r.notes.extend(opened);
        }
        Ok(r)
    }

    /// The `[screen]` settings of this guest's screen.
    pub fn screen_config(&self) -> &crate::screen::ScreenConfig {
        &self.opts.screen
    }

    /// Starts `command` on the screen like a desktop program (no wait for it to finish). A
    /// program that is not there (or not executable) where the desktop's programs run is
    /// [`OsworldError::Task`] with Python's `Popen` message (`[Errno 2] No such file or
    /// directory: 'x'`), as OSWorld's server answers; so is one whose start fails within
    /// [`START_GRACE`] (a script's missing interpreter).
    pub fn launch(&self, command: &GuestCommand) -> Result<(), OsworldError> {
        let argv = command.argv();
        let path = std::env::var("PATH").unwrap_or_else(|_| DEFAULT_PATH.to_string());
        find_program(&argv[0], &self.spec.home, &path).map_err(OsworldError::Task)?;
        let args: Vec<&str> = argv[1..].iter().map(String::as_str).collect();
        let uid = self.app_uid().unwrap_or(
            // SAFETY: geteuid has no preconditions.
            unsafe { libc::geteuid() },
        );
        let mut cmd = desktop_command(
            &self.opts.screen,
            &self.spec.home,
            self.display,
            uid,
            &[],
            std::path::Path::new(&argv[0]),
            &args,
        );
        let display = self.display()?;
        let screen = display.screen_ref();
        let log_dir = screen.private_dir("launched")?;
        let n = self.launched.lock().map(|l| l.len()).unwrap_or(0);
        let log_path = log_dir.join(format!("{n}.log"));
        let log = std::fs::File::create(&log_path)
            .map_err(|e| OsworldError::Infra(format!("creating a launch log: {e}")))?;
        let err = log
            .try_clone()
            .map_err(|e| OsworldError::Infra(format!("creating a launch log: {e}")))?;
        cmd.env("DISPLAY", screen.display_name())
            .env(MARKER_VAR, screen.work_dir())
            .stdin(std::process::Stdio::null())
            .stdout(log)
            .stderr(err);
        if let Some(uid) = self.app_uid() {
            use std::os::unix::process::CommandExt;
            cmd.uid(uid).gid(uid);
        }
        drop(display);
        let mut child = cmd.spawn().map_err(|e| {
            OsworldError::Infra(format!(
                "could not start the desktop sandbox for {}: {e}",
                command.label()
            ))
        })?;
        failed_start(&mut child, &log_path).map_err(OsworldError::Task)?;
        if let Ok(mut l) = self.launched.lock() {
            // Reap the ones that ended; keep the rest for teardown.
            l.retain_mut(|(_, c)| !matches!(c.try_wait(), Ok(Some(_))));
            l.push((command.label(), child));
        }
        Ok(())
    }

    /// The program `/setup/open_file` uses for a guest path: the file manager for a directory,
    /// the text editor otherwise (the files desktop's programs).
    pub fn opener(&self, guest_path: &str) -> Option<PathBuf> {
        let host = self.host_path(guest_path)?;
        Some(if host.is_dir() {
            self.opts.screen.desktop.pcmanfm.clone()
        } else {
            self.opts.screen.desktop.mousepad.clone()
        })
    }

    /// A guest path under the home as a host path (for checks only, never for I/O as root).
    pub fn host_path(&self, guest_path: &str) -> Option<PathBuf> {
        let rel = guest_path.strip_prefix(GUEST_HOME)?.trim_start_matches('/');
        if rel.split('/').any(|c| c == "..") {
            return None;
        }
        Some(self.spec.home.join(rel))
    }

    /// Polls `ready` until it holds or `timeout` passes.
    pub fn wait_until(
        &self,
        timeout: Duration,
        mut ready: impl FnMut() -> Result<bool, OsworldError>,
    ) -> Result<bool, OsworldError> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if ready()? {
                return Ok(true);
            }
            if std::time::Instant::now() >= deadline {
                return Ok(false);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// How long a launch is watched for a failed start (bubblewrap's `execvp` failing).
pub const START_GRACE: Duration = Duration::from_millis(300);

/// Waits up to [`START_GRACE`] for `child` to fail its start: an exit with bubblewrap's
/// `execvp` complaint in its log is the error text.
fn failed_start(child: &mut Child, log: &std::path::Path) -> Result<(), String> {
    let deadline = std::time::Instant::now() + START_GRACE;
    while std::time::Instant::now() < deadline {
        match child.try_wait() {
            Ok(Some(st)) if !st.success() => {
                let text = std::fs::read_to_string(log).unwrap_or_default();
                if let Some(line) = text.lines().find(|l| l.contains("execvp")) {
                    return Err(line.trim_start_matches("bwrap: ").to_string());
                }
                return Ok(());
            }
            Ok(Some(_)) | Err(_) => return Ok(()),
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    Ok(())
}

impl Drop for Guest {
    fn drop(&mut self) {
        if let Ok(mut l) = self.launched.lock() {
            for (_, c) in l.iter_mut() {
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
}
