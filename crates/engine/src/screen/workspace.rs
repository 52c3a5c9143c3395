//! A combined screen's window manager side: openbox with a [`Taskbar`] strip on top, the files
//! desktop's programs when the task has files, and placement rules for the app windows (one
//! browser window per web app, drawn by the caller) filling the area below the strip.

use std::time::{Duration, Instant};

use super::desktop::DeskPlan;
use super::taskbar::{Taskbar, TaskbarEntry, TASKBAR_HEIGHT};
use super::{DesktopLayout, DesktopSpec, ScreenConfig, ScreenError};

/// Window classes of the files desktop's programs, in the order a switch raises them (the
/// terminal last, so it has the focus).
pub const FILES_CLASSES: &[&str] = &["Pcmanfm", "Mousepad", "XTerm"];

/// What a combined screen shows.
#[derive(Debug, Clone)]
pub struct WorkspaceSpec {
    /// The environment's home (`/home/user` of the desktop programs).
    pub home: std::path::PathBuf,
    /// Whether the files desktop's programs (file manager, terminal, editor) are on it.
    pub files: bool,
    /// Window classes of the app windows the caller will open (placed below the strip).
    pub apps: Vec<String>,
    /// The taskbar's buttons.
    pub taskbar: Vec<TaskbarEntry>,
}

/// The files desktop's taskbar button.
pub fn files_entry() -> TaskbarEntry {
    TaskbarEntry {
        label: "Files".into(),
        classes: FILES_CLASSES.iter().map(|c| c.to_string()).collect(),
    }
}

impl super::Screen {
    /// Starts the window manager, the desktop's programs when `spec.files`, and the taskbar;
    /// the caller then opens its app windows, raises the first app and passes the gate.
    pub fn open_workspace(
        &mut self,
        cfg: &ScreenConfig,
        spec: &WorkspaceSpec,
    ) -> Result<Taskbar, ScreenError> {
        let deadline = Instant::now() + Duration::from_millis(cfg.ready_timeout_ms);
        let plan = DeskPlan {
            top: TASKBAR_HEIGHT,
            apps: spec.apps.clone(),
            no_programs: !spec.files,
        };
        let desk = DesktopSpec {
            home: spec.home.clone(),
        };
        self.start_desktop(cfg, &desk, &plan, deadline)?;
        Taskbar::start(&self.display_name(), self.size().0, spec.taskbar.clone())
    }

    /// The client area of an app window of a combined screen (below the strip and its title).
    pub fn app_window_area(&self) -> super::Area {
        let (w, h) = self.size();
        DesktopLayout::app_window(w, h, TASKBAR_HEIGHT)
    }
}
