//! A trial's live screen and where it comes from. [`TaskScreen`] is the default of every VLM
//! policy: `[rollout.vlm] screen_url` when set (any page, [`super::ChromiumScreen`]), otherwise
//! the task's own screen — a built-in web app on its agent-facing UI origin ([`WebScreen`]: no
//! state API, no sid), the files desktop for files tasks. Everything the screen started dies
//! with the [`LiveScreen`].

use super::policy::{ChromiumScreen, ScreenProvision};
use crate::engine::rollout::policy::PolicyCtx;
use crate::engine::rollout::screen_env::open_screen;
use crate::engine::rollout::ui_oracle_web::open_web;
use crate::engine::rollout::RolloutError;
use crate::engine::screen::{Screen, ScreenConfig};
use crate::engine::ui::{app_ui, WebScreen};

/// A provisioned screen, alive until dropped.
pub enum LiveScreen {
    /// A display with whatever it shows (a page in Chromium, the files desktop).
    Display(Box<Screen>),
    /// A built-in web app's UI origin with Chromium on it and its DevTools session.
    Web(Box<WebScreen>),
}

impl LiveScreen {
    /// The display the policy acts on and screenshots.
    pub fn screen(&mut self) -> &mut Screen {
        match self {
            LiveScreen::Display(s) => s,
            LiveScreen::Web(w) => &mut w.screen,
        }
    }

    /// The web environment, when the screen is one.
    pub fn web(&self) -> Option<&WebScreen> {
        match self {
            LiveScreen::Web(w) => Some(w.as_ref()),
            LiveScreen::Display(_) => None,
        }
    }
}

/// The task's own screen, or `url` when one is configured.
pub struct TaskScreen {
    /// `[screen]` settings.
    pub cfg: ScreenConfig,
    /// `[rollout.vlm] screen_url`; empty = the task's own screen.
    pub url: String,
}

impl ScreenProvision for TaskScreen {
    fn provision(&self, ctx: &PolicyCtx<'_>) -> Result<LiveScreen, RolloutError> {
        if !self.url.trim().is_empty() {
            return ChromiumScreen {
                cfg: self.cfg.clone(),
                url: self.url.clone(),
            }
            .provision(ctx);
        }
        match ctx.brief.apps.as_slice() {
            [only] if app_ui(only).is_some() => {
                Ok(LiveScreen::Web(Box::new(open_web(&self.cfg, only, ctx)?)))
            }
            apps => {
                let (screen, _) = open_screen(&self.cfg, apps, ctx.env)?;
                Ok(LiveScreen::Display(Box::new(screen)))
            }
        }
    }
}
