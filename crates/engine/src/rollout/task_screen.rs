//! Which screen a task gets, decided in one place for every face and policy (`ui-oracle`,
//! `noop --screen`, the VLM teachers, `screen shot --task`, `env try`, the OSWorld face
//! `env serve --osworld`):
//!
//! - a trial on an OSWorld guest: the guest's own screen;
//! - one built-in web app with a UI: its agent-facing UI origin ([`crate::ui::WebScreen`]);
//! - one `[[apps.external]]` app: Chromium on its UI address, with its DevTools session;
//! - the files desktop or one desktop application: a display
//!   ([`super::screen_env::open_screen`]);
//! - several desktop apps only (calc + writer, files + impress): one desktop with every
//!   application's window ([`super::screen_env::open_screen`]);
//! - several apps with a web app among them: the combined screen (taskbar, desktop, a browser
//!   window per web app).
//!
//! The size is `[screen]`'s for the (first) app ([`ScreenConfig::size_for`]); a face that takes
//! an explicit size (`screen shot --width`) sets it with [`ScreenConfig::override_size`] first.

use super::drive::guest_screen;
use super::policy::PolicyCtx;
use super::screen_env::{open_screen, ui_url};
use super::ui_oracle_web::session_in;
use super::vlm::LiveScreen;
use super::RolloutError;
use crate::harness::TaskEnv;
use crate::screen::{BrowserSpec, Screen, ScreenConfig};
use crate::ui::{app_ui, open_page, CombinedScreen, WebApp, WebResolver, WebScreen};

/// A task's screen on this machine and whatever keeps it showing the task's apps.
pub enum TaskDisplay {
    /// The files desktop, one desktop application, or one desktop holding every desktop
    /// application of the task (the cross desktop screen).
    Desktop(Box<Screen>),
    /// Chromium in kiosk mode on an `[[apps.external]]` app's UI address.
    Page {
        /// The display.
        screen: Box<Screen>,
        /// The page's DevTools session.
        page: Box<WebResolver>,
    },
    /// A built-in web app's UI origin with Chromium in kiosk mode on it.
    Web(Box<WebScreen>),
    /// A task spanning a web app and other apps: taskbar, desktop, a window per web app.
    Combined(Box<CombinedScreen>),
}

impl TaskDisplay {
    /// The display (act, screenshot, launch on it).
    pub fn screen(&mut self) -> &mut Screen {
        match self {
            TaskDisplay::Desktop(s) | TaskDisplay::Page { screen: s, .. } => s,
            TaskDisplay::Web(w) => &mut w.screen,
            TaskDisplay::Combined(c) => &mut c.screen,
        }
    }
}

impl From<TaskDisplay> for LiveScreen {
    fn from(d: TaskDisplay) -> Self {
        match d {
            TaskDisplay::Desktop(s) | TaskDisplay::Page { screen: s, .. } => LiveScreen::Display(s),
            TaskDisplay::Web(w) => LiveScreen::Web(w),
            TaskDisplay::Combined(c) => LiveScreen::Combined(c),
        }
    }
}

/// Opens the screen of `ctx`'s task (see the module doc) and waits until it shows its apps.
pub fn open_task_screen(
    cfg: &ScreenConfig,
    ctx: &PolicyCtx<'_>,
) -> Result<LiveScreen, RolloutError> {
    if let Some(guest) = guest_screen(ctx.env) {
        return Ok(LiveScreen::Guest(Box::new(guest)));
    }
    Ok(open_env_screen(cfg, &ctx.brief.apps, ctx.env)?.into())
}

/// Opens, on this machine, the screen of a task over `apps` in `env` (see the module doc) and
/// waits until it shows them (the pre-rollout gate). Every failure is infrastructure or a
/// missing UI, never a score.
pub fn open_env_screen(
    cfg: &ScreenConfig,
    apps: &[String],
    env: &TaskEnv,
) -> Result<TaskDisplay, RolloutError> {
    match apps {
        [] => Err(RolloutError::Task("the task names no app".into())),
        [only] if ui_url(only, env).is_some() => external_page(cfg, only, env),
        [only] if app_ui(only).is_some() => {
            let (store, opts) = session_in(only, env)?;
            let web = WebScreen::start(cfg, store, &env.sid, opts)?;
            Ok(TaskDisplay::Web(Box::new(web)))
        }
        apps if apps.len() == 1 || super::screen_env::all_desktop(apps) => {
            let (screen, _) = open_screen(cfg, apps, env)?;
            Ok(TaskDisplay::Desktop(Box::new(screen)))
        }
        _ => Ok(TaskDisplay::Combined(Box::new(combined(cfg, apps, env)?))),
    }
}

/// Chromium in kiosk mode on the UI address of the `[[apps.external]]` app `app`, captured once
/// the page has rendered.
fn external_page(
    cfg: &ScreenConfig,
    app: &str,
    env: &TaskEnv,
) -> Result<TaskDisplay, RolloutError> {
    let url = ui_url(app, env).unwrap_or_default();
    let mut screen = Screen::start(cfg, cfg.size_for(app))?;
    let (_, page) = open_page(&mut screen, cfg, &BrowserSpec::at(url))?;
    Ok(TaskDisplay::Page {
        screen: Box::new(screen),
        page: Box::new(page),
    })
}

/// The combined screen of a task spanning `apps`: its web apps' sessions on their origins, the
/// desktop on its home (the gate passed, the task's first app in front).
fn combined(
    cfg: &ScreenConfig,
    apps: &[String],
    env: &TaskEnv,
) -> Result<CombinedScreen, RolloutError> {
    let mut webs = Vec::new();
    for app in apps.iter().filter(|a| !crate::apps::is_desktop(a)) {
        if app_ui(app).is_none() {
            return Err(RolloutError::Policy(format!(
                "no UI for app {app} on this build: no screen for a task spanning {}",
                apps.join(" + ")
            )));
        }
        let (store, opts) = session_in(app, env)?;
        webs.push(WebApp {
            app: app.clone(),
            store,
            sid: env.sid.clone(),
            opts,
        });
    }
    Ok(CombinedScreen::start(cfg, apps, &env.home, webs)?)
}
