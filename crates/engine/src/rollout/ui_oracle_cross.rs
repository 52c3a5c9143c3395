//! `ui-oracle` on a task spanning several apps: one combined screen (the taskbar, the desktop
//! when a desktop app is among the apps, a browser window per web app) and a plan
//! ([`crate::apps::cross::planner`]) composed of the apps' own plan steps joined by "switch to app X" steps — a click on X's taskbar button,
//! then a wait until X's window has the focus. The plan works from the task's slots only and
//! does every effect through the screen: typing in the desktop's terminal for files, the web
//! apps' forms for their state. Templates: `csv_to_issues` (look at the CSV in the terminal, file
//! one issue per row in the tracker), `issues_to_file` (look at the project's board, write the
//! list in the terminal), `chat_to_issue` (read the channel, change the issue), and any web
//! template with files beside it (`send_email`, `post_message`: look at the files, then the web
//! app's own plan).

use super::policy::{PolicyCtx, PolicyRun};
use super::ui_exec::Executor;
use super::ui_plan::{PlanStep, Target, UiPlanner};
use super::RolloutError;
use crate::apps::cross::planner::CrossPlanner;
use crate::screen::ScreenConfig;
use crate::ui::{app_label, FOCUSED_APP, TASKBAR_BUTTON};

use super::plan_steps::role;

/// How long a switch waits for the app's window to have the focus.
const SWITCH_MS: u64 = 10_000;

/// Steps that bring `app`'s window(s) to the front: its taskbar button, then the focus.
pub fn switch_to(app: &str) -> Vec<PlanStep> {
    vec![
        PlanStep::Click {
            target: role(TASKBAR_BUTTON, &app_label(app)),
        },
        PlanStep::WaitFor {
            target: Target::Role {
                role: FOCUSED_APP.into(),
                name: app.into(),
            },
            timeout_ms: SWITCH_MS,
        },
    ]
}

/// `ui-oracle` on a cross-app task: the [`CrossPlanner`]'s plan on the combined screen.
pub fn act_cross(cfg: &ScreenConfig, ctx: &PolicyCtx<'_>) -> Result<PolicyRun, RolloutError> {
    let plan = CrossPlanner
        .plan(ctx.brief)
        .map_err(|e| RolloutError::Policy(format!("ui-oracle: {e}")))?;
    let mut live = super::task_screen::open_task_screen(cfg, ctx)?;
    let super::vlm::LiveScreen::Combined(screen) = &mut live else {
        return Err(RolloutError::Policy(
            "ui-oracle: a cross-app task's screen must be the combined screen".into(),
        ));
    };
    let (display, resolver) = screen.parts();
    let outcome = Executor::new(display, resolver, true)
        .feeding(ctx.feed)
        .run(&plan)?;
    crate::rollout::desktop_apps::no_dialog_left(&mut live, cfg)?;
    Ok(outcome.into_run(plan.len()))
}
