//! Desktop applications on a screen (issue #31): LibreOffice and the other programs of
//! `kind = "desktop"` packs, started the way the files desktop starts its programs (bubblewrap,
//! the screen's app uid, the home at `/home/user`, only this screen's X socket,
//! `[screen.desktop.limits]`), plus what an application needs that the file manager does not:
//!
//! - a **session directory** of the screen bound at `/tmp` of every application (and of the
//!   accessibility reader), holding a private session D-Bus (`/tmp/bus`, its own
//!   `dbus-daemon`), the AT-SPI bus the toolkit's bridge starts from it, and each application's
//!   fresh profile (`/tmp/tw-profile/<app>`);
//! - a ready gate on the application's own window (`WM_CLASS`), with the program's output quoted
//!   when it dies first and the timeout named when it hangs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::desktop::{desktop_command_in, DeskPlan, DesktopView};
use super::{DesktopSpec, DesktopWindows, ScreenConfig, ScreenError, Shot};

/// One application a screen starts.
#[derive(Debug, Clone)]
pub struct ScreenApp {
    /// Its name (the pack's), naming its log and its errors.
    pub name: String,
    /// The program on the host.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// `WM_CLASS` classes of its windows.
    pub classes: Vec<String>,
    /// Profile files written fresh under `/tmp/tw-profile/<name>/` before it starts.
    pub profile: Vec<(String, Vec<u8>)>,
    /// How long its first window may take.
    pub ready: Duration,
}

/// What a desktop-application screen shows.
#[derive(Debug, Clone)]
pub struct AppDesktopSpec {
    /// The environment's home (`/home/user`).
    pub home: PathBuf,
    /// Whether the files desktop's file manager and terminal are on it too.
    pub files: bool,
    /// The applications, the first one focused.
    pub apps: Vec<ScreenApp>,
}

/// How long a started application's screen must stay unchanged to count as ready.
const APP_QUIET: Duration = Duration::from_millis(1500);

/// The session directory's name under the screen's work directory.
const SESSION: &str = "session";

impl super::Screen {
    /// The host directory bound at `/tmp` of this screen's applications, once started.
    pub fn session_dir(&self) -> Option<PathBuf> {
        let dir = self.work_dir().join(SESSION);
        dir.join("bus").exists().then_some(dir)
    }

    fn app_uid_or_me(&self) -> u32 {
        // SAFETY: geteuid has no preconditions.
        self.app_uid.unwrap_or(unsafe { libc::geteuid() })
    }

    /// A command in the applications' view (home at `/home/user`, the session at `/tmp`).
    pub fn session_command(
        &self,
        cfg: &ScreenConfig,
        home: &Path,
        env: &[(String, String)],
        program: &Path,
        args: &[&str],
    ) -> Result<Command, ScreenError> {
        let session = self.private_dir(SESSION)?;
        let view = DesktopView {
            home,
            display: self.display,
            uid: self.app_uid_or_me(),
            binds: &[],
            session: Some(&session),
            env,
        };
        Ok(desktop_command_in(cfg, &view, program, args))
    }

    /// Starts the window manager (and the files desktop's programs when `spec.files`), the
    /// session bus, then every application of `spec`; waits until each shows a window of its
    /// classes, focuses the first, and waits until the screen is drawn (the pre-rollout gate).
    pub fn open_apps(
        &mut self,
        cfg: &ScreenConfig,
        spec: &AppDesktopSpec,
    ) -> Result<Shot, ScreenError> {
        let ready = spec.apps.iter().map(|a| a.ready).max().unwrap_or_default();
        let deadline = Instant::now() + Duration::from_millis(cfg.ready_timeout_ms).max(ready);
        let plan = DeskPlan {
            top: 0,
            apps: spec.apps.iter().flat_map(|a| a.classes.clone()).collect(),
            no_programs: !spec.files,
        };
        let desk = DesktopSpec {
            home: spec.home.clone(),
        };
        self.start_desktop(cfg, &desk, &plan, deadline)?;
        self.start_session_bus(cfg, &spec.home, deadline)?;
        let windows = DesktopWindows::connect(&self.display_name())?;
        for app in &spec.apps {
            self.start_app(cfg, &spec.home, app)?;
        }
        let mut first = None;
        for app in &spec.apps {
            let what = format!("the {} window (classes {:?})", app.name, app.classes);
            let found = self.wait_for_app(deadline, &what, &app.name, || {
                Ok(windows
                    .list()?
                    .into_iter()
                    .find(|w| app.classes.contains(&w.class)))
            })?;
            first.get_or_insert(found.id);
        }
        if let Some(id) = first {
            windows.activate(id)?;
        }
        // An application draws its window in stages (LibreOffice: the grid, then the toolbars
        // and the formula bar): ready once the screen has been still for a while.
        let left = deadline.saturating_duration_since(Instant::now());
        self.settle_with(super::Settle {
            quiet: APP_QUIET,
            max: left.max(APP_QUIET * 2),
            expect_change: false,
        })?;
        let left = deadline.saturating_duration_since(Instant::now());
        self.wait_drawn(left.max(Duration::from_millis(1500)))
    }

