//! The checks of `apps check` that run programs: the app's state API (or its desktop home), the
//! agreement loop on every shipped task, and ui-oracle / `noop --screen` on a sample of them
//! through the screen. Each runs this binary as a child in a private working directory with a
//! private store, as a user would.

use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::Context;
use serde_json::Value;

use crate::apps::check::Failure;
use crate::apps::Pack;
use crate::engine::store::{Store, TaskFilter};

/// Kills the child it holds when dropped (a state server started for the check).
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn me(dir: &Path) -> anyhow::Result<Command> {
    let exe = std::env::current_exe().context("locating this binary")?;
    let mut cmd = Command::new(exe);
    let packs = crate::apps::local::loaded_dirs();
    if !packs.is_empty() {
        let joined = std::env::join_paths(packs).context("joining the local packs' folders")?;
        cmd.env(crate::apps::local::PACKS_ENV, joined);
    }
    cmd.current_dir(dir)
        .arg("--store")
        .arg(dir.join("check.db"));
    Ok(cmd)
}

/// Runs the program checks of `pack`; `sample` tasks get the screen checks.
pub fn run_checks(pack: &Pack, sample: usize) -> anyhow::Result<Vec<Failure>> {
    let dir = tempfile::Builder::new()
        .prefix("tuplewright-apps-check-")
        .tempdir()
        .context("creating the check's directory")?;
    let mut out = Vec::new();
    if pack.is_desktop() {
        desktop_home(pack, dir.path(), &mut out);
    } else {
        state_api(pack, dir.path(), &mut out)?;
    }
    let ids = loop_accepts(pack, dir.path(), &mut out)?;
    if out.is_empty() {
        let picked = spread(&ids, sample);
        rollout(pack, dir.path(), &picked, "ui-oracle", 1.0, &mut out)?;
        rollout(pack, dir.path(), &picked, "noop", 0.0, &mut out)?;
    }
    Ok(out)
}

fn desktop_home(pack: &Pack, dir: &Path, out: &mut Vec<Failure>) {
    let home = dir.join("home");
    match crate::engine::env::files::provision_home_for(&home, &[pack.name().to_string()]) {
        Ok(n) if n == pack.app.home().len() => {}
        Ok(n) => out.push(Failure::new(
            pack,
            "state-api",
            "home/",
            format!(
                "provisioned {n} files, the pack lists {}",
                pack.app.home().len()
            ),
        )),
        Err(e) => out.push(Failure::new(pack, "state-api", "home/", e.to_string())),
    }
}

