//! A tuple on OSWorld guests: on V_init the bundle's `config` steps (which run
//! `initial_setup.py`), then `reward.py`; on V_gold the same steps, `golden_patch.py`, then
//! `reward.py` — each script through `/run_bash_script` with the configured timeout, the reward
//! taken from the **last** `REWARD:` line of its standard output. A bundle verifies when the
//! setup and the golden patch succeed, V_init scores 0 and V_gold scores 1. An endpoint down or
//! a deadline passed is an infrastructure failure: the verification has no verdict, never a
//! low score.

use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::client::GuestClient;
use super::pool::{OsworldConfig, Pool};
use super::steps::{run_steps, StepCtx};
use super::OsworldError;
use crate::sandbox::parse_reward;
use tuplewright_base::store::Scripts;
use tuplewright_records::bundle::layout::{GOLDEN_PY, REWARD_PY, SETUP_PY};

/// What one endpoint did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct EndpointRun {
    /// The guest.
    pub url: String,
    /// `init` or `gold`.
    pub endpoint: String,
    /// Config steps run.
    pub steps: usize,
    /// The reward (None: the reward script failed or printed no valid last `REWARD:` line).
    pub reward: Option<f64>,
    /// Why there is no reward, or why the setup or golden patch failed (a task failure).
    pub failure: Option<String>,
    /// The reward script's standard output (tail).
    pub reward_stdout: String,
    /// Its standard error (tail).
    pub reward_stderr: String,
}

/// A bundle verified on two guests.
#[derive(Debug, Clone, Serialize)]
pub struct RemoteVerification {
    /// The task.
    pub task_id: String,
    /// True iff setup and golden patch ran, V_init scored 0 and V_gold 1.
    pub ok: bool,
    /// The checks that failed (`setup`, `golden`, `reward(V_init)=0`, `reward(V_gold)=1`).
    pub failing: Vec<String>,
    /// V_init.
    pub init: EndpointRun,
    /// V_gold.
    pub gold: EndpointRun,
}

/// Separates the script's stdout from its stderr in `/run_bash_script`'s merged output.
const STDERR_MARK: &str = "__tuplewright_stderr_follows__";

/// A bash script that writes `source` to a temporary file in the guest, runs it with python3 from
/// the home, and prints its stderr after a marker line (so a warning on stderr can never come
/// after the `REWARD:` line); exits with the script's code.
pub fn script_runner(name: &str, source: &str) -> String {
    let tag = format!("TW_EOF_{:016x}", rand::random::<u64>());
    format!(
        "d=$(mktemp -d /tmp/tw-osworld-XXXXXX) || exit 90\n\
         cat > \"$d/{name}\" <<'{tag}'\n{source}\n{tag}\n\
         cd ~ && python3 \"$d/{name}\" 2>\"$d/stderr\"; rc=$?\n\
         echo; echo {STDERR_MARK}; cat \"$d/stderr\"; rm -rf \"$d\"; exit $rc\n"
    )
}

/// Runs `source` on the guest; returns (exit code, stdout, stderr).
pub fn run_script_on(
    client: &GuestClient,
    name: &str,
    source: &str,
    timeout_secs: f64,
) -> Result<(i32, String, String), OsworldError> {
    let r = client.run_bash(&script_runner(name, source), timeout_secs, Some("~"))?;
    let (out, err) = match r.output.rsplit_once(&format!("\n{STDERR_MARK}\n")) {
        Some((o, e)) => (o.strip_suffix('\n').unwrap_or(o).to_string(), e.to_string()),
        None => (r.output.clone(), String::new()),
    };
    Ok((r.returncode, out, err))
}

fn tail(text: &str, n: usize) -> String {
    crate::sandbox::tail(text, n)
}

