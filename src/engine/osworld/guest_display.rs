//! What a guest's screen shows, for every kind of environment — the screens the screen policies
//! start (`rollout --policy ui-oracle`, `noop --screen`), kept alive for as long as the guest
//! serves:
//!
//! - the files domain: the files desktop on the environment's home; a desktop application (or
//!   several: calc + writer, files + impress) on one desktop with every application's window;
//! - one built-in web app (team-chat, mail, issue-tracker, ecommerce-admin): its agent-facing UI
//!   origin for the environment's session with Chromium in kiosk mode on it (`ui::WebScreen`);
//! - one `[[apps.external]]` app: Chromium on its UI address (`ui_url`), captured once rendered
//!   (`ui::open_page`);
//! - a task spanning a web app and other apps: the combined screen (taskbar, the desktop when
//!   `files` is among them, a browser window per web app; `ui::CombinedScreen`).
//!
//! Which one is decided by `rollout::task_screen::open_env_screen`, as for every policy.
//!
//! The web pages' DevTools sessions stay open, so `/accessibility` can list their widgets.

use super::OsworldError;
use crate::engine::harness::TaskEnv;
use crate::engine::rollout::task_screen::{open_env_screen, TaskDisplay};
use crate::engine::rollout::RolloutError;
use crate::engine::screen::{Screen, ScreenConfig};
use crate::engine::ui::{CombinedScreen, WebResolver, WebScreen};

/// A guest's display and whatever keeps it showing its environment.
pub enum GuestDisplay {
    /// A display that needs nothing else alive (the files desktop, desktop applications).
    Plain(Box<Screen>),
    /// Chromium in kiosk mode on a page (an external app's UI), with a DevTools session.
    Page {
        /// The display.
        screen: Box<Screen>,
        /// The page's DevTools session.
        page: Box<WebResolver>,
    },
    /// A built-in web app's UI origin with Chromium in kiosk mode on it.
    Web(Box<WebScreen>),
    /// A task spanning apps.
    Combined(Box<CombinedScreen>),
}

impl From<Screen> for GuestDisplay {
    fn from(s: Screen) -> Self {
        GuestDisplay::Plain(Box::new(s))
    }
}

impl GuestDisplay {
    /// The display (act, screenshot, launch on it).
    pub fn screen(&mut self) -> &mut Screen {
        match self {
            GuestDisplay::Plain(s) | GuestDisplay::Page { screen: s, .. } => s,
            GuestDisplay::Web(w) => &mut w.screen,
            GuestDisplay::Combined(c) => &mut c.screen,
        }
    }

    /// The display, read-only.
    pub fn screen_ref(&self) -> &Screen {
        match self {
            GuestDisplay::Plain(s) | GuestDisplay::Page { screen: s, .. } => s,
            GuestDisplay::Web(w) => &w.screen,
            GuestDisplay::Combined(c) => &c.screen,
        }
    }

    /// What kind of screen this is, for the announcement line (`desktop`, `web`, `page`,
    /// `combined`).
    pub fn kind(&self) -> &'static str {
        match self {
            GuestDisplay::Plain(_) => "desktop",
            GuestDisplay::Page { .. } => "page",
            GuestDisplay::Web(_) => "web",
            GuestDisplay::Combined(_) => "combined",
        }
    }

    /// The web pages on the screen with their DevTools sessions: `None` for the window class
    /// of a kiosk page (it fills the screen, no window manager lists it), else the class of its
    /// browser window.
    pub fn pages(&mut self) -> Vec<(Option<String>, &mut WebResolver)> {
        match self {
            GuestDisplay::Plain(_) => Vec::new(),
            GuestDisplay::Page { page, .. } => vec![(None, page.as_mut())],
            GuestDisplay::Web(w) => vec![(None, &mut w.resolver)],
            GuestDisplay::Combined(c) => c
                .parts()
                .1
                .pages_mut()
                .map(|(class, page)| (Some(class.clone()), page))
                .collect(),
        }
    }
}

impl From<TaskDisplay> for GuestDisplay {
    fn from(d: TaskDisplay) -> Self {
        match d {
            TaskDisplay::Desktop(s) => GuestDisplay::Plain(s),
            TaskDisplay::Page { screen, page } => GuestDisplay::Page { screen, page },
            TaskDisplay::Web(w) => GuestDisplay::Web(w),
            TaskDisplay::Combined(c) => GuestDisplay::Combined(c),
        }
    }
}

/// Starts the screen of an environment over `apps` — the one every policy and face gets
/// ([`open_env_screen`]: per-app sizes, one desktop for several desktop applications) — and
/// waits until it shows them (the pre-rollout gate).
pub fn open_display(
    cfg: &ScreenConfig,
    apps: &[String],
    env: &TaskEnv,
) -> Result<GuestDisplay, OsworldError> {
    open_env_screen(cfg, apps, env)
        .map(GuestDisplay::from)
        .map_err(|e| match e {
            RolloutError::Task(m) | RolloutError::Policy(m) => OsworldError::Task(m),
            e @ (RolloutError::Infra(_) | RolloutError::Judge(_)) => {
                OsworldError::Infra(e.to_string())
            }
        })
}
