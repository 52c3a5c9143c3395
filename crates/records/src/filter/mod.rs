//! The dataset-level filter (paper A.4.1) and the decision model shared by every face.
//!
//! - [`vote`]: the critic vote schema and its validation.
//! - [`aggregate`]: quorum and majority rules; fewer valid votes than the quorum is `undecided`.
//! - [`critic`], [`scripted`], [`llm`]: the voters (heuristics, or any chat provider).
//! - [`run`]: one tuple through the ensemble — every vote stored, the aggregate recorded as a decision.
//! - [`decide`]: the one decision interface (critics, rules, CLI override, TUI), with undo.
//! - [`rules`]: a TOML rules file that decides queued tuples for `--no-tui` runs.

pub mod aggregate;
pub mod critic;
pub mod decide;
pub mod llm;
pub mod rules;
pub mod run;
pub mod scripted;
pub mod vote;

use serde::{Deserialize, Serialize};

pub use aggregate::{aggregate, Aggregate, Ballot, Outcome, Quorum};
pub use critic::{Critic, CriticInput, Review};
pub use decide::{
    apply, apply_grouped_in, apply_in, apply_on_bus, decidable, effective_outcome, Action,
    DecisionRequest, FilterRecord,
};
pub use run::{filter_task, TupleVerdict};
pub use vote::{parse_vote, validate_vote, CriticVote, Severity, Verdict, VoteError};

use tuplewright_base::store::StoreError;

/// Errors of the filter stage and of decisions.
#[derive(Debug, thiserror::Error)]
pub enum FilterError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The tuple is in a status where this decision makes no sense.
    #[error(
        "task {task} has status `{status}`: only tuples that passed the agreement loop can be voted on or decided"
    )]
    NotEligible {
        /// The task.
        task: String,
        /// Its status.
        status: String,
    },
    /// Undo with no decision left to undo.
    #[error("task {0} has no decision to undo")]
    NothingToUndo(String),
    /// The tuple lacks a complete round.
    #[error("task {0} has no stored round with all three scripts")]
    NoScripts(String),
    /// Bad input (request or rules file).
    #[error("{0}")]
    Invalid(String),
}

/// `[filter]` settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FilterConfig {
    /// Voters: `scripted` or provider specs (`openai:MODEL@URL`, `anthropic:MODEL`).
    pub voters: Vec<String>,
    /// `strict` (⌊V/2⌋+1), `paper` (⌈V/2⌉+1) or a number.
    pub quorum: String,
    /// Times an invalid critic reply is answered with the error and retried.
    pub max_invalid_retries: u32,
}

impl Default for FilterConfig {
    fn default() -> Self {
        Self {
            voters: vec!["scripted".into()],
            quorum: "strict".into(),
            max_invalid_retries: 2,
        }
    }
}

#[cfg(test)]
mod tests;
