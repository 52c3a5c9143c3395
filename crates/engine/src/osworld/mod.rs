//! OSWorld's VM protocol, both ways.
//!
//! **Guest** ([`Guest`], [`serve`]): one of tuplewright's environments with its screen, served on
//! the HTTP protocol of OSWorld's guest server (`desktop_env/server/main.py`: `/screenshot`,
//! `/execute`, `/run_python`, `/run_bash_script`, `/setup/upload`, `/file`, `/accessibility`,
//! `/screen_size`, `/terminal`, `/list_directory`, `/setup/launch|open_file|activate_window|
//! close_window`), so harnesses written for OSWorld — its `PythonController` and `SetupController`
//! among them — drive it unchanged. Commands run in the script sandbox with the screen's display.
//!
//! **Provider** ([`GuestClient`], [`Pool`], [`run_endpoint`], [`RemoteScreen`]): a remote OSWorld
//! guest (a VM, or another tuplewright's guest) as an environment: a bundle's `config` steps, its
//! setup, golden patch and reward run on it, screenshots and `computer_use` actions go through
//! it. An endpoint that is down or a call that times out is [`OsworldError::Infra`], never a score.
//!
//! **The loop on guests** ([`RemoteEnv`], [`loop_pool`]): with `[loop] environments = "osworld"`
//! (or `run --env osworld`) each round's V_init and V_gold are pool endpoints (see `provider`).

pub mod a11y;
pub mod atspi_tree;
pub mod client;
pub mod command;
pub mod guest;
pub mod guest_display;
pub mod gui_launch;
pub mod page_tree;
pub mod pool;
pub mod program;
pub mod provider;
pub mod pyautogui;
pub mod remote_screen;
pub mod run;
pub mod server;
mod server_files;
pub mod steps;
pub mod windows;

pub use client::GuestClient;
pub use guest::{Guest, GuestOptions, GuestTimeouts};
pub use guest_display::GuestDisplay;
pub use pool::{Endpoint, Lease, OsworldConfig, Pool};
pub use provider::{loop_pool, RemoteEnv};
pub use remote_screen::RemoteScreen;
pub use run::{run_endpoint, verify_bundle, EndpointRun, RemoteVerification};
pub use server::serve;

/// What went wrong talking OSWorld's protocol.
#[derive(Debug, thiserror::Error)]
pub enum OsworldError {
    /// The request was malformed (a missing field, a bad command): the caller's fault.
    #[error("{0}")]
    BadRequest(String),
    /// Nothing there (a file, a window).
    #[error("{0}")]
    NotFound(String),
    /// The task's own scripts or steps failed (setup exited non-zero, a step was refused).
    #[error("{0}")]
    Task(String),
    /// Infrastructure: an endpoint down, a timeout, a dead display, the sandbox unavailable.
    /// Never a score.
    #[error("infrastructure failure: {0}")]
    Infra(String),
}

impl From<crate::screen::ScreenError> for OsworldError {
    fn from(e: crate::screen::ScreenError) -> Self {
        OsworldError::Infra(e.to_string())
    }
}
