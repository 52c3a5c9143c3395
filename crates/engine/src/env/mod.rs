//! Environments: the unified state API (paper §B.3) for the built-in headless apps, and the
//! files desktop domain.
//!
//! - [`apps`]: the built-in apps (manifest + default seed), embedded in the binary.
//! - [`merge`], [`mask`], [`diff`]: snapshot semantics — deep merge, volatile-field masks, the
//!   B.3.3 flat diff and the element-level `changes` extension.
//! - [`store`]: sessions persisted on disk (atomic writes through the group-commit [`journal`]),
//!   a byte-bounded LRU of loaded snapshots, TTL GC.
//! - [`server`]: the axum HTTP server with role enforcement; [`server::spawn`] embeds it;
//!   [`conn`] serves its connections (cap, header and idle timeouts).
//! - [`files`]: provisions a fresh per-environment home directory for the files domain.

pub mod api_error;
pub mod apps;
pub mod body;
pub mod config;
pub mod conn;
pub mod desktop_app;
pub mod diff;
pub mod files;
pub mod handlers;
pub mod journal;
mod json_scan;
pub mod mask;
pub mod merge;
pub mod post_body;
pub mod role;
pub mod server;
pub mod session;
pub mod store;
pub mod uploads;

#[cfg(test)]
mod cold_tests;
#[cfg(test)]
mod limits_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod write_tests;

pub use apps::{App, AppRegistry};
pub use config::ServerConfig;
pub use role::Role;
pub use server::{spawn, ServerHandle};
pub use store::SessionStore;

/// Errors of the environment subsystem. Each variant names what was wrong and where.
#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    /// A session id outside `[A-Za-z0-9_-]{1,128}`.
    #[error("invalid sid {0:?}: expected 1-128 characters from [A-Za-z0-9_-]")]
    InvalidSid(String),
    /// `POST /post` named an action this server does not know.
    #[error("unknown action {0:?}: expected one of set, set_current, merge, reset")]
    UnknownAction(String),
    /// A state that must be a JSON object was something else.
    #[error("the state must be a JSON object, got {0}")]
    StateNotObject(&'static str),
    /// No built-in or override app of that name.
    #[error("unknown app {name:?}; available: {available}")]
    UnknownApp {
        /// The requested name.
        name: String,
        /// Comma-separated names of the known apps.
        available: String,
    },
    /// The access control settings are unusable, or missing off loopback.
    #[error(transparent)]
    Access(#[from] tuplewright_base::access::AccessError),
    /// An app's manifest or seed could not be read or parsed.
    #[error("app {app:?}: {detail}")]
    BadApp {
        /// The app (or directory) concerned.
        app: String,
        /// What was wrong.
        detail: String,
    },
    /// A session file on disk could not be parsed.
    #[error("session file {path} is corrupt: {detail}")]
    CorruptSession {
        /// The file.
        path: std::path::PathBuf,
        /// The parse error.
        detail: String,
    },
    /// An upload name that cannot be served back safely.
    #[error("invalid file name {0:?}")]
    InvalidFileName(String),
    /// The journal could not make a write durable (the write was not acknowledged).
    #[error("{0}")]
    Journal(String),
    /// A state larger than the whole in-memory budget, or one that cannot fit beside the
    /// sessions in use right now.
    #[error("session {sid:?}: a state of {bytes} bytes {why} (env.cache_bytes = {budget})")]
    OverBudget {
        /// The session.
        sid: String,
        /// Bytes the new state needs in memory.
        bytes: u64,
        /// The configured budget.
        budget: u64,
        /// Why it does not fit.
        why: &'static str,
    },
    /// A file-system operation failed.
    #[error("{op} {path}: {source}")]
    Io {
        /// What was being done.
        op: &'static str,
        /// The path concerned.
        path: std::path::PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

impl EnvError {
    /// Wraps an I/O error with the operation and path it concerned.
    pub fn io(
        op: &'static str,
        path: impl Into<std::path::PathBuf>,
        source: std::io::Error,
    ) -> Self {
        EnvError::Io {
            op,
            path: path.into(),
            source,
        }
    }
}

/// Checks a session id against `[A-Za-z0-9_-]{1,128}`.
pub fn validate_sid(sid: &str) -> Result<(), EnvError> {
    let ok = !sid.is_empty()
        && sid.len() <= 128
        && sid
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(EnvError::InvalidSid(sid.chars().take(160).collect()))
    }
}

/// A fresh random session id (UUIDv4, as the paper's trainer does).
pub fn new_sid() -> String {
    uuid::Uuid::new_v4().to_string()
}

pub(crate) use crate::openenv::schema::json_type;
