//! Helpers shared by the tests of the headless `run` (tests/run_cli.rs, tests/run_durable.rs).
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use tuplewright::engine::store::Store;

/// The tuplewright binary.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tuplewright"))
}

/// A small task file: the first `n` team-chat tasks shipped in its pack.
pub fn task_file(dir: &Path, n: usize) -> std::path::PathBuf {
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/src/apps/team_chat/tasks.json");
    let text = std::fs::read_to_string(src).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let list = v
        .as_array()
        .cloned()
        .or_else(|| v["tasks"].as_array().cloned())
        .unwrap();
    let out = dir.join("tasks.json");
    let subset: Vec<_> = list.into_iter().take(n).collect();
    std::fs::write(&out, serde_json::to_string(&subset).unwrap()).unwrap();
    out
}

/// `tuplewright --no-tui --store DB run TASKS EXTRA…`, ready to run or spawn.
pub fn run(db: &Path, tasks: &Path, extra: &[&str]) -> Command {
    let mut c = bin();
    c.args(["--no-tui", "--store"])
        .arg(db)
        .arg("run")
        .arg(tasks)
        .args(extra);
    c
}

pub fn open(db: &Path) -> Store {
    Store::open(db, Duration::from_secs(10)).unwrap()
}

/// Writes `dir/tw.toml` sending sandbox scratch directories to a private `dir/scratch/` (so
/// sweeping them is observable and never touches another test's), plus `extra` TOML; returns
/// the config and the scratch directory.
pub fn private_config(dir: &Path, extra: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let scratch = dir.join("scratch");
    std::fs::create_dir_all(&scratch).unwrap();
    let cfg = dir.join("tw.toml");
    std::fs::write(
        &cfg,
        format!(
            "[sandbox]\nrun_dir_parent = {:?}\n{extra}",
            scratch.to_str().unwrap()
        ),
    )
    .unwrap();
    (cfg, scratch)
}
