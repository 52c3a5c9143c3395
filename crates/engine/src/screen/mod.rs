//! Screens: a virtual X display per environment that a computer-use agent sees and drives.
//!
//! One narrow interface, whatever draws on the display: [`Screen::start`] brings up an Xvfb
//! display of its own (a free display number chosen by the X server through `-displayfd`),
//! [`Screen::act`] performs one `computer_use` primitive (paper C.1.1) through the XTEST
//! extension, [`Screen::screenshot`] reads the root window and encodes it as PNG, and
//! [`Screen::launch`] starts a program (Chromium, a desktop app) drawing on that display.
//!
//! Everything a screen starts lives in one process group that [`Drop`] kills; a run killed
//! with SIGKILL leaves a marker directory `/tmp/tuplewright-screen-<pid>-…` that the next
//! [`Screen::start`] sweeps ([`sweep_stale_screens`]). A dead X server or app is a typed
//! [`ScreenError`] (infrastructure, never a score); an action the model got wrong (a coordinate
//! outside the screen, an unknown key name) is an [`ActionError::Invalid`] whose text the model
//! reads as its observation.

mod actions;
mod browser;
mod capture;
mod computer_action;
mod config;
mod desktop;
mod desktop_app;
mod desktop_limits;
mod desktop_prestart;
mod dialogs;
mod display;
mod document_title;
mod idle;
mod keymap;
mod keys;
mod procs;
mod record;
mod settle;
mod taskbar;
mod workspace;

pub use browser::{chromium_command, chromium_window_command, BrowserSpec};
pub use capture::{encode_png, is_blank, Shot};
pub use computer_action::ComputerAction;
pub use config::{ScreenConfig, ScreenSize};
pub use desktop::{
    desktop_command, desktop_command_in, Area, DesktopLayout, DesktopPrograms, DesktopSpec,
    DesktopView, DesktopWindow, DesktopWindows,
};
pub use desktop_app::{A11yReader, AppDesktopSpec, ReadyPhases, ScreenApp, ATSPI_PY};
pub use desktop_limits::DesktopLimits;
pub use desktop_prestart::Prestart;
pub use dialogs::{dialog_texts, ModalDialog};
pub use display::Screen;
pub use document_title::ShownDocument;
pub use keys::{parse_chord, Chord};
pub use procs::{screen_processes, sweep_stale_screens, MARKER_VAR, SCREEN_PREFIX};
pub use record::{InputRecorder, RawInput, Recorded};
pub use settle::{settle_by_compare, Settle, SettleMethod, Settled};
pub use taskbar::{button_area, raise, Taskbar, TaskbarEntry, TASKBAR_HEIGHT};
pub use workspace::{files_entry, WorkspaceSpec, FILES_CLASSES};

/// An infrastructure failure of a screen: never a model's fault, never recorded as a reward.
#[derive(Debug, thiserror::Error)]
pub enum ScreenError {
    /// The X server could not be started or did not come up in time.
    #[error("starting the X server: {0}")]
    Start(String),
    /// The X server exited or its connection broke.
    #[error("the X server died: {0}")]
    DisplayDied(String),
    /// A program on the display (Chromium, a desktop app) exited or could not start.
    #[error("{program} died: {detail}")]
    AppDied {
        /// What it was (`chromium`, `pcmanfm`, …).
        program: String,
        /// Exit status or spawn error.
        detail: String,
    },
    /// The screen shows nothing: blank or uniform after start-up (pre-rollout screenshot gate).
    #[error("the screen is blank after start-up ({0})")]
    Blank(String),
    /// The X server answered something this module cannot use (no XTEST, an odd pixel format).
    #[error("unsupported X server: {0}")]
    Unsupported(String),
    /// A local system call failed (marker directory, PNG encoding).
    #[error("{0}")]
    Io(String),
    /// A modal dialog was left open on a desktop application's screen (named and quoted): the
    /// application waits for an answer, its documents are not what the screen shows.
    #[error("a modal dialog was left open: {0}")]
    DialogLeftOpen(String),
    /// An application launched on a document never showed it: its windows kept other titles
    /// (`Untitled 1`, an empty viewer) until the ready gate's deadline.
    #[error("{program} never showed {document} (its windows: {titles}); its output: {output}")]
    DocumentNotShown {
        /// The application (the pack's name).
        program: String,
        /// The document it was launched on (`/home/user/…`).
        document: String,
        /// The titles its windows had at the deadline, quoted (`none` when it had none).
        titles: String,
        /// Its last lines of output.
        output: String,
    },
    /// An application launched on a document answered with a modal dialog instead of showing
    /// it (a corrupt or password-protected file, one it cannot read), or opened it in another
    /// application's window: quoted.
    #[error("{program} did not open {document}: it shows {shows}")]
    DocumentRefused {
        /// The application (the pack's name).
        program: String,
        /// The document it was launched on (`/home/user/…`).
        document: String,
        /// What it shows instead: the dialog described (title, class, text), or the other
        /// application's window.
        shows: String,
    },
}

/// Why one action did not happen.
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    /// The model asked for something impossible; the text is its observation.
    #[error("{0}")]
    Invalid(String),
    /// The screen itself failed: the rollout is discarded, never scored.
    #[error(transparent)]
    Infra(#[from] ScreenError),
}

/// What a successful action produced.
#[derive(Debug, Clone, PartialEq)]
pub enum ActionOutcome {
    /// The action was performed.
    Done,
    /// A screenshot was asked for and taken.
    Screenshot(Shot),
    /// The model ended the episode with this verdict.
    Terminated {
        /// `terminate(success)` versus `terminate(failure)`.
        success: bool,
    },
}