/// Runs the tuple on one guest: config steps, the golden patch when `gold`, then the reward.
pub fn run_endpoint(
    client: &GuestClient,
    cfg: &OsworldConfig,
    bundle_dir: &Path,
    config: &Value,
    scripts: &Scripts,
    gold: bool,
) -> Result<EndpointRun, OsworldError> {
    let mut run = EndpointRun {
        url: client.base().to_string(),
        endpoint: if gold { "gold" } else { "init" }.into(),
        ..Default::default()
    };
    let step_timeout = std::time::Duration::from_secs_f64(cfg.step_timeout_secs);
    let places_setup = config.to_string().contains(&format!("/{SETUP_PY}\""));
    if let (false, Some(setup)) = (places_setup, &scripts.setup) {
        // The loose variant runs `python3 initial_setup.py` from the home without downloading it.
        client.upload(
            &format!("/home/user/{SETUP_PY}"),
            setup.clone().into_bytes(),
            step_timeout,
        )?;
    }
    let ctx = StepCtx {
        client,
        bundle_dir,
        step_timeout,
        script_timeout_secs: cfg.script_timeout_secs,
        screen: client.screen_size()?,
    };
    match run_steps(&ctx, config) {
        Ok(n) => run.steps = n,
        Err(OsworldError::Task(m)) => {
            run.failure = Some(format!("setup: {m}"));
            return Ok(run);
        }
        Err(e) => return Err(e),
    }
    if gold {
        let golden = scripts
            .golden
            .as_deref()
            .ok_or_else(|| OsworldError::Task(format!("the bundle has no {GOLDEN_PY}")))?;
        let (rc, _, err) = run_script_on(client, GOLDEN_PY, golden, cfg.script_timeout_secs)?;
        if rc != 0 {
            run.failure = Some(format!(
                "golden: {GOLDEN_PY} exited {rc}: {}",
                tail(&err, 3)
            ));
            return Ok(run);
        }
    }
    let reward = scripts
        .reward
        .as_deref()
        .ok_or_else(|| OsworldError::Task(format!("the bundle has no {REWARD_PY}")))?;
    let (rc, out, err) = run_script_on(client, REWARD_PY, reward, cfg.reward_timeout_secs)?;
    run.reward_stdout = tuplewright_models::providers::head_tail(&out, 4000);
    run.reward_stderr = tuplewright_models::providers::head_tail(&err, 2000);
    if rc != 0 {
        run.failure = Some(format!(
            "reward: {REWARD_PY} exited {rc}: {}",
            tail(&err, 3)
        ));
        return Ok(run);
    }
    match parse_reward(&out) {
        Ok(rep) => run.reward = Some(rep.score),
        Err(e) => run.failure = Some(format!("reward: {e}")),
    }
    Ok(run)
}

/// Verifies the bundle in `dir` on two endpoints of `pool` (V_init and V_gold, at once).
pub fn verify_bundle(pool: &Pool, dir: &Path) -> Result<RemoteVerification, OsworldError> {
    let bundle = tuplewright_records::bundle::public::read_bundle(dir)
        .map_err(|p| OsworldError::BadRequest(format!("{}: {p}", dir.display())))?;
    let config = bundle
        .task
        .original_json
        .pointer("/config.json/config")
        .cloned()
        .ok_or_else(|| {
            OsworldError::BadRequest(format!("{}: config.json has no config list", dir.display()))
        })?;
    let scripts = &bundle.round.scripts;
    let leases = pool.acquire(2)?;
    let cfg = pool.config();
    let (init, gold) = std::thread::scope(|s| {
        let init = s.spawn(|| run_endpoint(&leases[0].client, cfg, dir, &config, scripts, false));
        let gold = run_endpoint(&leases[1].client, cfg, dir, &config, scripts, true);
        let init = init
            .join()
            .unwrap_or_else(|_| Err(OsworldError::Infra("the V_init worker panicked".into())));
        (init, gold)
    });
    let (init, gold) = (init?, gold?);
    let mut failing = Vec::new();
    let failed = |r: &EndpointRun, stage: &str| {
        r.failure
            .as_deref()
            .is_some_and(|f| f.starts_with(&format!("{stage}:")))
    };
    if failed(&init, "setup") || failed(&gold, "setup") {
        failing.push("setup".to_string());
    }
    if failed(&gold, "golden") {
        failing.push("golden".to_string());
    }
    if !failed(&init, "setup") && init.reward != Some(0.0) {
        failing.push("reward(V_init)=0".to_string());
    }
    if !failed(&gold, "setup") && !failed(&gold, "golden") && gold.reward != Some(1.0) {
        failing.push("reward(V_gold)=1".to_string());
    }
    Ok(RemoteVerification {
        task_id: bundle.task.task_id.clone(),
        ok: failing.is_empty(),
        failing,
        init,
        gold,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runner_keeps_the_source_verbatim_behind_a_fresh_tag() {
        let src = "print('REWARD: 1')\nx = \"$HOME `id`\"";
        let a = script_runner("reward.py", src);
        assert!(a.contains(src));
        let tag = a
            .lines()
            .nth(1)
            .unwrap()
            .rsplit("<<'")
            .next()
            .unwrap()
            .trim_end_matches('\'');
        assert!(tag.starts_with("TW_EOF_"));
        assert_ne!(a, script_runner("reward.py", src), "the tag is random");
    }
}
