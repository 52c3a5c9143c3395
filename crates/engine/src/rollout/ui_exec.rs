//! Performs a [`PlanStep`] plan on a live [`Screen`]: every target is resolved to a rectangle by
//! a [`TargetResolver`], every effect is a [`ComputerAction`], and every action is recorded as a
//! [`Step`] (with a screenshot after it when asked, taken once the display has settled: no
//! damage for the quiet period, bounded; the wait is the step's `settle_ms`). A target that never appears is a *miss* of
//! the planner (reported, not an error); a dead display or browser is infrastructure.

use std::time::{Duration, Instant};

use super::drive::{screenshot, LocalDisplay};
use super::live_steps::StepSink;
use super::screen::{ComputerAction, Screen};
use super::step_miss::StepMiss;
use super::ui_plan::{PlanStep, Rect, Step, Target, TargetResolver};
use super::RolloutError;
use crate::screen::{Screen as Display, Settle};

/// How long a [`PlanStep::Click`]-style step waits for its target to be on screen.
const TARGET_WAIT: Duration = Duration::from_secs(10);
/// Pause between two resolutions while waiting for a target.
const POLL: Duration = Duration::from_millis(100);
/// The most scroll actions one step performs to bring its target into view before giving up.
const MAX_SCROLLS: usize = 30;
/// How long a [`PlanStep::Submit`] waits for the new page.
const LOAD_WAIT: Duration = Duration::from_secs(15);
/// Pause between the two reads that must agree before a target counts as settled (a frame or
/// two: a scroll or a layout change has been drawn).
const SETTLE: Duration = Duration::from_millis(40);
/// Pixels one wheel click scrolls in Chromium on X11.
const WHEEL_PX: i32 = 53;
/// The most wheel clicks of one scroll action.
const MAX_WHEEL: i32 = 10;

/// Wheel clicks that move content by about `dy` pixels (at least one, signed).
fn wheel_clicks(dy: i32) -> i32 {
    let n = ((dy.abs() + WHEEL_PX / 2) / WHEEL_PX).clamp(1, MAX_WHEEL);
    if dy < 0 {
        -n
    } else {
        n
    }
}

/// What a plan did.
#[derive(Debug, Default)]
pub struct PlanOutcome {
    /// Every action performed, in order.
    pub steps: Vec<Step>,
    /// Why the plan stopped early (a target that never appeared, an action the screen refused).
    pub miss: Option<String>,
}

impl PlanOutcome {
    /// What the policy did: the actions as JSON, a one-line transcript, the recorded steps.
    pub fn into_run(self, plan_len: usize) -> super::PolicyRun {
        let actions = self
            .steps
            .iter()
            .map(|s| serde_json::to_value(&s.action).unwrap_or(serde_json::Value::Null))
            .collect();
        let transcript = match &self.miss {
            Some(miss) => format!("plan missed at {miss}"),
            None => format!("plan of {plan_len} step(s) done"),
        };
        super::PolicyRun {
            actions,
            transcript,
            usage: Default::default(),
            steps: self.steps,
        }
    }
}

/// Runs plans on one screen, recording steps.
pub struct Executor<'a> {
    screen: Box<dyn Screen + 'a>,
    size: (u32, u32),
    resolver: &'a mut dyn TargetResolver,
    started: Instant,
    screenshots: bool,
    steps: Vec<Step>,
    feed: Option<&'a dyn StepSink>,
    settle: Settle,
}

impl<'a> Executor<'a> {
    /// An executor; `screenshots` takes a PNG after every action (for the filmstrip).
    pub fn new(
        screen: &'a mut Display,
        resolver: &'a mut dyn TargetResolver,
        screenshots: bool,
    ) -> Self {
        let size = screen.size();
        let settle = screen.settle_config();
        Self::with(
            Box::new(LocalDisplay::new(screen)),
            size,
            resolver,
            screenshots,
        )
        .settling(settle)
    }

