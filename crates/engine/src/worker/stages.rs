//! The stages a worker runs on a claimed task (`--stages loop,filter,rollout,verify`), in
//! pipeline order and under the one lease it claimed: the agreement loop on a `pending` /
//! `in_loop` task, then the critic vote on a `loop_accepted` tuple ([`filter_task`]), the
//! configured rollout policy on a `voted` one ([`rollout_task`]), and the replay check
//! ([`verify_task`]). Each stage runs only when the tuple's status is one it takes and it has not
//! already run for the tuple's current round — the filter moves the status on; a rollout counts as
//! done when trials were stored after the latest loop round; a verify when the latest round is a
//! `verify` replay — so a task taken over from a killed worker continues where it stopped and a
//! stage never runs twice. A stage's infrastructure failure ends the chain (retried later with
//! backoff, never scored); the stage engines are the ones `filter`, `rollout` and `verify` use.

use std::path::PathBuf;
use std::time::Duration;

use crate::harness::task::LoopRuntime;
use crate::harness::verify::verify_task;
use crate::harness::{Bus, HarnessError};
use crate::rollout::policy::Policy;
use crate::rollout::stage::{rollout_task, StageOptions};
use crate::rollout::RolloutError;
use tuplewright_base::store::db::params;
use tuplewright_base::store::{Store, StoreError, TupleStatus};
use tuplewright_records::filter::aggregate::Quorum;
use tuplewright_records::filter::critic::Critic;
use tuplewright_records::filter::run::filter_task;
use tuplewright_records::filter::FilterError;

/// One stage of the pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The agreement loop.
    Loop,
    /// The critic vote.
    Filter,
    /// Rollouts of the configured policy.
    Rollout,
    /// The replay check (C1–C5, determinism, probes).
    Verify,
}

impl Stage {
    /// Every stage, in pipeline order.
    pub const ALL: [Stage; 4] = [Stage::Loop, Stage::Filter, Stage::Rollout, Stage::Verify];

    /// `loop`, `filter`, `rollout`, `verify`.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Loop => "loop",
            Stage::Filter => "filter",
            Stage::Rollout => "rollout",
            Stage::Verify => "verify",
        }
    }

    /// The stage named `s`.
    pub fn parse(s: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|x| x.as_str() == s.trim())
    }

    /// The statuses of the tuples this stage takes.
    pub fn takes(self) -> &'static [TupleStatus] {
        match self {
            Stage::Loop => &[TupleStatus::Pending, TupleStatus::InLoop],
            Stage::Filter => &[TupleStatus::LoopAccepted],
            Stage::Rollout => &[TupleStatus::Voted],
            Stage::Verify => &[
                TupleStatus::LoopAccepted,
                TupleStatus::Voted,
                TupleStatus::Final,
            ],
        }
    }
}

/// What the stages after the loop need (those not wanted are `None`).
#[derive(Default)]
pub struct PostStages<'a> {
    /// The critics and quorum of the vote.
    pub filter: Option<(&'a [Box<dyn Critic>], Quorum)>,
    /// The rollout policy and options.
    pub rollout: Option<(&'a dyn Policy, StageOptions<'a>)>,
    /// Whether to verify.
    pub verify: bool,
    /// The store (and busy timeout) the vote opens its own connection on.
    pub store: Option<(PathBuf, Duration)>,
}

impl PostStages<'_> {
    /// The stages these are, after `loop` when `with_loop`.
    pub fn stages(&self, with_loop: bool) -> Vec<Stage> {
        let mut v = Vec::new();
        if with_loop {
            v.push(Stage::Loop);
        }
        if self.filter.is_some() {
            v.push(Stage::Filter);
        }
        if self.rollout.is_some() {
            v.push(Stage::Rollout);
        }
        if self.verify {
            v.push(Stage::Verify);
        }
        v
    }
}

/// How one post-loop stage ended.
#[derive(Debug, Clone, PartialEq)]
pub enum StageRun {
    /// Not for this tuple now (status, or already done for its current round).
    Skipped,
    /// Ran; a one-line result.
    Ran(String),
    /// Infrastructure failed: retry later, never scored.
    Infra(String),
    /// The tuple cannot go through this stage (left for a person).
    Invalid(String),
}

/// Whether `stage` already ran for the tuple's current round (see the module doc).
pub fn already_done(store: &Store, stage: Stage, task: &str) -> Result<bool, StoreError> {
    let c = store.conn();
    match stage {
        Stage::Loop | Stage::Filter => Ok(false),
        Stage::Rollout => c.query_row(
            "SELECT EXISTS (SELECT 1 FROM rollouts o WHERE o.task_id = ?1 AND o.created_at >= \
             (SELECT MAX(r.finished_at) FROM rounds r WHERE r.task_id = ?1 AND r.source <> 'verify'))",
            params![task],
            |r| r.get(0),
        ),
        Stage::Verify => c.query_row(
            "SELECT COALESCE((SELECT source = 'verify' FROM rounds WHERE task_id = ?1 \
             ORDER BY id DESC LIMIT 1), FALSE)",
            params![task],
            |r| r.get(0),
        ),
    }
}

/// Runs one post-loop stage on `task` if its status is one the stage takes and it has not run for
/// the current round.
pub fn run_stage(
    stage: Stage,
    post: &PostStages<'_>,
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    task: &str,
) -> Result<StageRun, StoreError> {
    let status = bus.read(|s| s.effective_status(task))?;
    let eligible = stage.takes().iter().any(|s| s.as_str() == status);
    if !eligible || bus.read(|s| already_done(s, stage, task))? {
        return Ok(StageRun::Skipped);
    }
    Ok(match stage {
        Stage::Loop => StageRun::Skipped,
        Stage::Filter => {
            let (Some((critics, quorum)), Some((path, busy))) = (&post.filter, &post.store) else {
                return Ok(StageRun::Skipped);
            };
            let mut store = Store::open(path, *busy)?;
            match filter_task(&mut store, critics, *quorum, task) {
                Ok(v) => StageRun::Ran(format!("vote {:?}", v.aggregate.outcome)),
                Err(FilterError::Store(e)) => StageRun::Infra(e.to_string()),
                Err(FilterError::NotEligible { .. }) => StageRun::Skipped,
                Err(e) => StageRun::Invalid(e.to_string()),
            }
        }
        Stage::Rollout => {
            let Some((policy, opts)) = &post.rollout else {
                return Ok(StageRun::Skipped);
            };
            match rollout_task(rt, bus, task, *policy, opts) {
                Ok(r) => StageRun::Ran(format!("{} trial(s)", r.trials.len())),
                Err(RolloutError::Task(m)) => StageRun::Invalid(m),
                Err(e) => StageRun::Infra(e.to_string()),
            }
        }
        Stage::Verify => match verify_task(rt, bus, task) {
            Ok(v) => StageRun::Ran(format!("verified: {}", v.status)),
            Err(HarnessError::Task(m)) => StageRun::Invalid(m),
            Err(e) => StageRun::Infra(e.to_string()),
        },
    })
}
