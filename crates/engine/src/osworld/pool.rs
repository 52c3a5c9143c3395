//! `[osworld]` in tuplewright.toml: a pool of OSWorld guest endpoints (VMs), the per-call
//! timeouts, and the hooks that bring a VM back to its clean snapshot. A task takes two endpoints
//! (V_init and V_gold); each is reverted (hook), health-checked (`GET /terminal` until it answers)
//! and, when it stays down, re-created (hook) and checked again. An endpoint that never answers is
//! an infrastructure failure.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::client::GuestClient;
use super::OsworldError;

/// One guest endpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Endpoint {
    /// The guest server, e.g. `http://192.168.122.10:5000`.
    pub url: String,
    /// A shell command that reverts this VM to its clean snapshot (`{url}` is replaced; also
    /// `$TW_OSWORLD_URL`), run before every use. Empty: none.
    #[serde(default)]
    pub revert: String,
    /// A shell command that re-creates this VM when it does not come up after the revert.
    #[serde(default)]
    pub recreate: String,
}

/// `[osworld]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OsworldConfig {
    /// The endpoints (two per task run at once: V_init and V_gold).
    pub endpoints: Vec<Endpoint>,
    /// Deadline of a config step (`execute`, `launch`, `open`, uploads), seconds.
    pub step_timeout_secs: f64,
    /// Deadline of `initial_setup.py` and of `golden_patch.py` on the guest, seconds (OSWorld's
    /// `/execute` stops at 120 s; these run through `/run_bash_script` with this timeout).
    pub script_timeout_secs: f64,
    /// Deadline of `reward.py` on the guest, seconds.
    pub reward_timeout_secs: f64,
    /// How long an endpoint may take to answer `/terminal` after a revert, seconds.
    pub health_timeout_secs: f64,
    /// Deadline of a revert or re-create hook, seconds.
    pub hook_timeout_secs: f64,
    /// How long a round of the loop waits for two free endpoints (other tasks hold them), seconds.
    pub lease_wait_secs: f64,
}

impl Default for OsworldConfig {
    fn default() -> Self {
        Self {
            endpoints: Vec::new(),
            step_timeout_secs: 120.0,
            script_timeout_secs: 600.0,
            reward_timeout_secs: 600.0,
            health_timeout_secs: 120.0,
            hook_timeout_secs: 600.0,
            lease_wait_secs: 3600.0,
        }
    }
}

impl OsworldConfig {
    /// Checks the section; the error names the key.
    pub fn validate(&self) -> Result<(), String> {
        for (i, e) in self.endpoints.iter().enumerate() {
            if reqwest::Url::parse(&e.url)
                .map_or(true, |u| u.scheme() != "http" && u.scheme() != "https")
            {
                return Err(format!(
                    "osworld.endpoints[{i}].url {:?} is not an http(s) URL",
                    e.url
                ));
            }
        }
        for (k, v) in [
            ("step_timeout_secs", self.step_timeout_secs),
            ("script_timeout_secs", self.script_timeout_secs),
            ("reward_timeout_secs", self.reward_timeout_secs),
            ("health_timeout_secs", self.health_timeout_secs),
            ("hook_timeout_secs", self.hook_timeout_secs),
            ("lease_wait_secs", self.lease_wait_secs),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!(
                    "osworld.{k} must be a positive number of seconds, got {v}"
                ));
            }
        }
        Ok(())
    }
}

/// The endpoints and which are in use.
pub struct Pool {
    cfg: OsworldConfig,
    busy: Arc<Mutex<Vec<bool>>>,
}

/// An endpoint held for one environment; released when dropped.
pub struct Lease {
    /// The endpoint.
    pub endpoint: Endpoint,
    /// Its client.
    pub client: GuestClient,
    index: usize,
    busy: Arc<Mutex<Vec<bool>>>,
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Ok(mut b) = self.busy.lock() {
            b[self.index] = false;
        }
    }
}

/// Runs a hook command (trusted configuration, on this host) with its deadline.
fn run_hook(what: &str, cmd: &str, url: &str, timeout: Duration) -> Result<(), OsworldError> {
    let line = cmd.replace("{url}", url);
    let mut child = std::process::Command::new("/bin/sh")
        .arg("-c")
        .arg(&line)
        .env("TW_OSWORLD_URL", url)
        .stdin(std::process::Stdio::null())
        .spawn()
        .map_err(|e| OsworldError::Infra(format!("{what} hook {line:?}: {e}")))?;
    let deadline = std::time::Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(st)) if st.success() => return Ok(()),
            Ok(Some(st)) => {
                return Err(OsworldError::Infra(format!(
                    "{what} hook {line:?} failed ({st})"
                )))
            }
            Ok(None) if std::time::Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(OsworldError::Infra(format!(
                    "{what} hook {line:?} did not finish within {:.0} s",
                    timeout.as_secs_f64()
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => return Err(OsworldError::Infra(format!("{what} hook {line:?}: {e}"))),
        }
    }
}

impl Pool {
    /// A pool over `cfg.endpoints` (validated).
    pub fn new(cfg: OsworldConfig) -> Result<Pool, OsworldError> {
        cfg.validate().map_err(OsworldError::BadRequest)?;
        let n = cfg.endpoints.len();
        Ok(Pool {
            cfg,
            busy: Arc::new(Mutex::new(vec![false; n])),
        })
    }

    /// The settings.
    pub fn config(&self) -> &OsworldConfig {
        &self.cfg
    }

