//! The export's own error kinds below [`super::ExportError`]: a name that is no known choice,
//! a tokenizer that cannot be read or used, and why one trial cannot be rendered in a wire (the
//! trial is skipped and the summary says why).

use std::path::PathBuf;

use crate::rollout::vlm::error::{CoordError, RenderError, ReplyError};

/// A name given for a setting that has a fixed set of values.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("unknown {what} `{given}` ({known})")]
pub struct UnknownChoice {
    /// The setting (`trajectory format`, `batching`, `wire`).
    pub what: &'static str,
    /// What was given.
    pub given: String,
    /// The accepted values, as a person reads them.
    pub known: &'static str,
}

/// A tokenizer that cannot be read, or a text it cannot encode.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    /// `tokenizer.json` unreadable or malformed.
    #[error("cannot read the tokenizer {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: tokenizers::Error,
    },
    /// Encoding a text failed.
    #[error("tokenizing: {0}")]
    Encode(#[source] tokenizers::Error),
}

/// Why one trial cannot be rendered in the chosen wire.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RenderSkip {
    /// Trials stored before issue #36 lack the first screenshot.
    #[error("no first observation (stored before issue #36: roll the task out again)")]
    NoFirstObservation,
    /// The screen size admits no image in the wire's coordinate space.
    #[error(transparent)]
    Coords(#[from] CoordError),
    /// An action the wire's tool has no form for.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A rendered turn that the wire's own parser cannot read.
    #[error("turn {turn} does not read back in {wire}: {source}")]
    ReadBack {
        /// 1-based turn.
        turn: usize,
        /// The wire.
        wire: String,
        /// The parser's complaint.
        #[source]
        source: ReplyError,
    },
    /// A rendered turn that reads back as other actions.
    #[error("{wire} cannot say turn {turn} exactly: {said} reads back as {back}")]
    Inexact {
        /// The wire.
        wire: String,
        /// 1-based turn.
        turn: usize,
        /// The actions as JSON.
        said: String,
        /// What the parser read, as JSON.
        back: String,
    },
}
