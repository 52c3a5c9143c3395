//! `ui-oracle` on a built-in web app: the task done through its server-rendered UI only.
//!
//! The trial's session (already at s_init) gets its agent-facing origin, a screen and Chromium
//! on it ([`WebScreen`]); the app's planner turns the task into a plan, and [`Executor`] performs
//! it as `computer_use` actions whose targets the DevTools accessibility resolver finds. The
//! harness then scores the final state with reward.py as for every policy.

use std::sync::Arc;

use super::policy::{PolicyCtx, PolicyRun};
use super::task_screen::open_task_screen;
use super::ui_exec::Executor;
use super::ui_plan::UiPlanner;
use super::vlm::LiveScreen;
use super::RolloutError;
use crate::env::SessionStore;
use crate::harness::webapi::Backend;
use crate::harness::TaskEnv;
use crate::screen::ScreenConfig;
use crate::ui::{Today, UiOptions};

/// The fixed "today" of the shipped seeds: the UI stamps and labels dates from it.
pub const SEED_TODAY: &str = "2026-03-05T10:00:00Z";

/// The planner of a built-in web app (from its pack, [`crate::apps`]), if it has a UI.
pub fn planner_for(app: &str) -> Option<&'static dyn UiPlanner> {
    crate::apps::get(app)
        .filter(|p| p.app.ui().is_some())
        .and_then(|p| p.app.planner())
}

/// Performs `ctx`'s task of `app` through its UI (the task's screen: [`open_task_screen`]).
pub fn act_web(
    screen_cfg: &ScreenConfig,
    app: &str,
    planner: &dyn UiPlanner,
    ctx: &PolicyCtx<'_>,
) -> Result<PolicyRun, RolloutError> {
    let plan = planner
        .plan(ctx.brief)
        .map_err(|e| RolloutError::Policy(format!("ui-oracle: {e}")))?;
    let mut live = open_task_screen(screen_cfg, ctx)?;
    let LiveScreen::Web(screen) = &mut live else {
        return Err(RolloutError::Policy(format!(
            "ui-oracle: the task's screen is not {app}'s UI origin"
        )));
    };
    let (display, resolver) = screen.parts();
    let outcome = Executor::new(display, resolver, true)
        .feeding(ctx.feed)
        .run(&plan)?;
    Ok(outcome.into_run(plan.len()))
}

/// The trial's built-in session store of `app` and the UI options of its environment.
pub fn session_of(
    app: &str,
    ctx: &PolicyCtx<'_>,
) -> Result<(Arc<SessionStore>, UiOptions), RolloutError> {
    session_in(app, ctx.env)
}

/// The built-in session store of `app` in `env` and the UI options of the environment.
pub fn session_in(
    app: &str,
    env: &TaskEnv,
) -> Result<(Arc<SessionStore>, UiOptions), RolloutError> {
    let web = env
        .web
        .iter()
        .find(|w| w.app == app)
        .ok_or_else(|| RolloutError::Infra(format!("the environment has no {app} session")))?;
    let Backend::Builtin(store) = &web.backend else {
        return Err(RolloutError::Policy(format!(
            "{app} is an external app here; its UI is not served by tuplewright"
        )));
    };
    let today = Today::parse(SEED_TODAY).map_err(|e| RolloutError::Infra(e.to_string()))?;
    Ok((store.clone(), UiOptions { today }))
}
