//! The seam where a round gets its two environments: [`Fleet::provision_pair`] hands out V_init
//! and V_gold — local ones (fresh homes and state-API sessions), or, when the fleet has an
//! OSWorld pool (`[loop] environments = "osworld"`), two guests leased at once and reverted by
//! their hooks. Either way the round sees a [`TaskEnv`]; what backs it is decided here and in
//! the few places that read or clear a home (`execute`, `probe`, `probes`, `snapshot`).

use crate::osworld::{OsworldError, RemoteEnv};
use crate::sandbox::Localise;

use super::envs::{Fleet, TaskEnv};
use super::HarnessError;

impl Fleet {
    /// V_init and V_gold of one round of `task_id`.
    pub fn provision_pair(
        &self,
        task_id: &str,
        apps: &[String],
    ) -> Result<(TaskEnv, TaskEnv), HarnessError> {
        match self.osworld() {
            None => Ok((
                self.provision(task_id, "init", apps)?,
                self.provision(task_id, "gold", apps)?,
            )),
            Some(pool) => {
                self.check_remote_apps(task_id, apps)?;
                // Both at once: two tasks never each hold one guest waiting for a second.
                let (init, gold) = RemoteEnv::lease_pair(pool)?;
                Ok((
                    self.remote_env(task_id, "init", init)?,
                    self.remote_env(task_id, "gold", gold)?,
                ))
            }
        }
    }

    /// OSWorld guests carry files-domain tasks: the home is the VM's; a web app's state API
    /// lives on this machine, out of the guest's reach.
    pub(super) fn check_remote_apps(
        &self,
        task_id: &str,
        apps: &[String],
    ) -> Result<(), HarnessError> {
        for requested in apps {
            let app = self
                .resolver()
                .canonical(requested)
                .unwrap_or_else(|| requested.clone());
            let files = self
                .registry()
                .get(&app)
                .is_ok_and(|a| a.manifest.kind.has_home());
            if !files {
                return Err(HarnessError::Task(format!(
                    "task {task_id}: app {requested:?} cannot run on OSWorld guests (they carry \
                     files-domain tasks, app \"files\" or \"os\"); run it with [loop] \
                     environments = \"local\""
                )));
            }
        }
        Ok(())
    }

    /// A [`TaskEnv`] backed by `remote` (no web apps; an empty local directory as `home`).
    pub(super) fn remote_env(
        &self,
        task_id: &str,
        label: &str,
        remote: RemoteEnv,
    ) -> Result<TaskEnv, HarnessError> {
        let sid = self.fresh_sid(task_id, label);
        let home = self.work().join("homes").join(&sid);
        std::fs::create_dir_all(&home)
            .map_err(|e| HarnessError::Infra(format!("creating {}: {e}", home.display())))?;
        Ok(TaskEnv {
            sid,
            home,
            web: Vec::new(),
            localise: Localise::default(),
            remote: Some(remote),
            // Scripts run on the guest, out of reach of a harness socket (no `reward_judge` shim).
            judge: None,
            launches: Default::default(),
        })
    }
}

impl From<OsworldError> for HarnessError {
    fn from(e: OsworldError) -> Self {
        let m = match e {
            OsworldError::Infra(m) => m,
            other => other.to_string(),
        };
        HarnessError::Infra(format!("OSWorld guest: {m}"))
    }
}
