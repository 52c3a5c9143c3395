//! Opens a guest's screen for every kind of environment (see `osworld::guest_display` for what
//! each shows): here, above `osworld`, because it needs the loop's environment ([`TaskEnv`]) and
//! the one function that opens a task's screen ([`open_env_screen`]).

use crate::harness::TaskEnv;
use crate::osworld::{GuestDisplay, OsworldError};
use crate::rollout::task_screen::{open_env_screen, TaskDisplay};
use crate::rollout::RolloutError;
use crate::screen::ScreenConfig;

impl From<TaskDisplay> for GuestDisplay {
    fn from(d: TaskDisplay) -> Self {
        match d {
            TaskDisplay::Desktop(s) => GuestDisplay::Plain(s),
            TaskDisplay::Page { screen, page } => GuestDisplay::Page { screen, page },
            TaskDisplay::Web(w) => GuestDisplay::Web(w),
            TaskDisplay::Combined(c) => GuestDisplay::Combined(c),
        }
    }
}

/// Starts the screen of an environment over `apps` — the one every policy and face gets
/// ([`open_env_screen`]: per-app sizes, one desktop for several desktop applications) — and
/// waits until it shows them (the pre-rollout gate).
pub fn open_display(
    cfg: &ScreenConfig,
    apps: &[String],
    env: &TaskEnv,
) -> Result<GuestDisplay, OsworldError> {
    open_env_screen(cfg, apps, env)
        .map(GuestDisplay::from)
        .map_err(|e| match e {
            RolloutError::Task(m) | RolloutError::Policy(m) => OsworldError::Task(m),
            e @ (RolloutError::Infra(_) | RolloutError::Judge(_)) => {
                OsworldError::Infra(e.to_string())
            }
        })
}
