//! Desktop applications with the real programs (issue #31): one test binary, one module per
//! application (calc, chrome, code_editor, cross = two applications on one screen, gimp, office = Writer and Impress, pdf = Evince, thunderbird, vlc), plus the runtime's own checks and the ready gate's document check (documents). Everything
//! runs the Debian packages `.ci/setup` installs (LibreOffice with its GTK3 plugin, python3-pyatspi,
//! dbus); nothing is mocked. The slow end-to-end part (ui-oracle through the screen) runs on a
//! sample of the shipped tasks; `docs/desktop-apps.md` quotes the run over all of them.

mod calc;
mod chrome;
mod code_editor;
mod cross;
mod documents;
mod gimp;
mod office;
mod osworld_face;
mod pdf;
mod pool;
mod runtime;
mod support;
mod thunderbird;
mod vlc;

use std::path::Path;
use std::process::Command;

/// The tuplewright binary.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tuplewright"))
}

/// Runs the loop on `tasks` (a tasks.json text) in `dir` (store `s.db`); returns its stderr.
pub fn run_loop(dir: &Path, tasks: &str) -> String {
    let file = dir.join("tasks.json");
    std::fs::write(&file, tasks).unwrap();
    let out = bin()
        .current_dir(dir)
        .args([
            "--no-tui", "--store", "s.db", "run", "--jobs", "2", "--out", "out",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `rollout --policy <policy>` on `ids`; returns each id's reward (None = no score, an
/// infrastructure failure) with the run's stderr.
pub fn rollout(dir: &Path, policy: &[&str], ids: &[&str]) -> (Vec<(String, Option<f64>)>, String) {
    let out = bin()
        .current_dir(dir)
        .args([
            "--no-tui", "--store", "s.db", "rollout", "--json", "--policy",
        ])
        .args(policy)
        .arg("--tasks")
        .args(ids)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("rollout printed no JSON: {err}"));
    let rewards = json
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let r = t["trials"][0]["reward"].as_f64();
            (t["task_id"].as_str().unwrap().to_string(), r)
        })
        .collect();
    // The trials as printed (an infrastructure failure's reason is there, not on stderr).
    let err = format!("{err}\ntrials: {json:#}");
    (rewards, err)
}
