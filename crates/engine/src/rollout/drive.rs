//! A screen is a screen whatever draws it: the step loop ([`super::vlm::run_episode_on`]) and the
//! plan executor ([`super::ui_exec::Executor::on`]) drive the policy-facing [`Screen`] trait, so
//! the same policies run on this machine's display ([`LocalDisplay`]) and on an OSWorld guest's
//! screen ([`RemoteScreen`], `GET /screenshot` and pyautogui through `/execute`).

use std::cell::RefCell;

use super::screen::{ComputerAction, Observation, Screen};
use super::RolloutError;
use crate::harness::TaskEnv;
use crate::osworld::RemoteScreen;
use crate::screen::{ActionError, Screen as Display, Settle, Settled, Shot};

/// This machine's display (Xvfb, with the desktop or Chromium on it) as a rollout [`Screen`].
pub struct LocalDisplay<'a> {
    display: RefCell<&'a mut Display>,
}

impl<'a> LocalDisplay<'a> {
    /// Drives `display`.
    pub fn new(display: &'a mut Display) -> Self {
        LocalDisplay {
            display: RefCell::new(display),
        }
    }
}

impl Screen for LocalDisplay<'_> {
    fn observe(&self) -> Result<Observation, RolloutError> {
        let shot = self.display.borrow_mut().screenshot()?;
        Ok(Observation::Screenshot {
            png: shot.png,
            width: shot.width,
            height: shot.height,
        })
    }

    fn perform(&self, action: &ComputerAction) -> Result<(), RolloutError> {
        match self.display.borrow_mut().act(action) {
            Ok(_) => Ok(()),
            Err(ActionError::Invalid(e)) => Err(RolloutError::Policy(e)),
            Err(ActionError::Infra(e)) => Err(e.into()),
        }
    }

    fn size(&self) -> Result<(u32, u32), RolloutError> {
        Ok(self.display.borrow().size())
    }

    fn settle(&self, s: Settle) -> Result<Settled, RolloutError> {
        Ok(self.display.borrow_mut().settle_with(s)?)
    }
}

/// A screenshot of `screen` (an observation that is not one is infrastructure).
pub fn screenshot(screen: &dyn Screen) -> Result<Shot, RolloutError> {
    match screen.observe()? {
        Observation::Screenshot { png, width, height } => Ok(Shot { png, width, height }),
        Observation::State(_) => Err(RolloutError::Infra(
            "the screen answered a state, not a screenshot".into(),
        )),
    }
}

/// The screen of the OSWorld guest behind `env`, when it is one (its actions get the guest's
/// step deadline).
pub fn guest_screen(env: &TaskEnv) -> Option<RemoteScreen> {
    env.remote
        .as_ref()
        .map(|r| RemoteScreen::new(r.client().clone()))
}
