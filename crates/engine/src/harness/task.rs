//! The rounds of one task (at most K), and the decisions that move its status:
//! pending → in_loop → loop_accepted | loop_failed; an infra failure or Ctrl-C moves it back to
//! pending (resumable) and is never recorded as the task failing its conditions. A resumed task
//! continues from its last recorded round ([`super::resume`]).

use std::sync::atomic::AtomicBool;

use serde_json::json;
use tokio::runtime::Handle;

use crate::agents::{Discriminator, Generator, TaskBrief};
use crate::openenv::{AppResolver, Hints};
use crate::sandbox::{Isolation, SandboxConfig};
use tuplewright_base::store::{DecisionSource, Scripts, StoreError, StoredTask, TupleStatus, Tx};

use super::envs::Fleet;
use super::execute::Runner;
use super::resume::continuation;
use super::round::RoundCtx;
use super::{Bus, HarnessError, LoopConfig};

/// Shared, read-only context of a run.
pub struct LoopRuntime<'a> {
    /// Tokio runtime for the sandbox and servers.
    pub rt: Handle,
    /// State-API servers and work directory.
    pub fleet: &'a Fleet,
    /// Loop settings.
    pub cfg: &'a LoopConfig,
    /// Sandbox settings.
    pub sandbox: &'a SandboxConfig,
    /// Isolation mode (unsafe only when explicitly asked).
    pub isolation: Isolation,
    /// The Generator.
    pub generator: &'a dyn Generator,
    /// The Discriminator.
    pub discriminator: &'a dyn Discriminator,
    /// Ctrl-C flag.
    pub cancel: &'a AtomicBool,
}

/// How a task ended.
#[derive(Debug, Clone, PartialEq)]
pub enum TaskOutcome {
    /// All five conditions held in round `rounds`.
    Accepted {
        /// Rounds used.
        rounds: u32,
    },
    /// K rounds without agreement.
    Rejected {
        /// Rounds used.
        rounds: u32,
        /// Checks that failed in the last round: `C1`..`C5`, `probe:<name>`.
        failing: Vec<String>,
    },
    /// Infrastructure failure (left pending, resumable).
    Infra(String),
    /// The task's data cannot be run.
    Invalid(String),
    /// Ctrl-C (left pending, resumable).
    Cancelled,
}

const ACTOR: &str = "agreement-loop";

/// Builds what both agents may see of a task, its apps resolved with the built-in aliases (see
/// [`brief_for`]).
pub fn brief_of(task: &StoredTask, cfg: &LoopConfig) -> Result<TaskBrief, HarnessError> {
    let names = crate::env::AppRegistry::builtin()
        .map_err(|e| HarnessError::Infra(e.to_string()))?
        .names();
    brief_for(task, cfg, &AppResolver::builtin(names), None)
}

/// Builds what both agents may see of a task. Its app names are resolved by `resolver` (the
/// fleet's aliases and external apps); a category such as `mock_websites` becomes the apps the
/// task's texts and `scripts` (a stored round's, for `verify` and rollouts) reach.
pub fn brief_for(
    task: &StoredTask,
    cfg: &LoopConfig,
    resolver: &AppResolver,
    scripts: Option<&Scripts>,
) -> Result<TaskBrief, HarnessError> {
    let t = &task.task;
    let mut requested = t.labels.apps.clone();
    if requested.is_empty() {
        let tc = t.original_json.get("task_config.json");
        let domain = [Some(&t.original_json), tc]
            .into_iter()
            .flatten()
            .find_map(|j| j.get("domain").and_then(|d| d.as_str()));
        requested.extend(domain.map(str::to_string));
    }
    if requested.is_empty() {
        requested.extend(t.app_type.clone());
    }
    if requested.is_empty() {
        return Err(HarnessError::Task(format!(
            "task {}: no app to run on (set `domains` or `domain`)",
            t.task_id
        )));
    }
    let texts: Vec<&str> = scripts
        .into_iter()
        .flat_map(|s| [&s.setup, &s.golden, &s.reward])
        .filter_map(|s| s.as_deref())
        .collect();
    let hints = Hints::gather(&texts, &t.original_json);
    let apps = resolver
        .resolve(&t.task_id, &requested, &hints)
        .map_err(HarnessError::Task)?;
    let dir = cfg.resolved_skills_dir();
    let skills = apps
        .iter()
        .map(|a| {
            let text = std::fs::read_to_string(dir.join(a).join("SKILL.md"))
                .ok()
                .or_else(|| crate::apps::get(a).map(|p| p.app.skill_text().to_string()))
                .unwrap_or_default();
            (a.clone(), text)
        })
        .collect();
    Ok(TaskBrief {
        task_id: t.task_id.clone(),
        instruction: t.instruction.clone(),
        context: t.context.clone(),
        difficulty: t.labels.difficulty.clone().unwrap_or_default(),
        apps,
        skills,
        structured: t.original_json.clone(),
    })
}

