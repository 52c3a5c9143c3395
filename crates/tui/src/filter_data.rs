//! What the Filter screen reads (votes, the aggregate, the effective outcome, the decision history)
//! and how it writes: every decision goes through the engine's one decision interface
//! ([`tuplewright_records::filter::apply`]), as `tuplewright override` and the rules file do. Runs on the
//! store worker, never on the draw path.

use serde_json::Value;
use tuplewright_base::store::db::{params, OptionalExt};

use tuplewright_base::store::{Decision, DecisionSource, Store, StoreError, Vote};
use tuplewright_records::filter::aggregate::{aggregate, Aggregate, Ballot, Quorum};
use tuplewright_records::filter::decide::OUTCOME_EVENT;
use tuplewright_records::filter::{
    apply, effective_outcome, Action, CriticVote, DecisionRequest, FilterError, FilterRecord,
};

/// The statuses of the decision queue: tuples a curator still has to decide (the same default
/// queue the rules file decides).
pub const QUEUE: &[&str] = &["needs_human"];

/// True when a tuple in `status` waits for a curator's decision.
pub fn needs_decision(status: &str) -> bool {
    QUEUE.contains(&status)
}

/// One critic's vote as shown (valid or failed).
#[derive(Debug, Clone, PartialEq)]
pub struct VoteRow {
    /// Critic name.
    pub critic: String,
    /// Model behind it (`None` for heuristics).
    pub model: Option<String>,
    /// keep | modify_query | reject | failed.
    pub verdict: String,
    /// P0..P3 (`None` for a failed vote).
    pub severity: Option<String>,
    /// 0.0–1.0.
    pub confidence: Option<f64>,
    /// Issues found, one line each (`type (severity): evidence`).
    pub issues: Vec<String>,
    /// The critic's reasoning summary, or the failure.
    pub reasoning: String,
    /// The revised query (modify_query votes).
    pub revised_query: String,
    /// True for heuristic critics (labelled as such).
    pub heuristic: bool,
}

/// The best revised query among the votes: the highest-confidence modify_query vote.
#[derive(Debug, Clone, PartialEq)]
pub struct BestRevision {
    /// The critic that proposed it.
    pub critic: String,
    /// Its confidence.
    pub confidence: f64,
    /// The revised query.
    pub query: String,
}

/// Everything the Filter screen shows for one tuple.
#[derive(Debug, Clone, PartialEq)]
pub struct FilterData {
    /// The task.
    pub task_id: String,
    /// The original instruction.
    pub instruction: String,
    /// Current status.
    pub status: String,
    /// Every vote, oldest first.
    pub votes: Vec<VoteRow>,
    /// The aggregate of the votes as the critics' decision recorded it (else computed by the
    /// engine's rules over the stored ballots), if any.
    pub aggregate: Option<Aggregate>,
    /// The filter outcome in force.
    pub outcome: Option<FilterRecord>,
    /// Every decision, oldest first.
    pub history: Vec<Decision>,
    /// The highest-confidence revised query, if any vote modifies.
    pub best_revision: Option<BestRevision>,
}

/// A decision (or undo) asked for from the workbench.
#[derive(Debug, Clone, PartialEq)]
pub struct DecideCmd {
    /// The task.
    pub task_id: String,
    /// What to do (`Undo` undoes the latest decision not yet undone).
    pub action: Action,
    /// Why.
    pub reason: String,
    /// Who (see [`tuplewright_records::filter::decide::human_actor`]).
    pub actor: String,
}

/// What became of a [`DecideCmd`].
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// The command.
    pub cmd: DecideCmd,
    /// The decision appended, or why nothing was written.
    pub result: Result<Decision, String>,
}

