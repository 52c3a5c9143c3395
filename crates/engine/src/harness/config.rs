//! `[loop]` section of `tuplewright.toml`: the agreement loop's knobs.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Settings of the agreement loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoopConfig {
    /// Maximum adversarial rounds per task (paper A.3.4: K = 5).
    pub max_rounds: u32,
    /// How many times reward.py runs on each endpoint; all runs must agree (determinism).
    pub reward_runs: u32,
    /// Tasks run concurrently.
    pub jobs: usize,
    /// Wall timeout of initial_setup.py / golden_patch.py, seconds.
    pub script_timeout_secs: f64,
    /// Wall timeout of one reward.py run, seconds.
    pub reward_timeout_secs: f64,
    /// Where per-run environment homes and state-API sessions live (removed afterwards).
    /// Empty = a fresh directory under the system temp dir.
    pub work_dir: PathBuf,
    /// Directory whose `<app>/SKILL.md` overrides the pack's; empty = `./skills`, then the source
    /// tree's `skills/`.
    pub skills_dir: PathBuf,
    /// Highest score the reward may give a probe state (noop, empty state, destructive) before the
    /// round fails: 0.0 = no credit at all where the task was not done.
    pub probe_threshold: f64,
    /// Where a round's environments come from: `local` (this machine's sandbox and apps) or
    /// `osworld` (two endpoints of the `[osworld]` pool per round).
    pub environments: Environments,
}

/// `[loop] environments`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Environments {
    /// Fresh homes and state-API sessions here, scripts in the local sandbox.
    #[default]
    Local,
    /// OSWorld guests from `[osworld]` (files-domain tasks).
    Osworld,
}

impl std::str::FromStr for Environments {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "local" => Ok(Environments::Local),
            "osworld" => Ok(Environments::Osworld),
            other => Err(format!(
                "environments {other:?}: expected \"local\" or \"osworld\""
            )),
        }
    }
}

impl Default for LoopConfig {
    fn default() -> Self {
        Self {
            max_rounds: 5,
            reward_runs: 2,
            jobs: 2,
            script_timeout_secs: 120.0,
            reward_timeout_secs: 60.0,
            work_dir: PathBuf::new(),
            skills_dir: PathBuf::new(),
            probe_threshold: 0.0,
            environments: Environments::Local,
        }
    }
}

impl LoopConfig {
    /// Checks the values, naming the bad key.
    pub fn validate(&self) -> Result<(), String> {
        if self.max_rounds == 0 || self.max_rounds > 50 {
            return Err(format!(
                "loop.max_rounds = {}: expected 1..=50",
                self.max_rounds
            ));
        }
        if self.reward_runs == 0 || self.reward_runs > 10 {
            return Err(format!(
                "loop.reward_runs = {}: expected 1..=10",
                self.reward_runs
            ));
        }
        if self.jobs == 0 || self.jobs > 256 {
            return Err(format!("loop.jobs = {}: expected 1..=256", self.jobs));
        }
        if self.script_timeout_secs <= 0.0 || self.reward_timeout_secs <= 0.0 {
            return Err("loop.script_timeout_secs and loop.reward_timeout_secs must be > 0".into());
        }
        if !(0.0..1.0).contains(&self.probe_threshold) {
            return Err(format!(
                "loop.probe_threshold = {}: expected 0.0 <= t < 1.0",
                self.probe_threshold
            ));
        }
        Ok(())
    }

    /// The skills directory to read SKILL.md files from.
    pub fn resolved_skills_dir(&self) -> PathBuf {
        if !self.skills_dir.as_os_str().is_empty() {
            return self.skills_dir.clone();
        }
        let local = PathBuf::from("skills");
        if local.is_dir() {
            return local;
        }
        crate::checkout_root().join("skills")
    }
}