    /// An executor on any screen (an OSWorld guest's: [`super::drive::guest_screen`]).
    pub fn on(
        screen: &'a dyn Screen,
        resolver: &'a mut dyn TargetResolver,
        screenshots: bool,
    ) -> Result<Self, RolloutError> {
        let size = screen.size()?;
        Ok(Self::with(Box::new(screen), size, resolver, screenshots))
    }

    fn with(
        screen: Box<dyn Screen + 'a>,
        size: (u32, u32),
        resolver: &'a mut dyn TargetResolver,
        screenshots: bool,
    ) -> Self {
        Executor {
            screen,
            size,
            resolver,
            started: Instant::now(),
            screenshots,
            steps: Vec::new(),
            feed: None,
            settle: Settle::default(),
        }
    }

    /// How the display must settle after each action before its after-frame is taken (default:
    /// the local display's `[screen]` settings; [`Settle::default`] on other screens).
    pub fn settling(mut self, settle: Settle) -> Self {
        self.settle = settle;
        self
    }

    /// Hands every step to `feed` as soon as it is done (the trial's live feed).
    pub fn feeding(mut self, feed: &'a dyn StepSink) -> Self {
        self.feed = Some(feed);
        self
    }

    /// Performs the plan; stops at the first miss. With screenshots, the trial opens with the
    /// first observation (a `screenshot` step, as the VLM policies store theirs), so exports
    /// show the screen the first action was taken on (issue #36).
    pub fn run(mut self, plan: &[PlanStep]) -> Result<PlanOutcome, RolloutError> {
        if self.screenshots {
            self.observe_first()?;
        }
        for (i, step) in plan.iter().enumerate() {
            if let Err(miss) = self.perform(step)? {
                let miss = format!("step {} ({}): {miss}", i + 1, describe(step));
                return Ok(PlanOutcome {
                    steps: self.steps,
                    miss: Some(miss),
                });
            }
        }
        Ok(PlanOutcome {
            steps: self.steps,
            miss: None,
        })
    }

