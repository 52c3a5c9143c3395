//! One tuple through the critic ensemble: build the input from the tuple's final round, ask every
//! critic, then in ONE transaction store every vote (failed ones included), the token usage, and
//! the aggregate as a decision (loop_accepted → voted | vote_rejected | needs_human).

use serde::Serialize;
use serde_json::json;

use tuplewright_base::store::final_round;
use tuplewright_base::store::{Decision, DecisionSource, Store, TupleStatus, Usage, Vote};

use super::aggregate::{aggregate, Aggregate, Ballot, Outcome, Quorum};
use super::critic::{Critic, CriticInput, Review};
use super::decide::{apply_in, Action, DecisionRequest};
use super::FilterError;

/// Actor name of the aggregate's decisions.
pub const ACTOR: &str = "critic-vote";

/// What filtering one tuple did.
#[derive(Debug, Clone, Serialize)]
pub struct TupleVerdict {
    /// The task.
    pub task_id: String,
    /// The aggregate.
    pub aggregate: Aggregate,
    /// The decision recorded.
    pub decision: Decision,
}

/// The critic input of a stored tuple (its final round's scripts).
pub fn critic_input(store: &Store, task_id: &str) -> Result<CriticInput, FilterError> {
    let task = store.task(task_id)?;
    let rounds = store.rounds(task_id)?;
    let round = final_round(&rounds).ok_or_else(|| FilterError::NoScripts(task_id.into()))?;
    let s = &round.round.scripts;
    let runs = &round.round.reward_runs;
    let last = |ep: &str| runs.iter().rev().find(|r| r.endpoint == ep);
    let golden_components = last("golden").and_then(|r| {
        r.components.as_array().map(|cs| {
            cs.iter()
                .filter_map(|c| c.get("name").and_then(|n| n.as_str()).map(str::to_string))
                .collect()
        })
    });
    Ok(CriticInput {
        task_id: task_id.to_string(),
        instruction: task.task.instruction,
        setup: s.setup.clone().unwrap_or_default(),
        golden: s.golden.clone().unwrap_or_default(),
        reward: s.reward.clone().unwrap_or_default(),
        golden_components,
        initial_reward: last("initial").and_then(|r| r.reward),
    })
}

/// Votes on one tuple in status `loop_accepted` and records everything.
pub fn filter_task(
    store: &mut Store,
    critics: &[Box<dyn Critic>],
    quorum: Quorum,
    task_id: &str,
) -> Result<TupleVerdict, FilterError> {
    let status = store.task(task_id)?.status;
    if status != TupleStatus::LoopAccepted.as_str() {
        return Err(FilterError::NotEligible {
            task: task_id.into(),
            status,
        });
    }
    let input = critic_input(store, task_id)?;
    // Voters are independent: ask them all at once.
    let reviews: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = critics
            .iter()
            .map(|c| (c, s.spawn(|| c.review(&input))))
            .collect();
        handles
            .into_iter()
            .map(|(c, h)| {
                let review = h.join().unwrap_or_else(|_| Review {
                    ballot: Ballot::Failed("the critic panicked".into()),
                    raw: String::new(),
                    attempts: 0,
                    input_tokens: 0,
                    output_tokens: 0,
                    cost_usd: 0.0,
                });
                (c, review)
            })
            .collect()
    });
    let ballots: Vec<Ballot> = reviews.iter().map(|(_, r)| r.ballot.clone()).collect();
    let agg = aggregate(&ballots, quorum);
    let llm = critics.iter().any(|c| !c.is_heuristic());
    let (action, reason) = match &agg.outcome {
        Outcome::Keep => (Action::Keep, "critic majority keeps the tuple".to_string()),
        Outcome::ModifyQuery { revised_query } => (
            Action::ModifyQuery(revised_query.clone()),
            "critic majority modifies the query (highest-confidence revision)".to_string(),
        ),
        Outcome::Reject { why } => (Action::Reject, format!("critics reject: {why}")),
        Outcome::Undecided => (
            Action::Queue,
            format!(
                "undecided: {} valid vote(s) of {} voters, quorum {}",
                agg.valid, agg.voters, agg.quorum
            ),
        ),
    };
    let summary = format!(
        "{reason} (keep {}, modify {}, reject {}, failed {})",
        agg.keep,
        agg.modify_query,
        agg.reject,
        agg.voters - agg.valid
    );
    let decided = store.write(|tx| {
        for (critic, review) in &reviews {
            let mut vote = match &review.ballot {
                Ballot::Valid(v) => {
                    serde_json::to_value(v).map_err(tuplewright_base::store::StoreError::from)?
                }
                Ballot::Failed(e) => json!({"verdict": "failed", "error": e,
                    "raw_excerpt": tuplewright_models::providers::excerpt(&review.raw, 400)}),
            };
            vote["heuristic"] = json!(critic.is_heuristic());
            vote["attempts"] = json!(review.attempts);
            tx.record_vote(&Vote {
                task_id: task_id.into(),
                critic: critic.name(),
                model: (!critic.is_heuristic()).then(|| critic.name()),
                vote,
                created_at: None,
            })?;
            if review.input_tokens + review.output_tokens > 0 {
                tx.record_usage(
                    Some(task_id),
                    None,
                    &Usage {
                        stage: "critic".into(),
                        model: critic.name(),
                        input_tokens: review.input_tokens as i64,
                        output_tokens: review.output_tokens as i64,
                        cost_usd: Some(review.cost_usd),
                    },
                )?;
            }
        }
        // Re-checked under the write lock: if a person decided while the critics ran, the votes
        // are kept but the aggregate does not overwrite that decision.
        let now = tx.task(task_id)?.map(|t| t.status).unwrap_or_default();
        if now != TupleStatus::LoopAccepted.as_str() {
            return Ok(Err(now));
        }
        apply_in(
            tx,
            &DecisionRequest {
                task_id,
                action,
                actor: ACTOR,
                source: if llm {
                    DecisionSource::Llm
                } else {
                    DecisionSource::Policy
                },
                reason: &summary,
                aggregate: Some(&agg),
            },
        )
        .map(Ok)
    })?;
    let decision = decided.map_err(|status| FilterError::NotEligible {
        task: task_id.into(),
        status,
    })?;
    Ok(TupleVerdict {
        task_id: task_id.into(),
        aggregate: agg,
        decision,
    })
}
