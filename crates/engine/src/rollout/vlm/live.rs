//! A trial's live screen and where it comes from. [`TaskScreen`] is the default of every VLM
//! policy: `[rollout.vlm] screen_url` when set (any page, [`super::ChromiumScreen`]), otherwise
//! the task's own screen ([`open_task_screen`]) — the OSWorld guest's screen for a trial on a
//! guest, a built-in web app on its agent-facing UI origin ([`WebScreen`]: no state API, no sid),
//! the files desktop for files tasks, the combined screen for a task spanning apps. Everything the screen started dies
//! with the [`LiveScreen`].

use super::policy::{ChromiumScreen, ScreenProvision};
use crate::osworld::RemoteScreen;
use crate::rollout::drive::{guest_screen, LocalDisplay};
use crate::rollout::policy::PolicyCtx;
use crate::rollout::screen::Screen as Drive;
use crate::rollout::task_screen::open_task_screen;
use crate::rollout::RolloutError;
use crate::screen::{Screen, ScreenConfig};
use crate::ui::{CombinedScreen, WebScreen};

/// A provisioned screen, alive until dropped.
pub enum LiveScreen {
    /// A display with whatever it shows (a page in Chromium, the files desktop).
    Display(Box<Screen>),
    /// A built-in web app's UI origin with Chromium on it and its DevTools session.
    Web(Box<WebScreen>),
    /// The screen of the OSWorld guest the trial runs on.
    Guest(Box<RemoteScreen>),
    /// A task spanning apps: the combined screen (taskbar, desktop, a window per web app).
    Combined(Box<CombinedScreen>),
}

impl LiveScreen {
    /// This machine's display the policy acts on, if the screen is one (not a guest's).
    pub fn screen(&mut self) -> Option<&mut Screen> {
        match self {
            LiveScreen::Display(s) => Some(s),
            LiveScreen::Web(w) => Some(&mut w.screen),
            LiveScreen::Combined(c) => Some(&mut c.screen),
            LiveScreen::Guest(_) => None,
        }
    }

    /// Runs `f` on the screen as a policy drives it, whatever draws it.
    pub fn drive<T>(&mut self, f: impl FnOnce(&dyn Drive) -> T) -> T {
        match self {
            LiveScreen::Display(s) => f(&LocalDisplay::new(s)),
            LiveScreen::Web(w) => f(&LocalDisplay::new(&mut w.screen)),
            LiveScreen::Combined(c) => f(&LocalDisplay::new(&mut c.screen)),
            LiveScreen::Guest(g) => f(g.as_ref()),
        }
    }

    /// The web environment, when the screen is one.
    pub fn web(&self) -> Option<&WebScreen> {
        match self {
            LiveScreen::Web(w) => Some(w.as_ref()),
            LiveScreen::Display(_) | LiveScreen::Guest(_) | LiveScreen::Combined(_) => None,
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
        // A trial on an OSWorld guest is driven on the guest's own screen.
        if guest_screen(ctx.env).is_none() && !self.url.trim().is_empty() {
            return ChromiumScreen {
                cfg: self.cfg.clone(),
                url: self.url.clone(),
            }
            .provision(ctx);
        }
        open_task_screen(&self.cfg, ctx)
    }
}
