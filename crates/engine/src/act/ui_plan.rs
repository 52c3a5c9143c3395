//! The vocabulary of the `ui-oracle` probe: declarative plans performed through a screen only.
//!
//! A [`UiPlanner`] turns a task (its template and slots) into [`PlanStep`]s that name what to act
//! on by what a person would see — an accessible role and name, or a CSS selector — never by
//! pixel. A [`TargetResolver`] (Chromium's accessibility tree over the DevTools protocol for web
//! apps, the desktop's own knowledge for the files domain) turns a [`Target`] into a rectangle on
//! the screen; the executor then performs every effect as a [`ComputerAction`] (click at x,y,
//! type, key) and records each one as a [`Step`]. Nothing in a plan may change state any other
//! way: the reward then scores the final state as for every other policy.

use serde::{Deserialize, Serialize};

use super::screen::ComputerAction;
use super::RolloutError;
use crate::agents::TaskBrief;

/// Something on the screen a plan acts on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Target {
    /// An element by accessible role (`button`, `link`, `textbox`, …) and accessible name.
    Role {
        /// ARIA / accessibility role.
        role: String,
        /// Accessible name (exact match after whitespace normalisation).
        name: String,
    },
    /// An element by CSS selector (web apps only).
    Css {
        /// The selector.
        selector: String,
    },
    /// A fixed point in screen pixels (for desktops whose layout the planner knows).
    Point {
        /// X in screen pixels.
        x: i32,
        /// Y in screen pixels.
        y: i32,
    },
}

/// A rectangle in screen pixels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

impl Rect {
    /// The centre, where a click lands.
    pub fn centre(&self) -> (i32, i32) {
        (self.x + self.w / 2, self.y + self.h / 2)
    }
}

/// One step of a plan. Every effect becomes one or more [`ComputerAction`]s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum PlanStep {
    /// Left-click the target's centre.
    Click {
        /// What to click.
        target: Target,
    },
    /// Left-click the target's centre, then wait until the browser shows a new page (a link
    /// followed, a form posted and its redirect drawn); a click that loads nothing is a miss.
    Submit {
        /// What to click.
        target: Target,
    },
    /// Press the left button at `from`'s centre, move to `to`'s centre and release (a text
    /// selection made as a person makes one: mouse move, button down, moves, button up).
    Drag {
        /// Where the drag starts.
        from: Target,
        /// Where it ends.
        to: Target,
    },
    /// Double-click the target's centre.
    DoubleClick {
        /// What to double-click.
        target: Target,
    },
    /// Click the target, select everything in it (`ctrl+a`) and type the text.
    Fill {
        /// The field.
        target: Target,
        /// The text to type.
        text: String,
    },
    /// Type text where the focus is.
    Type {
        /// The text.
        text: String,
    },
    /// Press a key chord (xdotool names: `Return`, `ctrl+s`).
    Key {
        /// The chord.
        key: String,
    },
    /// Scroll at the target until it is visible, or by `amount` clicks when it is absent.
    Scroll {
        /// Where to scroll.
        target: Target,
        /// Wheel clicks (positive = down).
        amount: i32,
    },
    /// Wait until the target is on screen (after a navigation), up to `timeout_ms`.
    WaitFor {
        /// What must appear.
        target: Target,
        /// Deadline in milliseconds.
        timeout_ms: u64,
    },
    /// Perform `steps` only when `target` is nowhere on the page (on screen or scrolled away):
    /// what makes a plan idempotent (no toggling off a reaction the state already holds).
    UnlessPresent {
        /// What, when present, means the work is already done.
        target: Target,
        /// The steps otherwise.
        steps: Vec<PlanStep>,
    },
    /// Perform `steps` until `until` shows (checked before each try and for `timeout_ms` after
    /// it), at most `tries` times: a step of a try that misses (a dialog that did not open, keys a
    /// busy application dropped) starts the next try instead of failing the plan; the step misses
    /// only when `until` never shows.
    Retry {
        /// What shows once the steps have done their work (the text landed, the dialog opened).
        until: Target,
        /// How many times the steps may run.
        tries: u32,
        /// How long `until` may take to show after a try.
        timeout_ms: u64,
        /// The steps of one try.
        steps: Vec<PlanStep>,
    },
}