    /// One plan step: `Ok(Err(miss))` when the planner's expectation did not hold.
    fn perform(&mut self, step: &PlanStep) -> Result<Result<(), StepMiss>, RolloutError> {
        use ComputerAction as A;
        match step {
            PlanStep::Click { target } | PlanStep::DoubleClick { target } => {
                let Some((x, y)) = self.wait_point(target, TARGET_WAIT)? else {
                    return Ok(Err(StepMiss::NotOnScreen {
                        target: show(target),
                    }));
                };
                let action = match step {
                    PlanStep::DoubleClick { .. } => A::DoubleClick { x, y },
                    _ => A::LeftClick { x, y },
                };
                self.act(action)
            }
            PlanStep::Drag { from, to } => {
                let Some((x, y)) = self.wait_point(from, TARGET_WAIT)? else {
                    return Ok(Err(StepMiss::NotOnScreen { target: show(from) }));
                };
                let Some((to_x, to_y)) = self.wait_point(to, TARGET_WAIT)? else {
                    return Ok(Err(StepMiss::NotOnScreen { target: show(to) }));
                };
                // Press, move (half-way, then to the end) and release as separate actions: an
                // application that selects on motion (Evince) takes an instant drag, with all its
                // motion events queued before the release, for a click.
                let (mid_x, mid_y) = ((x + to_x) / 2, (y + to_y) / 2);
                for action in [
                    A::MouseMove { x, y },
                    A::LeftMouseDown,
                    A::MouseMove { x: mid_x, y: mid_y },
                    A::MouseMove { x: to_x, y: to_y },
                    A::LeftMouseUp,
                ] {
                    if let Err(miss) = self.act(action)? {
                        return Ok(Err(miss));
                    }
                }
                Ok(Ok(()))
            }
            PlanStep::Submit { target } => {
                let Some((x, y)) = self.wait_point(target, TARGET_WAIT)? else {
                    return Ok(Err(StepMiss::NotOnScreen {
                        target: show(target),
                    }));
                };
                let before = self.resolver.document_id()?;
                if let Err(miss) = self.perform_only(A::LeftClick { x, y })? {
                    self.capture_last()?;
                    return Ok(Err(miss));
                }
                // The click's after-frame shows the new page (or what the click left).
                let loaded = match before {
                    Some(before) => self.wait_new_document(&before, target)?,
                    None => Ok(()),
                };
                self.capture_last()?;
                Ok(loaded)
            }
            PlanStep::Fill { target, text } => {
                let Some((x, y)) = self.wait_point(target, TARGET_WAIT)? else {
                    return Ok(Err(StepMiss::NotOnScreen {
                        target: show(target),
                    }));
                };
                for action in [
                    A::LeftClick { x, y },
                    A::Key {
                        key: "ctrl+a".into(),
                    },
                    A::Type { text: text.clone() },
                ] {
                    if let Err(miss) = self.act(action)? {
                        return Ok(Err(miss));
                    }
                }
                Ok(Ok(()))
            }
            PlanStep::Type { text } => self.act(A::Type { text: text.clone() }),
            PlanStep::Key { key } => self.act(A::Key { key: key.clone() }),
            PlanStep::Scroll { target, amount } => {
                let (w, h) = self.size;
                let (cx, cy) = ((w / 2) as i32, (h / 2) as i32);
                for _ in 0..MAX_SCROLLS {
                    if self.settled(target)?.is_some() {
                        return Ok(Ok(()));
                    }
                    // Towards the target when it is on the page; by `amount` at the centre
                    // when it is not there (yet).
                    let action = match self.resolver.scroll_hint(target)? {
                        Some(hint) => A::Scroll {
                            x: hint.x,
                            y: hint.y,
                            amount: wheel_clicks(hint.dy),
                        },
                        None => A::Scroll {
                            x: cx,
                            y: cy,
                            amount: *amount,
                        },
                    };
                    if let Err(miss) = self.act(action)? {
                        return Ok(Err(miss));
                    }
                }
                Ok(Err(StepMiss::NotReached {
                    target: show(target),
                }))
            }
            PlanStep::WaitFor { target, timeout_ms } => {
                let found = self.wait_point(target, Duration::from_millis(*timeout_ms))?;
                Ok(found.map(|_| ()).ok_or_else(|| StepMiss::DidNotAppear {
                    target: show(target),
                }))
            }
            PlanStep::UnlessPresent { target, steps } => {
                if self.resolver.present(target)? {
                    return Ok(Ok(()));
                }
                for inner in steps {
                    if let Err(miss) = self.perform(inner)? {
                        return Ok(Err(miss));
                    }
                }
                Ok(Ok(()))
            }
            PlanStep::Retry {
                until,
                tries,
                timeout_ms,
                steps,
            } => self.retry(until, *tries, Duration::from_millis(*timeout_ms), steps),
        }
    }

    /// [`PlanStep::Retry`]: the steps again until `until` shows, `tries` times at most.
    fn retry(
        &mut self,
        until: &Target,
        tries: u32,
        timeout: Duration,
        steps: &[PlanStep],
    ) -> Result<Result<(), StepMiss>, RolloutError> {
        let mut last = None;
        for _ in 0..tries {
            if self.resolver.present(until)? {
                return Ok(Ok(()));
            }
            last = match steps.iter().try_for_each(|s| match self.perform(s) {
                Ok(Ok(())) => Ok(()),
                Ok(Err(miss)) => Err(Ok(StepMiss::InStep {
                    step: describe(s),
                    source: Box::new(miss),
                })),
                Err(e) => Err(Err(e)),
            }) {
                Ok(()) => match self.wait_point(until, timeout)? {
                    Some(_) => return Ok(Ok(())),
                    None => Some(Box::new(StepMiss::DidNotAppear {
                        target: show(until),
                    })),
                },
                Err(Ok(miss)) => Some(Box::new(miss)),
                Err(Err(e)) => return Err(e),
            };
        }
        Ok(Err(StepMiss::Retried {
            target: show(until),
            tries,
            last,
        }))
    }