    fn start_session_bus(
        &mut self,
        cfg: &ScreenConfig,
        home: &Path,
        deadline: Instant,
    ) -> Result<(), ScreenError> {
        let session = self.private_dir(SESSION)?;
        let cmd = self.session_command(
            cfg,
            home,
            &[],
            Path::new("dbus-daemon"),
            &["--session", "--nofork", "--address=unix:path=/tmp/bus"],
        )?;
        self.launch("dbus-daemon", cmd)?;
        let bus = session.join("bus");
        self.wait_for(deadline, "the session bus", || Ok(bus.exists()))
    }

    fn start_app(
        &mut self,
        cfg: &ScreenConfig,
        home: &Path,
        app: &ScreenApp,
    ) -> Result<(), ScreenError> {
        if !app.profile.is_empty() {
            let dir = self
                .private_dir(SESSION)?
                .join("tw-profile")
                .join(&app.name);
            write_tree(&dir, &app.profile, self.app_uid)?;
        }
        let args: Vec<&str> = app.args.iter().map(String::as_str).collect();
        let cmd = self.session_command(cfg, home, &app.env, &app.program, &args)?;
        self.launch(&app.name, cmd)
    }

    /// Polls `find` until it returns a window; a program that exits first is
    /// [`ScreenError::AppDied`] quoting its last output lines, the deadline a hang naming it.
    fn wait_for_app(
        &mut self,
        deadline: Instant,
        what: &str,
        program: &str,
        mut find: impl FnMut() -> Result<Option<super::DesktopWindow>, ScreenError>,
    ) -> Result<super::DesktopWindow, ScreenError> {
        let mut found = None;
        let result = self.wait_for(deadline, what, || {
            found = find()?;
            Ok(found.is_some())
        });
        match (result, found) {
            (Ok(()), Some(w)) => Ok(w),
            (Err(ScreenError::Blank(why)), _) => Err(ScreenError::AppDied {
                program: program.to_string(),
                detail: format!("hung: {why}; its output: {}", self.log_tail(program, 5)),
            }),
            (Err(e), _) => Err(e),
            (Ok(()), None) => Err(ScreenError::Blank(format!("{what} vanished"))),
        }
    }
}

/// Writes `files` under `dir` (created fresh), owned by `uid` when given.
fn write_tree(
    dir: &Path,
    files: &[(String, Vec<u8>)],
    uid: Option<u32>,
) -> Result<(), ScreenError> {
    let io = |what: &str, p: &Path, e: std::io::Error| {
        ScreenError::Io(format!("{what} {}: {e}", p.display()))
    };
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| io("clearing the profile", dir, e))?;
    }
    for (rel, data) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io("creating", parent, e))?;
        }
        std::fs::write(&path, data).map_err(|e| io("writing the profile file", &path, e))?;
    }
    if let Some(uid) = uid {
        let parent = dir.parent().unwrap_or(dir);
        for e in walkdir::WalkDir::new(parent).into_iter().flatten() {
            std::os::unix::fs::chown(e.path(), Some(uid), Some(uid))
                .map_err(|err| io("handing the profile to the app uid", e.path(), err))?;
        }
    }
    Ok(())
}
