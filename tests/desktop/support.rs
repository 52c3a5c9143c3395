//! Running a pack's rendered scripts on a temporary home with the script venv's Python.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use serde_json::Value;
use tuplewright::engine::agents::scripted::render;

/// The script venv's interpreter (what the sandbox runs scripts with).
pub const PYTHON: &str = "/opt/tuplewright/venv/bin/python3";

/// The shipped tasks of `app`.
pub fn tasks(app: &str) -> Vec<Value> {
    let pack = tuplewright::apps::get(app).expect("pack registered");
    let doc: Value = serde_json::from_str(pack.app.tasks_text()).expect("tasks.json parses");
    doc["tasks"].as_array().expect("tasks array").clone()
}

/// Every task when `TW_DESKTOP_FULL` is set, else an even sample of `n` (the agreement loop and
/// `apps check` run every shipped task; this binary must stay cheap in CI).
pub fn sample(all: &[Value], n: usize) -> Vec<Value> {
    if std::env::var_os("TW_DESKTOP_FULL").is_some() || all.len() <= n {
        return all.to_vec();
    }
    (0..n).map(|i| all[i * all.len() / n].clone()).collect()
}

/// A directory of no-op launchers (`geany`, `chromium`, `thunderbird`, `vlc`) put first on PATH, so a setup's
/// `Popen` succeeds without starting a program.
pub fn quiet_launchers(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for name in ["geany", "chromium", "code", "thunderbird", "vlc"] {
        let p = bin.join(name);
        std::fs::write(&p, "#!/bin/sh\nexit 0\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

/// Renders `role` (initial_setup / golden_patch / reward) of `task`'s template as the scripted
/// agent does, with `/home/user` pointing at `home`, runs it, and returns its stdout.
pub fn run(task: &Value, role: &str, home: &Path, bin: &Path) -> Result<String, String> {
    let app = task["domain"].as_str().unwrap();
    let name = task["template"].as_str().unwrap();
    let tpl = tuplewright::apps::template(app, name).expect("template embedded");
    let body = match role {
        "initial_setup" => tpl.1,
        "golden_patch" => tpl.2,
        _ => tpl.3,
    };
    let script = render::script(role, &format!("{app}/{name}"), &task["slots"], body)
        .replace("/home/user", &home.display().to_string());
    let out = Command::new(PYTHON)
        .arg("-c")
        .arg(&script)
        .env_clear()
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("HOME", home)
        .output()
        .map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    if !out.status.success() {
        return Err(format!(
            "{role} of {} failed: {}",
            task["task_id"],
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(stdout)
}

/// The `REWARD:` value a reward printed.
pub fn reward(stdout: &str) -> f64 {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("REWARD: "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no REWARD line in {stdout}"))
}

/// r(init) and r(gold) of `task` on two fresh homes.
pub fn endpoints(task: &Value) -> (f64, f64) {
    let tmp = tempfile::tempdir().unwrap();
    let bin = quiet_launchers(tmp.path());
    let init = tmp.path().join("init");
    let gold = tmp.path().join("gold");
    for h in [&init, &gold] {
        std::fs::create_dir_all(h).unwrap();
        run(task, "initial_setup", h, &bin).unwrap();
    }
    run(task, "golden_patch", &gold, &bin).unwrap();
    let r_init = reward(&run(task, "reward", &init, &bin).unwrap());
    let r_gold = reward(&run(task, "reward", &gold, &bin).unwrap());
    (r_init, r_gold)
}

/// The reward of `task` on the pack's seed home with nothing set up (the noop probe's state).
pub fn noop_reward(task: &Value) -> f64 {
    let app = task["domain"].as_str().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let bin = quiet_launchers(tmp.path());
    let home = tmp.path().join("home");
    for (rel, data) in tuplewright::apps::get(app).unwrap().app.home() {
        let p = home.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, data).unwrap();
    }
    reward(&run(task, "reward", &home, &bin).unwrap())
}

/// Runs the pack's state reader on `home` and parses its one JSON object.
pub fn read_state(app: &str, home: &Path) -> Value {
    let reader = tuplewright::apps::get(app)
        .unwrap()
        .app
        .state_reader()
        .expect("state.py");
    let out = Command::new(PYTHON)
        .arg("-c")
        .arg(reader)
        .arg(home)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// A display number in `from..from + 60` with no X socket yet (each test's own Xvfb; tests that
/// run at once pick from different ranges).
pub fn free_display(from: u32) -> u32 {
    (from..from + 60)
        .find(|n| !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists())
        .expect("a free display number")
}

/// A child process killed and reaped when the guard drops.
pub struct Kill(pub Child);
impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for `ok` (polling every 200 ms), failing with `what` after `deadline`.
pub fn wait_until(what: &str, deadline: Duration, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}
