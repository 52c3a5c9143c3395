//! Environments for the loop: one embedded state-API server for every built-in web app (loopback,
//! ephemeral ports) shared by a whole run, and per-endpoint environments — a fresh session id on each
//! app the task touches plus a fresh home directory — created for every round and torn down on every
//! path (their `Drop` deletes the sessions and the home).

use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::env::{self, apps::AppKind, AppRegistry, ServerConfig, ServerHandle};
use crate::openenv::judge::{JudgeLink, RewardJudge};
use crate::openenv::{AppResolver, AppsConfig, ExternalApp};
use crate::sandbox::{ExtraApi, Localise, SandboxSpec};

use super::HarnessError;
use tuplewright_base::scratch::DirLock;

pub use super::webapi::{Backend, WebApi};

/// Prefix of a run's temporary work directory; the owning process id follows it.
const RUN_PREFIX: &str = "tuplewright-run-";

/// Removes run directories whose process is gone (a run killed with SIGKILL cannot clean up its own
/// sessions and sandbox homes; the next run does). Directories of live processes are left alone.
pub fn sweep_stale_runs(tmp: &Path) -> usize {
    tuplewright_base::scratch::sweep(tmp, RUN_PREFIX, |n| {
        tuplewright_base::scratch::pid_after_prefix(n, RUN_PREFIX)
    })
    .len()
}

/// The shared servers and the work directory of one run.
pub struct Fleet {
    server: Option<ServerHandle>,
    registry: AppRegistry,
    resolver: AppResolver,
    externals: Vec<Arc<ExternalApp>>,
    work: PathBuf,
    _tmp: Option<(tempfile::TempDir, DirLock)>,
    counter: AtomicU64,
    osworld: Option<Arc<crate::osworld::Pool>>,
    judge: Option<Arc<RewardJudge>>,
}

impl Fleet {
    /// Starts the state API of every built-in web app on loopback ephemeral ports. `work_dir` empty =
    /// a temporary directory removed when the fleet is dropped.
    pub async fn start(work_dir: &Path) -> Result<Fleet, HarnessError> {
        Fleet::start_with(work_dir, &AppsConfig::default()).await
    }

    /// [`Fleet::start`] with the `[apps]` aliases and ports of `tuplewright.toml` (a bad entry is
    /// an error quoting it).
    pub async fn start_with(work_dir: &Path, apps_cfg: &AppsConfig) -> Result<Fleet, HarnessError> {
        let registry = AppRegistry::builtin().map_err(|e| HarnessError::Infra(e.to_string()))?;
        let mut names = registry.names();
        for x in &apps_cfg.external {
            if names.contains(&x.name) {
                return Err(HarnessError::Task(format!(
                    "[[apps.external]] {:?}: a built-in app has that name; pick another",
                    x.name
                )));
            }
            names.push(x.name.clone());
        }
        let resolver = AppResolver::new(names, apps_cfg).map_err(HarnessError::Task)?;
        let (work, tmp) = if work_dir.as_os_str().is_empty() {
            sweep_stale_runs(&std::env::temp_dir());
            let t = tempfile::Builder::new()
                .prefix(&format!("{RUN_PREFIX}{}-", std::process::id()))
                .tempdir()
                .map_err(|e| HarnessError::Infra(format!("creating the run directory: {e}")))?;
            // Held for the fleet's life: the next run's sweep sees this directory as in use.
            let lock = DirLock::acquire(t.path())
                .map_err(|e| HarnessError::Infra(format!("locking the run directory: {e}")))?;
            (t.path().to_path_buf(), Some((t, lock)))
        } else {
            std::fs::create_dir_all(work_dir).map_err(|e| {
                HarnessError::Infra(format!("creating {}: {e}", work_dir.display()))
            })?;
            (work_dir.to_path_buf(), None)
        };
        let cfg = ServerConfig {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: Some(0),
            state_dir: work.join("sessions"),
            ..ServerConfig::default()
        };
        let mut externals = Vec::new();
        for (i, x) in apps_cfg.external.iter().enumerate() {
            let app = ExternalApp::start(x, i, &work).map_err(HarnessError::Infra)?;
            externals.push(Arc::new(app));
        }
        let apps = registry.served();
        let server = env::spawn(cfg, apps)
            .await
            .map_err(|e| HarnessError::Infra(format!("starting the state API: {e}")))?;
        Ok(Fleet {
            server: Some(server),
            registry,
            resolver,
            externals,
            work,
            _tmp: tmp,
            counter: AtomicU64::new(0),
            osworld: None,
            judge: None,
        })
    }

