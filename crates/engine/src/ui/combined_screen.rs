//! A combined screen for a task spanning several apps: one display with openbox, a taskbar strip
//! along the top with a button per app, the files desktop (file manager, terminal, editor on the
//! environment's home) when `files` is among the apps, and one Chromium window per web app, each
//! in app mode on that app's own agent-facing origin for the environment's session (a fresh
//! profile and its own origin lock per window, so no page reaches another app's origin). The
//! agent switches between apps by clicking the taskbar's buttons.
//!
//! Everything runs on the one [`Screen`] (its process group, its app uid, its marker), so
//! teardown and the sweep of a killed run hold as for single-app screens; the pre-rollout gate
//! waits for every window to be managed and every page painted, then for a drawn, settled frame.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::cdp::Cdp;
use super::resolver::WebResolver;
use super::web_screen::{UiOrigin, WebScreenError};
use super::UiOptions;
use crate::act::ui_plan::TargetResolver;
use crate::env::SessionStore;
use crate::screen::{
    chromium_window_command, files_entry, raise, BrowserSpec, DesktopWindows, Screen, ScreenConfig,
    ScreenError, Shot, Taskbar, TaskbarEntry, WorkspaceSpec,
};

/// One web app of a combined screen: its session store, the environment's session, UI options.
pub struct WebApp {
    /// The app (`team-chat`).
    pub app: String,
    /// The app's session store.
    pub store: Arc<SessionStore>,
    /// The environment's session id.
    pub sid: String,
    /// The UI's options (the fixed "today").
    pub opts: UiOptions,
}

/// What the taskbar button of `app` says.
pub fn app_label(app: &str) -> String {
    crate::apps::get(app).map_or_else(|| app.to_string(), |p| p.label().to_string())
}

/// The window class of `app`'s browser window.
pub fn app_class(app: &str) -> String {
    format!("tw-{app}")
}

/// A live combined screen. Drop order: the display and everything on it, the DevTools sessions,
/// the taskbar thread, then the UI origins.
pub struct CombinedScreen {
    /// The display (act and screenshot through it).
    pub screen: Screen,
    /// Finds targets on whichever window has the focus, and the taskbar's buttons.
    pub resolver: super::CombinedResolver,
    /// The first screenshot that passed the gate.
    pub first: Shot,
    /// How long start-up took.
    pub ready: Duration,
    _taskbar: Taskbar,
    origins: Vec<(String, UiOrigin)>,
}

fn infra(what: &str) -> impl Fn(super::cdp::CdpError) -> WebScreenError + '_ {
    move |source| WebScreenError::DevToolsOf {
        app: what.to_string(),
        source,
    }
}

impl CombinedScreen {
    /// Starts the screen of a task over `apps` (in the task's order; `files` for the desktop,
    /// every other one must be in `webs`), with `home` as the desktop's `/home/user`. The first
    /// app has the focus when the gate passes.
    pub fn start(
        cfg: &ScreenConfig,
        apps: &[String],
        home: &std::path::Path,
        webs: Vec<WebApp>,
    ) -> Result<CombinedScreen, WebScreenError> {
        let t0 = Instant::now();
        let timeout = Duration::from_millis(cfg.ready_timeout_ms);
        let mut origins = Vec::new();
        for w in webs {
            let origin = UiOrigin::start(w.store, &w.sid, w.opts)?;
            origins.push((w.app, origin));
        }
        let entries: Vec<TaskbarEntry> = apps
            .iter()
            .map(|app| match crate::apps::is_desktop(app) {
                true => files_entry(),
                false => TaskbarEntry {
                    label: app_label(app),
                    classes: vec![app_class(app)],
                },
            })
            .collect();
        for app in apps.iter().filter(|a| !crate::apps::is_desktop(a)) {
            if !origins.iter().any(|(a, _)| a == app) {
                return Err(ScreenError::Io(format!("no session of {app} for its window")).into());
            }
        }
        let mut screen = Screen::start(cfg, cfg.size_for(&apps[0]))?;
        let spec = WorkspaceSpec {
            home: home.to_path_buf(),
            files: apps.iter().any(|a| crate::apps::is_desktop(a)),
            apps: origins.iter().map(|(a, _)| app_class(a)).collect(),
            taskbar: entries.clone(),
        };
        let taskbar = screen.open_workspace(cfg, &spec)?;
        let area = screen.app_window_area();
        let mut profiles = Vec::new();
        for (app, origin) in &origins {
            let profile = screen.private_dir(&format!("chromium-{app}"))?;
            let spec = BrowserSpec {
                url: origin.url(),
                allow: origin.host_port(),
            };
            let mut cmd = chromium_window_command(cfg, &spec, &profile, area, &app_class(app));
            cmd.args([
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "--disable-smooth-scrolling",
                "--disable-backgrounding-occluded-windows",
                "--disable-renderer-backgrounding",
            ]);
            screen.launch(&format!("chromium-{app}"), cmd)?;
            profiles.push((app.clone(), profile));
        }
        let windows = DesktopWindows::connect(&screen.display_name())?;
        let deadline = t0 + timeout + Duration::from_millis(cfg.ready_timeout_ms / 2);
        let managed = |windows: &DesktopWindows| -> Result<bool, ScreenError> {
            let classes: Vec<String> = windows.list()?.into_iter().map(|w| w.class).collect();
            Ok(spec.apps.iter().all(|c| classes.contains(c)))
        };
        screen.wait_for(deadline, "every app window", || managed(&windows))?;
        let mut webs = Vec::new();
        for (app, profile) in &profiles {
            // Chromium paints no page under another window: bring each one forward to load.
            let entry = TaskbarEntry {
                label: app_label(app),
                classes: vec![app_class(app)],
            };
            raise(&windows, &entry)?;
            let cdp = Cdp::connect(profile, timeout).map_err(infra(app))?;
            let mut resolver = WebResolver::new(cdp);
            screen.wait_for(deadline, &format!("the {app} page"), || {
                resolver
                    .document_id()
                    .map(|d| d.is_some())
                    .map_err(|e| ScreenError::Io(e.to_string()))
            })?;
            webs.push((app_class(app), resolver));
        }
        raise(&windows, &entries[0])?;
        let first_classes = entries[0].classes.clone();
        screen.wait_for(deadline, "the first app in front", || {
            Ok(windows
                .list()?
                .iter()
                .any(|w| w.focused && first_classes.contains(&w.class)))
        })?;
        let left = deadline.saturating_duration_since(Instant::now());
        let first = screen.wait_drawn(left.max(Duration::from_millis(500)))?;
        let resolver = super::CombinedResolver::new(&screen.display_name(), entries, webs)?;
        Ok(CombinedScreen {
            screen,
            resolver,
            first,
            ready: t0.elapsed(),
            _taskbar: taskbar,
            origins,
        })
    }

    /// The agent-facing URL of `app`'s window, if it is one of the screen's web apps.
    pub fn url(&self, app: &str) -> Option<String> {
        self.origins
            .iter()
            .find(|(a, _)| a == app)
            .map(|(_, o)| o.url())
    }

    /// The display and the resolver, borrowed together (what an executor needs).
    pub fn parts(&mut self) -> (&mut Screen, &mut super::CombinedResolver) {
        (&mut self.screen, &mut self.resolver)
    }
}
