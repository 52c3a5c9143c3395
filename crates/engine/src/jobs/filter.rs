//! The `filter` job: the critic vote on loop-accepted tuples, one tuple after another under a
//! [`JobControl`] (pause / cancel between tuples), the same for `tuplewright filter` and the
//! workbench's `vote` action. Each tuple's votes and aggregate are one transaction
//! ([`filter_task`]).

use std::path::PathBuf;

use serde_json::json;

use crate::config::Config;
use crate::harness::{Bus, JobControl};
use tuplewright_base::store::{Store, TaskFilter, TupleStatus};
use tuplewright_models::providers::{provider_from_spec, ProviderConfig};
use tuplewright_records::filter::llm::LlmCritic;
use tuplewright_records::filter::scripted::ScriptedCritic;
use tuplewright_records::filter::{
    filter_task, Critic, FilterError, Outcome, Quorum, TupleVerdict,
};

use super::each::each_controlled;
use super::{EventSink, Events, JobError, JobEventKind};

/// What a critic-vote job does, typed.
#[derive(Debug, Clone)]
pub struct FilterSpec {
    /// The tuples; empty = every tuple in `loop_accepted`.
    pub tasks: Vec<String>,
    /// Voters: `scripted`, `openai:MODEL[@URL]`, `anthropic:MODEL`.
    pub voters: Vec<String>,
    /// `strict`, `paper` or a number.
    pub quorum: String,
    /// Retries of an invalid critic reply.
    pub retries: u32,
    /// Directory holding critic.md.
    pub prompts: PathBuf,
}

impl FilterSpec {
    /// The vote of `[filter]` on `tasks` (empty = every loop-accepted tuple).
    pub fn from_config(config: &Config, tasks: Vec<String>) -> Self {
        FilterSpec {
            tasks,
            voters: config.filter.voters.clone(),
            quorum: config.filter.quorum.clone(),
            retries: config.filter.max_invalid_retries,
            prompts: crate::agents::build::prompts_dir(None, "critic.md"),
        }
    }

    /// The quorum, checked against the number of voters.
    pub fn quorum(&self) -> Result<Quorum, JobError> {
        let q = Quorum::parse(&self.quorum)
            .map_err(|why| JobError::Spec(format!("quorum {}: {why}", self.quorum)))?;
        let needed = q.required(self.voters.len());
        if self.voters.is_empty() || needed > self.voters.len() {
            return Err(JobError::Spec(format!(
                "quorum {} needs {needed} admitting votes but there are only {} voters",
                self.quorum,
                self.voters.len()
            )));
        }
        Ok(q)
    }

    /// The voters the spec names.
    pub fn build_critics(&self) -> Result<Vec<Box<dyn Critic>>, JobError> {
        build_critics(&self.voters, &self.prompts, self.retries)
    }
}

/// Builds the named voters (`scripted` or a provider spec).
pub fn build_critics(
    voters: &[String],
    prompts: &std::path::Path,
    retries: u32,
) -> Result<Vec<Box<dyn Critic>>, JobError> {
    let defaults = ProviderConfig::default();
    voters
        .iter()
        .map(|v| -> Result<Box<dyn Critic>, JobError> {
            if v == "scripted" {
                return Ok(Box::new(ScriptedCritic));
            }
            let bad = |why: String| JobError::Spec(format!("voter {v}: {why}"));
            let p = provider_from_spec(v, &defaults).map_err(|e| bad(e.to_string()))?;
            let c = LlmCritic::new(p, prompts, retries).map_err(|e| bad(e.to_string()))?;
            Ok(Box::new(c))
        })
        .collect()
}

/// One tuple's vote: its verdict, or why it was not voted on.
pub type Voted = Result<TupleVerdict, FilterError>;

/// The outcome word of one tuple's vote (counted in `job.finished`).
pub fn outcome_word(r: &Result<TupleVerdict, FilterError>) -> &'static str {
    match r {
        Ok(v) => match v.aggregate.outcome {
            Outcome::Keep => "kept",
            Outcome::ModifyQuery { .. } => "modified",
            Outcome::Reject { .. } => "rejected",
            Outcome::Undecided => "undecided",
        },
        Err(FilterError::NotEligible { .. }) => "skipped",
        Err(_) => "failed",
    }
}

/// The tuples a spec votes on: its own, else every loop-accepted tuple.
pub fn targets(store: &Store, spec: &FilterSpec) -> Result<Vec<String>, JobError> {
    if !spec.tasks.is_empty() {
        return Ok(spec.tasks.clone());
    }
    let filter = TaskFilter {
        status: Some(TupleStatus::LoopAccepted.as_str().into()),
        ..TaskFilter::default()
    };
    let rows = store
        .list_tasks(&filter)
        .map_err(|e| JobError::Spec(format!("listing loop-accepted tuples: {e}")))?;
    Ok(rows.into_iter().map(|t| t.task.task_id).collect())
}

/// Votes on the spec's tuples; `store` records the votes, `bus` the job's events.
pub fn run(
    spec: &FilterSpec,
    store: &mut Store,
    bus: &Bus,
    control: &JobControl,
    sink: EventSink<'_>,
) -> Result<Vec<(String, Voted)>, JobError> {
    let quorum = spec.quorum()?;
    let critics = spec.build_critics()?;
    let ids = targets(store, spec)?;
    let events = Events::new(sink);
    let extra = json!({"voters": spec.voters, "quorum": spec.quorum});
    Ok(each_controlled(bus, control, "filter", extra, &ids, |id| {
        let r = filter_task(store, &critics, quorum, id);
        let word = outcome_word(&r);
        events.emit(JobEventKind::TupleDone {
            task: id.to_string(),
            outcome: word,
        });
        (r, word)
    }))
}
