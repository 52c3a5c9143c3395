//! Desktop windows as `ui-oracle` targets: the files desktop's terminal and title-named windows,
//! on this machine's display or on an OSWorld guest (through [`WindowList`], which `osworld`
//! implements for its client).

use crate::act::ui_plan::{Rect, Target, TargetResolver};
use crate::act::RolloutError;
use crate::screen::{DesktopWindow, DesktopWindows};

/// Finds desktop windows by title: `Target::Role { role: "window", name }`, or only while it has
/// the input focus: `Target::Role { role: "focused_window", name }`. The windows are this
/// machine's display's, or those of an OSWorld guest's `/accessibility` tree.
pub struct DesktopResolver {
    windows: Windows,
}

enum Windows {
    Local(Box<DesktopWindows>),
    Listed(Box<dyn WindowList>),
}

/// Somewhere else's list of desktop windows (an OSWorld guest's `/accessibility` tree).
pub trait WindowList: Send {
    /// The windows now, or why they cannot be read (an infrastructure failure).
    fn windows(&self) -> Result<Vec<DesktopWindow>, RolloutError>;
}

impl DesktopResolver {
    /// A resolver reading the windows of `display`.
    pub fn connect(display: &str) -> Result<Self, RolloutError> {
        Ok(DesktopResolver {
            windows: Windows::Local(Box::new(DesktopWindows::connect(display)?)),
        })
    }

    /// A resolver reading the windows `list` reports (an OSWorld guest's client: its
    /// `GET /accessibility`).
    pub fn listed(list: Box<dyn WindowList>) -> Self {
        DesktopResolver {
            windows: Windows::Listed(list),
        }
    }

    fn list(&self) -> Result<Vec<DesktopWindow>, RolloutError> {
        match &self.windows {
            Windows::Local(w) => Ok(w.list()?),
            Windows::Listed(l) => l.windows(),
        }
    }
}

impl TargetResolver for DesktopResolver {
    fn resolve(&mut self, target: &Target) -> Result<Option<Rect>, RolloutError> {
        match target {
            Target::Role { role, name } if role == "window" || role == "focused_window" => Ok(self
                .list()?
                .into_iter()
                .find(|w| w.title == *name && (w.focused || role == "window"))
                .map(|w| Rect {
                    x: w.area.0,
                    y: w.area.1,
                    w: w.area.2,
                    h: w.area.3,
                })),
            Target::Point { x, y } => Ok(Some(Rect {
                x: *x,
                y: *y,
                w: 1,
                h: 1,
            })),
            other => Err(RolloutError::Policy(format!(
                "the desktop resolves windows by title and points, not {other:?}"
            ))),
        }
    }
}
