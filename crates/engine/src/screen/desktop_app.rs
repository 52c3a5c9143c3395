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
    /// How its windows' titles name a document (`{name}`, `[{stem}]`; the pack's
    /// `[desktop] document_title`): set, the ready gate waits for a window titled with each
    /// document of `args` (`screen::document_title`).
    pub document_title: Option<String>,
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

/// How long each phase of [`super::Screen::open_apps_timed`] took, in order.
#[derive(Debug, Clone, Default)]
pub struct ReadyPhases {
    /// `(phase, duration)`, each from the end of the previous phase.
    pub phases: Vec<(&'static str, Duration)>,
    last: Option<Instant>,
}

impl ReadyPhases {
    /// Phases measured from now on.
    pub fn started() -> Self {
        ReadyPhases {
            phases: Vec::new(),
            last: Some(Instant::now()),
        }
    }

    /// Ends the phase `phase` now.
    pub fn mark(&mut self, phase: &'static str) {
        let now = Instant::now();
        let since = self.last.map_or(Duration::ZERO, |l| now - l);
        self.phases.push((phase, since));
        self.last = Some(now);
    }
}

/// How long a started application's screen must stay unchanged (no X damage at all), once its
/// window shows contents, with every program of the screen idle over the same while
/// ([`super::idle`]), to count as ready. Calc draws its grid first and its toolbars later; a
/// gap between them (0.6 s was seen on a loaded machine) is Calc still working or waiting for
/// a core, which the idle check sees — so the quiet period can be short (it was a fixed 1.5 s of
/// damage alone). `benches/desktop.rs` checks that the ready screenshot equals one taken 3 s
/// later.
const APP_QUIET: Duration = Duration::from_millis(300);

/// Slack on [`APP_QUIET`]: a settle that waited longer saw damage during its quiet period.
const QUIET_SLACK: Duration = Duration::from_millis(40);

/// A display quiet this long is ready even while a program keeps using CPU without drawing
/// (a browser's background work): the ready gate's rule before the idle check.
const LONG_QUIET: Duration = Duration::from_millis(1500);

/// When the ready gate of `spec` gives up: `[screen] ready_timeout_ms`, or the longest
/// `ready_timeout_ms` of its applications.
pub(super) fn apps_deadline(cfg: &ScreenConfig, spec: &AppDesktopSpec) -> Instant {
    let ready = spec.apps.iter().map(|a| a.ready).max().unwrap_or_default();
    Instant::now() + Duration::from_millis(cfg.ready_timeout_ms).max(ready)
}

/// GTK settings of the applications (`$XDG_CONFIG_HOME/gtk-3.0/settings.ini`).
const GTK_SETTINGS: &[u8] = b"[Settings]\ngtk-cursor-blink=false\ngtk-enable-animations=false\n";

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
        self.open_apps_timed(cfg, spec).map(|(shot, _)| shot)
    }

    /// [`Screen::open_apps`], with how long each phase took (`window manager`, `session bus`,
    /// `windows mapped`, `screen quiet`, `drawn`), each measured from the end of the previous
    /// one: where an environment's ready time goes (`benches/desktop.rs`).
    pub fn open_apps_timed(
        &mut self,
        cfg: &ScreenConfig,
        spec: &AppDesktopSpec,
    ) -> Result<(Shot, ReadyPhases), ScreenError> {
        let mut phases = ReadyPhases::started();
        let deadline = apps_deadline(cfg, spec);
        self.start_session(cfg, spec, deadline, &mut phases)?;
        self.gate_apps(cfg, spec, &[], deadline, phases)
    }

    /// The window manager (and the files desktop's programs when `spec.files`) and the session
    /// bus of a desktop-application screen: what [`Screen::open_apps_timed`] starts before any
    /// application, and what the desktop pool starts ahead of its task.
    pub(super) fn start_session(
        &mut self,
        cfg: &ScreenConfig,
        spec: &AppDesktopSpec,
        deadline: Instant,
        phases: &mut ReadyPhases,
    ) -> Result<(), ScreenError> {
        let plan = DeskPlan {
            top: 0,
            apps: spec.apps.iter().flat_map(|a| a.classes.clone()).collect(),
            no_programs: !spec.files,
        };
        let desk = DesktopSpec {
            home: spec.home.clone(),
        };
        self.start_desktop(cfg, &desk, &plan, deadline)?;
        phases.mark("window manager");
        self.start_session_bus(cfg, &spec.home, deadline)?;
        phases.mark("session bus");
        Ok(())
    }

    /// Starts every application of `spec` — those named in `handed` already run (the desktop
    /// pool started them) and get the task's words from a second launch of theirs, which hands
    /// them over and exits — then the ready gate: each application's window mapped, the first
    /// focused, every window showing its contents, the screen quiet, drawn.
    pub(super) fn gate_apps(
        &mut self,
        cfg: &ScreenConfig,
        spec: &AppDesktopSpec,
        handed: &[String],
        deadline: Instant,
        mut phases: ReadyPhases,
    ) -> Result<(Shot, ReadyPhases), ScreenError> {
        let windows = DesktopWindows::connect(&self.display_name())?;
        for app in &spec.apps {
            match handed.contains(&app.name) {
                true => self.hand_over(cfg, &spec.home, app)?,
                false => self.start_app(cfg, &spec.home, app)?,
            }
        }
        let mut first = None;
        let mut areas = Vec::new();
        let ours: Vec<String> = spec.apps.iter().flat_map(|a| a.classes.clone()).collect();
        for app in &spec.apps {
            // Launched on documents: ready once its windows are titled with them (the one
            // showing the first is focused); else once a window of its classes maps.
            let docs = super::document_title::documents_of(
                app.document_title.as_deref(),
                &app.args,
                &spec.home,
            );
            let found = match docs.is_empty() {
                false => self.wait_documents(
                    cfg,
                    &windows,
                    deadline,
                    (&app.name, &app.classes),
                    &ours,
                    &docs,
                )?,
                true => {
                    let what = format!("the {} window (classes {:?})", app.name, app.classes);
                    self.wait_for_app(deadline, &what, &app.name, || {
                        Ok(windows
                            .list()?
                            .into_iter()
                            .find(|w| app.classes.contains(&w.class)))
                    })?
                }
            };
            first.get_or_insert(found.id);
            self.mark_closable(&app.name);
            areas.push((app.name.clone(), found.area));
        }
        if let Some(id) = first {
            windows.activate(id)?;
        }
        phases.mark("windows mapped");
        // A window maps before it draws (Calc: an empty grey client area for a second or more,
        // then everything at once): wait until each shows its contents.
        for (name, area) in &areas {
            self.wait_contents(deadline, name, *area)?;
        }
        phases.mark("contents drawn");
        // An application draws its window in stages (LibreOffice: the grid, then the toolbars
        // and the formula bar): ready once the screen has been still for a while.
        let settled = self.settle_idle(deadline)?;
        phases.mark("screen quiet");
        // Quiet and idle (or quiet for LONG_QUIET): one read shows the drawn screen; only a
        // screen that is still blank or never went quiet is watched further.
        let now = match settled.timed_out {
            false => self.drawn_now()?,
            true => None,
        };
        let shot = match now {
            Some(shot) => shot,
            None => {
                let left = deadline.saturating_duration_since(Instant::now());
                self.wait_drawn(left.max(Duration::from_millis(1500)))?
            }
        };
        phases.mark("drawn");
        if tracing::enabled!(tracing::Level::INFO) {
            let shown: Vec<(String, String, bool)> = windows
                .list()
                .unwrap_or_default()
                .into_iter()
                .map(|w| (w.class, w.title, w.focused))
                .collect();
            tracing::info!(windows = ?shown, "desktop ready gate passed");
        }
        Ok((shot, phases))
    }

    /// Waits until the display has been quiet for [`APP_QUIET`] and the screen's programs
    /// used (almost) no CPU over that same period, none running at its end — or the display
    /// has been quiet for [`LONG_QUIET`] whatever the CPU; timed out at `deadline` (at least
    /// two quiet periods from now).
    fn settle_idle(&mut self, deadline: Instant) -> Result<super::Settled, ScreenError> {
        let start = Instant::now();
        let mut quiet = Duration::ZERO;
        loop {
            let before = super::idle::CpuSample::of_screen(self.work_dir());
            let left = deadline.saturating_duration_since(Instant::now());
            let s = self.settle_with(super::Settle {
                quiet: APP_QUIET,
                max: left.max(APP_QUIET * 2),
                expect_change: false,
            })?;
            let after = super::idle::CpuSample::of_screen(self.work_dir());
            let waited = start.elapsed();
            // Damage during this wait: the display has been quiet for the last APP_QUIET only.
            let undamaged = s.waited <= APP_QUIET + QUIET_SLACK;
            quiet = if undamaged {
                quiet + s.waited
            } else {
                APP_QUIET
            };
            if s.timed_out || (undamaged && before.idle_until(&after)) || quiet >= LONG_QUIET {
                return Ok(super::Settled { waited, ..s });
            }
            if Instant::now() >= deadline {
                return Ok(super::Settled {
                    waited,
                    timed_out: true,
                    ..s
                });
            }
        }
    }

    pub(super) fn start_session_bus(
        &mut self,
        cfg: &ScreenConfig,
        home: &Path,
        deadline: Instant,
    ) -> Result<(), ScreenError> {
        let session = self.private_dir(SESSION)?;
        // No blinking caret: the screen settles (the ready gate, every action's settle) and the
        // same state gives the same pixels.
        let gtk = vec![(
            ".config/gtk-3.0/settings.ini".to_string(),
            GTK_SETTINGS.to_vec(),
        )];
        write_tree(&session.join(".config-seed"), &gtk, self.app_uid)?;
        let cfg_dir = session.join(".config");
        if !cfg_dir.exists() {
            std::fs::rename(session.join(".config-seed/.config"), &cfg_dir)
                .map_err(|e| ScreenError::Io(format!("placing the GTK settings: {e}")))?;
        }
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

    pub(super) fn start_app(
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

    /// Waits until `area` (an application's window) shows more than one colour; a program that
    /// dies first or the deadline is an error naming it.
    fn wait_contents(
        &mut self,
        deadline: Instant,
        program: &str,
        area: super::Area,
    ) -> Result<(), ScreenError> {
        loop {
            if self.area_drawn(area)? {
                return Ok(());
            }
            if let Err(ScreenError::AppDied { program, detail }) = self.check() {
                return Err(ScreenError::AppDied {
                    detail: format!("{detail}: {}", self.log_tail(&program, 5)),
                    program,
                });
            }
            if Instant::now() >= deadline {
                return Err(ScreenError::AppDied {
                    program: program.to_string(),
                    detail: format!(
                        "hung: its window stayed empty; its output: {}",
                        self.log_tail(program, 5)
                    ),
                });
            }
            std::thread::sleep(Duration::from_millis(50));
        }
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

/// The accessibility-tree reader of this screen's applications (AT-SPI through Debian's
/// `python3-pyatspi`, run in the applications' own view so it reaches their session bus):
/// independent of the [`super::Screen`] borrow, so a plan's target resolver can hold it.
#[derive(Debug, Clone)]
pub struct A11yReader {
    cfg: ScreenConfig,
    session: PathBuf,
    home: PathBuf,
    display: u32,
    uid: Option<u32>,
}

/// The reader script (`assets/python/tw_atspi.py`).
pub const ATSPI_PY: &str = include_str!("../../../../assets/python/tw_atspi.py");
/// How long one read of the tree may take.
const A11Y_TIMEOUT: Duration = Duration::from_secs(30);

impl super::Screen {
    /// A reader of the applications' accessibility tree (the session must be started).
    pub fn a11y_reader(&self, cfg: &ScreenConfig) -> Result<A11yReader, ScreenError> {
        let session = self
            .session_dir()
            .ok_or_else(|| ScreenError::Io("no desktop application runs on this screen".into()))?;
        let script = session.join("tw_atspi.py");
        std::fs::write(&script, ATSPI_PY)
            .map_err(|e| ScreenError::Io(format!("writing {}: {e}", script.display())))?;
        Ok(A11yReader {
            cfg: cfg.clone(),
            home: self.private_dir("a11y-home")?,
            session,
            display: self.display,
            uid: self.app_uid,
        })
    }
}

impl A11yReader {
    /// The tree now: `{"nodes": [{depth, role, name, text?, states, x, y, w, h}], "truncated"}`
    /// (showing nodes only; see `tw_atspi.py` for the caps).
    pub fn read(&self) -> Result<serde_json::Value, ScreenError> {
        use std::io::Read as _;
        // SAFETY: geteuid has no preconditions.
        let uid = self.uid.unwrap_or(unsafe { libc::geteuid() });
        let view = DesktopView {
            home: &self.home,
            display: self.display,
            uid,
            binds: &[],
            session: Some(&self.session),
            env: &[],
        };
        let mut cmd = desktop_command_in(
            &self.cfg,
            &view,
            Path::new("/usr/bin/python3"),
            &["/tmp/tw_atspi.py"],
        );
        if let Some(uid) = self.uid {
            std::os::unix::process::CommandExt::uid(&mut cmd, uid);
            std::os::unix::process::CommandExt::gid(&mut cmd, uid);
        }
        let failed = |e: String| ScreenError::Io(format!("reading the accessibility tree: {e}"));
        let mut child = cmd
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| failed(e.to_string()))?;
        let mut out = child.stdout.take();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(o) = out.as_mut() {
                let _ = o.read_to_string(&mut text);
            }
            text
        });
        let deadline = Instant::now() + A11Y_TIMEOUT;
        let status = loop {
            match child.try_wait().map_err(|e| failed(e.to_string()))? {
                Some(s) => break s,
                None if Instant::now() >= deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(failed(format!(
                        "timed out after {} s",
                        A11Y_TIMEOUT.as_secs()
                    )));
                }
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        let text = reader.join().unwrap_or_default();
        if !status.success() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            let tail: Vec<&str> = err.lines().rev().take(3).collect();
            return Err(failed(format!("{status}: {}", tail.join(" | "))));
        }
        serde_json::from_str(&text).map_err(|e| failed(format!("bad output: {e}")))
    }
}