/// Where to turn the mouse wheel to bring a target that is on the page, but scrolled out of its
/// list or page, closer to view.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ScrollHint {
    /// X of a point inside the scrolling container, in screen pixels.
    pub x: i32,
    /// Y of that point.
    pub y: i32,
    /// How far the content must move, in screen pixels (positive = scroll down).
    pub dy: i32,
}

/// Finds targets on a live screen.
pub trait TargetResolver {
    /// The target's rectangle in screen pixels, or `None` when it is not on screen now.
    /// An error is infrastructure (the browser or the display died), never a miss.
    fn resolve(&mut self, target: &Target) -> Result<Option<Rect>, RolloutError>;

    /// For a target that is on the page but scrolled out of view, where to scroll and how far;
    /// `None` when the target is absent, hidden, or not a matter of scrolling (the default).
    fn scroll_hint(&mut self, _target: &Target) -> Result<Option<ScrollHint>, RolloutError> {
        Ok(None)
    }

    /// Whether the target exists anywhere on the page, on screen or not (default: on screen).
    fn present(&mut self, target: &Target) -> Result<bool, RolloutError> {
        Ok(self.resolve(target)?.is_some())
    }

    /// An identity of the document now shown, once it has loaded (a new one after every
    /// navigation); `None` when the screen has no such notion (a desktop) or it is loading.
    fn document_id(&mut self) -> Result<Option<String>, RolloutError> {
        Ok(None)
    }
}

/// Turns a task into a plan for one app.
pub trait UiPlanner: Send + Sync {
    /// The apps this planner knows (`team-chat`, `files`, …).
    fn apps(&self) -> &[&'static str];
    /// The plan for the task, or a refusal naming what the planner cannot do ("template X has no
    /// plan"), which the probe reports as a miss of the planner, never of the tuple.
    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal>;
}

/// Why a planner has no plan for a task: its reason (reads as that text: `contains`, `==`) and,
/// when a lower error caused it, that error as the source.
#[derive(Debug, thiserror::Error)]
#[error("{reason}")]
pub struct PlanRefusal {
    reason: String,
    #[source]
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl PlanRefusal {
    /// A refusal for `reason` ("template X has no plan yet").
    pub fn new(reason: impl Into<String>) -> Self {
        PlanRefusal {
            reason: reason.into(),
            source: None,
        }
    }

    /// A refusal for `reason`, caused by `source` (an unreadable slot, a file the plan needs).
    pub fn because(
        reason: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        PlanRefusal {
            reason: reason.into(),
            source: Some(Box::new(source)),
        }
    }

    /// The reason, without its source.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// The planners' helpers build refusals as text: `?` turns it into a refusal.
impl From<String> for PlanRefusal {
    fn from(reason: String) -> Self {
        PlanRefusal::new(reason)
    }
}

impl From<&str> for PlanRefusal {
    fn from(reason: &str) -> Self {
        PlanRefusal::new(reason)
    }
}

impl std::ops::Deref for PlanRefusal {
    type Target = str;
    fn deref(&self) -> &str {
        &self.reason
    }
}

impl PartialEq<&str> for PlanRefusal {
    fn eq(&self, other: &&str) -> bool {
        self.reason == *other
    }
}

/// One recorded action of a screen trial (ui-oracle, noop through a screen, a teacher model).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The action performed.
    pub action: ComputerAction,
    /// Milliseconds since the trial started, when the action began.
    pub at_ms: u64,
    /// How long it took.
    pub duration_ms: u64,
    /// The error string the action returned (the model's observation), if it failed.
    pub error: Option<String>,
    /// How long the display took to settle before the screenshot after this action was taken,
    /// milliseconds (`None`: no screenshot, or none waited for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle_ms: Option<u64>,
    /// The screenshot taken after the action (PNG), if one was taken.
    #[serde(skip)]
    pub screenshot_png: Option<Vec<u8>>,
}
