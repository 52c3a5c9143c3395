//! A trial's environment *with its screen*: the desktop and single-page screens that
//! [`super::task_screen::open_env_screen`] (the one function every face opens a task's screen
//! with) starts on top of V_init. The files domain gets its desktop with
//! the environment's home; an `[[apps.external]]` app gets Chromium on its UI address
//! ([`ui_url`]), captured once the page has rendered (`ui::open_page`). Built-in web apps have
//! their own screens (`ui::WebScreen`, `ui::CombinedScreen`). Everything the screen starts dies
//! with it.

use crate::harness::webapi::Backend;
use crate::harness::TaskEnv;
use crate::screen::{DesktopSpec, Screen, ScreenConfig, Shot};

use super::RolloutError;

/// The UI address of `app` for this environment's session when the app is an
/// `[[apps.external]]` one (its `ui_url`, default `{base}/?sid={sid}`); `None` for a built-in
/// app (its UI origin is started by `ui::WebScreen`) or an app the environment does not have.
pub fn ui_url(app: &str, env: &TaskEnv) -> Option<String> {
    env.web
        .iter()
        .find(|w| w.app == app)
        .and_then(|w| match &w.backend {
            Backend::External(x) => Some(x.ui_url(&env.sid)),
            Backend::Builtin(_) => None,
        })
}

/// What kind of screen a task gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScreenKind {
    /// The files desktop (the task touches only `/home/user`).
    Desktop,
    /// Chromium on a web app's UI.
    Web {
        /// The app.
        app: String,
        /// Its agent-facing URL.
        url: String,
    },
}

/// The screen a task of `apps` gets, or why it cannot have one on this build.
pub fn screen_kind(apps: &[String], env: &TaskEnv) -> Result<ScreenKind, RolloutError> {
    if let Some(remote) = &env.remote {
        return Err(RolloutError::Policy(format!(
            "this policy needs a screen on this machine and the environment is the OSWorld \
             guest {}: on guests use ui-oracle (files tasks), noop --screen, a vlm:… policy, \
             noop or oracle, or [loop] environments = \"local\"",
            remote.url()
        )));
    }
    match apps {
        [only] if crate::apps::is_desktop(only) => Ok(ScreenKind::Desktop),
        [] => Err(RolloutError::Task("the task names no app".into())),
        // Desktop applications only (calc + writer, files + impress): one desktop holds them all.
        several if all_desktop(several) => Ok(ScreenKind::Desktop),
        _ => {
            let web: Vec<&String> = apps
                .iter()
                .filter(|a| !crate::apps::is_desktop(a))
                .collect();
            if web.len() > 1 || apps.len() > web.len() {
                return Err(RolloutError::Policy(format!(
                    "a task spanning {} gets a combined screen (task_screen::open_env_screen), \
                     not a single-app one",
                    apps.join(" + ")
                )));
            }
            let app = web[0].clone();
            match ui_url(&app, env) {
                Some(url) => Ok(ScreenKind::Web { app, url }),
                None => Err(RolloutError::Policy(format!(
                    "app {app} has no UI address here: a built-in app's screen is its UI origin \
                     (ui::WebScreen), an [[apps.external]] app's is its `ui_url`"
                ))),
            }
        }
    }
}

/// Whether every app of `apps` is on the desktop (the files desktop or a desktop application):
/// a task over several of them gets one desktop screen with each application's window.
pub fn all_desktop(apps: &[String]) -> bool {
    !apps.is_empty() && apps.iter().all(|a| crate::apps::is_desktop(a))
}

/// Whether `app` is the files desktop itself (a desktop without a program of its own).
fn files_desktop(app: &str) -> bool {
    crate::apps::find(app).is_some_and(|p| p.is_desktop() && p.desktop().is_none())
}

/// Starts the task's screen and waits until it shows its app (the pre-rollout gate); returns the
/// screen and its first screenshot. Every failure here is infrastructure or a missing UI, never
/// a score.
pub fn open_screen(
    cfg: &ScreenConfig,
    apps: &[String],
    env: &TaskEnv,
) -> Result<(Screen, Shot), RolloutError> {
    let kind = screen_kind(apps, env)?;
    let size = cfg.size_for(match &kind {
        ScreenKind::Desktop => apps.first().map_or("", String::as_str),
        ScreenKind::Web { app, .. } => app,
    });
    if kind == ScreenKind::Desktop && crate::rollout::desktop_apps::has_programs(apps) {
        let launched = crate::rollout::desktop_apps::screen_apps(apps, &env.recorded_launches())
            .map_err(|e| RolloutError::Infra(e.to_string()))?;
        let spec = crate::screen::AppDesktopSpec {
            home: env.home.clone(),
            // A cross-app task over the files desktop and an application gets both.
            files: apps.len() > 1 && apps.iter().any(|a| files_desktop(a)),
            apps: launched,
        };
        // From the desktop pool when one is installed (a hand-over), else a cold start.
        let got = crate::desktop::pool::acquire_or_start(cfg, &spec, size)?;
        return Ok((got.screen, got.shot));
    }
    let mut screen = Screen::start(cfg, size)?;
    let shot = match &kind {
        ScreenKind::Desktop => screen.open_desktop(
            cfg,
            &DesktopSpec {
                home: env.home.clone(),
            },
        )?,
        ScreenKind::Web { url, .. } => {
            let spec = crate::screen::BrowserSpec::at(url.clone());
            crate::ui::open_page(&mut screen, cfg, &spec)?.0
        }
    };
    Ok((screen, shot))
}
