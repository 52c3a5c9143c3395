//! The Discriminator's read-only view of the two endpoint environments (paper Table 1): state-API
//! reads in the reader role, a listing of the home directory, and dry runs of a draft reward in the
//! sandbox's reader role. Nothing here can reach the Generator's scripts: they are never written to
//! any directory this probe or the reader sandbox can see.

use std::time::Duration;

use serde_json::{json, Value};
use tokio::runtime::Handle;

use crate::agents::{AgentError, Endpoint, EnvProbe};
use crate::sandbox::{Isolation, Limits, Role, SandboxConfig};

use super::envs::TaskEnv;
use super::execute::Runner;

/// Most files listed from a home directory.
const MAX_LISTED: usize = 400;

/// [`EnvProbe`] over a round's V_init and V_gold.
pub struct RoundProbe<'a> {
    /// Runtime for the async sandbox.
    pub rt: Handle,
    /// V_init.
    pub init: &'a TaskEnv,
    /// V_gold.
    pub gold: &'a TaskEnv,
    /// Sandbox settings.
    pub sandbox: &'a SandboxConfig,
    /// Limits of a dry run.
    pub limits: Limits,
    /// Whether running unsandboxed was explicitly allowed.
    pub isolation: Isolation,
}

impl RoundProbe<'_> {
    fn env(&self, which: Endpoint) -> &TaskEnv {
        match which {
            Endpoint::Init => self.init,
            Endpoint::Gold => self.gold,
        }
    }
}

fn list_home(env: &TaskEnv) -> Value {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&env.home)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .take(MAX_LISTED)
    {
        let rel = entry.path().strip_prefix(&env.home).unwrap_or(entry.path());
        let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
        files.push(json!({"path": format!("/home/user/{}", rel.display()), "size": size}));
    }
    Value::Array(files)
}

impl EnvProbe for RoundProbe<'_> {
    fn read_state(&self, which: Endpoint) -> Result<Value, AgentError> {
        let env = self.env(which);
        if let Some(remote) = &env.remote {
            let home = remote
                .list_home()
                .map_err(|e| AgentError::Infra(e.to_string()))?;
            return Ok(json!({"apps": {}, "home": home}));
        }
        let mut apps = serde_json::Map::new();
        for w in &env.web {
            let url = format!("http://{}/go?sid={}", w.addr, env.sid);
            tuplewright_models::providers::http::ensure_crypto_provider();
            let client = reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .map_err(|e| AgentError::Infra(format!("http client: {e}")))?;
            let body: Value = client
                .get(&url)
                // The reader role, honoured because this process's forwarder secret goes with it.
                .headers(tuplewright_base::access::forwarder::header_map(
                    "reader",
                    w.is_builtin(),
                ))
                .send()
                .and_then(|r| r.error_for_status())
                .and_then(|r| r.json())
                .map_err(|e| AgentError::Infra(format!("reading {url}: {e}")))?;
            apps.insert(w.app.clone(), body);
        }
        Ok(json!({"apps": apps, "home": list_home(env)}))
    }

    fn dry_run_reward(&self, which: Endpoint, reward: &str) -> Result<String, AgentError> {
        let env = self.env(which);
        let runner = Runner {
            rt: &self.rt,
            cfg: self.sandbox,
            isolation: self.isolation,
        };
        let run = runner.execute(env, Role::Reader, "reward_draft.py", reward, &self.limits);
        match run {
            Ok(r) => Ok(format!(
                "{}\n[exit: {:?}]\n[stderr]\n{}",
                r.stdout.text, r.outcome, r.stderr.text
            )),
            Err(e) => Err(AgentError::Infra(e.to_string())),
        }
    }
}
