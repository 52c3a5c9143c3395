//! Curation at dataset scale (issue #33): bulk decisions on a set of tuples with one reason and a
//! group undo ([`bulk`]), notes and tags on a tuple ([`notes`]), and the agreement of two or more
//! curators ([`agreement`]). Every face (the workbench, `override --where`, `tasks note`, `stats`)
//! goes through these functions; every decision is still one append-only record per tuple made by
//! the filter's one decision interface ([`crate::filter::decide`]).

pub mod agreement;
pub mod bulk;
mod bulk_set;
pub mod notes;
pub mod query;
pub mod rows;
pub mod views;

use serde::{Deserialize, Serialize};

use crate::filter::FilterError;
use tuplewright_base::store::StoreError;

/// Errors of curation.
#[derive(Debug, thiserror::Error)]
pub enum CurateError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A decision was refused by the decision interface.
    #[error(transparent)]
    Filter(#[from] FilterError),
    /// A tag not in the configured `[curate] tags` list.
    #[error("tag `{tag}` is not one of [curate] tags ({allowed})")]
    UnknownTag {
        /// The tag given.
        tag: String,
        /// The configured tags, comma-separated.
        allowed: String,
    },
    /// Bad input (named).
    #[error("{0}")]
    Invalid(String),
}

/// What happens when two curators decide a tuple differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConflictPolicy {
    /// The later decision is in force (the earlier one stays in the record).
    #[default]
    LaterWins,
    /// The tuple goes back to the human queue (`needs_human`) until a third curator decides.
    ThirdDecides,
}

/// `[curate]`: who curates and with what.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CurateConfig {
    /// The curator recorded on decisions and notes (empty = `$USER`; `--as NAME` overrides).
    pub curator: String,
    /// The tags a note may carry (empty = any tag).
    pub tags: Vec<String>,
    /// A Markdown file of curation guidelines shown beside the decision prompt (empty = none);
    /// relative to the working directory.
    pub guidelines: String,
    /// When two curators disagree: `later_wins` or `third_decides`.
    pub conflict: ConflictPolicy,
}

impl CurateConfig {
    /// The curator to record: `given` (`--as NAME`), else the configured one, else `$USER`.
    pub fn curator(&self, given: Option<&str>) -> String {
        let configured = (!self.curator.trim().is_empty()).then_some(self.curator.trim());
        crate::filter::decide::human_actor(given.or(configured))
    }

    /// Checks `tag` against the configured list.
    pub fn check_tag(&self, tag: &str) -> Result<(), CurateError> {
        let tag = tag.trim();
        if tag.is_empty() || tag.chars().any(char::is_whitespace) {
            return Err(CurateError::Invalid(format!(
                "tag {tag:?} must be one word (no spaces)"
            )));
        }
        if self.tags.is_empty() || self.tags.iter().any(|t| t == tag) {
            Ok(())
        } else {
            Err(CurateError::UnknownTag {
                tag: tag.to_string(),
                allowed: self.tags.join(", "),
            })
        }
    }
}
