//! Which screen a task gets, decided in one place for every face and policy (`ui-oracle`,
//! `noop --screen`, the VLM teachers, `screen shot --task`):
//!
//! - a trial on an OSWorld guest: the guest's own screen;
//! - one built-in web app with a UI: its agent-facing UI origin ([`crate::engine::ui::WebScreen`]);
//! - the files desktop, or one `[[apps.external]]` app's UI address: a display
//!   ([`super::screen_env::open_screen`]);
//! - several desktop apps only (calc + writer, files + impress): one desktop with every
//!   application's window ([`super::screen_env::open_screen`]);
//! - several apps: the combined screen (taskbar, desktop, a browser window per web app).
//!
//! The size is `[screen]`'s for the (first) app ([`ScreenConfig::size_for`]).

use super::drive::guest_screen;
use super::policy::PolicyCtx;
use super::screen_env::open_screen;
use super::ui_oracle_cross::open_combined;
use super::ui_oracle_web::open_web;
use super::vlm::LiveScreen;
use super::RolloutError;
use crate::engine::screen::ScreenConfig;
use crate::engine::ui::app_ui;

/// Opens the screen of `ctx`'s task (see the module doc) and waits until it shows its apps.
pub fn open_task_screen(
    cfg: &ScreenConfig,
    ctx: &PolicyCtx<'_>,
) -> Result<LiveScreen, RolloutError> {
    if let Some(guest) = guest_screen(ctx.env) {
        return Ok(LiveScreen::Guest(Box::new(guest)));
    }
    match ctx.brief.apps.as_slice() {
        [] => Err(RolloutError::Task("the task names no app".into())),
        [only] if app_ui(only).is_some() => {
            Ok(LiveScreen::Web(Box::new(open_web(cfg, only, ctx)?)))
        }
        apps if apps.len() == 1 || super::screen_env::all_desktop(apps) => {
            let (screen, _) = open_screen(cfg, apps, ctx.env)?;
            Ok(LiveScreen::Display(Box::new(screen)))
        }
        _ => Ok(LiveScreen::Combined(Box::new(open_combined(cfg, ctx)?))),
    }
}