    /// The built-in app registry.
    pub fn registry(&self) -> &AppRegistry {
        &self.registry
    }

    /// How requested app names (aliases, `mock_websites`) map to the served apps.
    pub fn resolver(&self) -> &AppResolver {
        &self.resolver
    }

    /// Host URL of a web app's state API.
    pub fn url(&self, app: &str) -> Option<String> {
        self.server.as_ref().and_then(|s| s.url(app))
    }

    /// From now on environments are guests of `pool` (`[loop] environments = "osworld"`).
    pub fn set_osworld(&mut self, pool: Arc<crate::osworld::Pool>) {
        self.osworld = Some(pool);
    }

    /// From now on reward scripts of local environments reach `judge` through `reward_judge`.
    pub fn set_judge(&mut self, judge: Option<Arc<RewardJudge>>) {
        self.judge = judge;
    }

    /// The OSWorld pool environments come from, if any.
    pub fn osworld(&self) -> Option<&Arc<crate::osworld::Pool>> {
        self.osworld.as_ref()
    }

    /// The run's work directory.
    pub(super) fn work(&self) -> &Path {
        &self.work
    }

    /// A fresh environment for `apps` (unknown apps are an error naming them): a local one, or
    /// a guest of the OSWorld pool when the fleet has one.
    pub fn provision(
        &self,
        task_id: &str,
        label: &str,
        apps: &[String],
    ) -> Result<TaskEnv, HarnessError> {
        if let Some(pool) = &self.osworld {
            self.check_remote_apps(task_id, apps)?;
            let remote = crate::osworld::RemoteEnv::lease_one(pool)?;
            return self.remote_env(task_id, label, remote);
        }
        let sid = self.fresh_sid(task_id, label);
        let home = self.work.join("homes").join(&sid);
        let mut web = Vec::new();
        let mut files = false;
        for requested in apps {
            let app = &self
                .resolver
                .canonical(requested)
                .unwrap_or_else(|| requested.clone());
            if let Some(x) = self.externals.iter().find(|x| &x.cfg.name == app) {
                web.push(WebApi {
                    app: app.clone(),
                    addr: x.addr,
                    port: x.port,
                    backend: Backend::External(x.clone()),
                });
                continue;
            }
            let a = self
                .registry
                .get(app)
                .map_err(|e| HarnessError::Task(format!("task {task_id}: {e}")))?;
            match a.manifest.kind {
                AppKind::Files | AppKind::Desktop => files = true,
                AppKind::StateApi => {
                    let server = self
                        .server
                        .as_ref()
                        .ok_or_else(|| HarnessError::Infra("state API stopped".into()))?;
                    let served = server
                        .app(app)
                        .ok_or_else(|| HarnessError::Infra(format!("app {app} is not served")))?;
                    web.push(WebApi {
                        app: app.clone(),
                        addr: served.addr,
                        port: a.manifest.port.unwrap_or(8000),
                        backend: Backend::Builtin(served.store.clone()),
                    });
                }
            }
        }
        if files {
            let canonical: Vec<String> = apps
                .iter()
                .map(|a| self.resolver.canonical(a).unwrap_or_else(|| a.clone()))
                .collect();
            env::files::provision_home_for(&home, &canonical)
                .map_err(|e| HarnessError::Infra(e.to_string()))?;
        } else {
            std::fs::create_dir_all(&home)
                .map_err(|e| HarnessError::Infra(format!("creating {}: {e}", home.display())))?;
        }
        let served: Vec<(String, u16)> = web.iter().map(|w| (w.app.clone(), w.port)).collect();
        let localise = self.resolver.localise(&served);
        Ok(TaskEnv {
            sid,
            home,
            web,
            localise,
            remote: None,
            judge: self.judge.clone().map(JudgeLink::new),
            launches: Default::default(),
        })
    }

