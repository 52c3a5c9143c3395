//! Running the reward probes (`engine::probes`) on the round's own environments, after the reward
//! runs on V_init and V_gold are done: the destructive probe wipes what the golden diff touches in
//! V_init, the empty-state probe empties V_gold, and only the noop probe needs a fresh environment
//! (every app at its default state). Also [`check_fit`]: a setup's state must fit the declared
//! schema of the app it runs on.
//! Three reward runs per round, no setup script re-run.

use std::path::Path;

use serde_json::Value;

use crate::agents::TaskBrief;
use crate::env::merge::merged;
use crate::env::session::Action;
use crate::openenv::AppResolver;
use crate::probes::{emptied, touched, wiped, ProbeKind};
use crate::sandbox::{Limits, Role};
use tuplewright_base::agreement::{ProbeRun, RewardRun as Scored};
use tuplewright_base::store::RewardRun;

use super::envs::{Backend, Fleet, TaskEnv};
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

/// What the noop probe runs on.
const NOOP_STATE: &str = "a fresh environment, nothing set up";

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

/// The states of each web app of V_init and V_gold, read once before any probe changes them.
struct Endpoints {
    init: Vec<Value>,
    gold: Vec<Value>,
}

impl ProbeSite<'_> {
    fn endpoints(&self) -> Result<Endpoints, HarnessError> {
        let init = (0..self.init.web.len())
            .map(|i| current(self.init, i))
            .collect::<Result<_, _>>()?;
        let gold = (0..self.gold.web.len())
            .map(|i| current(self.gold, i))
            .collect::<Result<_, _>>()?;
        Ok(Endpoints { init, gold })
    }

    /// V_init with every collection the golden diff touches wiped, in every app; nothing the task
    /// does not touch. When the golden patch changes no collection of any app: all files of the
    /// home for a task with a home, else V_init unchanged. Returns what was done.
    fn destructive(&self, states: &Endpoints) -> Result<String, HarnessError> {
        let mut done = Vec::new();
        for (i, w) in self.init.web.iter().enumerate() {
            let (init, gold) = (&states.init[i], &states.gold[i]);
            let schema = w.schema(&[init, gold]);
            let hit = touched(&schema, init, gold);
            if hit.is_empty() {
                continue;
            }
            let (state, n) = wiped(&schema, init, &hit);
            w.apply(&self.init.sid, Action::SetCurrent, state)
                .map_err(infra("wiping a collection for the destructive probe"))?;
            let paths: Vec<String> = hit.iter().map(|k| format!("{}.{k}", w.app)).collect();
            done.push(format!("{} wiped ({n} items)", paths.join(", ")));
        }
        if !done.is_empty() {
            return Ok(format!("V_init with {}", done.join("; ")));
        }
        if self.files {
            let n = clear_home(self.init, true)?;
            return Ok(format!(
                "V_init with every file under /home/user deleted ({n} files)"
            ));
        }
        Ok("V_init unchanged: the golden patch changes no data collection".to_string())
    }

    /// V_gold with every data collection of every app emptied (configuration as in V_init) and
    /// the home directory empty.
    fn empty_state(&self, states: &Endpoints) -> Result<String, HarnessError> {
        let mut apps = Vec::new();
        for (i, w) in self.gold.web.iter().enumerate() {
            let (init, gold) = (&states.init[i], &states.gold[i]);
            let schema = w.schema(&[init, gold]);
            let base = merged(&w.seed(), gold.clone());
            w.apply(&self.gold.sid, Action::Set, emptied(&schema, init, &base))
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

    /// The noop probe's environment as an agent first sees it with no setup: each app at its
    /// default state (a built-in app's seed; an external app's declared `seed`, set into the
    /// fresh session since such an app's state API shows nothing for an unset session).
    fn at_defaults(&self, env: &TaskEnv) -> Result<String, HarnessError> {
        let (mut seeded, mut unknown) = (Vec::new(), Vec::new());
        for w in &env.web {
            match (&w.backend, w.declared_seed()) {
                (Backend::External(_), Some(seed)) => {
                    w.apply(&env.sid, Action::Set, seed)
                        .map_err(infra("setting an app's default state for the noop probe"))?;
                    seeded.push(w.app.clone());
                }
                (Backend::External(_), None) => unknown.push(w.app.clone()),
                (Backend::Builtin(_), _) => {}
            }
        }
        let mut out = NOOP_STATE.to_string();
        if !seeded.is_empty() {
            out += &format!("; {} at its declared default state", seeded.join(", "));
        }
        if !unknown.is_empty() {
            out += &format!(
                "; default state of {} unknown (no `seed` in [[apps.external]]): an unset session",
                unknown.join(", ")
            );
        }
        Ok(out)
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
        let states = self.endpoints()?;
        if let Some(remote) = &self.init.remote {
            let state = self.destructive(&states)?;
            let destructive = self.score(self.init, ProbeKind::Destructive, state, reward)?;
            let state = self.empty_state(&states)?;
            let empty = self.score(self.gold, ProbeKind::EmptyState, state, reward)?;
            remote.refresh()?;
            let noop = self.score(self.init, ProbeKind::Noop, NOOP_STATE.into(), reward)?;
            return Ok(vec![noop, empty, destructive]);
        }
        let mut noop_env = self.fleet.provision(self.task_id, "noop", self.apps)?;
        // Its judge calls are the round's: counted with V_init's.
        noop_env.judge.clone_from(&self.init.judge);
        let state = self.at_defaults(&noop_env)?;
        let noop = self.score(&noop_env, ProbeKind::Noop, state, reward)?;
        drop(noop_env);
        let state = self.destructive(&states)?;
        let destructive = self.score(self.init, ProbeKind::Destructive, state, reward)?;
        let state = self.empty_state(&states)?;
        let empty = self.score(self.gold, ProbeKind::EmptyState, state, reward)?;
        Ok(vec![noop, empty, destructive])
    }
}

/// Checks the state `script` left on each app of `env` against the app's declared schema. A
/// state that does not fit an app the task does not name itself — reached by an **alias** (a
/// calendar's `events` on the issue tracker `google_calendar` was mapped to) or through a
/// `mock_websites` bundle's Hub host — is an invalid task: the mapping is the task's, no script
/// can fix it; the error names the task, the app, the alias and the key. On an app the task
/// names itself, the script wrote keys the app does not have: `Ok(Some(why))`, a failure of that
/// script (fed back to Setup-Gen). `Ok(None)` when every state fits.
pub fn check_fit(
    env: &TaskEnv,
    resolver: &AppResolver,
    task: &TaskBrief,
    script: &str,
) -> Result<Option<String>, HarnessError> {
    let task_id = &task.task_id;
    // The other names of the app the task's own JSON uses (`"domain": "google_calendar"`).
    let text = task
        .structured
        .to_string()
        .to_ascii_lowercase()
        .replace('_', "-");
    for (i, w) in env.web.iter().enumerate() {
        let Some(schema) = w.declared_schema() else {
            continue;
        };
        let Some(misfit) = schema.misfit(&current(env, i)?) else {
            continue;
        };
        let named = |n: &String| text.contains(&format!("\"{n}\""));
        let direct = named(&w.app);
        let used: Vec<String> = resolver.names_of(&w.app)[1..]
            .iter()
            .filter(|n| named(n))
            .cloned()
            .collect();
        let how = match (direct, used.is_empty()) {
            (true, _) => String::new(),
            (false, false) => format!(" (reached as {})", used.join(", ")),
            (false, true) => {
                " (reached through the Hub host, placeholder or port its scripts use)".into()
            }
        };
        let what = format!(
            "the state {script} leaves on app {}{how} does not fit its schema: {} (its keys: {})",
            w.app,
            misfit.why,
            schema.key_list(),
        );
        if direct {
            return Ok(Some(what));
        }
        return Err(HarnessError::Task(format!(
            "task {task_id}: {what}. The bundle was written for another app: serve that app as \
             [[apps.external]] rather than mapping it to {} (docs/open-environments.md)",
            w.app
        )));
    }
    Ok(None)
}