    /// Waits until the browser shows a document other than `before` (at most [`LOAD_WAIT`]).
    fn wait_new_document(
        &mut self,
        before: &str,
        target: &Target,
    ) -> Result<Result<(), StepMiss>, RolloutError> {
        let deadline = Instant::now() + LOAD_WAIT;
        loop {
            if self
                .resolver
                .document_id()?
                .is_some_and(|now| now != before)
            {
                return Ok(Ok(()));
            }
            if Instant::now() >= deadline {
                return Ok(Err(StepMiss::NoNewPage {
                    target: show(target),
                    secs: LOAD_WAIT.as_secs(),
                }));
            }
            std::thread::sleep(POLL);
        }
    }

    /// The target's rectangle when it is visible and has not moved between two reads a frame
    /// or two apart (no scroll or layout change under way), else `None`.
    fn settled(&mut self, target: &Target) -> Result<Option<Rect>, RolloutError> {
        let Some(first) = self.resolver.resolve(target)?.filter(|r| self.visible(*r)) else {
            return Ok(None);
        };
        std::thread::sleep(SETTLE);
        let second = self.resolver.resolve(target)?;
        Ok(second.filter(|r| *r == first))
    }

    /// Whether a rectangle's centre lies on the screen.
    fn visible(&self, r: Rect) -> bool {
        let (w, h) = self.size;
        let (x, y) = r.centre();
        x >= 0 && y >= 0 && (x as u32) < w && (y as u32) < h
    }

    /// The target's centre once it is visible and settled, or `None` after `timeout`. A target
    /// that is on the page but scrolled out of its list is scrolled to with the mouse wheel
    /// (recorded actions, like every other effect).
    fn wait_point(
        &mut self,
        target: &Target,
        timeout: Duration,
    ) -> Result<Option<(i32, i32)>, RolloutError> {
        if let Target::Point { x, y } = target {
            return Ok(Some((*x, *y)));
        }
        let deadline = Instant::now() + timeout;
        let mut scrolls = 0;
        loop {
            if let Some(r) = self.settled(target)? {
                return Ok(Some(r.centre()));
            }
            if scrolls < MAX_SCROLLS {
                if let Some(hint) = self.resolver.scroll_hint(target)? {
                    scrolls += 1;
                    let wheel = ComputerAction::Scroll {
                        x: hint.x,
                        y: hint.y,
                        amount: wheel_clicks(hint.dy),
                    };
                    if self.act(wheel)?.is_err() {
                        return Ok(None);
                    }
                    // Wheel events land asynchronously: a hint read before this one has moved
                    // the list would scroll again from a stale position and overshoot.
                    let landed = Instant::now() + Duration::from_secs(1);
                    while Instant::now() < landed {
                        std::thread::sleep(POLL);
                        match self.resolver.scroll_hint(target)? {
                            Some(h) if h.dy == hint.dy => continue,
                            _ => break,
                        }
                    }
                    continue;
                }
            }
            if Instant::now() >= deadline {
                return Ok(None);
            }
            std::thread::sleep(POLL);
        }
    }

    /// The first observation: the settled screen before any action, as a `screenshot` step.
    fn observe_first(&mut self) -> Result<(), RolloutError> {
        let at = self.started.elapsed();
        let settled = self.screen.settle(self.settle)?;
        let png = screenshot(self.screen.as_ref())?.png;
        self.steps.push(Step {
            action: ComputerAction::Screenshot,
            at_ms: at.as_millis() as u64,
            duration_ms: self.started.elapsed().saturating_sub(at).as_millis() as u64,
            error: None,
            settle_ms: Some(settled.ms()),
            screenshot_png: Some(png),
        });
        if let (Some(feed), Some(step)) = (self.feed, self.steps.last()) {
            feed.step(step, None);
        }
        Ok(())
    }

