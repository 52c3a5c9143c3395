//! The `ui-oracle` probe on the files domain: each shipped files template done through the
//! desktop only. The plan clicks the terminal window, types the shell command the template's
//! effect needs (from the task's slots — never the tuple's scripts), presses Return and waits
//! until the command has finished: the command ends by setting the terminal's title
//! (`printf '\033]2;…\007'`), which the [`DesktopResolver`] sees as a window of that name. Every
//! effect is a `computer_use` action; the harness then scores the final state with reward.py.

use serde_json::Value;

use super::drive::guest_screen;
use super::policy::{Policy, PolicyCtx, PolicyKind, PolicyRun};
use super::ui_exec::Executor;
use super::ui_plan::{PlanStep, Target};
use super::RolloutError;
use crate::screen::ScreenConfig;

/// Title the terminal shows once the plan's command has succeeded.
pub const DONE_TITLE: &str = "tw-ui-oracle-done";
/// Title of the desktop's terminal window.
pub const TERMINAL_TITLE: &str = "Terminal";
/// How long a typed command may run, milliseconds.
const COMMAND_TIMEOUT_MS: u64 = 60_000;

pub use crate::ui::DesktopResolver;

/// Quotes `s` for a POSIX shell (single quotes; an inner `'` becomes `'\''`).
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A `python3 -c` command running `code` with `S` bound to `slots`.
pub fn python(slots: &Value, code: &str) -> String {
    let literal = serde_json::to_string(&slots.to_string()).unwrap_or_default();
    let program = format!("import csv,functools,json,os;S=json.loads({literal});{code}");
    format!("python3 -c {}", shell_quote(&program))
}

/// Click the desktop's terminal, wait until it has the focus, type `command` (followed by the
/// title change that says it succeeded), Return, and wait for that title.
pub fn terminal_steps(command: &str) -> Vec<PlanStep> {
    let window = |name: &str| Target::Role {
        role: "window".into(),
        name: name.into(),
    };
    vec![
        PlanStep::Click {
            target: window(TERMINAL_TITLE),
        },
        // Keys go where the focus is: type only once the click has moved it to the terminal.
        PlanStep::WaitFor {
            target: Target::Role {
                role: "focused_window".into(),
                name: TERMINAL_TITLE.into(),
            },
            timeout_ms: 10_000,
        },
        PlanStep::Type {
            text: format!("{command} && printf '\\033]2;%s\\007' {DONE_TITLE}"),
        },
        PlanStep::Key {
            key: "Return".into(),
        },
        PlanStep::WaitFor {
            target: window(DONE_TITLE),
            timeout_ms: COMMAND_TIMEOUT_MS,
        },
    ]
}

/// `ui-oracle` on a desktop app's tasks: the desktop, the planner of the app's pack, every step
/// recorded.
pub struct FilesUiOracle {
    /// `[screen]` settings.
    pub screen: ScreenConfig,
}

impl Policy for FilesUiOracle {
    fn name(&self) -> String {
        "ui-oracle".into()
    }
    fn kind(&self) -> PolicyKind {
        PolicyKind::Probe { expected: 1.0 }
    }
    fn act(&self, ctx: &PolicyCtx<'_>) -> Result<PolicyRun, RolloutError> {
        // A task the planner cannot plan is the planner's miss, named before any screen starts.
        let app = ctx.brief.apps.first().map_or("", String::as_str);
        // Several desktop apps on one screen: the cross-app planner (switching by window title).
        let planner: &dyn super::ui_plan::UiPlanner = match ctx.brief.apps.len() {
            1 => crate::apps::planner(app)
                .ok_or_else(|| RolloutError::Policy(format!("no desktop planner for app {app}")))?,
            _ => &crate::apps::cross::planner::CrossPlanner,
        };
        let plan = planner
            .plan(ctx.brief)
            .map_err(|e| RolloutError::Policy(format!("ui-oracle: {e}")))?;
        // On an OSWorld guest: its screen, and its windows from `/accessibility`.
        if let (Some(guest), Some(remote)) = (guest_screen(ctx.env), &ctx.env.remote) {
            let mut resolver = DesktopResolver::listed(Box::new(remote.client().clone()));
            let outcome = Executor::on(&guest, &mut resolver, true)?
                .settling(self.screen.settle())
                .feeding(ctx.feed)
                .run(&plan)?;
            return Ok(outcome.into_run(plan.len()));
        }
        let mut live = super::task_screen::open_task_screen(&self.screen, ctx)?;
        let super::vlm::LiveScreen::Display(screen) = &mut live else {
            return Err(RolloutError::Policy(
                "ui-oracle: a files task's screen must be the files desktop".into(),
            ));
        };
        let screen = screen.as_mut();
        if crate::rollout::desktop_apps::has_programs(&ctx.brief.apps) {
            // A desktop application: windows and its accessibility tree.
            let a11y = screen.a11y_reader(&self.screen)?;
            let mut resolver = super::ui_oracle_desktop::AppResolver::new(
                &screen.display_name(),
                a11y,
                ctx.env.home.clone(),
            )?;
            let outcome = Executor::new(screen, &mut resolver, true)
                .feeding(ctx.feed)
                .run(&plan)?;
            screen.ensure_no_modal_dialog(&self.screen)?;
            return Ok(outcome.into_run(plan.len()));
        }
        let mut resolver = DesktopResolver::connect(&screen.display_name())?;
        let outcome = Executor::new(screen, &mut resolver, true)
            .feeding(ctx.feed)
            .run(&plan)?;
        Ok(outcome.into_run(plan.len()))
    }
}
