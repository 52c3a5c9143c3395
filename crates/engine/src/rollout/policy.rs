//! The policy interface and the two built-in probes.
//!
//! A [`Policy`] acts on an environment that `initial_setup.py` has just brought to s_init, then
//! returns what it did; the harness scores the final state itself. [`PolicyKind::Probe`] policies
//! check the tuple (`oracle` must reach 1.0, `noop` must score 0.0) and never move its status;
//! [`PolicyKind::Teacher`] policies feed the A.4.2 inclusion rule.

use std::sync::atomic::AtomicBool;

use serde::Serialize;
use serde_json::json;

use crate::agents::TaskBrief;
use crate::harness::execute::{describe, tail, Runner};
use crate::harness::TaskEnv;
use crate::sandbox::{Limits, Role};
use tuplewright_base::store::Scripts;

use super::RolloutError;

/// Probe or teacher.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicyKind {
    /// A check of the tuple with a known expected score; never moves the status.
    Probe {
        /// The score every trial must reach.
        expected: f64,
    },
    /// A policy whose scores decide inclusion (A.4.2).
    Teacher,
}

/// What a policy may use during one trial.
pub struct PolicyCtx<'a> {
    /// The task (instruction, apps).
    pub brief: &'a TaskBrief,
    /// The trial's environment, already at s_init.
    pub env: &'a TaskEnv,
    /// Sandbox access (for policies that run scripts).
    pub runner: &'a Runner<'a>,
    /// The tuple's scripts. Only the `oracle` reads them; an agent policy must not.
    pub scripts: &'a Scripts,
    /// Limits of one script run.
    pub limits: Limits,
    /// Trial number (1-based).
    pub trial: u32,
    /// Ctrl-C.
    pub cancel: &'a AtomicBool,
    /// Where a screen policy hands each step as it completes (the trial's live feed).
    pub feed: &'a dyn super::live_steps::StepSink,
}

/// What a policy did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PolicyRun {
    /// Actions taken (free-form JSON; screen policies record [`super::screen::ComputerAction`]s).
    pub actions: Vec<serde_json::Value>,
    /// Transcript or log (head and tail kept).
    pub transcript: String,
    /// Model behind the policy, if any, and its tokens and cost.
    pub usage: crate::agents::Usage,
    /// Screen policies: every action with its time, error and screenshot, in order.
    pub steps: Vec<super::ui_plan::Step>,
}

/// A policy acting on one environment.
pub trait Policy: Send + Sync {
    /// Name recorded with each trial (`oracle`, `noop`, `command:...`).
    fn name(&self) -> String;
    /// Probe or teacher.
    fn kind(&self) -> PolicyKind;
    /// Acts on `ctx.env`. A failure to act is an error, never a score.
    fn act(&self, ctx: &PolicyCtx<'_>) -> Result<PolicyRun, RolloutError>;
}

/// Replays the golden patch in the golden role: the upper bound proving the reward is reachable.
pub struct OraclePolicy;

impl Policy for OraclePolicy {
    fn name(&self) -> String {
        "oracle".into()
    }
    fn kind(&self) -> PolicyKind {
        PolicyKind::Probe { expected: 1.0 }
    }
    fn act(&self, ctx: &PolicyCtx<'_>) -> Result<PolicyRun, RolloutError> {
        let golden = ctx
            .scripts
            .golden
            .as_deref()
            .ok_or_else(|| RolloutError::Task("the tuple has no golden_patch.py".into()))?;
        let r = ctx.runner.run(
            ctx.env,
            Role::Golden,
            "golden_patch.py",
            golden,
            &ctx.limits,
        )?;
        if !r.succeeded() {
            return Err(RolloutError::Policy(format!(
                "golden_patch.py did not complete ({}): {}",
                describe(&r.outcome).unwrap_or_default(),
                tail(&r.stderr.text, 3)
            )));
        }
        Ok(PolicyRun {
            actions: vec![json!({"run": "golden_patch.py", "role": "golden"})],
            transcript: tuplewright_models::providers::head_tail(&r.stdout.text, 4000),
            usage: Default::default(),
            steps: Vec::new(),
        })
    }
}

/// Does nothing: every trial must score 0.
pub struct NoopPolicy;

impl Policy for NoopPolicy {
    fn name(&self) -> String {
        "noop".into()
    }
    fn kind(&self) -> PolicyKind {
        PolicyKind::Probe { expected: 0.0 }
    }
    fn act(&self, _: &PolicyCtx<'_>) -> Result<PolicyRun, RolloutError> {
        Ok(PolicyRun::default())
    }
}
