//! Running the reward probes (`engine::probes`) on the round's own environments, after the reward
//! runs on V_init and V_gold are done: the destructive probe wipes V_init's primary collection,
//! the empty-state probe empties V_gold, and only the noop probe needs a fresh environment.
//! Three reward runs per round, no setup script re-run.

use std::path::Path;

use serde_json::Value;

use crate::engine::agreement::{ProbeRun, RewardRun as Scored};
use crate::engine::env::merge::merged;
use crate::engine::env::session::Action;
use crate::engine::probes::{collection_size, emptied, primary_collection, wiped, ProbeKind};
use crate::engine::sandbox::{Limits, Role};
use crate::engine::store::RewardRun;

use super::envs::{Fleet, TaskEnv};
use super::execute::{reward_run, Runner};
use super::HarnessError;

/// What the probes run on.
pub struct ProbeSite<'a> {
    /// Sandbox access.
    pub runner: &'a Runner<'a>,
    /// For the noop probe's fresh environment.
    pub fleet: &'a Fleet,
    /// The task.
    pub task_id: &'a str,
    /// Its apps.
    pub apps: &'a [String],
    /// Whether the task has a files-domain home.
    pub files: bool,
    /// V_init, already scored (its state is wiped by the destructive probe).
    pub init: &'a TaskEnv,
    /// V_gold, already scored (emptied by the empty-state probe).
    pub gold: &'a TaskEnv,
    /// Limits of one reward run.
    pub limits: &'a Limits,
}

fn infra<E: std::fmt::Display>(what: &str) -> impl FnOnce(E) -> HarnessError + '_ {
    move |e| HarnessError::Infra(format!("{what}: {e}"))
}

/// Removes the home's contents (the guest's, for an OSWorld environment); with `files_only`,
/// regular files only (directories stay).
fn clear_home(env: &TaskEnv, files_only: bool) -> Result<usize, HarnessError> {
    match &env.remote {
        Some(remote) => Ok(remote.clear_home(files_only)?),
        None => clear_local_home(&env.home, files_only),
    }
}

fn clear_local_home(home: &Path, files_only: bool) -> Result<usize, HarnessError> {
    let io = |e: std::io::Error| {
        HarnessError::Infra(format!("clearing {} for a probe: {e}", home.display()))
    };
    let mut removed = 0;
    if files_only {
        for e in walkdir::WalkDir::new(home).into_iter().flatten() {
            if e.file_type().is_file() || e.file_type().is_symlink() {
                std::fs::remove_file(e.path()).map_err(io)?;
                removed += 1;
            }
        }
        return Ok(removed);
    }
    for e in std::fs::read_dir(home).map_err(io)?.flatten() {
        let ft = e.file_type().map_err(io)?;
        if ft.is_dir() {
            std::fs::remove_dir_all(e.path()).map_err(io)?;
        } else {
            std::fs::remove_file(e.path()).map_err(io)?;
        }
        removed += 1;
    }
    Ok(removed)
}

fn current(env: &TaskEnv, i: usize) -> Result<Value, HarnessError> {
    env.web[i]
        .current(&env.sid)
        .map_err(infra("reading a probe state"))
}

impl ProbeSite<'_> {
    /// V_init with the primary collection wiped (the collection of the first app the golden
    /// patch changes, else of the primary app; all files when only the home changed). Must run
    /// before the empty-state probe empties V_gold. Returns what was done.
    fn destructive(&self) -> Result<String, HarnessError> {
        let (mut target, mut web_changed) = (None, false);
        for i in 0..self.init.web.len() {
            let (init, gold) = (current(self.init, i)?, current(self.gold, i)?);
            let Some(key) = primary_collection(&init, &gold) else {
                continue;
            };
            if init != gold {
                target = Some((i, key, init));
                web_changed = true;
                break;
            }
            target = target.or(Some((i, key, init)));
        }
        match target {
            Some((i, key, state)) if web_changed || !self.files => {
                let w = &self.init.web[i];
                let n = collection_size(&state, &key);
                w.apply(&self.init.sid, Action::SetCurrent, wiped(&state, &key))
                    .map_err(infra("wiping a collection for the destructive probe"))?;
                Ok(format!("V_init with {}.{key} wiped ({n} items)", w.app))
            }
            _ => {
                let n = clear_home(self.init, true)?;
                Ok(format!(
                    "V_init with every file under /home/user deleted ({n} files)"
                ))
            }
        }
    }

    /// V_gold with every collection of every app emptied and the home directory empty.
    fn empty_state(&self) -> Result<String, HarnessError> {
        let mut apps = Vec::new();
        for (i, w) in self.gold.web.iter().enumerate() {
            let base = merged(&w.seed(), current(self.gold, i)?);
            w.apply(&self.gold.sid, Action::Set, emptied(&base))
                .map_err(infra("emptying a state for the empty-state probe"))?;
            apps.push(w.app.clone());
        }
        clear_home(self.gold, false)?;
        Ok(if apps.is_empty() {
            "an empty /home/user".to_string()
        } else {
            format!(
                "every collection of {} emptied, /home/user empty",
                apps.join(", ")
            )
        })
    }

    fn score(
        &self,
        env: &TaskEnv,
        kind: ProbeKind,
        state: String,
        reward: &str,
    ) -> Result<(RewardRun, ProbeRun), HarnessError> {
        let r = self
            .runner
            .run(env, Role::Reader, "reward.py", reward, self.limits)?;
        let (rec, run): (RewardRun, Scored) = reward_run(&kind.endpoint(), &r);
        let probe = ProbeRun {
            probe: kind.name().to_string(),
            state,
            run,
        };
        Ok((rec, probe))
    }

    /// Runs every probe, in [`ProbeKind::ALL`] order. On OSWorld guests the noop probe's fresh
    /// environment is V_init reverted to its snapshot once the other two probes are done (the
    /// round holds two guests, not three).
    pub fn run(&self, reward: &str) -> Result<Vec<(RewardRun, ProbeRun)>, HarnessError> {
        const NOOP_STATE: &str = "a fresh environment, nothing set up";
        if let Some(remote) = &self.init.remote {
            let state = self.destructive()?;
            let destructive = self.score(self.init, ProbeKind::Destructive, state, reward)?;
            let state = self.empty_state()?;
            let empty = self.score(self.gold, ProbeKind::EmptyState, state, reward)?;
            remote.refresh()?;
            let noop = self.score(self.init, ProbeKind::Noop, NOOP_STATE.into(), reward)?;
            return Ok(vec![noop, empty, destructive]);
        }
        let mut noop_env = self.fleet.provision(self.task_id, "noop", self.apps)?;
        // Its judge calls are the round's: counted with V_init's.
        noop_env.judge.clone_from(&self.init.judge);
        let noop = self.score(&noop_env, ProbeKind::Noop, NOOP_STATE.into(), reward)?;
        drop(noop_env);
        let state = self.destructive()?;
        let destructive = self.score(self.init, ProbeKind::Destructive, state, reward)?;
        let state = self.empty_state()?;
        let empty = self.score(self.gold, ProbeKind::EmptyState, state, reward)?;
        Ok(vec![noop, empty, destructive])
    }
}
