//! Task input and OSWorld-compatible bundles.
//!
//! - [`taskgen`]: task-generation JSON (a list or `{"tasks": [...]}`).
//! - [`public`]: reading a bundle directory in the public layout (both `config.json` variants).
//! - [`nofollow`]: reading input files without following links (refused with a clear error).
//! - [`sizes`]: size limits checked before reading, and where invalid UTF-8 is.
//! - [`import`]: walking files/directories into the store, item by item, with a summary.
//! - [`deliver`]: a run's `--out` kept in step with the store, tuple by tuple.
//! - [`export`]: writing `DIR/<task_id>/` bundles plus `meta.json`, atomically and reproducibly.
//! - [`hint`]: why an export wrote nothing, and what would move the tuples on.

pub mod deliver;
pub mod export;
pub mod hint;
pub mod import;
pub mod layout;
pub mod meta;
pub mod nofollow;
pub mod preview;
pub mod public;
/// Moved to the bottom area `text` (the scanner reads scripts with it too).
pub use tuplewright_base::text::sizes;
pub mod taskgen;

use std::fmt;

/// One rejected input item: where it is and what was wrong with which field.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    /// File (and index or path inside it), e.g. `tasks.json: tasks[3]`.
    pub location: String,
    /// The offending field, if one field is to blame.
    pub field: Option<String>,
    /// What was wrong.
    pub message: String,
}

impl Problem {
    /// A problem with a field.
    pub fn field(location: impl Into<String>, field: &str, message: impl Into<String>) -> Self {
        Self {
            location: location.into(),
            field: Some(field.to_string()),
            message: message.into(),
        }
    }

    /// A problem with the item as a whole.
    pub fn item(location: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            location: location.into(),
            field: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{}: field `{}`: {}", self.location, field, self.message),
            None => write!(f, "{}: {}", self.location, self.message),
        }
    }
}

pub use tuplewright_base::text::json_type;

/// True when `id` is safe as a directory name: starts alphanumeric, then `[A-Za-z0-9_.-]`.
pub fn valid_task_id(id: &str) -> bool {
    let mut chars = id.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && id.len() <= 200
}
