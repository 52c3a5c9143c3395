//! The filmstrip of the trial in the Rollouts detail pane (which step is shown, and the frame it
//! needs), and watching the live trial there instead. Frames are loaded one at a time by the store
//! worker (a 100-step trial is never decoded whole); the view draws the frame it has.

use crate::action::Action;
use crate::data::EngineCommand;
use crate::filmstrip_data::{frame_of, Frame, FrameKey, FrameRequest};
use tuplewright_base::store::StoredStep;

use super::rollouts::RolloutsState;

impl RolloutsState {
    /// The steps of the trial shown (empty without a screen, or while its detail loads).
    pub fn steps(&self) -> &[StoredStep] {
        match (&self.detail, self.selected_row()) {
            (Some(d), Some(r)) if d.id == r.id => d.steps.as_slice(),
            _ => &[],
        }
    }

    /// Whether the detail pane shows the live trial.
    pub fn watching(&self) -> bool {
        self.watch && self.live.is_some()
    }

    /// The frame the detail pane wants now.
    pub fn frame_request(&self) -> Option<FrameRequest> {
        if self.watching() {
            return self.live.as_ref().and_then(|l| l.frame_request());
        }
        let id = self.detail.as_ref()?.id;
        let steps = self.steps();
        let i = self.step.min(steps.len().checked_sub(1)?);
        let (_, shot) = frame_of(steps, i)?;
        Some(FrameRequest {
            key: (id, i as i64),
            sha: shot.sha256.clone(),
            action: steps[i].action.clone(),
        })
    }

    /// The frame held, when it is the one wanted.
    pub fn current_frame(&self) -> Option<&Frame> {
        let want: FrameKey = self.frame_request()?.key;
        self.frame.as_ref().filter(|f| f.key == want)
    }

    /// Asks for the wanted frame unless it is held.
    pub fn want_frame(&self) -> Vec<EngineCommand> {
        match self.frame_request() {
            Some(req) if self.frame.as_ref().map(|f| f.key) != Some(req.key) => {
                vec![EngineCommand::LoadFrame(req)]
            }
            _ => Vec::new(),
        }
    }

    /// Takes a loaded frame if it is still wanted.
    pub fn accept_frame(&mut self, f: Frame) {
        if self.frame_request().map(|r| r.key) == Some(f.key) {
            self.frame = Some(f);
        }
    }

    /// The filmstrip and live actions.
    pub fn film_act(&mut self, a: Action) -> Vec<EngineCommand> {
        if a == Action::WatchLive {
            self.watch = !self.watch;
            return self.want_frame();
        }
        let n = self.steps().len();
        if n == 0 || self.watching() {
            return Vec::new();
        }
        self.step = match a {
            Action::StepNext => (self.step + 1).min(n - 1),
            Action::StepPrev => self.step.min(n - 1).saturating_sub(1),
            Action::StepFirst => 0,
            Action::StepLast => n - 1,
            _ => self.step,
        };
        self.want_frame()
    }
}
