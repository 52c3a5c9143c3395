//! OSWorld guests as the loop's environments: a round leases two endpoints of the `[osworld]`
//! pool at once (V_init and V_gold), each reverted by its hook and health-checked, and the
//! round's scripts — setup, golden patch, reward runs, the Discriminator's dry runs and the
//! probes — run on them through `/run_bash_script` with the loop's per-call timeouts. The home
//! a files-domain task works on is the guest's `/home/user`; its state for the store and the
//! probes' clearing run as small Python programs on the guest. A guest that is down or stops
//! answering is [`OsworldError::Infra`]: the harness records an infrastructure failure (the
//! task stays pending and is retried), never a score.
//!
//! The guest is its own sandbox: the script roles (setup, golden, reader) cannot be enforced
//! inside a VM, so the isolation is the VM's and the limit is the per-call deadline.

use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

use super::command::GUEST_HOME;
use super::pool::{Lease, OsworldConfig, Pool};
use super::run::run_script_on;
use super::OsworldError;
use crate::sandbox::{Captured, Limits, Outcome, Role, RunResult};

/// The loop's pool: every endpoint needs a revert hook (each round, and the noop probe, need a
/// guest in its clean snapshot) and a task needs two endpoints.
pub fn loop_pool(cfg: &OsworldConfig) -> Result<Arc<Pool>, OsworldError> {
    if cfg.endpoints.len() < 2 {
        return Err(OsworldError::BadRequest(format!(
            "environments = \"osworld\" needs at least two [[osworld.endpoints]] (V_init and \
             V_gold of a task); tuplewright.toml has {}",
            cfg.endpoints.len()
        )));
    }
    if let Some((i, e)) = cfg
        .endpoints
        .iter()
        .enumerate()
        .find(|(_, e)| e.revert.trim().is_empty())
    {
        return Err(OsworldError::BadRequest(format!(
            "osworld.endpoints[{i}] ({}) has no revert hook: the loop needs a guest in its clean \
             snapshot for every environment (V_init, V_gold, the noop probe); set revert = \
             \"<command restoring the VM's snapshot>\"",
            e.url
        )));
    }
    Ok(Arc::new(Pool::new(cfg.clone())?))
}

/// One leased guest acting as one environment of a round.
pub struct RemoteEnv {
    pool: Arc<Pool>,
    lease: Lease,
}

/// Marks the line a helper program prints its JSON result on.
const RESULT_MARK: &str = "TW_RESULT ";

/// Walks the home like `harness::snapshot::home_state` (sorted, depth first, symbolic links
/// skipped, at most 400 files, the text of UTF-8 files up to 16 KiB); `MODE` `list` reads sizes
/// only.
const HOME_PY: &str = r#"
import hashlib, json, os, sys
HOME, MODE, MAX_FILES, MAX_TEXT = "__HOME__", "__MODE__", 400, 16384
out = {}
def walk(d):
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return
    for n in names:
        if len(out) >= MAX_FILES:
            return
        p = os.path.join(d, n)
        if os.path.islink(p):
            continue
        if os.path.isdir(p):
            walk(p)
            continue
        if not os.path.isfile(p):
            continue
        rel = os.path.relpath(p, HOME)
        if MODE == "list":
            out[rel] = {"size": os.path.getsize(p)}
            continue
        try:
            with open(p, "rb") as f:
                b = f.read()
        except OSError as e:
            out[rel] = {"unreadable": str(e)}
            continue
        e = {"size": len(b), "sha256": hashlib.sha256(b).hexdigest()}
        if len(b) <= MAX_TEXT:
            try:
                e["text"] = b.decode("utf-8")
            except UnicodeDecodeError:
                pass
        out[rel] = e
walk(HOME)
print("TW_RESULT " + json.dumps(out))
"#;

/// Empties the home: every file and link (`files`), or every entry (`all`); prints the count.
const CLEAR_PY: &str = r#"
import json, os, shutil
HOME, MODE, n = "__HOME__", "__MODE__", 0
if MODE == "files":  # not the app: a clearing mode
    for root, dirs, files in os.walk(HOME):
        for d in dirs:
            if os.path.islink(os.path.join(root, d)):
                os.remove(os.path.join(root, d)); n += 1
        for f in files:
            os.remove(os.path.join(root, f)); n += 1
