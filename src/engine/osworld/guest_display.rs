//! What a guest's screen shows, for every kind of environment — the screens the screen policies
//! start (`rollout --policy ui-oracle`, `noop --screen`), kept alive for as long as the guest
//! serves:
//!
//! - the files domain: the files desktop on the environment's home;
//! - one built-in web app (team-chat, mail, issue-tracker, ecommerce-admin): its agent-facing UI
//!   origin for the environment's session with Chromium in kiosk mode on it (`ui::WebScreen`);
//! - one `[[apps.external]]` app: Chromium on its UI address (`ui_url`), captured once rendered
//!   (`ui::open_page`);
//! - a task spanning apps: the combined screen (taskbar, the desktop when `files` is among them,
//!   a browser window per web app; `ui::CombinedScreen`).
//!
//! The web pages' DevTools sessions stay open, so `/accessibility` can list their widgets.

use std::sync::Arc;

use super::OsworldError;
use crate::engine::env::SessionStore;
use crate::engine::harness::webapi::Backend;
use crate::engine::harness::TaskEnv;
use crate::engine::rollout::screen_env::open_screen;
use crate::engine::rollout::ui_oracle_web::SEED_TODAY;
use crate::engine::screen::{BrowserSpec, Screen, ScreenConfig};
use crate::engine::ui::{
    app_ui, open_page, CombinedScreen, Today, UiOptions, WebApp, WebResolver, WebScreen,
};

/// A guest's display and whatever keeps it showing its environment.
pub enum GuestDisplay {
    /// A display that needs nothing else alive (the files desktop).
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

fn infra(e: impl std::fmt::Display) -> OsworldError {
    OsworldError::Infra(e.to_string())
}

/// `host:port` of an `http://` URL (the only origin its browser may reach).
fn origin_of(url: &str) -> String {
    url.trim_start_matches("http://")
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The session store of a built-in `app` of `env`, or why its screen cannot be served.
fn builtin_store(app: &str, env: &TaskEnv) -> Result<Arc<SessionStore>, OsworldError> {
    let web = env
        .web
        .iter()
        .find(|w| w.app == app)
        .ok_or_else(|| OsworldError::Infra(format!("the environment has no {app} session")))?;
    match &web.backend {
        Backend::Builtin(store) if app_ui(app).is_some() => Ok(store.clone()),
        Backend::Builtin(_) => Err(OsworldError::Task(format!(
            "app {app} has no web UI to put on a screen"
        ))),
        Backend::External(_) => Err(OsworldError::Task(format!(
            "{app} is an [[apps.external]] app: a task spanning it and other apps has no \
             combined screen on this build (one external app alone is served on its ui_url)"
        ))),
    }
}

fn ui_options() -> Result<UiOptions, OsworldError> {
    Ok(UiOptions {
        today: Today::parse(SEED_TODAY).map_err(|e| OsworldError::Infra(e.to_string()))?,
    })
}

/// Starts the screen of an environment over `apps` (see the module doc) and waits until it
/// shows them (the pre-rollout gate).
pub fn open_display(
    cfg: &ScreenConfig,
    apps: &[String],
    env: &TaskEnv,
) -> Result<GuestDisplay, OsworldError> {
    match apps {
        [] => Err(OsworldError::Task("the task names no app".into())),
        [only] if crate::apps::is_desktop(only) => {
            let (screen, _) = open_screen(cfg, apps, env).map_err(infra)?;
            Ok(screen.into())
        }
        [only] => {
            let web = env.web.iter().find(|w| w.app == *only);
            if let Some(Backend::External(x)) = web.map(|w| &w.backend) {
                let url = x.ui_url(&env.sid);
                let mut screen = Screen::start(cfg, cfg.size_for(only))?;
                let spec = BrowserSpec {
                    allow: origin_of(&url),
                    url,
                };
                let (_, page) = open_page(&mut screen, cfg, &spec).map_err(infra)?;
                return Ok(GuestDisplay::Page {
                    screen: Box::new(screen),
                    page: Box::new(page),
                });
            }
            let store = builtin_store(only, env)?;
            let web = WebScreen::start(cfg, store, &env.sid, ui_options()?).map_err(infra)?;
            Ok(GuestDisplay::Web(Box::new(web)))
        }
        _ => {
            let mut webs = Vec::new();
            for app in apps.iter().filter(|a| !crate::apps::is_desktop(a)) {
                webs.push(WebApp {
                    app: app.clone(),
                    store: builtin_store(app, env)?,
                    sid: env.sid.clone(),
                    opts: ui_options()?,
                });
            }
            let screen = CombinedScreen::start(cfg, apps, &env.home, webs).map_err(infra)?;
            Ok(GuestDisplay::Combined(Box::new(screen)))
        }
    }
}
