//! Acting on a screen, below every screen kind and above the screen itself: what a
//! screen-driving policy observes and does ([`screen`]: [`screen::Observation`], the
//! [`screen::Screen`] trait), the `ui-oracle` plan vocabulary ([`ui_plan`]: targets, rectangles,
//! [`ui_plan::TargetResolver`], [`ui_plan::UiPlanner`]) and the error all of them fail with
//! ([`RolloutError`]). The resolvers of `ui` (web pages, the combined screen, desktop windows),
//! OSWorld's remote screen and the planners of the app packs implement these; `rollout` runs them.
//! Re-exported at the old paths (`rollout::screen`, `rollout::ui_plan`, `rollout::RolloutError`).
//!
//! May import: `screen`, `agents`, `store`. Nothing above.

pub mod screen;
pub mod ui_plan;

/// Why a rollout could not produce a score. None of these is ever recorded as a low reward.
#[derive(Debug, thiserror::Error)]
pub enum RolloutError {
    /// Infrastructure failed (sandbox, state API, store).
    #[error("infrastructure failure: {0}")]
    Infra(String),
    /// The policy itself failed to run (crashed, timed out, could not start).
    #[error("policy failed: {0}")]
    Policy(String),
    /// The judge failed (provider down, unreadable verdict).
    #[error("judge failed: {0}")]
    Judge(String),
    /// The tuple cannot be rolled out (no scripts, unknown app).
    #[error("invalid tuple: {0}")]
    Task(String),
}

impl From<tuplewright_base::store::StoreError> for RolloutError {
    fn from(e: tuplewright_base::store::StoreError) -> Self {
        RolloutError::Infra(format!("store: {e}"))
    }
}

impl From<crate::screen::ScreenError> for RolloutError {
    /// A screen failure is always infrastructure: the rollout is discarded, never scored.
    fn from(e: crate::screen::ScreenError) -> Self {
        RolloutError::Infra(e.to_string())
    }
}