else:
    for e in os.listdir(HOME):
        p = os.path.join(HOME, e)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        else:
            os.remove(p)
        n += 1
print("TW_RESULT " + json.dumps(n))
"#;

impl RemoteEnv {
    /// Two guests at once (V_init, V_gold), waiting for free ones up to `lease_wait_secs`.
    pub fn lease_pair(pool: &Arc<Pool>) -> Result<(RemoteEnv, RemoteEnv), OsworldError> {
        let mut leases = pool.acquire_wait(2)?;
        let gold = leases.pop();
        let init = leases.pop();
        match (init, gold) {
            (Some(init), Some(gold)) => Ok((
                RemoteEnv {
                    pool: pool.clone(),
                    lease: init,
                },
                RemoteEnv {
                    pool: pool.clone(),
                    lease: gold,
                },
            )),
            _ => Err(OsworldError::Infra("the pool leased fewer than two".into())),
        }
    }

    /// One guest (e.g. for a rollout), waiting for a free one.
    pub fn lease_one(pool: &Arc<Pool>) -> Result<RemoteEnv, OsworldError> {
        let lease = pool
            .acquire_wait(1)?
            .pop()
            .ok_or_else(|| OsworldError::Infra("the pool leased nothing".into()))?;
        Ok(RemoteEnv {
            pool: pool.clone(),
            lease,
        })
    }

    /// The guest's URL.
    pub fn url(&self) -> &str {
        self.lease.client.base()
    }

    /// Its client.
    pub fn client(&self) -> &super::GuestClient {
        &self.lease.client
    }

    /// Back to the clean snapshot (revert hook, health check) for a second use.
    pub fn refresh(&self) -> Result<(), OsworldError> {
        self.pool.refresh(&self.lease)
    }

    /// Runs `source` as `name` on the guest within `limits.wall_seconds`. The guest stopping it
    /// at its deadline is the script's timeout (like the sandbox's); no answer is infrastructure.
    pub fn run(
        &self,
        role: Role,
        name: &str,
        source: &str,
        limits: &Limits,
    ) -> Result<RunResult, OsworldError> {
        let started = Instant::now();
        let (outcome, out, err) =
            match run_script_on(&self.lease.client, name, source, limits.wall_seconds) {
                Ok((0, out, err)) => (Outcome::Ok, out, err),
                Ok((code, out, err)) => (Outcome::ExitCode { code }, out, err),
                Err(OsworldError::Infra(m)) if m.ends_with("(the guest stopped the script)") => (
                    Outcome::Timeout {
                        after_seconds: limits.wall_seconds,
                    },
                    String::new(),
                    m,
                ),
                Err(e) => return Err(e),
            };
        let keep = limits.capture_bytes.max(4096);
        let captured = |text: String| Captured {
            total_bytes: text.len() as u64,
            truncated: text.chars().count() > keep,
            text: tuplewright_models::providers::head_tail(&text, keep),
        };
        Ok(RunResult {
            outcome,
            role,
            stdout: captured(out),
            stderr: captured(err),
            wall_seconds: started.elapsed().as_secs_f64(),
            refused: Vec::new(),
            forwarded: 0,
            sandbox_pid: None,
            unsandboxed: false,
            python: "python3".into(),
            notes: vec![format!("ran on the OSWorld guest {}", self.url())],
            infra_failure: None,
        })
    }

    /// Runs a helper program of ours and parses its result line.
    fn helper(&self, name: &str, template: &str, mode: &str) -> Result<Value, OsworldError> {
        let source = template
            .replace("__HOME__", GUEST_HOME)
            .replace("__MODE__", mode);
        let secs = self.pool.config().step_timeout_secs;
        let (rc, out, err) = run_script_on(&self.lease.client, name, &source, secs)?;
        let line = out.lines().rev().find_map(|l| l.strip_prefix(RESULT_MARK));
        match (rc, line) {
            (0, Some(json)) => serde_json::from_str(json).map_err(|e| {
                OsworldError::Infra(format!("{name} on {}: bad result: {e}", self.url()))
            }),
            _ => Err(OsworldError::Infra(format!(
                "{name} on {} exited {rc}: {}",
                self.url(),
                crate::sandbox::tail(&err, 3)
            ))),
        }
    }

