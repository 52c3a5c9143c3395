//! Stores holding shipped tasks built by the real loop (`tuplewright run` as a subprocess), for
//! the tests that roll policies out on them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

/// Runs the `tuplewright` binary on `store` with `args`: (exit code, stdout, stderr).
pub fn tw(store: &Path, args: &[&str]) -> (i32, String, String) {
    let out = assert_cmd::Command::cargo_bin("tuplewright")
        .unwrap()
        .args(["--no-tui", "--store"])
        .arg(store)
        .args(args)
        .timeout(Duration::from_secs(600))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The shipped task `id` of the task file labelled `<file>` without `.json` (an app's pack's
/// tasks.json, or `assets/tasks/cross.json`).
pub fn shipped_task(file: &str, id: &str) -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let label = file.trim_end_matches(".json");
    let (_, path) = tuplewright::apps::shipped_task_files(root)
        .into_iter()
        .find(|(l, _)| l == label)
        .unwrap();
    let all: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let task: Vec<Value> = all["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["task_id"] == id)
        .cloned()
        .collect();
    assert_eq!(task.len(), 1, "{id} is shipped");
    task.into_iter().next().unwrap()
}

/// A store under `dir` holding the shipped task `id` of `assets/tasks/<file>`, accepted by the
/// loop.
pub fn store_of(dir: &Path, file: &str, id: &str) -> PathBuf {
    let task = shipped_task(file, id);
    let file = dir.join("tasks.json");
    std::fs::write(&file, serde_json::json!({"tasks": [task]}).to_string()).unwrap();
    let store = dir.join("s.db");
    let (code, _, err) = tw(
        &store,
        &["run", "--jobs", "1", "--no-export", file.to_str().unwrap()],
    );
    assert_eq!(code, 0, "the loop accepts {id}: {err}");
    store
}

/// Whether record `rec` holds `want` in `field` (`field+`: holds every listed item).
pub fn holds(rec: &Value, field: &str, want: &Value) -> bool {
    match field.strip_suffix('+') {
        Some(name) => {
            let wanted = want
                .as_array()
                .cloned()
                .unwrap_or_else(|| vec![want.clone()]);
            wanted
                .iter()
                .all(|w| rec[name].as_array().is_some_and(|a| a.contains(w)))
        }
        None => rec.get(field).unwrap_or(&Value::Null) == want,
    }
}

/// The brief a planner sees for shipped task `t` of `app`.
pub fn brief_of(app: &str, t: &Value) -> tuplewright::engine::agents::TaskBrief {
    tuplewright::engine::agents::TaskBrief {
        task_id: t["task_id"].as_str().unwrap_or_default().into(),
        instruction: String::new(),
        context: String::new(),
        difficulty: String::new(),
        apps: vec![app.into()],
        skills: Vec::new(),
        structured: t.clone(),
    }
}
