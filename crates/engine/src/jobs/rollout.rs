//! The `rollout` job: a policy rolled out on tuples (probes or a teacher deciding inclusion), the
//! same for `tuplewright rollout` and the workbench's launch form.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::agents::build::prompts_dir;
use crate::agents::llm::{LlmAgentConfig, LlmDiscriminator};
use crate::agents::replay::NoAgent;
use crate::agents::Discriminator;
use crate::config::Config;
use crate::harness::session::with_loop_runtime;
use crate::harness::{Bus, JobControl};
use crate::rollout::batch::{rollout_batch, BatchScope, RolloutResult, TupleResult};
use crate::rollout::judge::Judge;
use crate::rollout::spec::{judge_from_spec, PolicySpec};
use crate::rollout::stage::StageOptions;
use crate::rollout::ui_oracle::NoopScreenPolicy;
use crate::rollout::vlm::judge::is_screen_judge_spec;
use crate::rollout::{Policy, RolloutConfig};
use crate::sandbox::Isolation;
use tuplewright_base::lease::LeaseKeeper;
use tuplewright_base::store::TupleStatus;
use tuplewright_models::providers::{provider_from_spec, ProviderConfig};

use super::{EventSink, Events, JobError, JobEventKind};

/// What a rollout job does, typed.
#[derive(Debug, Clone)]
pub struct RolloutSpec {
    /// The tuples.
    pub tasks: Vec<String>,
    /// Claim a tuple only in one of these statuses (`None` = any status).
    pub wanted: Option<Vec<TupleStatus>>,
    /// The policy.
    pub policy: PolicySpec,
    /// `noop --screen`: start the task's screen, take its screenshot, do nothing.
    pub noop_screen: bool,
    /// Trials per tuple.
    pub trials: u32,
    /// `[rollout]` with the face's overrides (δ, trivial-keep, VLM temperature and turns…).
    pub rollout: RolloutConfig,
    /// Judge spec (`None` = the reward score decides alone).
    pub judge: Option<String>,
    /// Discriminator for refinement passes (`openai:MODEL[@URL]`, `anthropic:MODEL`).
    pub refiner: Option<String>,
    /// Directory holding judge.md / discriminator.md (`None` = ./prompts, else the bundled ones).
    pub prompts: Option<PathBuf>,
    /// Tuples rolled out at once.
    pub jobs: usize,
    /// Sandbox isolation of the scripts.
    pub isolation: Isolation,
}

impl RolloutSpec {
    /// `trials` trials of `policy` on `tasks` (any status), with `[rollout]` of `config` and its
    /// judge; one tuple at a time.
    pub fn from_config(config: &Config, tasks: Vec<String>, policy: PolicySpec) -> Self {
        let judge = config.rollout.judge.as_ref().map(ToString::to_string);
        RolloutSpec {
            tasks,
            wanted: None,
            policy,
            noop_screen: false,
            trials: 1,
            rollout: config.rollout.clone(),
            judge,
            refiner: None,
            prompts: None,
            jobs: 1,
            isolation: Isolation::Required,
        }
    }

    /// The policy the spec names.
    pub fn build_policy(
        &self,
        config: &Config,
    ) -> Result<Box<dyn Policy + Send>, crate::rollout::spec::PolicyBuildError> {
        if self.noop_screen {
            return Ok(Box::new(NoopScreenPolicy {
                screen: config.screen.clone(),
            }));
        }
        self.policy.build(&self.rollout, &config.screen)
    }

    /// The judge the spec names.
    pub fn build_judge(&self) -> Result<Option<Box<dyn Judge>>, JobError> {
        let Some(spec) = &self.judge else {
            return Ok(None);
        };
        let probe = if is_screen_judge_spec(spec) {
            "judge_screen.md"
        } else {
            "judge.md"
        };
        let dir = prompts_dir(self.prompts.as_deref(), probe);
        judge_from_spec(spec, &self.rollout, &dir)
            .map(Some)
            .map_err(|source| JobError::Judge {
                spec: spec.clone(),
                source,
            })
    }

    fn build_refiner(&self, cancel: &Arc<AtomicBool>) -> Result<Box<dyn Discriminator>, JobError> {
        let Some(spec) = &self.refiner else {
            return Ok(Box::new(NoAgent));
        };
        let bad = |why: String| JobError::Spec(format!("--discriminator {spec}: {why}"));
        let cfg = LlmAgentConfig {
            prompts_dir: prompts_dir(self.prompts.as_deref(), "discriminator.md"),
            ..LlmAgentConfig::default()
        };
        let p =
            provider_from_spec(spec, &ProviderConfig::default()).map_err(|e| bad(e.to_string()))?;
        let d = LlmDiscriminator::new(p, cfg).map_err(|e| bad(e.to_string()))?;
        Ok(Box::new(d.with_cancel(cancel.clone())))
    }
}

/// What the job needs from the process that runs it.
pub struct RolloutEnv<'a> {
    /// Sandbox, app, screen and worker settings.
    pub config: &'a Config,
    /// The store.
    pub bus: &'a Bus,
    /// Task leases.
    pub leases: &'a LeaseKeeper,
    /// Pause / resume / cancel between tuples (give it a flag of its own: trials are never
    /// abandoned mid-way).
    pub control: &'a JobControl,
    /// The runtime's flag (Ctrl-C): stops starting tuples, and model calls.
    pub cancel: &'a Arc<AtomicBool>,
    /// Called once the runtime is up (e.g. to install a Ctrl-C handler).
    pub on_start: &'a dyn Fn(&tokio::runtime::Runtime),
}

/// Rolls `spec.policy` out on `spec.tasks`; results keep the order of the tasks.
pub fn run(
    spec: &RolloutSpec,
    env: &RolloutEnv<'_>,
    sink: EventSink<'_>,
) -> Result<Vec<RolloutResult>, JobError> {
    if spec.trials == 0 {
        return Err(JobError::Spec("trials: must be at least 1".into()));
    }
    let policy = spec.build_policy(env.config)?;
    let judge = spec.build_judge()?;
    let refiner = spec.build_refiner(env.cancel)?;
    // Desktop applications' trials get environments started ahead (`[desktop] pool`).
    let pool = env.config.desktop.pool_size(spec.jobs);
    crate::desktop::pool::install(&env.config.screen, pool).map_err(JobError::DesktopPool)?;
    let opts = StageOptions {
        trials: spec.trials,
        delta: spec.rollout.delta,
        trivial_keep_fraction: spec.rollout.trivial_keep_fraction,
        judge: judge.as_deref(),
        refine: spec.refiner.is_some(),
    };
    let events = Events::new(sink);
    let on_done = |task: &str, outcome: &'static str, _: &TupleResult| {
        events.emit(JobEventKind::TupleDone {
            task: task.to_string(),
            outcome,
        });
    };
    let scope = BatchScope {
        jobs: spec.jobs.max(1),
        wanted: spec.wanted.as_deref(),
        on_done: Some(&on_done),
    };
    let results = with_loop_runtime(
        env.config,
        spec.isolation,
        (&NoAgent, refiner.as_ref()),
        env.cancel,
        |rt| (env.on_start)(rt),
        |rt| {
            let p: &dyn Policy = policy.as_ref();
            rollout_batch(
                rt,
                env.bus,
                &spec.tasks,
                p,
                &opts,
                env.control,
                env.leases,
                scope,
            )
        },
    );
    // Nothing waits for a trial once the batch is over (the next acquire orders again).
    if let Some(p) = crate::desktop::pool::global() {
        p.drain();
    }
    Ok(results?)
}