    /// The guest home as `{relative path: {size, sha256, text?}}` (the local homes' shape).
    pub fn home_state(&self) -> Result<Value, OsworldError> {
        self.helper("tw_home_state.py", HOME_PY, "state")
    }

    /// The guest home's files as `[{path: /home/user/…, size}]`.
    pub fn list_home(&self) -> Result<Value, OsworldError> {
        let map = self.helper("tw_list_home.py", HOME_PY, "list")?;
        let files = map
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(rel, f)| {
                        serde_json::json!({"path": format!("{GUEST_HOME}/{rel}"),
                                           "size": f["size"]})
                    })
                    .collect()
            })
            .unwrap_or_default();
        Ok(Value::Array(files))
    }

    /// Deletes the home's files and links (`files_only`) or everything in it; returns how many.
    pub fn clear_home(&self, files_only: bool) -> Result<usize, OsworldError> {
        let mode = if files_only { "files" } else { "all" }; // not the app: a guest mode
        let n = self.helper("tw_clear_home.py", CLEAR_PY, mode)?;
        Ok(n.as_u64().unwrap_or(0) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::osworld::Endpoint;
    use std::io::{Read, Write};

    /// A loopback server answering every request `200 {}` (a guest's `/terminal`, nothing more).
    fn answering() -> String {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", l.local_addr().unwrap());
        std::thread::spawn(move || {
            for mut c in l.incoming().flatten() {
                let mut buf = [0u8; 4096];
                let _ = c.read(&mut buf);
                let _ = c.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
            }
        });
        url
    }

    fn endpoint(url: &str, revert: &str) -> Endpoint {
        Endpoint {
            url: url.into(),
            revert: revert.into(),
            recreate: String::new(),
        }
    }

    #[test]
    fn the_loop_pool_needs_two_endpoints_each_with_a_revert_hook() {
        let one = OsworldConfig {
            endpoints: vec![endpoint("http://127.0.0.1:9", "true")],
            ..Default::default()
        };
        let e = loop_pool(&one).err().unwrap().to_string();
        assert!(e.contains("at least two"), "{e}");
        let unhooked = OsworldConfig {
            endpoints: vec![
                endpoint("http://127.0.0.1:9", "true"),
                endpoint("http://127.0.0.1:10", " "),
            ],
            ..Default::default()
        };
        let e = loop_pool(&unhooked).err().unwrap().to_string();
        assert!(
            e.contains("osworld.endpoints[1] (http://127.0.0.1:10) has no revert hook"),
            "{e}"
        );
    }

    #[test]
    fn a_pair_waits_for_both_endpoints_and_never_takes_half() {
        let (u1, u2) = (answering(), answering());
        let pool = loop_pool(&OsworldConfig {
            endpoints: vec![endpoint(&u1, "true"), endpoint(&u2, "true")],
            lease_wait_secs: 120.0,
            ..Default::default()
        })
        .unwrap();
        let held = RemoteEnv::lease_one(&pool).unwrap();
        let waiter = {
            let pool = pool.clone();
            std::thread::spawn(move || {
                RemoteEnv::lease_pair(&pool)
                    .map(|(a, b)| (a.url().to_string(), b.url().to_string()))
            })
        };
        // The pair is all or nothing: the other endpoint stays free for anyone while one is held.
        let other = pool.acquire(1).unwrap();
        assert_ne!(other[0].endpoint.url, held.url());
        drop(other);
        drop(held);
        let (a, b) = waiter.join().unwrap().unwrap();
        let mut got = vec![a, b];
        got.sort();
        let mut want = vec![u1, u2];
        want.sort();
        assert_eq!(got, want);
    }
}
