//! The [`TargetResolver`] of a combined screen: the taskbar's buttons by label, the desktop's
//! windows by title, which app has the focus, and everything else on the page of the browser
//! window that has the focus now (what the agent sees in front). A page target while a desktop
//! window is in front is "not on screen".

use super::resolver::WebResolver;
use super::DesktopResolver;
use crate::act::ui_plan::{Rect, ScrollHint, Target, TargetResolver};
use crate::act::RolloutError;
use crate::screen::{button_area, DesktopWindow, DesktopWindows, TaskbarEntry};

/// Role of a taskbar button target (`name` = its label).
pub const TASKBAR_BUTTON: &str = "taskbar_button";
/// Role of a target that is on screen while an app's window has the focus (`name` = the app).
pub const FOCUSED_APP: &str = "focused_app";

/// Resolves targets on a combined screen.
pub struct CombinedResolver {
    windows: DesktopWindows,
    desktop: DesktopResolver,
    entries: Vec<TaskbarEntry>,
    webs: Vec<(String, WebResolver)>,
}

fn rect((x, y, w, h): (i32, i32, i32, i32)) -> Rect {
    Rect { x, y, w, h }
}

impl CombinedResolver {
    /// A resolver over `display` with the taskbar's `entries` and each browser window's class
    /// and page resolver.
    pub fn new(
        display: &str,
        entries: Vec<TaskbarEntry>,
        webs: Vec<(String, WebResolver)>,
    ) -> Result<Self, crate::screen::ScreenError> {
        let desktop = DesktopResolver::connect(display)
            .map_err(|e| crate::screen::ScreenError::Io(e.to_string()))?;
        Ok(CombinedResolver {
            windows: DesktopWindows::connect(display)?,
            desktop,
            entries,
            webs,
        })
    }

    fn focused(&self) -> Result<Option<DesktopWindow>, RolloutError> {
        Ok(self.windows.list()?.into_iter().find(|w| w.focused))
    }

    /// The page resolver of the browser window in front, if one is.
    fn front_page(&mut self) -> Result<Option<&mut WebResolver>, RolloutError> {
        let Some(front) = self.focused()? else {
            return Ok(None);
        };
        Ok(self
            .webs
            .iter_mut()
            .find(|(class, _)| *class == front.class)
            .map(|(_, r)| r))
    }

    /// The page resolver of `app`'s window (a live viewer following one app).
    pub fn page_of(&mut self, app: &str) -> Option<&mut WebResolver> {
        let class = super::combined_screen::app_class(app);
        self.webs
            .iter_mut()
            .find(|(c, _)| *c == class)
            .map(|(_, r)| r)
    }

    /// Every browser window's class with its page resolver (an OSWorld guest's
    /// `/accessibility` lists their widgets).
    pub fn pages_mut(&mut self) -> impl Iterator<Item = (&String, &mut WebResolver)> {
        self.webs.iter_mut().map(|(c, r)| (&*c, r))
    }

    fn entry_of(&self, app: &str) -> Option<&TaskbarEntry> {
        let label = super::combined_screen::app_label(app);
        self.entries.iter().find(|e| e.label == label)
    }
}

/// Whether `target` is on a web page (not the taskbar, a window or a point).
fn on_page(target: &Target) -> bool {
    match target {
        Target::Point { .. } => false,
        Target::Role { role, .. } => {
            ![TASKBAR_BUTTON, FOCUSED_APP, "window", "focused_window"].contains(&role.as_str())
        }
        Target::Css { .. } => true,
    }
}

impl TargetResolver for CombinedResolver {
    fn resolve(&mut self, target: &Target) -> Result<Option<Rect>, RolloutError> {
        match target {
            Target::Role { role, name } if role == TASKBAR_BUTTON => Ok(self
                .entries
                .iter()
                .position(|e| e.label == *name)
                .map(|i| rect(button_area(i)))),
            Target::Role { role, name } if role == FOCUSED_APP => {
                let classes = self.entry_of(name).map(|e| e.classes.clone());
                let front = self.focused()?;
                Ok(match (classes, front) {
                    (Some(classes), Some(w)) if classes.contains(&w.class) => Some(rect(w.area)),
                    _ => None,
                })
            }
            Target::Role { role, .. } if role == "window" || role == "focused_window" => {
                self.desktop.resolve(target)
            }
            Target::Point { .. } => self.desktop.resolve(target),
            _ => match self.front_page()? {
                Some(page) => page.resolve(target),
                None => Ok(None),
            },
        }
    }

    fn scroll_hint(&mut self, target: &Target) -> Result<Option<ScrollHint>, RolloutError> {
        if !on_page(target) {
            return Ok(None);
        }
        match self.front_page()? {
            Some(page) => page.scroll_hint(target),
            None => Ok(None),
        }
    }

    fn present(&mut self, target: &Target) -> Result<bool, RolloutError> {
        if !on_page(target) {
            return Ok(self.resolve(target)?.is_some());
        }
        match self.front_page()? {
            Some(page) => page.present(target),
            None => Ok(false),
        }
    }

    fn document_id(&mut self) -> Result<Option<String>, RolloutError> {
        match self.front_page()? {
            Some(page) => page.document_id(),
            None => Ok(None),
        }
    }
}