    /// Performs and records one action, then (with screenshots) waits for the display to settle
    /// and takes the after-frame; an action the screen refuses is a miss.
    fn act(&mut self, action: ComputerAction) -> Result<Result<(), StepMiss>, RolloutError> {
        let done = self.perform_only(action)?;
        self.capture_last()?;
        Ok(done)
    }

    /// Performs and records one action without its after-frame yet ([`Executor::capture_last`]
    /// takes it and hands the step to the feed).
    fn perform_only(
        &mut self,
        action: ComputerAction,
    ) -> Result<Result<(), StepMiss>, RolloutError> {
        let at = self.started.elapsed();
        let result = self.screen.perform(&action);
        let duration = self.started.elapsed().saturating_sub(at);
        let error = match result {
            Ok(()) => None,
            Err(RolloutError::Policy(e)) => Some(e),
            Err(e) => return Err(e),
        };
        self.steps.push(Step {
            action,
            at_ms: at.as_millis() as u64,
            duration_ms: duration.as_millis() as u64,
            error: error.clone(),
            settle_ms: None,
            screenshot_png: None,
        });
        Ok(error.map_or(Ok(()), |e| Err(StepMiss::Refused(e))))
    }

    /// The last step's after-frame, once the display has settled (when screenshots are on and
    /// the action was performed); then the step goes to the feed.
    fn capture_last(&mut self) -> Result<(), RolloutError> {
        let wanted = self.screenshots && self.steps.last().is_some_and(|s| s.error.is_none());
        if wanted {
            let settle = match self.steps.last() {
                Some(step) => self.settle.for_action(&step.action),
                None => self.settle,
            };
            let settled = self.screen.settle(settle)?;
            let png = screenshot(self.screen.as_ref())?.png;
            if let Some(step) = self.steps.last_mut() {
                step.settle_ms = Some(settled.ms());
                step.screenshot_png = Some(png);
            }
        }
        if let (Some(feed), Some(step)) = (self.feed, self.steps.last()) {
            feed.step(step, None);
        }
        Ok(())
    }
}

/// A target as a person would name it.
fn show(target: &Target) -> String {
    match target {
        Target::Role { role, name } => format!("{role} \"{name}\""),
        Target::Css { selector } => format!("element `{selector}`"),
        Target::Point { x, y } => format!("point ({x}, {y})"),
    }
}

/// A plan step in a few words.
fn describe(step: &PlanStep) -> String {
    match step {
        PlanStep::Click { target } => format!("click {}", show(target)),
        PlanStep::Submit { target } => format!("click {} and wait for the page", show(target)),
        PlanStep::DoubleClick { target } => format!("double-click {}", show(target)),
        PlanStep::Drag { from, to } => format!("drag from {} to {}", show(from), show(to)),
        PlanStep::Fill { target, .. } => format!("fill {}", show(target)),
        PlanStep::Type { .. } => "type".into(),
        PlanStep::Key { key } => format!("key {key}"),
        PlanStep::Scroll { target, .. } => format!("scroll to {}", show(target)),
        PlanStep::WaitFor { target, .. } => format!("wait for {}", show(target)),
        PlanStep::UnlessPresent { target, .. } => format!("unless {} is there", show(target)),
        PlanStep::Retry { until, tries, .. } => {
            format!("until {} is there ({tries} tries)", show(until))
        }
    }
}

#[cfg(test)]
#[path = "ui_exec_retry_tests.rs"]
mod retry_tests;

#[cfg(test)]
mod tests {
    use super::wheel_clicks;

    #[test]
    fn wheel_clicks_move_about_the_distance_at_least_one_click_at_most_ten() {
        assert_eq!(wheel_clicks(53), 1);
        assert_eq!(wheel_clicks(10), 1);
        assert_eq!(wheel_clicks(-10), -1);
        assert_eq!(wheel_clicks(318), 6);
        assert_eq!(wheel_clicks(-160), -3);
        assert_eq!(wheel_clicks(100_000), 10);
        assert_eq!(wheel_clicks(-100_000), -10);
    }
}