/// A check run inside every write transaction of a task: the task's lease must still be ours
/// ([`tuplewright_base::lease::LeaseKeeper::fence`]); an error rolls the write back.
pub type Fence<'a> = &'a (dyn Fn(&Tx<'_>) -> Result<(), StoreError> + Sync);

fn decide(
    bus: &Bus,
    fence: Fence<'_>,
    task: &str,
    to: TupleStatus,
    reason: &str,
) -> Result<(), HarnessError> {
    bus.write(|tx| {
        fence(tx)?;
        tx.record_decision(task, to, ACTOR, DecisionSource::Policy, reason, None)
            .map(|_| ())
    })?;
    Ok(())
}

/// Runs the agreement loop on one stored task (unleased: see [`run_task_fenced`]).
pub fn run_task(rt: &LoopRuntime<'_>, bus: &Bus, task_id: &str) -> TaskOutcome {
    run_task_fenced(rt, bus, task_id, &|_| Ok(()))
}

/// Runs the agreement loop on one stored task whose every write first passes `fence` (the batch
/// passes its lease check, so a process that lost the task's lease writes nothing more on it).
pub fn run_task_fenced(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    task_id: &str,
    fence: Fence<'_>,
) -> TaskOutcome {
    match run_inner(rt, bus, task_id, fence) {
        Ok(o) => o,
        Err(e) => {
            let (outcome, reason) = match &e {
                HarnessError::Cancelled => (
                    TaskOutcome::Cancelled,
                    "cancelled (Ctrl-C); resumable".to_string(),
                ),
                HarnessError::Infra(m) => (
                    TaskOutcome::Infra(m.clone()),
                    format!("infrastructure failure: {m}"),
                ),
                HarnessError::Task(m) => (
                    TaskOutcome::Invalid(m.clone()),
                    format!("invalid task: {m}"),
                ),
            };
            let in_loop = bus
                .read(|s| s.effective_status(task_id))
                .is_ok_and(|s| s == TupleStatus::InLoop.as_str());
            if in_loop {
                let _ = decide(bus, fence, task_id, TupleStatus::Pending, &reason);
            }
            let _ = bus.emit("task.interrupted", Some(task_id), json!({"reason": reason}));
            outcome
        }
    }
}

/// Refuses a task neither agent can work on (say a scripted task naming a template that does not
/// exist) as one invalid-task error, before any round is spent on it.
fn preflight(rt: &LoopRuntime<'_>, brief: &TaskBrief) -> Result<(), HarnessError> {
    rt.generator
        .preflight(brief)
        .and_then(|()| rt.discriminator.preflight(brief))
        .map_err(HarnessError::Task)
}

fn run_inner(
    rt: &LoopRuntime<'_>,
    bus: &Bus,
    task_id: &str,
    fence: Fence<'_>,
) -> Result<TaskOutcome, HarnessError> {
    let task = bus.read(|s| s.task(task_id))?;
    let brief = brief_for(&task, rt.cfg, rt.fleet.resolver(), None)?;
    preflight(rt, &brief)?;
    let past = bus.read(|s| continuation(s, task_id))?;
    let k = rt.cfg.max_rounds;
    let started = match past.done {
        0 => "agreement loop started".to_string(),
        n => format!("agreement loop continued after round {n} of at most {k}"),
    };
    decide(bus, fence, task_id, TupleStatus::InLoop, &started)?;
    // K counts every round of this attempt (a resumed task continues its budget); the stored
    // numbering continues after every round the task ever had, so re-runs never reuse a number.
    let base = bus.read(|s| s.last_round_no(task_id))?;
    if past.passed {
        decide(
            bus,
            fence,
            task_id,
            TupleStatus::LoopAccepted,
            &format!("all five conditions hold in round {base}"),
        )?;
        return Ok(TaskOutcome::Accepted { rounds: past.done });
    }
    // Settled checks and reward runs get their own kinds; every other call is a phase.
    let phase = |name: &str, detail: serde_json::Value| {
        let _ = match name {
            "check" => bus.emit("round.check", Some(task_id), detail),
            "scored" => bus.emit("reward.scored", Some(task_id), detail),
            _ => bus.emit(
                "round.phase",
                Some(task_id),
                json!({"phase": name, "detail": detail}),
            ),
        };
    };
    let ctx = RoundCtx {
        runner: Runner {
            rt: &rt.rt,
            cfg: rt.sandbox,
            isolation: rt.isolation,
        },
        fleet: rt.fleet,
        cfg: rt.cfg,
        generator: rt.generator,
        discriminator: rt.discriminator,
        brief: &brief,
        cancel: rt.cancel,
        phase: &phase,
    };
    let mut review = past.review;
    let mut failing = Vec::new();
    for used in (past.done + 1)..=k {
        let round = base + (used - past.done);
        let mut outcome = ctx.run(round, review.as_deref())?;
        outcome.record.round_no = Some(i64::from(round));
        bus.write(|tx| {
            fence(tx)?;
            tx.record_round_with_states(&outcome.record, &outcome.states)
                .map(|_| ())
        })?;
        if outcome.verdict.pass {
            decide(
                bus,
                fence,
                task_id,
                TupleStatus::LoopAccepted,
                &format!("all five conditions hold in round {round}"),
            )?;
            return Ok(TaskOutcome::Accepted { rounds: used });
        }
        failing = outcome.verdict.failing_names();
        review = Some(outcome.record.review_md);
    }
    let last = if failing.is_empty() {
        "see the last round's REVIEW.md".to_string()
    } else {
        format!("failing: {}", failing.join(", "))
    };
    decide(
        bus,
        fence,
        task_id,
        TupleStatus::LoopFailed,
        &format!("no agreement after {k} rounds; {last}"),
    )?;
    Ok(TaskOutcome::Rejected { rounds: k, failing })
}
