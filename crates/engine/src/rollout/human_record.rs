//! What a person did on a trial's screen (`env try`), as the steps ui-oracle trials store: the
//! display's input devices recorded with X RECORD ([`InputRecorder`]), turned into
//! `computer_use` actions ([`Gestures`]), the settled screen before the first action as a
//! `screenshot` step and, whenever the person pauses between actions, the settled frame after
//! the last finished action (an action followed by the next one without a pause has none: its
//! frame would show the next one's effect too).

use std::time::Instant;

use super::human_input::{Gesture, Gestures};
use super::screen::ComputerAction;
use super::ui_plan::Step;
use super::RolloutError;
use crate::screen::{InputRecorder, Screen, ScreenError};

/// A recording of one person's input on one display.
pub struct InputLog {
    recorder: InputRecorder,
    gestures: Gestures,
    started: Instant,
    steps: Vec<Step>,
    /// `steps` opens with the first observation.
    first: bool,
}

fn ms(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl InputLog {
    /// Starts recording `display`; step times count from `started`.
    pub fn start(display: &str, started: Instant) -> Result<InputLog, ScreenError> {
        Ok(InputLog {
            recorder: InputRecorder::start(display)?,
            gestures: Gestures::default(),
            started,
            steps: Vec::new(),
            first: false,
        })
    }

    /// Reads the input recorded so far; true when the person is between actions (nothing held
    /// or pending).
    pub fn poll(&mut self) -> Result<bool, ScreenError> {
        for ev in self.recorder.drain()? {
            self.gestures.feed(&ev);
        }
        let idle = self.gestures.tick(Instant::now());
        let done = self.gestures.take();
        self.push(done);
        Ok(idle)
    }

    fn push(&mut self, gestures: Vec<Gesture>) {
        for g in gestures {
            let start = g.start.saturating_duration_since(self.started);
            self.steps.push(Step {
                action: g.action,
                at_ms: ms(start),
                duration_ms: ms(g.end.saturating_duration_since(g.start)),
                error: None,
                settle_ms: None,
                screenshot_png: None,
            });
        }
    }

    /// The actions recorded so far (the first observation left out).
    pub fn actions(&self) -> Vec<ComputerAction> {
        self.steps
            .iter()
            .skip(usize::from(self.first))
            .map(|s| s.action.clone())
            .collect()
    }

    /// Records the first observation: the settled screen before any input.
    pub fn observe_first(&mut self, screen: &mut Screen) -> Result<(), RolloutError> {
        let at = ms(self.started.elapsed());
        let settled = screen.settle()?;
        let shot = screen.screenshot()?;
        self.steps.insert(
            0,
            Step {
                action: ComputerAction::Screenshot,
                at_ms: at,
                duration_ms: ms(self.started.elapsed()).saturating_sub(at),
                error: None,
                settle_ms: Some(settled.ms()),
                screenshot_png: Some(shot.png),
            },
        );
        self.first = true;
        Ok(())
    }

    /// When the person is between actions and the last action has no after-frame yet: waits
    /// for the display to settle and takes it, unless input arrived meanwhile.
    pub fn capture_after(&mut self, screen: &mut Screen, idle: bool) -> Result<(), RolloutError> {
        let due = idle
            && self
                .steps
                .last()
                .is_some_and(|s| s.screenshot_png.is_none());
        if !due {
            return Ok(());
        }
        let presses = self.recorder.presses();
        let settled = screen.settle()?;
        let shot = screen.screenshot()?;
        if self.recorder.presses() != presses {
            return Ok(());
        }
        if let Some(last) = self.steps.last_mut() {
            last.settle_ms = Some(settled.ms());
            last.screenshot_png = Some(shot.png);
        }
        Ok(())
    }

    /// The trial's steps once the person is done: what is pending is finished and the final
    /// screen becomes the last action's after-frame (with no action recorded: one `screenshot`
    /// step of it, as before input was recorded).
    pub fn finish(mut self, screen: &mut Screen) -> Result<Vec<Step>, RolloutError> {
        self.poll()?;
        self.gestures.flush();
        let done = self.gestures.take();
        self.push(done);
        let at = ms(self.started.elapsed());
        let settled = screen.settle()?;
        let shot = screen.screenshot()?;
        let acted = self.steps.len() > usize::from(self.first);
        if !acted {
            self.steps.clear();
            self.steps.push(Step {
                action: ComputerAction::Screenshot,
                at_ms: at,
                duration_ms: ms(self.started.elapsed()).saturating_sub(at),
                error: None,
                settle_ms: None,
                screenshot_png: None,
            });
        }
        if let Some(last) = self.steps.last_mut() {
            if last.screenshot_png.is_none() || !acted {
                last.settle_ms = Some(settled.ms());
                last.screenshot_png = Some(shot.png);
            }
        }
        Ok(self.steps)
    }
}
