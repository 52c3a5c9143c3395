//! `worker --stages …`: parses the stage list and builds what the post-loop stages need from
//! `tuplewright.toml` — the `[filter]` voters and quorum, the rollout policy (`--policy`, the
//! `[rollout]` trials, δ and trivial-keep fraction), verify — with the same builders as the
//! `filter` and `rollout` commands.

use std::path::Path;
use std::time::Duration;

use crate::engine::config::Config;
use crate::engine::filter::critic::Critic;
use crate::engine::filter::Quorum;
use crate::engine::rollout::policy::Policy;
use crate::engine::rollout::spec::PolicySpec;
use crate::engine::rollout::stage::StageOptions;
use crate::engine::worker::stages::{PostStages, Stage};

/// The parsed `--stages`, in pipeline order; an unknown or repeated name is refused.
pub fn parse(names: &[String]) -> anyhow::Result<Vec<Stage>> {
    let mut out = Vec::new();
    for n in names {
        let Some(s) = Stage::parse(n) else {
            anyhow::bail!(
                "--stages: `{n}` is not a worker stage (worker stages: {})",
                Stage::ALL.map(Stage::as_str).join(", ")
            );
        };
        if out.contains(&s) {
            anyhow::bail!("--stages: `{n}` is given twice");
        }
        out.push(s);
    }
    if out.is_empty() {
        anyhow::bail!("--stages: name at least one stage");
    }
    out.sort();
    Ok(out)
}

/// What the stages need, built once per worker.
pub struct Built {
    critics: Vec<Box<dyn Critic>>,
    quorum: Quorum,
    policy: Option<Box<dyn Policy + Send>>,
    verify: bool,
    filter: bool,
}

/// Builds the critics and the policy the stages want.
pub fn build(stages: &[Stage], policy: &PolicySpec, config: &Config) -> anyhow::Result<Built> {
    let filter = stages.contains(&Stage::Filter);
    let (critics, quorum) = if filter {
        let voters = &config.filter.voters;
        let quorum = Quorum::parse(&config.filter.quorum).map_err(anyhow::Error::msg)?;
        if quorum.required(voters.len()) > voters.len() {
            anyhow::bail!(
                "[filter] quorum {} needs more admitting votes than the {} voter(s)",
                config.filter.quorum,
                voters.len()
            );
        }
        let prompts = crate::engine::agents::build::prompts_dir(None, "critic.md");
        let critics =
            super::filter::build_critics(voters, &prompts, config.filter.max_invalid_retries)?;
        (critics, quorum)
    } else {
        (
            Vec::new(),
            Quorum::parse("strict").map_err(anyhow::Error::msg)?,
        )
    };
    let policy = if stages.contains(&Stage::Rollout) {
        Some(
            policy
                .build(&config.rollout, &config.screen)
                .map_err(|e| anyhow::anyhow!("--policy {policy}: {e}"))?,
        )
    } else {
        None
    };
    Ok(Built {
        critics,
        quorum,
        policy,
        verify: stages.contains(&Stage::Verify),
        filter,
    })
}

impl Built {
    /// The post-loop stages, borrowing what was built.
    pub fn post<'a>(&'a self, config: &Config, store: &Path) -> PostStages<'a> {
        PostStages {
            filter: self
                .filter
                .then_some((self.critics.as_slice(), self.quorum)),
            rollout: self.policy.as_deref().map(|p| {
                let p: &dyn Policy = p;
                (
                    p,
                    StageOptions {
                        trials: config.rollout.trials.max(1),
                        delta: config.rollout.delta,
                        trivial_keep_fraction: config.rollout.trivial_keep_fraction,
                        judge: None,
                        refine: false,
                    },
                )
            }),
            verify: self.verify,
            store: Some((
                store.to_path_buf(),
                Duration::from_millis(config.store.busy_timeout_ms),
            )),
        }
    }
}