    /// A session id unique in this run, naming the task and the endpoint.
    pub(super) fn fresh_sid(&self, task_id: &str, label: &str) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let safe: String = task_id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .take(80)
            .collect();
        format!("{safe}-{label}-{n}-{:08x}", rand::random::<u32>())
    }

    /// Stops the servers.
    pub async fn shutdown(mut self) {
        if let Some(s) = self.server.take() {
            s.shutdown().await;
        }
    }
}

/// One endpoint environment (V_init or V_gold) of one round.
pub struct TaskEnv {
    /// Session id, the same on every app of the task.
    pub sid: String,
    /// Home directory (seen as /home/user in the sandbox).
    pub home: PathBuf,
    /// Web apps of the task (the first is the primary one).
    pub web: Vec<WebApi>,
    /// How the Hub hosts and ports of public scripts reach those apps.
    pub localise: Localise,
    /// The OSWorld guest this environment is (its home is the guest's `/home/user`; `home`
    /// is then an empty local directory), or None for a local environment.
    pub remote: Option<crate::osworld::RemoteEnv>,
    /// The judge its scripts' `reward_judge` calls reach, and their usage so far (None = no
    /// judge configured: such a call is an infrastructure failure).
    pub judge: Option<JudgeLink>,
    /// GUI launch lines its scripts recorded (`libreoffice --calc /home/user/x.xlsx`), in order:
    /// what a screen of this environment opens ([`crate::desktop`]).
    pub launches: std::sync::Mutex<Vec<String>>,
}

impl TaskEnv {
    /// Appends launch lines a script run recorded.
    pub fn record_launches(&self, lines: &[String]) {
        if lines.is_empty() {
            return;
        }
        if let Ok(mut l) = self.launches.lock() {
            l.extend(lines.iter().cloned());
        }
    }

    /// The launch lines recorded so far.
    pub fn recorded_launches(&self) -> Vec<String> {
        self.launches.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// The sandbox view of this environment.
    pub fn spec(&self) -> SandboxSpec {
        let primary = self.web.first();
        SandboxSpec {
            home: self.home.clone(),
            sid: self.sid.clone(),
            app: primary.map(|w| w.app.clone()).unwrap_or_default(),
            upstream: primary.map(|w| w.addr),
            api_port: primary.map(|w| w.port).unwrap_or(0),
            extra_apis: self
                .web
                .iter()
                .skip(1)
                .map(|w| ExtraApi {
                    app: w.app.clone(),
                    upstream: w.addr,
                    port: w.port,
                })
                .collect(),
            hand_home_to_reader: true,
            localise: self.localise.clone(),
            forward_headers: self
                .web
                .iter()
                .map(|w| (w.app.clone(), w.forward_headers()))
                .filter(|(_, h)| !h.is_empty())
                .collect(),
            display: None,
            run_as: None,
        }
    }
}

impl Drop for TaskEnv {
    fn drop(&mut self) {
        for w in &self.web {
            if let Err(e) = w.delete(&self.sid) {
                tracing::warn!(sid = %self.sid, app = %w.app, error = %e, "could not delete a session");
            }
        }
        if self.home.exists() {
            if let Err(e) = std::fs::remove_dir_all(&self.home) {
                tracing::warn!(home = %self.home.display(), error = %e, "could not remove a home directory");
            }
        }
    }
}

#[cfg(test)]
mod sweep_tests {
    use super::*;

    #[test]
    fn sweep_removes_dead_runs_and_keeps_live_ones() {
        let tmp = tempfile::tempdir().unwrap();
        // A pid far above pid_max cannot exist.
        let dead = tmp.path().join(format!("{RUN_PREFIX}999999999-abc"));
        let live = tmp
            .path()
            .join(format!("{RUN_PREFIX}{}-abc", std::process::id()));
        let other = tmp.path().join("something-else");
        for d in [&dead, &live, &other] {
            std::fs::create_dir_all(d.join("sessions")).unwrap();
        }
        assert_eq!(sweep_stale_runs(tmp.path()), 1);
        assert!(!dead.exists());
        assert!(live.exists() && other.exists());
    }
}