/// Serves the app, then: a fresh session is the seed, `set_current` of a changed state is what
/// `/go` answers next, an unknown action is refused.
fn state_api(pack: &Pack, dir: &Path, out: &mut Vec<Failure>) -> anyhow::Result<()> {
    let mut cmd = me(dir)?;
    cmd.args(["env", "serve", "--app", pack.name(), "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = Guard(cmd.spawn().context("starting env serve")?);
    let stdout = child.0.stdout.take().context("env serve's stdout")?;
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .context("reading env serve's address")?;
    let url = serde_json::from_str::<Value>(&line)
        .ok()
        .and_then(|v| v["url"].as_str().map(String::from))
        .with_context(|| format!("env serve printed no address: {line:?}"))?;
    let fail = |out: &mut Vec<Failure>, d: String| {
        out.push(Failure::new(pack, "state-api", "manifest.toml", d))
    };
    let seed: Value = serde_json::from_str(pack.app.seed_text().unwrap_or("{}"))?;
    let agent = ureq::Agent::new_with_defaults();
    let go = |sid: &str| -> anyhow::Result<Value> {
        let mut resp = agent.get(&format!("{url}/go?sid={sid}")).call()?;
        Ok(resp.body_mut().read_json::<Value>()?["current_state"].clone())
    };
    if go("tw-check")? != seed {
        fail(
            out,
            "a fresh session's /go is not the pack's seed.json".into(),
        );
    }
    let mut changed = seed.clone();
    if let Some(items) = changed
        .as_object_mut()
        .and_then(|o| o.values_mut().find_map(Value::as_array_mut))
    {
        items.pop();
    }
    let post = |action: &str, state: &Value| -> anyhow::Result<Value> {
        let body = serde_json::json!({"action": action, "state": state});
        let mut resp = agent
            .post(&format!("{url}/post?sid=tw-check"))
            .config()
            .http_status_as_error(false)
            .build()
            .send_json(&body)?;
        Ok(resp.body_mut().read_json::<Value>().unwrap_or(Value::Null))
    };
    if post("set_current", &changed)?["success"] != Value::Bool(true) {
        fail(
            out,
            "set_current of the seed less one record was refused".into(),
        );
    } else if go("tw-check")? != changed {
        fail(
            out,
            "/go after set_current does not answer the state set".into(),
        );
    }
    if post("no_such_action", &seed)?["success"] == Value::Bool(true) {
        fail(out, "an unknown action was accepted".into());
    }
    Ok(())
}

/// The loop on every shipped task with the embedded default; returns the accepted ids.
fn loop_accepts(pack: &Pack, dir: &Path, out: &mut Vec<Failure>) -> anyhow::Result<Vec<String>> {
    let tasks = dir.join("tasks.json");
    std::fs::write(&tasks, pack.app.tasks_text())?;
    let mut cmd = me(dir)?;
    cmd.args(["--no-tui", "run", "--jobs", "2", "--out"])
        .arg(dir.join("out"))
        .arg(&tasks)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let run = cmd.output().context("running the loop")?;
    let store = Store::open(&dir.join("check.db"), Duration::from_secs(30))?;
    let mut accepted = Vec::new();
    for t in store.list_tasks(&TaskFilter::default())? {
        if t.status == "loop_accepted" {
            accepted.push(t.task.task_id);
        } else {
            out.push(Failure::new(
                pack,
                "loop",
                "tasks.json",
                format!(
                    "task {}: {} (not accepted by the loop)",
                    t.task.task_id, t.status
                ),
            ));
        }
    }
    if !run.status.success() && out.is_empty() {
        let err = String::from_utf8_lossy(&run.stderr);
        let tail: String = err.lines().rev().take(5).collect::<Vec<_>>().join(" | ");
        out.push(Failure::new(
            pack,
            "loop",
            "tasks.json",
            format!("run failed: {tail}"),
        ));
    }
    Ok(accepted)
}

/// `n` ids evenly spread over `ids` (all of them when there are fewer).
fn spread(ids: &[String], n: usize) -> Vec<String> {
    if ids.len() <= n {
        return ids.to_vec();
    }
    (0..n)
        .map(|i| ids[i * (ids.len() - 1) / (n - 1).max(1)].clone())
        .collect()
}

/// Rolls `policy` out on `ids` through the screen and checks each reward is `want`.
fn rollout(
    pack: &Pack,
    dir: &Path,
    ids: &[String],
    policy: &str,
    want: f64,
    out: &mut Vec<Failure>,
) -> anyhow::Result<()> {
    let check = if policy == "noop" {
        "noop-screen"
    } else {
        "ui-oracle"
    };
    let file = if pack.is_desktop() || policy == "noop" {
        "mod.rs"
    } else {
        "ui/planner.rs"
    };
    let mut cmd = me(dir)?;
    cmd.args([
        "--no-tui", "rollout", "--policy", policy, "--json", "--tasks",
    ])
    .args(ids)
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    if policy == "noop" {
        cmd.arg("--screen");
    }
    let run = cmd.output().with_context(|| format!("running {check}"))?;
    let store = Store::open(&dir.join("check.db"), Duration::from_secs(30))?;
    for id in ids {
        let name = if policy == "noop" {
            "noop-screen"
        } else {
            policy
        };
        let rewards: Vec<Option<f64>> = store
            .rollouts(id)?
            .into_iter()
            .filter(|r| r.model == name)
            .map(|r| r.reward)
            .collect();
        if rewards.is_empty() || rewards.iter().any(|r| *r != Some(want)) {
            let err = String::from_utf8_lossy(&run.stderr);
            out.push(Failure::new(
                pack,
                check,
                file,
                format!(
                    "task {id}: rewards {rewards:?}, expected {want} ({})",
                    err.trim()
                ),
            ));
        }
    }
    Ok(())
}