    /// Takes `n` free endpoints, each reverted and answering; fewer free is an error.
    pub fn acquire(&self, n: usize) -> Result<Vec<Lease>, OsworldError> {
        match self.reserve(n)? {
            Ok(picked) => self.lease(picked),
            Err((free, total)) => Err(OsworldError::Infra(format!(
                "the OSWorld pool has {free} free endpoint(s) of {total}, {n} needed (two per \
                 task: V_init and V_gold); add endpoints under [osworld] in tuplewright.toml"
            ))),
        }
    }

    /// [`Pool::acquire`], waiting up to `lease_wait_secs` while other tasks hold the endpoints
    /// (all `n` are taken at once, so two tasks never each hold half of what they need). More
    /// than the pool has is an error at once.
    pub fn acquire_wait(&self, n: usize) -> Result<Vec<Lease>, OsworldError> {
        let total = self.cfg.endpoints.len();
        if n > total {
            return self.acquire(n);
        }
        let deadline =
            std::time::Instant::now() + Duration::from_secs_f64(self.cfg.lease_wait_secs);
        loop {
            match self.reserve(n)? {
                Ok(picked) => return self.lease(picked),
                Err(_) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(200))
                }
                Err((free, total)) => {
                    return Err(OsworldError::Infra(format!(
                        "waited {:.0} s (osworld.lease_wait_secs) for {n} free endpoint(s); \
                         {free} of {total} are free",
                        self.cfg.lease_wait_secs
                    )))
                }
            }
        }
    }

    /// Marks `n` free endpoints busy, or says how many are free (of how many).
    fn reserve(&self, n: usize) -> Result<Result<Vec<usize>, (usize, usize)>, OsworldError> {
        let mut busy = self
            .busy
            .lock()
            .map_err(|_| OsworldError::Infra("the pool's lock is poisoned".into()))?;
        let free: Vec<usize> = (0..busy.len()).filter(|i| !busy[*i]).take(n).collect();
        if free.len() < n {
            return Ok(Err((free.len(), busy.len())));
        }
        for i in &free {
            busy[*i] = true;
        }
        Ok(Ok(free))
    }

    /// Leases the reserved endpoints `picked`, each prepared; any failure releases them all.
    fn lease(&self, picked: Vec<usize>) -> Result<Vec<Lease>, OsworldError> {
        let mut leases = Vec::new();
        for index in picked.iter().copied() {
            let endpoint = self.cfg.endpoints[index].clone();
            let client = match GuestClient::new(&endpoint.url) {
                Ok(c) => c,
                Err(e) => {
                    // The leases made so far release their endpoints when dropped; these not yet.
                    if let Ok(mut b) = self.busy.lock() {
                        for i in picked.iter().skip(leases.len()) {
                            b[*i] = false;
                        }
                    }
                    return Err(e);
                }
            };
            leases.push(Lease {
                client,
                endpoint,
                index,
                busy: self.busy.clone(),
            });
        }
        for l in &leases {
            self.prepare(l)?;
        }
        Ok(leases)
    }

    /// Brings a leased endpoint back to its clean snapshot (revert hook, health check,
    /// re-create when it stays down), e.g. before a second use within a round.
    pub fn refresh(&self, lease: &Lease) -> Result<(), OsworldError> {
        self.prepare(lease)
    }

    /// Revert, health-check, and re-create once when the check fails.
    fn prepare(&self, lease: &Lease) -> Result<(), OsworldError> {
        let hook = Duration::from_secs_f64(self.cfg.hook_timeout_secs);
        let health = Duration::from_secs_f64(self.cfg.health_timeout_secs);
        let url = &lease.endpoint.url;
        if !lease.endpoint.revert.is_empty() {
            run_hook("revert", &lease.endpoint.revert, url, hook)?;
        }
        match lease.client.wait_alive(health) {
            Ok(()) => Ok(()),
            Err(e) if lease.endpoint.recreate.is_empty() => {
                Err(OsworldError::Infra(format!("endpoint {url} is down: {e}")))
            }
            Err(_) => {
                run_hook("recreate", &lease.endpoint.recreate, url, hook)?;
                lease.client.wait_alive(health).map_err(|e| {
                    OsworldError::Infra(format!("endpoint {url} is down after re-creating it: {e}"))
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_endpoint_or_timeout_is_refused_naming_its_key() {
        let mut cfg: OsworldConfig =
            toml::from_str("endpoints = [{ url = \"ftp://x\" }]\nreward_timeout_secs = 30")
                .unwrap();
        assert_eq!(cfg.reward_timeout_secs, 30.0);
        let e = cfg.validate().unwrap_err();
        assert!(e.contains("osworld.endpoints[0].url"), "{e}");
        cfg.endpoints[0].url = "http://127.0.0.1:5000".into();
        cfg.health_timeout_secs = 0.0;
        let e = cfg.validate().unwrap_err();
        assert!(e.contains("osworld.health_timeout_secs"), "{e}");
        assert!(toml::from_str::<OsworldConfig>(
            "endpoints = [{ url = \"http://a\", revrt = \"x\" }]"
        )
        .is_err());
    }

    #[test]
    fn the_pool_hands_out_distinct_endpoints_and_refuses_when_too_few_are_free() {
        let pool = Pool::new(OsworldConfig {
            endpoints: vec![Endpoint {
                url: "http://127.0.0.1:9".into(),
                revert: "exit 3".into(),
                recreate: String::new(),
            }],
            ..Default::default()
        })
        .unwrap();
        let e = pool.acquire(2).err().unwrap().to_string();
        assert!(e.contains("two per task"), "{e}");
        // The revert hook fails: infrastructure, and the endpoint is free again afterwards.
        let e = pool.acquire(1).err().unwrap().to_string();
        assert!(e.starts_with("infrastructure failure: revert hook"), "{e}");
        assert!(pool
            .acquire(1)
            .err()
            .unwrap()
            .to_string()
            .contains("revert hook"));
    }
}
