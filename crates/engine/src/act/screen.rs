//! The interface a screen-driving policy will implement (paper C.1.1), ready for the built-in LLM
//! policy of a later issue. A driver alternates [`Screen::observe`], [`StepPolicy::step`] and
//! [`Screen::perform`] until a [`ComputerAction::Terminate`] or the turn budget, and is itself a
//! `rollout::Policy`: the harness then scores the final state exactly as for every other policy.

use serde::{Deserialize, Serialize};

use crate::screen::{settle_by_compare, Settle, Settled};

/// Key of a trial's `detail` where a screen-driving policy records the path of its final
/// screenshot (PNG or JPEG; absolute, or relative to the store's directory). The workbench's
/// Rollouts screen shows it.
pub const SCREENSHOT_DETAIL_KEY: &str = "screenshot";
/// Key of a trial's `detail` holding every screenshot path in order (the last one is shown).
pub const SCREENSHOTS_DETAIL_KEY: &str = "screenshots";

/// What the policy sees at one step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Observation {
    /// A screenshot (PNG bytes, native resolution).
    Screenshot {
        /// PNG data.
        png: Vec<u8>,
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// Structured state (e.g. a web app's `/go` answer) for text-only policies.
    State(serde_json::Value),
}

/// The `computer_use` primitives, owned by the screen area (re-exported here for the policies).
pub use crate::screen::ComputerAction;

/// The environment side of a screen-driving rollout: the local display
/// ([`super::drive::LocalDisplay`]) and an OSWorld guest's
/// ([`crate::osworld::RemoteScreen`]) alike. Errors: [`super::RolloutError::Policy`] =
/// the screen refused the action (the policy's miss, shown to it); anything else ends the
/// episode as infrastructure.
pub trait Screen {
    /// The current observation.
    fn observe(&self) -> Result<Observation, super::RolloutError>;
    /// Performs one action.
    fn perform(&self, action: &ComputerAction) -> Result<(), super::RolloutError>;
    /// Width and height in pixels (default: those of a fresh observation).
    fn size(&self) -> Result<(u32, u32), super::RolloutError> {
        match self.observe()? {
            Observation::Screenshot { width, height, .. } => Ok((width, height)),
            Observation::State(_) => Err(super::RolloutError::Infra(
                "the screen answered a state, not a screenshot".into(),
            )),
        }
    }
    /// Waits until the screen has settled after an action, so the next observation shows what
    /// it did. Default (a remote guest): observations taken until one has stayed the same for
    /// `s.quiet`, at most `s.max`; a local display watches X damage instead.
    fn settle(&self, s: Settle) -> Result<Settled, super::RolloutError> {
        settle_by_compare(s, || match self.observe()? {
            Observation::Screenshot { png, .. } => Ok(png),
            Observation::State(v) => Ok(v.to_string().into_bytes()),
        })
    }
}

impl<S: Screen + ?Sized> Screen for &S {
    fn observe(&self) -> Result<Observation, super::RolloutError> {
        (**self).observe()
    }
    fn perform(&self, action: &ComputerAction) -> Result<(), super::RolloutError> {
        (**self).perform(action)
    }
    fn size(&self) -> Result<(u32, u32), super::RolloutError> {
        (**self).size()
    }
    fn settle(&self, s: Settle) -> Result<Settled, super::RolloutError> {
        (**self).settle(s)
    }
}

/// The model side: one turn may batch several actions (executed without intervening screenshots).
pub trait StepPolicy {
    /// The next actions given the instruction and the latest observation.
    fn step(
        &mut self,
        instruction: &str,
        observation: &Observation,
    ) -> Result<Vec<ComputerAction>, super::RolloutError>;
}
