//! Majority-vote aggregation (paper A.4.1, issue 6).
//!
//! With V voters and quorum q: fewer than q valid votes → [`Outcome::Undecided`] (queued for a
//! human, never kept); at least q votes saying keep or modify_query → admitted, else rejected. Among
//! the admitting votes, a majority of modify_query releases the highest-confidence `revised_query`,
//! a majority of keep the original instruction, and a tie between the two rejects ("ties default to
//! rejection"). The severity is the most severe any valid voter gave.

use serde::{Deserialize, Serialize};

use super::vote::{CriticVote, PoolFit, Severity, Verdict};

/// How many admitting votes a tuple needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quorum {
    /// Strict majority: ⌊V/2⌋+1 (default).
    Strict,
    /// As printed in A.4.1: ⌈V/2⌉+1.
    Paper,
    /// A fixed number.
    Fixed(usize),
}

impl Quorum {
    /// Parses `strict`, `paper` or a positive number.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "strict" => Ok(Self::Strict),
            "paper" => Ok(Self::Paper),
            n => match n.parse::<usize>() {
                Ok(0) | Err(_) => Err(format!(
                    "quorum {n:?}: expected `strict`, `paper` or a positive number"
                )),
                Ok(n) => Ok(Self::Fixed(n)),
            },
        }
    }

    /// The number of admitting votes needed out of `voters`.
    pub fn required(self, voters: usize) -> usize {
        match self {
            Self::Strict => voters / 2 + 1,
            Self::Paper => voters.div_ceil(2) + 1,
            Self::Fixed(n) => n,
        }
    }
}

/// One voter's result: a valid vote, or a failure (kept for the record, never counted).
#[derive(Debug, Clone, PartialEq)]
pub enum Ballot {
    /// A valid vote.
    Valid(CriticVote),
    /// The critic failed (provider down, invalid replies after retries).
    Failed(String),
}

/// What the ensemble decided.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Outcome {
    /// Admitted with the original instruction.
    Keep,
    /// Admitted with a reworded instruction.
    ModifyQuery {
        /// The highest-confidence revised query among modifying voters.
        revised_query: String,
    },
    /// Rejected.
    Reject {
        /// Why (not enough admitting votes, or a keep/modify tie).
        why: String,
    },
    /// Too few valid votes: a human decides.
    Undecided,
}

/// The aggregate of one tuple's ballots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Aggregate {
    /// The decision.
    pub outcome: Outcome,
    /// Voters (ballots, failed ones included).
    pub voters: usize,
    /// Valid votes.
    pub valid: usize,
    /// Admitting votes needed.
    pub quorum: usize,
    /// keep votes.
    pub keep: usize,
    /// modify_query votes.
    pub modify_query: usize,
    /// reject votes.
    pub reject: usize,
    /// Most severe severity of any valid vote.
    pub severity: Option<Severity>,
    /// True when most valid votes judge the pool fit poor.
    pub train_poor_fit: bool,
}

/// Aggregates the ballots of one tuple.
pub fn aggregate(ballots: &[Ballot], quorum: Quorum) -> Aggregate {
    let valid: Vec<&CriticVote> = ballots
        .iter()
        .filter_map(|b| match b {
            Ballot::Valid(v) => Some(v),
            Ballot::Failed(_) => None,
        })
        .collect();
    let count = |x: Verdict| valid.iter().filter(|v| v.verdict == x).count();
    let (keep, modify, reject) = (
        count(Verdict::Keep),
        count(Verdict::ModifyQuery),
        count(Verdict::Reject),
    );
    let q = quorum.required(ballots.len());
    let poor = valid
        .iter()
        .filter(|v| v.training_pool_fit == PoolFit::Poor)
        .count();
    let outcome = if valid.len() < q {
        Outcome::Undecided
    } else if keep + modify < q {
        Outcome::Reject {
            why: format!("{} admitting votes of {q} needed", keep + modify),
        }
    } else if modify > keep {
        let best = valid
            .iter()
            .filter(|v| v.verdict == Verdict::ModifyQuery)
            .max_by(|a, b| a.confidence.total_cmp(&b.confidence));
        match best {
            Some(v) => Outcome::ModifyQuery {
                revised_query: v.revised_query.trim().to_string(),
            },
            None => Outcome::Undecided,
        }
    } else if keep > modify {
        Outcome::Keep
    } else {
        Outcome::Reject {
            why: format!("tie between keep and modify_query ({keep} each)"),
        }
    };
    Aggregate {
        outcome,
        voters: ballots.len(),
        valid: valid.len(),
        quorum: q,
        keep,
        modify_query: modify,
        reject,
        severity: valid.iter().map(|v| v.severity).max(),
        train_poor_fit: !valid.is_empty() && poor * 2 > valid.len(),
    }
}