fn vote_row(v: &Vote) -> VoteRow {
    let j = &v.vote;
    let s = |k: &str| j.get(k).and_then(Value::as_str).unwrap_or_default();
    let issues = ["query_issues", "setup_reward_risks"]
        .iter()
        .flat_map(|k| j.get(*k).and_then(Value::as_array).into_iter().flatten())
        .map(|i| {
            let f = |k: &str| i.get(k).and_then(Value::as_str).unwrap_or_default();
            format!("{} ({}): {}", f("type"), f("severity"), f("evidence"))
        })
        .collect();
    let failed = s("verdict") == "failed";
    VoteRow {
        critic: v.critic.clone(),
        model: v.model.clone(),
        verdict: s("verdict").to_string(),
        severity: (!failed).then(|| s("severity").to_string()),
        confidence: j.get("confidence").and_then(Value::as_f64),
        issues,
        reasoning: if failed {
            format!("failed: {}", s("error"))
        } else {
            s("reasoning_summary").to_string()
        },
        revised_query: s("revised_query").to_string(),
        heuristic: j.get("heuristic").and_then(Value::as_bool).unwrap_or(false),
    }
}

/// The latest aggregate recorded with a critic decision (what the critics' decision used), if any.
fn recorded_aggregate(store: &Store, task_id: &str) -> Result<Option<Value>, StoreError> {
    let payload: Option<String> = store
        .conn()
        .query_row(
            "SELECT payload FROM events WHERE kind = ?1 AND task_id = ?2 \
             AND json_extract(payload, '$.aggregate') IS NOT NULL ORDER BY seq DESC LIMIT 1",
            params![OUTCOME_EVENT, task_id],
            |r| r.get(0),
        )
        .optional()?;
    let Some(p) = payload else { return Ok(None) };
    let mut v: Value = serde_json::from_str(&p)?;
    Ok(Some(v["aggregate"].take()))
}

/// Loads the Filter screen's data for one tuple.
pub fn load_filter(store: &Store, task_id: &str) -> Result<FilterData, StoreError> {
    let task = store.task(task_id)?;
    let stored = store.votes(task_id)?;
    let votes: Vec<VoteRow> = stored.iter().map(vote_row).collect();
    // The aggregate comes from the engine's own rules over the stored ballots.
    let ballots: Vec<Ballot> = stored
        .iter()
        .map(
            |v| match serde_json::from_value::<CriticVote>(v.vote.clone()) {
                Ok(cv) => Ballot::Valid(cv),
                Err(_) => Ballot::Failed(
                    v.vote["error"]
                        .as_str()
                        .unwrap_or("invalid vote")
                        .to_string(),
                ),
            },
        )
        .collect();
    // The aggregate the critics' decision recorded; without one (or in an unknown shape), the
    // engine's rules over the stored ballots with the recorded quorum (else the strict default).
    // (A critic decision stores its votes in the same transaction: no votes, no aggregate — and no
    // scan of the event log, which has no index on task_id.)
    let recorded = if stored.is_empty() {
        None
    } else {
        recorded_aggregate(store, task_id)?
    };
    let quorum = recorded
        .as_ref()
        .and_then(|a| a["quorum"].as_u64())
        .map_or(Quorum::Strict, |q| Quorum::Fixed(q as usize));
    let agg = match recorded.and_then(|a| serde_json::from_value::<Aggregate>(a).ok()) {
        Some(a) => Some(a),
        None => (!ballots.is_empty()).then(|| aggregate(&ballots, quorum)),
    };
    let best_revision = ballots
        .iter()
        .zip(&stored)
        .filter_map(|(b, v)| match b {
            Ballot::Valid(cv)
                if cv.verdict == tuplewright_records::filter::Verdict::ModifyQuery =>
            {
                Some((cv, v))
            }
            _ => None,
        })
        .max_by(|a, b| a.0.confidence.total_cmp(&b.0.confidence))
        .map(|(cv, v)| BestRevision {
            critic: v.critic.clone(),
            confidence: cv.confidence,
            query: cv.revised_query.trim().to_string(),
        });
    Ok(FilterData {
        task_id: task_id.to_string(),
        instruction: task.task.instruction,
        status: task.status,
        votes,
        aggregate: agg,
        outcome: effective_outcome(store, task_id)?,
        history: store.decisions(task_id)?,
        best_revision,
    })
}

/// Applies a workbench decision through the engine's decision interface (one transaction: a
/// failure writes nothing).
pub fn decide(store: &mut Store, cmd: &DecideCmd) -> Result<Decision, FilterError> {
    apply(
        store,
        &DecisionRequest {
            task_id: &cmd.task_id,
            action: cmd.action.clone(),
            actor: &cmd.actor,
            source: DecisionSource::Human,
            reason: &cmd.reason,
            aggregate: None,
        },
    )
}
