//! Opens a guest's screen for every kind of environment (see `osworld::guest_display` for what
//! each shows): here, above `osworld`, because it needs the loop's environment ([`TaskEnv`]) and
//! the trial's screen ([`open_screen`]).

use std::sync::Arc;

use crate::engine::env::SessionStore;
use crate::engine::harness::webapi::Backend;
use crate::engine::harness::TaskEnv;
use crate::engine::osworld::{GuestDisplay, OsworldError};
use crate::engine::rollout::screen_env::open_screen;
use crate::engine::rollout::ui_oracle_web::SEED_TODAY;
use crate::engine::screen::{BrowserSpec, Screen, ScreenConfig};
use crate::engine::ui::{app_ui, open_page, CombinedScreen, Today, UiOptions, WebApp, WebScreen};

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
