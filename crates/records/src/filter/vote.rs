//! The critic vote schema (paper A.4.1, `prompts/critic.md`) and its validation.
//!
//! [`parse_vote`] takes a critic's raw reply (a JSON object, possibly inside a ```json fence or
//! surrounded by prose) and returns a [`CriticVote`] or a [`VoteError`] naming the field that is wrong.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A critic's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Keep the tuple as is.
    Keep,
    /// Keep it with a reworded instruction (`revised_query`).
    ModifyQuery,
    /// Leave it out.
    Reject,
}

impl Verdict {
    /// The JSON name.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Keep => "keep",
            Verdict::ModifyQuery => "modify_query",
            Verdict::Reject => "reject",
        }
    }
}

/// Severity rubric: P0 fatal … P3 cosmetic. Ordered so that `max` is the most severe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Severity {
    /// No meaningful issue.
    P3,
    /// Minor flaw.
    P2,
    /// Serious defect.
    P1,
    /// Broken or exploitable.
    P0,
}

impl Severity {
    /// `P0`..`P3`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::P0 => "P0",
            Severity::P1 => "P1",
            Severity::P2 => "P2",
            Severity::P3 => "P3",
        }
    }

    /// Parses `P0`..`P3`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "P0" => Some(Self::P0),
            "P1" => Some(Self::P1),
            "P2" => Some(Self::P2),
            "P3" => Some(Self::P3),
            _ => None,
        }
    }
}

/// One issue a critic found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Issue {
    /// Short issue type, e.g. `method_leak`.
    #[serde(rename = "type")]
    pub kind: String,
    /// low | medium | high.
    pub severity: IssueSeverity,
    /// What in the tuple shows it.
    pub evidence: String,
}

/// Severity of one issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueSeverity {
    /// Low.
    Low,
    /// Medium.
    Medium,
    /// High.
    High,
}

/// How well the tuple fits a training pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PoolFit {
    /// Good.
    Good,
    /// Borderline.
    Borderline,
    /// Poor.
    Poor,
}

/// One validated critic vote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CriticVote {
    /// keep | modify_query | reject.
    pub verdict: Verdict,
    /// P0..P3.
    pub severity: Severity,
    /// Whether rewording the instruction alone fixes every issue.
    pub can_fix_with_query_only: bool,
    /// Problems with the instruction.
    pub query_issues: Vec<Issue>,
    /// Problems with the setup or the reward.
    pub setup_reward_risks: Vec<Issue>,
    /// good | borderline | poor.
    pub training_pool_fit: PoolFit,
    /// 0.0–1.0.
    pub confidence: f64,
    /// Why, briefly.
    pub reasoning_summary: String,
    /// The reworded instruction (non-empty exactly when `verdict` is `modify_query`).
    #[serde(default)]
    pub revised_query: String,
}

/// Why a reply is not a valid vote.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VoteError {
    /// No JSON object could be found in the reply.
    #[error("the reply contains no JSON object: {0}")]
    NoJson(String),
    /// A field is missing or has the wrong type/value.
    #[error("field `{field}`: {message}")]
    Field {
        /// Path of the field, e.g. `query_issues[1].severity`.
        field: String,
        /// What was wrong.
        message: String,
    },
}

pub use tuplewright_models::providers::reply::extract_object;

/// Parses and validates a critic's reply.
pub fn parse_vote(reply: &str) -> Result<CriticVote, VoteError> {
    let obj = extract_object(reply)
        .ok_or_else(|| VoteError::NoJson(tuplewright_models::providers::excerpt(reply, 120)))?;
    let value: Value =
        serde_json::from_str(obj).map_err(|e| VoteError::NoJson(format!("invalid JSON ({e})")))?;
    validate_vote(&value)
}

/// Validates a vote already parsed as JSON.
pub fn validate_vote(value: &Value) -> Result<CriticVote, VoteError> {
    let vote: CriticVote = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        VoteError::Field {
            field: if path == "." { "(object)".into() } else { path },
            message: e.into_inner().to_string(),
        }
    })?;
    let field = |f: &str, m: String| VoteError::Field {
        field: f.into(),
        message: m,
    };
    if !(0.0..=1.0).contains(&vote.confidence) || vote.confidence.is_nan() {
        return Err(field(
            "confidence",
            format!("{} is not in [0, 1]", vote.confidence),
        ));
    }
    let revised = vote.revised_query.trim();
    match vote.verdict {
        Verdict::ModifyQuery if revised.is_empty() => Err(field(
            "revised_query",
            "empty, but the verdict is modify_query".into(),
        )),
        Verdict::Keep | Verdict::Reject if !revised.is_empty() => Err(field(
            "revised_query",
            format!(
                "must be empty unless the verdict is modify_query (verdict {})",
                vote.verdict.as_str()
            ),
        )),
        _ => Ok(vote),
    }
}
