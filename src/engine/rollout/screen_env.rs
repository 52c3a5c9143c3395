//! A trial's environment *with its screen*: what the screen-driving policies (`ui-oracle`,
//! `noop --screen`) and `env try` start on top of V_init. The files domain gets its desktop with
//! the environment's home; a web app gets Chromium on its agent-facing UI once one exists
//! ([`ui_url`] is the hook the web-UI work fills in). Everything the screen starts dies with it.

use crate::engine::harness::TaskEnv;
use crate::engine::screen::{DesktopSpec, Screen, ScreenConfig, Shot};

use super::RolloutError;

/// The agent-facing URL of `app`'s UI for this environment, or `None` while this build has no UI
/// for it. The web-UI work answers here for team-chat, mail, issue-tracker and ecommerce-admin.
pub fn ui_url(app: &str, env: &TaskEnv) -> Option<String> {
    let _ = (app, env);
    None
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
        [only] if only == "files" => Ok(ScreenKind::Desktop),
        [] => Err(RolloutError::Task("the task names no app".into())),
        _ => {
            let web: Vec<&String> = apps.iter().filter(|a| *a != "files").collect();
            if web.len() > 1 || apps.len() > web.len() {
                return Err(RolloutError::Policy(format!(
                    "a task spanning {} gets a combined screen (ui_oracle_cross::open_combined), \
                     not a single-app one",
                    apps.join(" + ")
                )));
            }
            let app = web[0].clone();
            match ui_url(&app, env) {
                Some(url) => Ok(ScreenKind::Web { app, url }),
                None => Err(RolloutError::Policy(format!(
                    "no UI yet for app {app} on this branch (the web apps' UIs come with the web-UI work)"
                ))),
            }
        }
    }
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
        ScreenKind::Desktop => "files",
        ScreenKind::Web { app, .. } => app,
    });
    let mut screen = Screen::start(cfg, size)?;
    let shot = match &kind {
        ScreenKind::Desktop => screen.open_desktop(
            cfg,
            &DesktopSpec {
                home: env.home.clone(),
            },
        )?,
        ScreenKind::Web { url, .. } => {
            let allow = url
                .trim_start_matches("http://")
                .split('/')
                .next()
                .unwrap_or_default()
                .to_string();
            screen.open_browser(
                cfg,
                &crate::engine::screen::BrowserSpec {
                    url: url.clone(),
                    allow,
                },
            )?
        }
    };
    Ok((screen, shot))
}
