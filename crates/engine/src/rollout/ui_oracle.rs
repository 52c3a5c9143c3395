//! The screen probes: `ui-oracle` (each task done through its screen only; must score 1.0) and
//! `noop --screen` (the screen starts, is looked at, nothing is done; must score 0.0).
//!
//! `ui-oracle` dispatches by app: files tasks go to [`FilesUiOracle`], a web app's tasks to its
//! UI ([`super::ui_oracle_web`]), tasks spanning several apps to the combined screen
//! ([`super::ui_oracle_cross`]); an app without a planner is a policy failure naming it (never a
//! score).

use super::drive::screenshot;
use super::policy::{Policy, PolicyCtx, PolicyKind, PolicyRun};
use super::screen::ComputerAction;
use super::task_screen::open_task_screen;
use super::ui_oracle_cross::act_cross;
use super::ui_oracle_files::FilesUiOracle;
use super::ui_oracle_web::{act_web, planner_for};
use super::ui_plan::Step;
use super::RolloutError;
use crate::screen::ScreenConfig;

/// `ui-oracle`: every effect a `computer_use` action on the task's screen.
pub struct UiOraclePolicy {
    files: FilesUiOracle,
}

impl UiOraclePolicy {
    /// The probe with `[screen]` settings.
    pub fn new(screen: ScreenConfig) -> Self {
        UiOraclePolicy {
            files: FilesUiOracle { screen },
        }
    }
}

impl Policy for UiOraclePolicy {
    fn name(&self) -> String {
        "ui-oracle".into()
    }
    fn kind(&self) -> PolicyKind {
        PolicyKind::Probe { expected: 1.0 }
    }
    fn act(&self, ctx: &PolicyCtx<'_>) -> Result<PolicyRun, RolloutError> {
        match ctx.brief.apps.as_slice() {
            [only] if crate::apps::is_desktop(only) => self.files.act(ctx),
            apps if super::screen_env::all_desktop(apps) => self.files.act(ctx),
            [only] if planner_for(only).is_some() => {
                let planner = planner_for(only)
                    .ok_or_else(|| RolloutError::Policy(format!("no UI planner for app {only}")))?;
                act_web(&self.files.screen, only, planner, ctx)
            }
            [only] => Err(RolloutError::Policy(format!(
                "no UI planner for app {only} (its pack has none)"
            ))),
            [] => Err(RolloutError::Task("the task names no app".into())),
            _ => act_cross(&self.files.screen, ctx),
        }
    }
}

/// `noop --screen`: provisions the task's screen, takes its screenshots, does nothing.
pub struct NoopScreenPolicy {
    /// `[screen]` settings.
    pub screen: ScreenConfig,
}

impl Policy for NoopScreenPolicy {
    fn name(&self) -> String {
        "noop-screen".into()
    }
    fn kind(&self) -> PolicyKind {
        PolicyKind::Probe { expected: 0.0 }
    }
    fn act(&self, ctx: &PolicyCtx<'_>) -> Result<PolicyRun, RolloutError> {
        let started = std::time::Instant::now();
        // The task's screen (see [`open_task_screen`]); on an OSWorld guest, the guest's own.
        let settle = self.screen.settle();
        let look = |d: &mut crate::screen::Screen| -> Result<_, RolloutError> {
            let at = started.elapsed();
            let settled = d.settle()?;
            Ok((at, settled, d.screenshot()?))
        };
        let mut live = open_task_screen(&self.screen, ctx)?;
        let (at, settled, shot) = match live.screen() {
            Some(d) => look(d)?,
            None => {
                let at = started.elapsed();
                let (settled, shot) = live.drive(|d| -> Result<_, RolloutError> {
                    Ok((d.settle(settle)?, screenshot(d)?))
                })?;
                (at, settled, shot)
            }
        };
        crate::rollout::desktop_apps::no_dialog_left(&mut live, &self.screen)?;
        let action = ComputerAction::Screenshot;
        let step = Step {
            action: action.clone(),
            at_ms: at.as_millis() as u64,
            duration_ms: started.elapsed().saturating_sub(at).as_millis() as u64,
            error: None,
            settle_ms: Some(settled.ms()),
            screenshot_png: Some(shot.png),
        };
        ctx.feed.step(&step, None);
        Ok(PolicyRun {
            actions: vec![serde_json::to_value(&action).unwrap_or_default()],
            transcript: "looked at the screen, did nothing".into(),
            usage: Default::default(),
            steps: vec![step],
        })
    }
}
