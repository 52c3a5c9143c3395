//! Desktop applications (issue #31): packs of `kind = "desktop"` whose environments run a real
//! program from Debian's packages on the environment's screen, with a profile made fresh for each
//! environment (see `docs/desktop-apps.md`).
//!
//! - [`launch`]: what a setup script's recorded launch (`libreoffice --calc /home/user/x.xlsx`)
//!   starts on a screen;
//! - [`state_reader`]: the pack's `state.py` turning documents into the state JSON;
//! - [`snapshot`]: the state of a desktop environment (home map + reader output);
//! - [`pool`]: environments started before their task is known (`[desktop] pool`), so that
//!   acquiring one is a hand-over, not a start;
//! - [`again`]: the home put back for one more start after an application never showed its
//!   document.

pub mod again;
pub mod launch;
pub mod pool;
pub mod snapshot;
pub mod state_reader;

/// A desktop application failed for reasons that are never the agent's: infrastructure.
#[derive(Debug, thiserror::Error)]
pub enum DesktopError {
    /// The program is not installed on this machine.
    #[error(
        "{app}: the program {program:?} is not installed (install the Debian package {package})"
    )]
    Missing {
        /// The app.
        app: String,
        /// The program looked for.
        program: String,
        /// The Debian package that provides it.
        package: String,
    },
    /// The state reader failed (exit, timeout, bad output).
    #[error("the state reader of {app} failed: {detail}")]
    StateReader {
        /// The app.
        app: String,
        /// What happened, with the reader's stderr.
        detail: String,
    },
    /// A launch line could not be turned into a program to start.
    #[error("launch of {app} refused: {detail}")]
    Launch {
        /// The app.
        app: String,
        /// Why.
        detail: String,
    },
    /// The profile could not be written.
    #[error("writing the {app} profile at {path}: {source}")]
    Profile {
        /// The app.
        app: String,
        /// Where.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}
